package checker_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	ra "github.com/coordcheck/coordcheck/protocols/ricartagrawala"
)

// raLiveSpec is raSpec with starvation freedom, checked on the kept state
// graph.
func raLiveSpec(n, rounds int) *checker.Spec[ra.State, ra.Msg] {
	sp := raSpec(n, rounds, model.Config{})
	p := sp.System.P.(*ra.Protocol)
	sp.Liveness = []checker.Liveness[ra.State, ra.Msg]{invariants.StarvationFreedom[ra.State, ra.Msg](p)}
	return sp
}

// The modes under test, each on a configuration far larger than the
// bounds below.
func boundedModes() []struct {
	name string
	sp   checker.Target
	opts checker.Options
} {
	return []struct {
		name string
		sp   checker.Target
		opts checker.Options
	}{
		{"bfs", raSpec(6, 1, model.Config{}), checker.Options{}},
		{"dfs", raSpec(6, 1, model.Config{}), checker.Options{Strategy: checker.DFS}},
		{"liveness graph", raLiveSpec(6, 1), checker.Options{KeepGraph: true}},
		{"random", raSpec(6, 2, model.Config{}), checker.Options{Strategy: checker.Random, Walks: 1 << 30}},
		{"swarm", raSpec(6, 2, model.Config{}), checker.Options{Strategy: checker.Swarm, Walks: 1 << 30}},
	}
}

// -max-memory holds in every mode at one and two workers: the search
// stops, inconclusive, with the bound named, and the memory it held by its
// own account (visited set, frontier, workers' buffers, merge tables,
// graph) never passed the bound, nor stopped far below it.
func TestMaxMemoryHoldsInEveryMode(t *testing.T) {
	const bound = 3 << 20
	for _, m := range boundedModes() {
		for _, workers := range workerCounts(1, 2) {
			opts := m.opts
			opts.MaxMemory, opts.Workers = bound, workers
			rep := m.sp.Check(opts)
			require.Equal(t, checker.Inconclusive, rep.Verdict, "%s, %d workers", m.name, workers)
			require.Equal(t, "max-memory 3 MB", rep.Bound, "%s, %d workers", m.name, workers)
			require.LessOrEqual(t, rep.PeakBytes, uint64(bound), "%s, %d workers", m.name, workers)
			require.Greater(t, rep.PeakBytes, uint64(bound/4), "%s, %d workers: stopped far below the bound", m.name, workers)
		}
	}
}

// The part of the bound reserved for the rest of the program is not the
// search's: the search stops at MaxMemory - MemoryReserve.
func TestMemoryReserveIsKeptOut(t *testing.T) {
	rep := raSpec(6, 1, model.Config{}).Check(checker.Options{MaxMemory: 10 << 20, MemoryReserve: 6 << 20, Workers: 2})
	require.Equal(t, "max-memory 10 MB", rep.Bound)
	require.LessOrEqual(t, rep.PeakBytes, uint64(4<<20))
}

// A bound too small for the initial state and the empty tables is refused
// before the search: inconclusive, no state explored, never a pass.
func TestMaxMemoryTooSmallForTheInitialState(t *testing.T) {
	for _, m := range boundedModes() {
		opts := m.opts
		opts.MaxMemory = 100 << 10
		need := checker.MinMemory(m.sp, opts)
		require.Greater(t, need, opts.MaxMemory, m.name)
		rep := m.sp.Check(opts)
		require.Equal(t, checker.Inconclusive, rep.Verdict, m.name)
		require.Contains(t, rep.Bound, "the initial state and the empty tables need", m.name)
		require.Zero(t, rep.States, m.name)
		require.Zero(t, rep.Transitions, m.name)
	}
}

// Closing Stop ends every mode within about a second, inconclusive.
func TestStopEndsEveryMode(t *testing.T) {
	for _, m := range boundedModes() {
		for _, workers := range []int{1, 2} {
			stop := make(chan struct{})
			var closed time.Time
			timer := time.AfterFunc(100*time.Millisecond, func() { closed = time.Now(); close(stop) })
			opts := m.opts
			opts.Workers, opts.Stop = workers, stop
			rep := m.sp.Check(opts)
			timer.Stop()
			require.Equal(t, checker.Inconclusive, rep.Verdict, "%s, %d workers", m.name, workers)
			require.Equal(t, "interrupted", rep.Bound, "%s, %d workers", m.name, workers)
			require.Less(t, time.Since(closed), 1500*time.Millisecond, "%s, %d workers (under load)", m.name, workers)
		}
	}
}
