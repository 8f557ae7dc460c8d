package ricartagrawala

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/internal/long"
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

// The state and edge counts equal SPIN's NOREDUCE counts on
// ../shared/bench/spin/models/ra.pml (SPIN's "transitions" is edges+1).
func TestStateCountsMatchSPIN(t *testing.T) {
	cases := []struct {
		n, rounds     int
		states, edges uint64
		depth         int
		long          bool
	}{
		{3, 1, 2357, 6282, 21, false},
		{3, 2, 29384, 81347, 42, false},
		{4, 1, 1470924, 7730343, 36, true},
	}
	for _, c := range cases {
		if c.long && !long.Enabled() {
			continue
		}
		rep := spec(c.n, c.rounds).Check(checker.Options{})
		require.Equal(t, checker.Pass, rep.Verdict, "n=%d rounds=%d", c.n, c.rounds)
		require.Equal(t, c.states, rep.States, "n=%d rounds=%d", c.n, c.rounds)
		require.Equal(t, c.edges, rep.Transitions, "n=%d rounds=%d", c.n, c.rounds)
		require.Equal(t, c.depth, rep.Depth, "n=%d rounds=%d", c.n, c.rounds)
		t.Logf("n=%d rounds=%d: %d states, %.0f states/s", c.n, c.rounds, rep.States, rep.StatesPerSecond)
	}
}
