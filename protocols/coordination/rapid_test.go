package coordination

import (
	"testing"

	"github.com/coordcheck/coordcheck/checker/rapidcheck"
)

// Random schedules drawn by rapid, the leader's crash included, keep
// linearizability (judged when a run ends) and the lock recipe's mutual
// exclusion.
func TestRapidSchedules(t *testing.T) {
	rapidcheck.Check(t, register(2, LeaderReads, "crash=1@p0")(), rapidcheck.Options{MaxSteps: 100})
	rapidcheck.Check(t, lock(2, false, false, "crash=1@p3")(), rapidcheck.Options{MaxSteps: 100})
}
