package lamport

import (
	"testing"

	"github.com/coordcheck/coordcheck/checker/rapidcheck"
	"github.com/coordcheck/coordcheck/model"
)

// Random schedules drawn by rapid keep every safety property, with more
// processes and rounds than the exhaustive tests can cover.
func TestRapidSchedules(t *testing.T) {
	rapidcheck.Check(t, spec(4, 2, model.FIFO), rapidcheck.Options{MaxSteps: 120})
}
