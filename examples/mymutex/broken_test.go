package mymutex_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/examples/mymutex"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
)

// twoTokens is the tutorial's mutex with a bug a newcomer might write:
// every process starts a token, not only p0.
type twoTokens struct{ mymutex.Mutex }

func (twoTokens) Init(self model.NodeID, out *model.Out[mymutex.Msg]) mymutex.State {
	out.Send(1-self, mymutex.Msg{}) // BUG: p1 starts a second token
	return "idle"
}

// The checker finds the bug: each process requests and gets a token,
// and both are in the critical section, 4 steps in.
func TestTwoTokensViolateMutualExclusion(t *testing.T) {
	sp, err := checker.NewSpec(twoTokens{}, model.Config{}, spec.Properties())
	require.NoError(t, err)
	rep := sp.Check(checker.Options{})
	require.Empty(t, rep.Error)
	require.Equal(t, checker.Violated, rep.Verdict)
	require.NotNil(t, rep.Counterexample)
	require.Equal(t, invariants.MutualExclusionName, rep.Counterexample.Property)
	require.Len(t, rep.Counterexample.Steps, 4)
	var actions []string
	for _, s := range rep.Counterexample.Steps {
		actions = append(actions, s.Action)
	}
	require.Equal(t, "input p0 request; deliver p1->p0 {}; input p1 request; deliver p0->p1 {}", strings.Join(actions, "; "))
}
