package checker

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/centralized"
	"github.com/coordcheck/coordcheck/protocols/maekawa"
	ra "github.com/coordcheck/coordcheck/protocols/ricartagrawala"
)

// The log finds each state's parent by counting: state 0 made states 1
// and 2 (actions 0 and 3), state 1 made 3 (action 1), state 2 made none,
// state 3 made 300 states (4 .. 303, the last by action 299), whose
// count and index are kept apart from the bytes.
func TestParentLogPaths(t *testing.T) {
	l := newParentLog()
	l.found(0)
	l.found(3)
	l.expanded(2)
	l.found(1)
	l.expanded(1)
	l.expanded(0)
	for a := range 300 {
		l.found(a)
	}
	l.expanded(300)
	cases := map[uint64][]int{0: nil, 1: {0}, 2: {3}, 3: {0, 1}, 4: {0, 1, 0}, 303: {0, 1, 299}}
	for v, want := range cases {
		got, ok := l.path(v)
		require.True(t, ok, "state %d", v)
		require.Equal(t, want, got, "state %d", v)
	}
	_, ok := l.path(304)
	require.False(t, ok, "no state 304 was logged")

	// A search stopped inside an expansion logged new states whose
	// parent's count it did not: they are past the log's reach.
	l.found(7)
	_, ok = l.path(304)
	require.False(t, ok)
	got, _ := l.path(303)
	require.Equal(t, []int{0, 1, 299}, got)
}

// The level engine's log, written by several workers a range of states
// each, holds the bytes, the large counts and indices, and the paths of
// the log the one-worker search writes a state at a time; records past
// popped are left out. States 0 to 4 make 2, 0, 300 (the last by action
// 299), 1 and 1 new states, state 4 being past popped.
func TestLevelLogIsTheSerialLog(t *testing.T) {
	kids := []int{2, 0, 300, 1, 1}
	var fresh []rec
	for k, c := range kids {
		for a := range c {
			fresh = append(fresh, rec{fp: uint64(len(fresh) + 1), key: uint64(k)<<16 | uint64(a)})
		}
	}
	const popped = 3
	want := newParentLog()
	for _, c := range kids[:popped+1] {
		for a := range c {
			want.found(a)
		}
		want.expanded(c)
	}
	for _, workers := range []int{1, 2, 3} {
		ws := make([]*levelWorker[struct{}, struct{}], workers)
		for i := range ws {
			ws[i] = &levelWorker[struct{}, struct{}]{idx: uint64(i)}
		}
		got := newParentLog()
		logLevel(ws, got, fresh, popped)
		require.Equal(t, want.total, got.total, "workers %d", workers)
		require.Equal(t, want.bigKids, got.bigKids, "workers %d", workers)
		require.Equal(t, want.bigActs, got.bigActs, "workers %d", workers)
		require.Equal(t, want.kids.n, got.kids.n)
		require.Equal(t, want.acts.n, got.acts.n)
		for i := range want.kids.n {
			require.Equal(t, want.kids.at(i), got.kids.at(i), "kids byte %d, workers %d", i, workers)
		}
		for i := range want.acts.n {
			require.Equal(t, want.acts.at(i), got.acts.at(i), "acts byte %d, workers %d", i, workers)
		}
		// State 302, the last of state 2's, which is state 0's second.
		p, ok := got.path(302)
		require.True(t, ok)
		require.Equal(t, []int{1, 299}, p, "workers %d", workers)
	}
}

// A BFS that keeps no parents takes its counterexample's path from the
// parent log, on one worker and on two, and the counterexample is the one
// the second search the log replaces (pathTo) gives: the same first
// discoverers. Checked on a mutual-exclusion violation (12 steps), a
// deadlock under max-depth; and centralized's deadlock after a crash,
// with symmetry reduction (the path holds representatives).
func TestParentLogGivesTheSecondSearchsPath(t *testing.T) {
	spec := func(faults string) *Spec[ra.State, ra.Msg] {
		f, err := model.ParseFaults(faults)
		require.NoError(t, err)
		p := ra.New(3, 1)
		p.Clocks = ra.SPIN
		return &Spec[ra.State, ra.Msg]{
			System:     model.MustNewSystem[ra.State, ra.Msg](p, model.Config{Faults: f}),
			Invariants: []Invariant[ra.State, ra.Msg]{invariants.MutualExclusion[ra.State, ra.Msg](p)},
			Deadlock:   true,
		}
	}
	cases := []struct {
		faults string
		opts   Options
		steps  int
	}{
		{"dup=1", Options{}, 12},
		{"crash=1", Options{MaxDepth: 7}, 6},
	}
	for _, c := range cases {
		for _, workers := range []int{1, 2} {
			sp := spec(c.faults)
			opts := c.opts
			opts.Workers = workers
			var logged []bool
			opts.loggedPath = func(ok bool) { logged = append(logged, ok) }
			rep := sp.Check(opts)
			require.Equal(t, Violated, rep.Verdict, "%s %d workers: %s %s", c.faults, workers, rep.Bound, rep.Error)
			require.Equal(t, []bool{true}, logged, "%s %d workers: the path came from the log", c.faults, workers)
			require.Len(t, rep.Counterexample.Steps, c.steps)

			opts.noParentLog, opts.loggedPath = true, nil
			again := sp.Check(opts)
			require.Equal(t, again.Counterexample, rep.Counterexample, "%s %d workers", c.faults, workers)
		}
	}

	f, err := model.ParseFaults("crash=1")
	require.NoError(t, err)
	p := centralized.New(3, 1)
	cfg := model.Config{Faults: f}
	sp := SpecOf(model.MustNewSystem[centralized.State, centralized.Msg](p, cfg), centralized.Properties(p, cfg))
	for _, workers := range []int{1, 2} {
		var logged []bool
		opts := Options{Symmetry: true, SkipLiveness: true, Workers: workers, loggedPath: func(ok bool) { logged = append(logged, ok) }}
		rep := sp.Check(opts)
		require.Equal(t, Violated, rep.Verdict, "%s %s", rep.Bound, rep.Error)
		require.Equal(t, []bool{true}, logged)
		require.Len(t, rep.Counterexample.Steps, 4)
		opts.noParentLog, opts.loggedPath = true, nil
		require.Equal(t, sp.Check(opts).Counterexample, rep.Counterexample)
	}
}

// The graph-free liveness check's trace to a terminal state where a node
// still waits takes its path from the parent log too: Maekawa N=3, whose
// deadlock, the no-deadlock check left out, leaves processes waiting
// forever in a state graph with no cycle.
func TestParentLogGivesTheTerminalTracesPath(t *testing.T) {
	p, err := maekawa.New(3, 1, maekawa.AllSets(3))
	require.NoError(t, err)
	set := maekawa.Properties(p, model.Config{})
	set.Deadlock = false
	sp := SpecOf(model.MustNewSystem[maekawa.State, maekawa.Msg](p, model.Config{}), set)
	for _, workers := range []int{1, 2} {
		var logged []bool
		opts := Options{Workers: workers, loggedPath: func(ok bool) { logged = append(logged, ok) }}
		rep := sp.Check(opts)
		require.Equal(t, Violated, rep.Verdict, "%s %s", rep.Bound, rep.Error)
		require.Equal(t, "acyclic", rep.Liveness)
		require.Equal(t, invariants.StarvationFreedomName, rep.Counterexample.Property)
		require.Len(t, rep.Counterexample.Steps, 15)
		require.Equal(t, []bool{true}, logged, "%d workers: the path came from the log", workers)
		opts.noParentLog, opts.loggedPath = true, nil
		require.Equal(t, sp.Check(opts).Counterexample, rep.Counterexample)
	}
}

// Cursors set a log's bytes in order across its chunks, each from its
// own position, as logLevel's workers do side by side.
func TestLogCursorCrossesChunks(t *testing.T) {
	var b logBytes
	b.add(7) // a byte before: positions need not start a chunk
	const n = 3*logChunk + 5
	at := b.extend(n)
	// Three cursors over consecutive ranges, the middle one across two
	// chunk boundaries.
	cuts := []uint64{0, logChunk - 3, 2*logChunk + 10, n}
	for r := range len(cuts) - 1 {
		c := b.cursor(at + cuts[r])
		for i := cuts[r]; i < cuts[r+1]; i++ {
			c.put(byte(i * 31))
		}
	}
	require.Equal(t, uint64(n+1), b.n)
	require.Equal(t, byte(7), b.at(0))
	for i := range uint64(n) {
		if b.at(at+i) != byte(i*31) {
			require.Equal(t, byte(i*31), b.at(at+i), "byte %d", i)
		}
	}
}
