package voting

import (
	"testing"

	"github.com/coordcheck/coordcheck/checker/rapidcheck"
)

// Random schedules drawn by rapid keep every safety property, with more
// processes than the exhaustive tests can cover.
func TestRapidSchedules(t *testing.T) {
	rapidcheck.Check(t, spec(4, 3, 2, OptionYield), rapidcheck.Options{MaxSteps: 120})
}
