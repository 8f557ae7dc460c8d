package cli

import (
	"testing"

	"github.com/coordcheck/coordcheck/internal/browsertest"
)

// TestMain ends the browser the browser tests share.
func TestMain(m *testing.M) { browsertest.Main(m) }
