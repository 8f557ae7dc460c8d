package checker_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/internal/steptest"
	"github.com/coordcheck/coordcheck/model"
)

// Random and swarm search find Ricart-Agrawala's mutual-exclusion failure
// under a duplicated reply, shrink it to within a small slack of the BFS
// shortest trace, and give the same report for the same seed.
func TestWalksFindShrinkAndRepeat(t *testing.T) {
	f, _ := model.ParseFaults("dup=1")
	sp := raSpec(3, 1, model.Config{Faults: f})
	sp.Deadlock = false // only mutual exclusion: its traces have slack to shrink
	bfs := sp.Check(checker.Options{})
	require.Equal(t, checker.Violated, bfs.Verdict)
	shortest := len(bfs.Counterexample.Steps)
	require.Equal(t, 12, shortest)

	for _, strat := range []checker.Strategy{checker.Random, checker.Swarm} {
		opts := checker.Options{Strategy: strat, Seed: 7}
		a := sp.Check(opts)
		require.Equal(t, checker.Violated, a.Verdict, strat)
		require.Equal(t, "mutual-exclusion", a.Counterexample.Property)
		require.Less(t, len(a.Counterexample.Steps), a.ShrunkFrom, "%s: the walk's trace was shrunk", strat)
		t.Logf("%s: walk %d, %d steps shrunk to %d (BFS shortest %d)", strat, *a.FailingWalk, a.ShrunkFrom, len(a.Counterexample.Steps), shortest)
		require.LessOrEqual(t, len(a.Counterexample.Steps), shortest+2, "%s: shrunk trace %v", strat, a.Counterexample.Steps)

		b := sp.Check(opts)
		a.Elapsed, b.Elapsed = 0, 0
		a.StatesPerSecond, b.StatesPerSecond, a.StepsPerSecond, b.StepsPerSecond = 0, 0, 0, 0
		require.Equal(t, a, b, "%s: same seed, same report", strat)

		// The failing walk alone fails the same way.
		one := sp.Check(checker.Options{Strategy: strat, Seed: 7, Walk: a.FailingWalk})
		require.Equal(t, a.Counterexample, one.Counterexample)
		require.Equal(t, uint64(1), one.Walks)
	}
}

// Shrink drops what a violation does not need.
func TestShrinkDropsNeedlessSteps(t *testing.T) {
	f, _ := model.ParseFaults("crash=1")
	sp := raSpec(3, 1, model.Config{Faults: f})
	bfs := sp.Check(checker.Options{})
	lines := steptest.Actions(bfs.Counterexample)
	// Pad the shortest trace with lines that are never enabled and with
	// lines past the violation.
	padded := append([]string{"heal", "deliver p0->p1 REQ(ts=9)"}, lines...)
	padded = append(padded, "restart p2", "input p2 request")
	require.Len(t, lines, 6)
	require.Equal(t, lines, sp.Shrink(padded, checker.DeadlockProperty))
}

// A random search that finds nothing is inconclusive, never a pass.
func TestWalksWithoutViolationAreInconclusive(t *testing.T) {
	r := raSpec(3, 1, model.Config{}).Check(checker.Options{Strategy: checker.Swarm, Walks: 50})
	require.Equal(t, checker.Inconclusive, r.Verdict)
	require.Equal(t, uint64(50), r.Walks)
	require.Equal(t, "walks 50 of depth 200", r.Bound)
}

// Random search stops at its bounds and when interrupted, and says what
// it covered.
func TestWalksStop(t *testing.T) {
	sp := raSpec(3, 1, model.Config{})
	stop := make(chan struct{})
	close(stop)
	r := sp.Check(checker.Options{Strategy: checker.Random, Walks: 1_000_000, Stop: stop})
	require.Equal(t, checker.Inconclusive, r.Verdict)
	require.Equal(t, "interrupted", r.Bound)
	require.Zero(t, r.Walks, "the workers look before every walk")
	require.Zero(t, r.Transitions)

	r = sp.Check(checker.Options{Strategy: checker.Swarm, Walks: 1_000_000, Timeout: 1})
	require.Equal(t, "timeout 1ns", r.Bound)
	r = sp.Check(checker.Options{Strategy: checker.Random, Walks: 1_000_000, MaxStates: 100})
	require.Equal(t, "max-states 100", r.Bound)
	require.GreaterOrEqual(t, r.States, uint64(100))
}

// Walks on several workers give the report of walks on one: the same
// failing walk, trace, counts and distinct states, for random and swarm
// search, stopping at the first failure or exhausting the walks.
func TestWalkWorkersAgree(t *testing.T) {
	dup, err := model.ParseFaults("dup=1")
	require.NoError(t, err)
	sp := raSpec(3, 1, model.Config{Faults: dup})
	for _, opts := range []checker.Options{
		{Strategy: checker.Random, Seed: 3, Walks: 700},
		{Strategy: checker.Swarm, Seed: 5, Walks: 700},
		{Strategy: checker.Swarm, Seed: 5, Walks: 700, Exhaust: true},
		{Strategy: checker.Random, Seed: 1, Walks: 300, MaxStates: 2000},
	} {
		one, many := opts, opts
		one.Workers, many.Workers = 1, 4
		a, z := sp.Check(one), sp.Check(many)
		for _, r := range []*checker.Report{a, z} {
			r.Elapsed, r.StatesPerSecond, r.StepsPerSecond, r.TableBytes, r.PeakBytes = 0, 0, 0, 0, 0
		}
		require.Equal(t, a, z, "%+v", opts)
	}
}
