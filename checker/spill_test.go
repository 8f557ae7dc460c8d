package checker_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
)

// withoutMemory clears what differs between a search that spills and one
// that does not: the memory held, the time, the bytes spilled.
func withoutMemory(r *checker.Report) *checker.Report {
	c := *r
	c.Elapsed, c.StatesPerSecond, c.TableBytes, c.FrontierBytes, c.PeakBytes, c.SpilledBytes = 0, 0, 0, 0, 0, 0
	return &c
}

// A BFS that keeps its frontier on disk finds what one that keeps it in
// memory finds, in ordered batches, on one worker (the queue) and level by
// level: the same states, transitions, depth, levels, violation counts,
// coverage and counterexample, whatever stops it.
func TestSpillGivesTheSameReport(t *testing.T) {
	// Wide enough for the one-worker queue (max-states: not in ordered
	// batches) to spill its 1 MB chunks, and for the ordered batches'
	// frontier to spill its 1 MB buffers.
	wide := stopCase{raSpec(4, 1, model.Config{}), checker.Options{MaxStates: 150000}}
	deep := stopCase{raSpec(4, 1, model.Config{}), checker.Options{MaxDepth: 10}}
	for i, c := range append(stopCases(t), wide, deep) {
		spill := i >= len(stopCases(t)) // every worker count spills
		for _, workers := range workerCounts(1, 3) {
			mem, disk := c.opts, c.opts
			mem.Workers, disk.Workers = workers, workers
			mem.Spill, disk.Spill, disk.SpillDir = checker.SpillNever, checker.SpillAlways, t.TempDir()
			a, z := c.sp.Check(mem), c.sp.Check(disk)
			require.Zero(t, a.SpilledBytes)
			if spill || workers > 1 && c.opts.MaxStates > 0 && z.Depth > 2 { // (level by level: every level spills)
				require.NotZero(t, z.SpilledBytes, "%+v, %d workers", c.opts, workers)
				require.Less(t, z.FrontierBytes, a.FrontierBytes, "%+v, %d workers", c.opts, workers)
			}
			t.Logf("%d workers, max-states %d, exhaust %v: %d states, frontier %d B in memory, %d B spilled (%d B without)",
				workers, c.opts.MaxStates, c.opts.Exhaust, z.States, z.FrontierBytes, z.SpilledBytes, a.FrontierBytes)
			require.Equal(t, withoutMemory(a), withoutMemory(z), "%+v, %d workers", c.opts, workers)
			require.Equal(t, z.SpilledBytes, c.sp.Check(disk).SpilledBytes, "the figure does not depend on the workers' timing")
		}
	}
}

// Under a memory bound the frontier goes to disk by itself once it would
// take more than a sixteenth of it, and the search ends as it would in
// memory.
func TestSpillAutoUnderAMemoryBound(t *testing.T) {
	sp := raSpec(4, 1, model.Config{})
	for _, workers := range workerCounts(1, 2) {
		for _, base := range []checker.Options{
			{Workers: workers, MaxStates: 150000, SkipLiveness: true}, // level by level, or the queue
			{Workers: workers, MaxDepth: 10, SkipLiveness: true},      // ordered batches
		} {
			free := sp.Check(base)
			bound := base
			bound.MaxMemory, bound.SpillDir = 40<<20, t.TempDir()
			got := sp.Check(bound)
			require.Zero(t, free.SpilledBytes, "no bound, nothing spilled")
			require.NotZero(t, got.SpilledBytes, "%d workers", workers)
			require.Equal(t, withoutMemory(free), withoutMemory(got), "%d workers", workers)
		}
	}
}

// A spill that cannot be made stops the search, inconclusive, with the
// error: it is never a pass.
func TestSpillFailureIsInconclusive(t *testing.T) {
	sp := raSpec(4, 1, model.Config{})
	missing := filepath.Join(t.TempDir(), "gone")
	for _, workers := range []int{1, 2} {
		for _, maxStates := range []uint64{150000, 0} { // (without: in ordered batches)
			rep := sp.Check(checker.Options{Workers: workers, MaxStates: maxStates, SkipLiveness: true,
				Spill: checker.SpillAlways, SpillDir: missing})
			require.Equal(t, checker.Inconclusive, rep.Verdict, "%d workers", workers)
			require.True(t, strings.HasPrefix(rep.Bound, "spill create failed: "), rep.Bound)
			require.Contains(t, rep.Bound, "gone")
		}
	}
}

// A search that spills, killed after a checkpoint and resumed, reports
// what it reports when never stopped.
func TestSpillResumes(t *testing.T) {
	ra32 := registryTarget(t, "ricartagrawala", map[string]string{"n": "3", "rounds": "2"}, "none")
	for _, workers := range workerCounts(1, 2) {
		opts := checker.Options{Workers: workers, SkipLiveness: true, Spill: checker.SpillAlways, SpillDir: t.TempDir()}
		want := ra32.Check(opts)
		got := killAndResume(t, ra32, opts, 3)
		require.Equal(t, withoutMemory(want), withoutMemory(got), "%d workers", workers)
	}
	// One worker, killed while its queue has chunks on disk.
	ra41 := registryTarget(t, "ricartagrawala", map[string]string{"n": "4", "rounds": "1"}, "none")
	opts := checker.Options{Workers: 1, SkipLiveness: true, MaxStates: 150000, Spill: checker.SpillAlways, SpillDir: t.TempDir()}
	want := ra41.Check(opts)
	require.NotZero(t, want.SpilledBytes)
	got := killAndResume(t, ra41, opts, 25) // 25,600 states expanded, 66,844 found
	require.Equal(t, withoutMemory(want), withoutMemory(got))
}

func TestParseSpillMode(t *testing.T) {
	for _, m := range []checker.SpillMode{checker.SpillAuto, checker.SpillNever, checker.SpillAlways} {
		got, err := checker.ParseSpillMode(m.String())
		require.NoError(t, err)
		require.Equal(t, m, got)
	}
	_, err := checker.ParseSpillMode("sometimes")
	require.EqualError(t, err, `unknown spill mode "sometimes" (valid: auto, never, always)`)
}

// Progress reports say how much the frontier has spilled so far.
func TestSpillShowsInProgress(t *testing.T) {
	sp := raSpec(4, 1, model.Config{})
	for _, workers := range []int{1, 2} {
		var last checker.Progress
		rep := sp.Check(checker.Options{Workers: workers, MaxStates: 150000, SkipLiveness: true,
			Spill: checker.SpillAlways, SpillDir: t.TempDir(),
			Progress: func(p checker.Progress) { last = p }, ProgressInterval: time.Nanosecond})
		require.NotZero(t, last.Spilled, "%d workers", workers)
		require.LessOrEqual(t, last.Spilled, rep.SpilledBytes, "%d workers", workers)
	}
}
