package tokenring

import (
	"os"
	"strings"
	"testing"

	"github.com/coordcheck/coordcheck/internal/long"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
)

// Pinned counts of the timeout-based regeneration on FIFO links: every
// configuration passes mutual exclusion, at most one token, no deadlock
// and starvation freedom, with perfect timers (the slides' "timeout >
// exclusion time + protocol time") and with timers that fire at any time.
// A premature timeout does no harm on FIFO links: the token P_j passed on
// travels on the link to P_i ahead of P_j's answer, so P_i receives it
// before it can take it for lost.
func TestTimeoutStateCounts(t *testing.T) {
	for _, c := range []pinned{
		{2, 1, "none", model.TimersDefault, 90, 138, 13},
		{3, 1, "none", model.TimersDefault, 405, 756, 20},
		{2, 1, "drop=1", model.TimersDefault, 1278, 2766, 19},
		{3, 1, "drop=1", model.TimersDefault, 21951, 75303, 29},
		{4, 1, "drop=1", model.TimersDefault, 312012, 1411020, 39},
		{3, 2, "drop=1", model.TimersDefault, 106425, 383490, 39},
		{2, 1, "none", model.TimersFree, 2538, 7506, 18},
		{3, 1, "none", model.TimersFree, 54675, 302940, 26},
		{2, 1, "drop=1", model.TimersFree, 8352, 30468, 22},
		{3, 1, "drop=1", model.TimersFree, 215865, 1310391, 30},
	} {
		if !long.Enabled() && c.states > 100000 {
			continue
		}
		c.check(t, Timeout)
	}
}

// The 1.1 million states of four processes with premature timeouts.
func TestTimeoutStateCountsLong(t *testing.T) {
	long.Skip(t)
	p := NewVariant(4, 1, Timeout, DefaultK)
	rep := specOf(p, config(t, model.FIFO, "none", model.TimersFree)).Check(checker.Options{})
	require.Equal(t, checker.Pass, rep.Verdict)
	require.Equal(t, uint64(1093500), rep.States)
	require.Equal(t, uint64(7954200), rep.Transitions)
}

// Without loss and with perfect timers no timer ever fires, and the token
// value of each state follows from the tour: the timeout variant has
// exactly k times the states and transitions of the plain ring.
func TestTimeoutReliableIsPlainTimesK(t *testing.T) {
	for n := 2; n <= 4; n++ {
		for k := 2; k <= 4; k++ {
			plain := spec(n, 1).Check(checker.Options{})
			rep := specOf(NewVariant(n, 1, Timeout, k), model.Config{}).Check(checker.Options{})
			require.Equal(t, checker.Pass, rep.Verdict)
			require.Equal(t, uint64(k)*plain.States, rep.States, "n=%d k=%d", n, k)
			require.Equal(t, uint64(k)*plain.Transitions, rep.Transitions, "n=%d k=%d", n, k)
		}
	}
}

// Reference: seed 000's extra slides, "what happens if one process begins
// a token detection and it is not lost yet?". A second token, when P_j's
// answer overtakes the slow token: on an unordered network. The shortest
// run makes two tokens in 3 steps (one-token); with that invariant left
// out, the shortest violation of mutual exclusion takes 9 and is the
// stored counterexamples/tokenring/timeout-second-token.cex.
func TestTimeoutSecondToken(t *testing.T) {
	cfg := config(t, model.Unordered, "none", model.TimersFree)
	p := NewVariant(2, 1, Timeout, DefaultK)
	rep := specOf(p, cfg).Check(checker.Options{})
	require.Equal(t, checker.Violated, rep.Verdict)
	require.Equal(t, OneTokenName, rep.Counterexample.Property)
	require.Equal(t, "2 tokens: 0 held, 2 in flight", rep.Counterexample.Detail)
	require.Equal(t, []string{"fire p1 token-timeout", "deliver p1->p0 ASK", "deliver p0->p1 STATE(1)"},
		actions(rep.Counterexample))

	sp := &checker.Spec[State, Msg]{
		System:     model.MustNewSystem[State, Msg](p, cfg),
		Invariants: []checker.Invariant[State, Msg]{invariants.MutualExclusion[State, Msg](p)},
		Deadlock:   true,
	}
	rep = sp.Check(checker.Options{})
	require.Equal(t, checker.Violated, rep.Verdict)
	tr := rep.Counterexample
	require.Equal(t, invariants.MutualExclusionName, tr.Property)
	require.Equal(t, "p0 and p1 are in the critical section at once", tr.Detail)
	require.Equal(t, storedActions(t, "timeout-second-token.cex"), actions(tr))
}

// Perfect timers do not save an unordered network either: with the token
// lost, p2 asks p1 while p1 regenerates the token; p1 answers after
// passing the new token on, the answer overtakes it, and p2 regenerates a
// second one.
func TestTimeoutLateAnswerUnordered(t *testing.T) {
	p := NewVariant(3, 1, Timeout, DefaultK)
	rep := specOf(p, config(t, model.Unordered, "drop=1", model.TimersDefault)).Check(checker.Options{})
	require.Equal(t, checker.Violated, rep.Verdict)
	require.Equal(t, OneTokenName, rep.Counterexample.Property)
	require.Equal(t, []string{
		"drop p0->p1 TOKEN(1)",
		"fire p1 token-timeout",
		"deliver p1->p0 ASK",
		"fire p2 token-timeout",
		"deliver p0->p1 STATE(1)",
		"deliver p2->p1 ASK",
		"deliver p1->p2 STATE(1)",
	}, actions(rep.Counterexample))
}

// The slides assume the question and its answer arrive: when the token
// and then p1's question are lost, only p1 could have detected the loss,
// and the others keep asking in vain: p0 starves (a fair lasso).
func TestTimeoutLostInquiry(t *testing.T) {
	p := NewVariant(3, 1, Timeout, DefaultK)
	rep := specOf(p, config(t, model.FIFO, "drop=2", model.TimersDefault)).Check(checker.Options{})
	require.Equal(t, checker.Violated, rep.Verdict)
	tr := rep.Counterexample
	require.Equal(t, "starvation-freedom", tr.Property)
	require.NotNil(t, tr.Loop)
	require.Equal(t, 4, *tr.Loop)
	require.Equal(t, []string{"input p0 request", "drop p0->p1 TOKEN(1)", "fire p1 token-timeout", "drop p1->p0 ASK"},
		actions(tr)[:4])
}

// Reference: seed 000's extra slides, the timeout-based algorithm: only
// P_0 advances the token value; a timeout makes P_i ask its predecessor;
// the token is lost if P_j already had it (its state is the value P_i is
// due to receive) and is then regenerated with P_j's value; otherwise P_i
// waits again.
func TestTimeoutRules(t *testing.T) {
	p := NewVariant(3, 1, Timeout, DefaultK)
	r, err := specOf(p, config(t, model.FIFO, "drop=1", model.TimersDefault)).Replay([]string{
		"drop p0->p1 TOKEN(1)",
		"fire p2 token-timeout",
		"deliver p2->p1 ASK",
		"deliver p1->p2 STATE(0)",
		"fire p1 token-timeout",
		"deliver p1->p0 ASK",
		"deliver p0->p1 STATE(1)",
		"deliver p1->p2 TOKEN(1)",
		"deliver p2->p0 TOKEN(1)",
	})
	require.NoError(t, err)
	st := r.Trace.Steps
	require.Equal(t, "RELEASED state=0 asking rounds=0", st[1].State)
	require.Equal(t, []string{"p2->p1 ASK"}, st[1].Sends)      // ask the previous P_j
	require.Equal(t, []string{"p1->p2 STATE(0)"}, st[2].Sends) // P_j's state variable
	require.Equal(t, "RELEASED state=0 rounds=0", st[3].State)
	require.Empty(t, st[3].Sends) // p1 has not had the token: not lost, wait again
	require.Equal(t, []string{"p0->p1 STATE(1)"}, st[5].Sends)
	require.Equal(t, "RELEASED state=1 rounds=0", st[6].State) // p0 had it, p1 did not: regenerate
	require.Equal(t, []string{"p1->p2 TOKEN(1)"}, st[6].Sends)
	require.Equal(t, []string{"p2->p0 TOKEN(1)"}, st[7].Sends) // only P_0 advances v
	require.Equal(t, []string{"p0->p1 TOKEN(2)"}, st[8].Sends)
	require.Empty(t, r.Trace.Property)
	require.Contains(t, r.Trace.Final, "p2  RELEASED state=1 rounds=0  timers={token-timeout}")

	// Perfect timers: the timeout fires only when no token exists.
	w := &model.World[State, Msg]{Nodes: make([]State, 3), Timers: make([]uint64, 3)}
	require.True(t, p.TimerReady(w, 1, TimerToken))
	w.Nodes[1].Asking = true
	require.False(t, p.TimerReady(w, 1, TimerToken))
	w.Nodes[1].Asking = false
	w.Net = []model.Envelope[Msg]{{From: 0, To: 1, Msg: Msg{Kind: Token, V: 1}}}
	require.False(t, p.TimerReady(w, 1, TimerToken))
	w.Net = nil
	w.Nodes[2].Token = true
	require.False(t, p.TimerReady(w, 1, TimerToken))
}

// storedActions reads the action lines of a stored counterexample.
func storedActions(t *testing.T, name string) []string {
	t.Helper()
	data, err := os.ReadFile("../../counterexamples/tokenring/" + name)
	require.NoError(t, err)
	var as []string
	started := false
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, "----"):
			return as
		case strings.HasPrefix(line, "steps "):
			started = true
		case started && line != "loop" && !strings.HasPrefix(line, "#"):
			as = append(as, model.NormalizeAction(line))
		}
	}
	return as
}
