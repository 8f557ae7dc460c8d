package ringelection

import (
	"testing"

	"github.com/coordcheck/coordcheck/checker/rapidcheck"
)

// Random schedules drawn by rapid keep the election's safety on larger
// rings, with the enhanced ring also under a crash.
func TestRapidSchedules(t *testing.T) {
	rapidcheck.Check(t, spec(t, New(8, ChangRoberts), ""), rapidcheck.Options{MaxSteps: 150})
	rapidcheck.Check(t, spec(t, New(5, Enhanced), "crash=1"), rapidcheck.Options{MaxSteps: 150})
}
