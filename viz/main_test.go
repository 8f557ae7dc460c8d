package viz_test

import (
	"os"
	"testing"

	"github.com/coordcheck/coordcheck/internal/browsertest"
)

// TestMain ends the browser the browser tests share.
func TestMain(m *testing.M) {
	code := m.Run()
	browsertest.Close()
	os.Exit(code)
}
