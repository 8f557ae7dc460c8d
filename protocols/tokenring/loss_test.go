package tokenring

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
)

// Reference: seed 000, "What happens if the token is lost? A new one must
// be generated". The plain ring generates none: on a lossy network a
// dropped token leaves every later request waiting for ever. Nothing can
// move then, so the checker's first verdict is no-deadlock (a terminal
// state in which processes wait), found by the safety search; with the
// deadlock check left out, the liveness pass reports the same terminal
// state as a violation of starvation freedom. At most one token holds:
// losing the token is no breach of safety. The first run is the stored
// counterexamples/tokenring/plain-token-lost.cex.
func TestPlainTokenLost(t *testing.T) {
	cfg := config(t, model.FIFO, "drop=1", model.TimersDefault)
	rep := specOf(New(3, 1), cfg).Check(checker.Options{})
	require.Equal(t, checker.Violated, rep.Verdict)
	require.Equal(t, checker.DeadlockProperty, rep.Counterexample.Property)
	require.Equal(t, "the token is lost: no process holds it and none is in flight; p0, p1 and p2 wait for it for ever",
		rep.Counterexample.Detail)
	require.Equal(t, []string{"input p0 request", "input p1 request", "input p2 request", "drop p0->p1 TOKEN"},
		actions(rep.Counterexample))
	require.Equal(t, uint64(46), rep.States)

	for n := 2; n <= 4; n++ {
		sp := specOf(New(n, 1), cfg)
		sp.Deadlock = false
		rep := sp.Check(checker.Options{})
		require.Equal(t, checker.Violated, rep.Verdict, "n=%d", n)
		tr := rep.Counterexample
		require.Equal(t, "starvation-freedom", tr.Property, "n=%d", n)
		require.Nil(t, tr.Loop, "n=%d: the run ends: no cycle", n)
		require.Equal(t, "p0 waits forever: the run ends with p0 still pending", tr.Detail)
		require.Contains(t, actions(tr), "drop p0->p1 TOKEN")
	}

	// Without the loss, the same ring passes everything.
	rep = specOf(New(3, 1), model.Config{}).Check(checker.Options{})
	require.Equal(t, checker.Pass, rep.Verdict)
}

// actions lists the action lines of a trace.
func actions(tr *checker.Trace) []string {
	var as []string
	for _, st := range tr.Steps {
		as = append(as, st.Action)
	}
	return as
}
