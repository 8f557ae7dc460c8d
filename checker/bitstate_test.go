package checker_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/bully"
	"github.com/coordcheck/coordcheck/protocols/maekawa"
)

func maekawaSpec(t *testing.T, n int) *checker.Spec[maekawa.State, maekawa.Msg] {
	p, err := maekawa.New(n, 1, maekawa.AllSets(n))
	require.NoError(t, err)
	sp, err := checker.NewSpec[maekawa.State, maekawa.Msg](p, model.Config{}, maekawa.Properties(p, model.Config{}))
	require.NoError(t, err)
	return sp
}

// A bitstate search never claims a pass. With a large array it meets
// every state of Ricart-Agrawala N=3, rounds 2, as the exact search does
// (29,384), and says so; with a small one it misses some, and its coverage
// estimate says about how many.
func TestBitstateNeverPasses(t *testing.T) {
	sp := raSpec(3, 2, model.Config{})
	exact := sp.Check(checker.Options{SkipLiveness: true})
	require.Equal(t, checker.Pass, exact.Verdict)
	require.Equal(t, uint64(29384), exact.States)

	big := sp.Check(checker.Options{SkipLiveness: true, Bitstate: 4 << 20})
	require.Equal(t, checker.Inconclusive, big.Verdict)
	require.Equal(t, exact.States, big.States)
	require.Contains(t, big.Bound, "bitstate: estimated coverage 100.00")
	require.Contains(t, big.Bound, "no pass is claimed")

	small := sp.Check(checker.Options{SkipLiveness: true, Bitstate: 8 << 10})
	require.Equal(t, checker.Inconclusive, small.Verdict)
	require.Equal(t, uint64(24331), small.States, "the fingerprints and hashes are fixed: the same states are lost every run")
	require.Contains(t, small.Bound, "bitstate: estimated coverage")
	require.NotContains(t, small.Bound, "coverage 100.00")
	t.Logf("64 Kbit: %d of %d states; %s", small.States, exact.States, small.Bound)
}

// A violation a bitstate search finds is real, and its counterexample is
// the exact search's (rebuilt by the second, exact BFS).
func TestBitstateFindsTheShortestDeadlock(t *testing.T) {
	sp := maekawaSpec(t, 3)
	exact := sp.Check(checker.Options{SkipLiveness: true})
	bits := sp.Check(checker.Options{SkipLiveness: true, Bitstate: 1 << 20})
	require.Equal(t, checker.Violated, bits.Verdict)
	require.Equal(t, exact.Counterexample, bits.Counterexample)
	require.Len(t, bits.Counterexample.Steps, 15)
}

// What a bitstate search cannot do is refused, never a silent pass.
func TestBitstateRefusals(t *testing.T) {
	sp := raSpec(2, 1, model.Config{})
	for _, opts := range []checker.Options{
		{Bitstate: 1 << 20, Strategy: checker.DFS},
		{Bitstate: 1 << 20, KeepGraph: true},
		{Bitstate: 1 << 20, Checkpoint: "x.ckpt"},
	} {
		rep := sp.Check(opts)
		require.Equal(t, checker.Inconclusive, rep.Verdict)
		require.NotEmpty(t, rep.Error)
	}
}

// A bitstate search of a spec with liveness properties checks safety and
// deadlock only: a bit array cannot tell a state met before from one of
// the next level, so the graph-free liveness check would take every state
// met again for a cycle and give up at once (it did, after 8 of bully's
// 21 states, and before that once panicked at a terminal state, asking
// the array for a state's number). It meets every state, says which
// properties it left out, and still finds what safety violation there is.
func TestBitstateChecksSafetyOnlyBesideLiveness(t *testing.T) {
	bullySpec := func(faults string) *checker.Spec[bully.State, bully.Msg] {
		f, err := model.ParseFaults(faults)
		require.NoError(t, err)
		cfg := model.Config{Faults: f}
		p := bully.New(3)
		sp, err := checker.NewSpec[bully.State, bully.Msg](p, cfg, bully.Properties(p, false))
		require.NoError(t, err)
		return sp
	}
	sp := bullySpec("crash=1")
	exact := sp.Check(checker.Options{})
	require.Equal(t, checker.Pass, exact.Verdict)
	require.Equal(t, uint64(21), exact.States)
	rep := sp.Check(checker.Options{Bitstate: 1 << 20})
	require.Empty(t, rep.Error)
	require.Equal(t, checker.Inconclusive, rep.Verdict)
	require.Equal(t, exact.States, rep.States)
	require.Contains(t, rep.Bound, "bitstate: estimated coverage 100.00")
	require.Contains(t, rep.Bound, "; election-liveness not checked (liveness is checked on the exact search only)")

	// The restart breaks bully's safety: the same shortest violation.
	sp = bullySpec("crash=1,restart=1")
	exact = sp.Check(checker.Options{})
	require.Equal(t, checker.Violated, exact.Verdict)
	rep = sp.Check(checker.Options{Bitstate: 1 << 20})
	require.Equal(t, checker.Violated, rep.Verdict)
	require.Equal(t, exact.Counterexample.Property, rep.Counterexample.Property)
	require.Equal(t, exact.Counterexample.Steps, rep.Counterexample.Steps)
}
