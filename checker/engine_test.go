package checker_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/internal/steptest"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	ra "github.com/coordcheck/coordcheck/protocols/ricartagrawala"
)

func raSpec(n, rounds int, cfg model.Config) *checker.Spec[ra.State, ra.Msg] {
	p := ra.New(n, rounds)
	p.Clocks = ra.SPIN
	return &checker.Spec[ra.State, ra.Msg]{
		System:     model.MustNewSystem[ra.State, ra.Msg](p, cfg),
		Invariants: []checker.Invariant[ra.State, ra.Msg]{invariants.MutualExclusion[ra.State, ra.Msg](p)},
		Deadlock:   true,
	}
}

// BFS and DFS explore the same space: same states, same transitions;
// BFS on one worker and on two too (past its first 16,384 states, the
// one-worker search skips the probes its cache of recent ones answers).
func TestBFSAndDFSAgree(t *testing.T) {
	sp := raSpec(3, 2, model.Config{})
	bfs := sp.Check(checker.Options{Strategy: checker.BFS, Workers: 2})
	one := sp.Check(checker.Options{Strategy: checker.BFS, Workers: 1})
	dfs := sp.Check(checker.Options{Strategy: checker.DFS})
	for _, r := range []*checker.Report{bfs, one, dfs} {
		require.Equal(t, checker.Pass, r.Verdict)
		require.Equal(t, uint64(29384), r.States)
		require.Equal(t, bfs.Transitions, r.Transitions)
	}
	require.Equal(t, bfs.Depth, one.Depth)
}

// A bound reached first is never a pass, and names the bound.
func TestBoundsAreInconclusive(t *testing.T) {
	sp := raSpec(3, 2, model.Config{})
	r := sp.Check(checker.Options{MaxStates: 100})
	require.Equal(t, checker.Inconclusive, r.Verdict)
	require.Equal(t, "max-states 100", r.Bound)
	r = sp.Check(checker.Options{MaxDepth: 10})
	require.Equal(t, checker.Inconclusive, r.Verdict)
	require.Equal(t, "max-depth 10", r.Bound)
	require.Equal(t, 10, r.Depth)
	stop := make(chan struct{})
	close(stop)
	r = raSpec(4, 1, model.Config{}).Check(checker.Options{Stop: stop})
	require.Equal(t, checker.Inconclusive, r.Verdict)
	require.Equal(t, "interrupted", r.Bound)
	// A depth bound at or beyond the space's depth is no bound.
	r = sp.Check(checker.Options{MaxDepth: 42})
	require.Equal(t, checker.Pass, r.Verdict)
}

// Each fault kind changes the verdict of Ricart-Agrawala in its own way;
// the shortest counterexamples are pinned.
func TestFaults(t *testing.T) {
	cases := []struct {
		faults   string
		network  model.Network
		verdict  checker.Verdict
		property string
		steps    int
		states   uint64
	}{
		// A crashed process never replies: the others wait forever.
		{"crash=1", model.FIFO, checker.Violated, checker.DeadlockProperty, 6, 0},
		// A lost request or reply also leaves its sender waiting.
		{"drop=1", model.FIFO, checker.Violated, checker.DeadlockProperty, 0, 0},
		// A duplicated reply is counted twice: a process enters too early.
		{"dup=1", model.FIFO, checker.Violated, invariants.MutualExclusionName, 0, 0},
		// A restart from the initial state forgets the deferred replies.
		{"crash=1,restart=1", model.FIFO, checker.Violated, checker.DeadlockProperty, 0, 0},
		// A partition loses messages across it.
		{"partition=1", model.FIFO, checker.Violated, checker.DeadlockProperty, 0, 0},
		// Reordering alone does not break Ricart-Agrawala.
		{"none", model.Unordered, checker.Pass, "", 0, 3237},
	}
	for _, c := range cases {
		f, err := model.ParseFaults(c.faults)
		require.NoError(t, err)
		r := raSpec(3, 1, model.Config{Network: c.network, Faults: f}).Check(checker.Options{})
		require.Equal(t, c.verdict, r.Verdict, c.faults)
		if c.verdict == checker.Violated {
			require.Equal(t, c.property, r.Counterexample.Property, c.faults)
			if c.steps > 0 {
				require.Len(t, r.Counterexample.Steps, c.steps, c.faults)
			}
			kind := c.faults[:len(c.faults)-2]
			if i := len("crash=1,"); len(c.faults) > i && c.faults[:i] == "crash=1," {
				kind = "crash"
			}
			found := false
			for _, s := range r.Counterexample.Steps {
				found = found || len(s.Action) >= len(kind) && s.Action[:len(kind)] == kind
			}
			require.True(t, found, "%s: the counterexample uses the fault: %v", c.faults, r.Counterexample.Steps)
		}
		if c.states > 0 {
			require.Equal(t, c.states, r.States, c.faults)
		}
	}
}

// Same input, same output: two checks give identical counts and traces.
func TestDeterminism(t *testing.T) {
	f, err := model.ParseFaults("crash=1,dup=1")
	require.NoError(t, err)
	for _, strat := range []checker.Strategy{checker.BFS, checker.DFS} {
		a := raSpec(3, 1, model.Config{Faults: f}).Check(checker.Options{Strategy: strat, Exhaust: true})
		b := raSpec(3, 1, model.Config{Faults: f}).Check(checker.Options{Strategy: strat, Exhaust: true})
		require.Equal(t, a.States, b.States)
		require.Equal(t, a.Transitions, b.Transitions)
		require.Equal(t, a.ViolationCounts, b.ViolationCounts)
		require.Equal(t, a.Counterexample, b.Counterexample)
	}
}

// Replay by value reproduces a counterexample, and says which step no
// longer applies.
func TestReplay(t *testing.T) {
	f, _ := model.ParseFaults("crash=1")
	sp := raSpec(3, 1, model.Config{Faults: f})
	r := sp.Check(checker.Options{})
	lines := steptest.Actions(r.Counterexample)
	rp, err := sp.Replay(lines)
	require.NoError(t, err)
	require.Equal(t, r.Counterexample, rp.Trace)

	lines[2] = "deliver p2->p0 REQ(ts=7)"
	_, err = sp.Replay(lines)
	var se *checker.StepError
	require.ErrorAs(t, err, &se)
	require.Equal(t, 3, se.Step)
}

// BFS on several workers is the search on one, whatever stops it: the
// whole space, a violation inside a level, a bound on states inside a
// level (with and without -exhaust). Run under -race in CI.
func TestWorkersAgree(t *testing.T) {
	for _, c := range stopCases(t) {
		one, many := c.opts, c.opts
		one.Workers, many.Workers = 1, 4
		a, z := c.sp.Check(one), c.sp.Check(many)
		for _, r := range []*checker.Report{a, z} {
			r.Elapsed, r.StatesPerSecond, r.TableBytes, r.FrontierBytes, r.PeakBytes = 0, 0, 0, 0, 0
		}
		require.Equal(t, a, z, "%+v", c.opts)
	}
}

// The one-worker search with its recent cache from its first state (not
// once the search has grown), which then records in its batches of
// lookups only the successors the cache lacks, reports what the level
// engine reports, whatever stops it.
func TestWorkersAgreeWithTheRecentCacheFromTheStart(t *testing.T) {
	cases := append(stopCases(t), stopCase{raSpec(3, 2, model.Config{}), checker.Options{MaxDepth: 12}})
	want := make([]*checker.Report, len(cases))
	for i, c := range cases {
		opts := c.opts
		opts.Workers = 4
		want[i] = c.sp.Check(opts)
	}
	defer checker.WithRecentAfter(1)()
	for i, c := range cases {
		opts := c.opts
		opts.Workers = 1
		got := c.sp.Check(opts)
		for _, r := range []*checker.Report{want[i], got} {
			r.Elapsed, r.StatesPerSecond, r.TableBytes, r.FrontierBytes, r.PeakBytes = 0, 0, 0, 0, 0
		}
		require.Equal(t, want[i], got, "%+v", c.opts)
	}
}

// The same when the visited set grows flat from its first growth (the
// one-worker search as it grows, the level engine before each level's
// new states go in, its workers sharing the shards out), with and
// without liveness checks (whose sets number their states) and parents
// (kept until the first violation, with Exhaust): the reports of 1, 2
// and 4 workers are those of the search whose set never grows flat.
func TestWorkersAgreeWhenTheSetGrowsFlat(t *testing.T) {
	cases := stopCases(t)
	cases = append(cases, stopCase{raSpec(3, 2, model.Config{}), checker.Options{SkipLiveness: false}})
	want := make([]*checker.Report, len(cases))
	for i, c := range cases {
		want[i] = c.sp.Check(c.opts)
	}
	defer checker.WithFlatFrom(1 << 14)()
	for i, c := range cases {
		for _, workers := range workerCounts(1, 2, 4) {
			opts := c.opts
			opts.Workers = workers
			got := c.sp.Check(opts)
			for _, r := range []*checker.Report{want[i], got} {
				r.Elapsed, r.StatesPerSecond, r.TableBytes, r.FrontierBytes, r.PeakBytes = 0, 0, 0, 0, 0
			}
			require.Equal(t, want[i], got, "%+v, %d workers", c.opts, workers)
		}
	}
}

// The level engine learns from each level what share of its records are
// new states, its estimate of the next level's, by which it grows the
// visited set before the merge: counted once the merge had let the
// records go, every level's records read 0, and the estimate was every
// record. Each level's new states are some of its records.
func TestLevelsCountTheirRecords(t *testing.T) {
	opts := checker.Options{Workers: 2, SkipLiveness: true}
	checker.WithLevels(&opts)
	var recs, fresh uint64
	checker.WithLevelShare(&opts, func(r, f uint64) {
		require.GreaterOrEqual(t, r, f)
		recs, fresh = recs+r, fresh+f
	})
	rep := raSpec(3, 2, model.Config{}).Check(opts)
	require.Equal(t, rep.States-1, fresh, "every state but the first, new in a level")
	require.Greater(t, recs, fresh, "a state met twice in a level, or visited before, is a record too")
}

// stopCase is a search and what stops it.
type stopCase struct {
	sp   *checker.Spec[ra.State, ra.Msg]
	opts checker.Options
}

// stopCases are searches that end every way a BFS can: the whole space,
// a violation inside a level, a bound on states inside a level (with and
// without -exhaust), at the first states, at a depth.
func stopCases(t *testing.T) []stopCase {
	dup, err := model.ParseFaults("dup=1")
	require.NoError(t, err)
	return []stopCase{
		{raSpec(3, 2, model.Config{}), checker.Options{}},
		{raSpec(3, 1, model.Config{Faults: dup}), checker.Options{}},
		{raSpec(3, 1, model.Config{Faults: dup}), checker.Options{Exhaust: true}},
		{raSpec(3, 2, model.Config{}), checker.Options{MaxStates: 5000}},
		{raSpec(3, 1, model.Config{Faults: dup}), checker.Options{MaxStates: 900, Exhaust: true}},
		{raSpec(3, 1, model.Config{}), checker.Options{MaxStates: 1}},
		{raSpec(3, 1, model.Config{}), checker.Options{MaxStates: 2}},
		{raSpec(3, 1, model.Config{}), checker.Options{MaxDepth: 3, MaxStates: 30}},
	}
}

// A BFS that goes on after its first violation shows the counterexample
// the search that stops there shows, and keeps the parents that path
// needs only until then: its table ends at 8 bytes a slot, at most 16 a
// state (with parents for good it would be 16 a slot, above 21 a state).
func TestExhaustDropsParentsAfterTheFirstViolation(t *testing.T) {
	dup, err := model.ParseFaults("dup=1")
	require.NoError(t, err)
	sp := raSpec(3, 1, model.Config{Faults: dup})
	for _, workers := range []int{1, 3} {
		first := sp.Check(checker.Options{Workers: workers, SkipLiveness: true})
		all := sp.Check(checker.Options{Workers: workers, SkipLiveness: true, Exhaust: true})
		require.Equal(t, checker.Violated, all.Verdict)
		require.Equal(t, first.Counterexample, all.Counterexample)
		require.Greater(t, all.States, first.States)
		require.LessOrEqual(t, all.TableBytes, 16*all.States, "workers %d", workers)
	}
}

// The same, for bounds and workers drawn at random.
func TestWorkersAgreeUnderAnyBound(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		faults, err := model.ParseFaults(rapid.SampledFrom([]string{"none", "dup=1", "drop=1", "crash=1"}).Draw(rt, "faults"))
		require.NoError(rt, err)
		sp := raSpec(3, 1, model.Config{Faults: faults})
		opts := checker.Options{
			MaxStates: uint64(rapid.IntRange(0, 3000).Draw(rt, "max-states")),
			MaxDepth:  rapid.IntRange(0, 15).Draw(rt, "max-depth"),
			Exhaust:   rapid.Bool().Draw(rt, "exhaust"),
		}
		one, many := opts, opts
		one.Workers, many.Workers = 1, rapid.IntRange(2, 5).Draw(rt, "workers")
		a, z := sp.Check(one), sp.Check(many)
		for _, r := range []*checker.Report{a, z} {
			r.Elapsed, r.StatesPerSecond, r.TableBytes, r.FrontierBytes, r.PeakBytes = 0, 0, 0, 0, 0
		}
		require.Equal(rt, a, z, "%+v", opts)
	})
}

// Sleep sets (sleep.go), for bounds, faults, networks and workers drawn
// at random: the search is the one without them but for the transitions
// left out (Report.Slept, which with those taken make all of them), and
// the same, slept counts and coverage included, on any number of workers.
func TestSleepSetsUnderAnyBound(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		faults, err := model.ParseFaults(rapid.SampledFrom([]string{"none", "dup=1", "drop=1", "crash=1"}).Draw(rt, "faults"))
		require.NoError(rt, err)
		network := rapid.SampledFrom([]model.Network{model.FIFO, model.Unordered}).Draw(rt, "network")
		sp := raSpec(3, 1, model.Config{Faults: faults, Network: network})
		opts := checker.Options{
			MaxStates:    uint64(rapid.IntRange(0, 3000).Draw(rt, "max-states")),
			MaxDepth:     rapid.IntRange(0, 15).Draw(rt, "max-depth"),
			Exhaust:      rapid.Bool().Draw(rt, "exhaust"),
			SkipLiveness: true,
			Workers:      1,
		}
		all := sp.Check(opts)
		opts.Sleep = true
		one := sp.Check(opts)
		opts.Workers = rapid.IntRange(2, 5).Draw(rt, "workers")
		many := sp.Check(opts)
		for _, r := range []*checker.Report{all, one, many} {
			r.Elapsed, r.StatesPerSecond, r.TableBytes, r.FrontierBytes, r.PeakBytes = 0, 0, 0, 0, 0
		}
		require.Equal(rt, one, many, "%+v", opts)
		require.Equal(rt, all.Transitions, one.Transitions+one.Slept, "%+v", opts)
		one.Transitions, one.Slept, one.Coverage = all.Transitions, 0, all.Coverage
		require.Equal(rt, all, one, "%+v", opts)
	})
}
