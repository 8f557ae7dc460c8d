package ricartagrawala

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/internal/spintest"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
)

func spec(n, rounds int) *checker.Spec[State, Msg] {
	p := New(n, rounds)
	p.Clocks = SPIN
	return &checker.Spec[State, Msg]{
		System:     model.MustNewSystem[State, Msg](p, model.Config{}),
		Invariants: []checker.Invariant[State, Msg]{invariants.MutualExclusion[State, Msg](p)},
		Deadlock:   true,
	}
}

// The default variant, the notes' (every message carries the sender's
// clock), checked for its exported Properties: mutual exclusion, no
// deadlock and starvation freedom hold (seed 000), and with happened-
// before tracked, requests are granted in that order. The counts are
// pinned; the SPIN variant's are below.
func TestDefaultVariantHolds(t *testing.T) {
	cases := []struct {
		n, rounds, appMsgs int
		ordering           bool
		states, edges      uint64
		depth              int
		properties         string
	}{
		{2, 1, 0, false, 40, 52, 10, "mutual-exclusion no-deadlock starvation-freedom"},
		{2, 2, 0, false, 172, 244, 20, "mutual-exclusion no-deadlock starvation-freedom"},
		{3, 1, 0, false, 2861, 7545, 21, "mutual-exclusion no-deadlock starvation-freedom"},
		{3, 2, 0, false, 42768, 117691, 42, "mutual-exclusion no-deadlock starvation-freedom"},
		{3, 1, 1, true, 56907, 189266, 23, "mutual-exclusion happened-before-order no-deadlock starvation-freedom"},
	}
	for _, c := range cases {
		p := New(c.n, c.rounds)
		require.Equal(t, Notes, p.Clocks)
		cfg := model.Config{Ordering: c.ordering, AppMsgs: c.appMsgs}
		sp, err := checker.NewSpec(p, cfg, Properties(p, cfg))
		require.NoError(t, err)
		rep := sp.Check(checker.Options{})
		name := fmt.Sprintf("n=%d rounds=%d ordering=%v", c.n, c.rounds, c.ordering)
		require.Equal(t, checker.Pass, rep.Verdict, "%s: %v", name, rep.Counterexample)
		require.Equal(t, c.properties, strings.Join(rep.Properties, " "), name)
		require.Equal(t, c.states, rep.States, name)
		require.Equal(t, c.edges, rep.Transitions, name)
		require.Equal(t, c.depth, rep.Depth, name)
		require.Empty(t, rep.Warnings, name)
	}
}

// The state and edge counts equal SPIN's NOREDUCE counts on
// ../shared/bench/spin/models/ra.pml (SPIN's "transitions" is edges+1).
func TestStateCountsMatchSPIN(t *testing.T) {
	cases := []struct {
		n, rounds int
		spintest.Counts
	}{
		{3, 1, spintest.Counts{States: 2357, Edges: 6282, Depth: 21}},
		{3, 2, spintest.Counts{States: 29384, Edges: 81347, Depth: 42}},
		{4, 1, spintest.Counts{States: 1470924, Edges: 7730343, Depth: 36, Long: true}},
	}
	for _, c := range cases {
		spintest.Match(t, fmt.Sprintf("n=%d rounds=%d", c.n, c.rounds), c.Counts,
			func() *checker.Report { return spec(c.n, c.rounds).Check(checker.Options{}) })
	}
}
