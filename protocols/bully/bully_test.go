package bully

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/internal/spintest"
	"github.com/coordcheck/coordcheck/internal/steptest"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
)

// spec is the bully algorithm under faults and timers, checked for its
// exported Properties: the notes' safety (at the end of a run), agreement at all times when always
// is set, no deadlock and the notes' liveness.
func spec(t *testing.T, n int, faults string, timers model.TimerMode, always bool) *checker.Spec[State, Msg] {
	t.Helper()
	f, err := model.ParseFaults(faults)
	require.NoError(t, err)
	p := New(n)
	return checker.SpecOf(model.MustNewSystem[State, Msg](p, model.Config{Faults: f, Timers: timers}), Properties(p, always))
}

// The state and edge counts equal SPIN's NOREDUCE counts on
// ../shared/bench/spin/models/bully.pml with H=N-1 crashing once and
// restarting (-faults crash=1@pH,restart=1). SPIN's "transitions" is
// stored+matched = edges+1, and its edges include the monitor's self-loop
// `timeout -> assert(...)` in every terminal state (2 for N=3, 4 for
// N=4; ../shared/bench/spin/ref/enumerate.py emits them as "monitor"
// edges): 693 = 690+2+1 and 12,785,798 = 12,785,793+4+1. The violating
// states are SPIN's failing terminal states (1 and 3).
func TestStateCountsMatchSPIN(t *testing.T) {
	bad := func(n uint64) []checker.PropertyCount {
		return []checker.PropertyCount{{Property: invariants.ElectionSafetyName, States: n}}
	}
	cases := []struct {
		n      int
		faults string
		spintest.Counts
	}{
		{3, "crash=1@p2,restart=1", spintest.Counts{Verdict: checker.Violated, States: 306, Edges: 690, Depth: 15, Violating: bad(1)}},
		{4, "crash=1@p3,restart=1", spintest.Counts{Verdict: checker.Violated, States: 2391940, Edges: 12785793, Depth: 40,
			Violating: bad(3), Long: true}},
	}
	for _, c := range cases {
		spintest.Match(t, fmt.Sprintf("n=%d", c.n), c.Counts, func() *checker.Report {
			return spec(t, c.n, c.faults, model.TimersDefault, false).Check(checker.Options{Exhaust: true, SkipLiveness: true})
		})
	}
}

// The shortest violation is SPIN's trail minus the monitor's step (seed
// 001: "it can violate the safety property if a crashed process with the
// highest ID restarts with an ongoing election"; SPIN README 3.3: 9 steps
// for N=3, 11 for N=4): H crashes, the next process detects it and
// announces itself, H restarts and announces itself, and one process gets
// the two COORD messages new-then-stale.
func TestRestartOfTheHighestBreaksSafety(t *testing.T) {
	for _, c := range []struct {
		n, steps int
		faults   string
		final    string
	}{
		{3, 8, "crash=1@p2,restart=1", "p0->p1 p1->p2 p2->p2"},
		{3, 8, "crash=1,restart=1", "p0->p1 p1->p2 p2->p2"},
		{4, 10, "crash=1@p3,restart=1", "p0->p3 p1->p2 p2->p3 p3->p3"},
	} {
		rep := spec(t, c.n, c.faults, model.TimersDefault, false).Check(checker.Options{})
		require.Equal(t, checker.Violated, rep.Verdict, "n=%d %s", c.n, c.faults)
		cex := rep.Counterexample
		require.Equal(t, invariants.ElectionSafetyName, cex.Property)
		require.Len(t, cex.Steps, c.steps, "n=%d %s", c.n, c.faults)
		require.Contains(t, cex.Detail, "("+c.final+")")
		require.Equal(t, "crash "+model.NodeID(c.n-1).String(), cex.Steps[0].Action)
	}
}

// Agreement at all times fails as soon as the restarted highest process
// comes back while another process has announced itself: p0 still
// believes in p2, which is up again, and p1 in itself. Every restart of H
// passes through such a state, so this property is too strong for the
// bully algorithm; the notes judge a run at its end.
func TestAgreementAtAllTimesBreaksOnRestart(t *testing.T) {
	rep := spec(t, 3, "crash=1@p2,restart=1", model.TimersDefault, true).Check(checker.Options{})
	require.Equal(t, checker.Violated, rep.Verdict)
	cex := rep.Counterexample
	require.Equal(t, invariants.AgreementName, cex.Property)
	require.Equal(t, []string{"crash p2", "fire p1 detect", "fire p1 ok-timeout", "restart p2"}, steptest.Actions(cex))
	require.Equal(t, "p0 considers p2 its coordinator but p1 considers p1", cex.Detail)
}

// Without a restart, every property holds in the whole state space: the
// notes' safety, agreement at all times, no deadlock, and liveness, with
// one crash of any process and with two.
func TestCrashesWithoutRestartAreSafe(t *testing.T) {
	for _, c := range []struct {
		n      int
		faults string
		states uint64
	}{
		{3, "crash=1", 21},
		{4, "crash=1", 1851},
		{3, "crash=2", 50},
		{4, "crash=2", 11443},
	} {
		rep := spec(t, c.n, c.faults, model.TimersDefault, true).Check(checker.Options{})
		require.Equal(t, checker.Pass, rep.Verdict, "n=%d %s: %v", c.n, c.faults, rep.Counterexample)
		require.Equal(t, c.states, rep.States, "n=%d %s", c.n, c.faults)
	}
}

// The restart breaks safety only: every process still decides, and no
// run deadlocks (liveness and no-deadlock alone hold).
func TestLivenessHoldsWithRestart(t *testing.T) {
	for _, faults := range []string{"crash=1@p2,restart=1", "crash=1,restart=1", "crash=2,restart=2"} {
		sp := spec(t, 3, faults, model.TimersDefault, false)
		sp.Invariants = nil
		rep := sp.Check(checker.Options{})
		require.Equal(t, checker.Pass, rep.Verdict, "%s: %v", faults, rep.Counterexample)
	}
}

// With free timers (the asynchronous system, where a timeout may be
// premature) safety fails without any crash: p1 suspects the coordinator,
// times out before p2's OK arrives and announces itself, and p0 gets p2's
// COORD, then p1's.
func TestPrematureTimeoutsBreakSafety(t *testing.T) {
	rep := spec(t, 3, "none", model.TimersFree, false).Check(checker.Options{})
	require.Equal(t, checker.Violated, rep.Verdict)
	require.Equal(t, invariants.ElectionSafetyName, rep.Counterexample.Property)
	require.Len(t, rep.Counterexample.Steps, 8)
	require.Equal(t, "fire p1 detect", rep.Counterexample.Steps[0].Action)
	require.Equal(t, "fire p1 ok-timeout", rep.Counterexample.Steps[1].Action)

	rep = spec(t, 3, "none", model.TimersFree, true).Check(checker.Options{})
	require.Equal(t, invariants.AgreementName, rep.Counterexample.Property)
	require.Len(t, rep.Counterexample.Steps, 2)
}

// Without a failure nothing happens: the failure detector never fires.
func TestNoFailureNoElection(t *testing.T) {
	rep := spec(t, 4, "none", model.TimersDefault, true).Check(checker.Options{})
	require.Equal(t, checker.Pass, rep.Verdict)
	require.Equal(t, uint64(1), rep.States)
}
