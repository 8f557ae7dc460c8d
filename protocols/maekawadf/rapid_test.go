package maekawadf

import (
	"testing"

	"github.com/coordcheck/coordcheck/checker/rapidcheck"
)

// Random schedules drawn by rapid on the projective plane, too large to
// explore exhaustively, keep every safety property and never deadlock.
func TestRapidSchedules(t *testing.T) {
	rapidcheck.Check(t, config{7, 1, "plane", "all"}.spec(t), rapidcheck.Options{MaxSteps: 150})
}
