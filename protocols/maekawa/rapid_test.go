package maekawa

import (
	"testing"

	"github.com/coordcheck/coordcheck/checker/rapidcheck"
)

// Random schedules drawn by rapid keep mutual exclusion (the original
// algorithm deadlocks, so the deadlock check is left to the exhaustive
// tests).
func TestRapidSchedules(t *testing.T) {
	sp := spec(t, 4, 2, "grid")
	sp.Deadlock = false
	rapidcheck.Check(t, sp, rapidcheck.Options{})
}
