package bully

import (
	"testing"

	"github.com/coordcheck/coordcheck/checker/rapidcheck"
	"github.com/coordcheck/coordcheck/model"
)

// Random schedules drawn by rapid, crashes of the highest process
// included, keep the election's safety (without restarts, which break it).
func TestRapidSchedules(t *testing.T) {
	rapidcheck.Check(t, spec(t, 4, "crash=1@p3", model.TimersDefault, false), rapidcheck.Options{})
}
