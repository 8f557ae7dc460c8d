package tokenring

import (
	"testing"

	"github.com/coordcheck/coordcheck/checker/rapidcheck"
)

// Random schedules drawn by rapid keep every safety property.
func TestRapidSchedules(t *testing.T) {
	rapidcheck.Check(t, spec(6, 3), rapidcheck.Options{})
}
