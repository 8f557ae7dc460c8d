package maekawa

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
)

// Partial-order reduction keeps Maekawa's deadlock (seed 001): the same
// verdict and the same shortest counterexample length as the full search,
// the counterexample a real run that replays to the deadlock, in fewer
// states (the counts pinned: the reduction factor) and the same for any
// number of workers.
func TestPORKeepsTheDeadlock(t *testing.T) {
	cases := []struct {
		n                 int
		sets              string
		full, reduced     uint64
		fullEdges, redEdg uint64
		steps             int
	}{
		{3, "all", 43243, 28278, 170275, 91242, 15},
	}
	for _, c := range cases {
		sp := spec(t, c.n, 1, c.sets)
		sp.Invariants = nil // deadlock only: -por judges the terminal states
		full := sp.Check(checker.Options{})
		red := sp.Check(checker.Options{POR: true})
		require.Equal(t, checker.Violated, red.Verdict, red.Error)
		require.True(t, red.POR)
		require.Equal(t, full.Verdict, red.Verdict)
		require.Equal(t, checker.DeadlockProperty, red.Counterexample.Property)
		require.Len(t, full.Counterexample.Steps, c.steps)
		require.Len(t, red.Counterexample.Steps, c.steps)
		require.Equal(t, c.full, full.States)
		require.Equal(t, c.reduced, red.States)
		require.Equal(t, c.fullEdges, full.Transitions)
		require.Equal(t, c.redEdg, red.Transitions)
		t.Logf("maekawa n=%d sets=%s: %d states without -por, %d with (%.2fx); %d transitions, %d (%.2fx)", c.n, c.sets,
			full.States, red.States, float64(full.States)/float64(red.States),
			full.Transitions, red.Transitions, float64(full.Transitions)/float64(red.Transitions))
		var lines []string
		for _, s := range red.Counterexample.Steps {
			lines = append(lines, s.Action)
		}
		rp, err := sp.Replay(lines)
		require.NoError(t, err)
		require.Equal(t, checker.DeadlockProperty, rp.Trace.Property)
		for _, o := range []checker.Options{{Workers: 1}, {Workers: 2}} {
			o.POR = true
			o.Exhaust = true // the whole reduced space
			r := sp.Check(o)
			require.Equal(t, red.Counterexample, r.Counterexample)
			require.Equal(t, uint64(42106), r.States, "workers %d", o.Workers)
		}
		// Every deadlocked state of the full space is reached (a
		// persistent set keeps every terminal state).
		all := sp.Check(checker.Options{Exhaust: true})
		reducedAll := sp.Check(checker.Options{Exhaust: true, POR: true})
		require.Equal(t, all.ViolationCounts, reducedAll.ViolationCounts)
	}
}

// -por is refused where it would be unsound, with a line saying why, and
// a protocol whose messages contradict its Peers is caught.
func TestPORRefusals(t *testing.T) {
	withInvariants := spec(t, 3, 1, "all")
	faulty := spec(t, 3, 1, "all")
	faulty.Invariants = nil
	f, _ := model.ParseFaults("crash=1")
	faulty.System = model.MustNewSystem[State, Msg](faulty.System.P, model.Config{Faults: f})
	unordered := spec(t, 3, 1, "all")
	unordered.Invariants = nil
	unordered.System = model.MustNewSystem[State, Msg](unordered.System.P, model.Config{Network: model.Unordered})
	plain := spec(t, 3, 1, "all")
	plain.Invariants = nil
	for _, c := range []struct {
		sp   *checker.Spec[State, Msg]
		opts checker.Options
		want string
	}{
		{withInvariants, checker.Options{POR: true}, "-por: property mutual-exclusion is judged in every state"},
		{faulty, checker.Options{POR: true}, "-por: faults (-faults crash=1) touch every node's links"},
		{unordered, checker.Options{POR: true}, "-por: on an unordered network every new message is a new delivery"},
		{plain, checker.Options{POR: true, Strategy: checker.Random}, "-por: applies to bfs and dfs"},
		{plain, checker.Options{POR: true, Symmetry: true}, "-symmetry: is not combined with -por"},
	} {
		rep := c.sp.Check(c.opts)
		require.Equal(t, checker.Inconclusive, rep.Verdict)
		require.Contains(t, rep.Error, c.want)
	}
	liar := spec(t, 3, 1, "all")
	liar.Invariants = nil
	liar.System = model.MustNewSystem[State, Msg](noPeers{liar.System.P.(*Protocol)}, model.Config{})
	require.PanicsWithValue(t, "model: p0 sent REQ(ts=1) to p1, which its Peers excludes", func() {
		liar.Check(checker.Options{POR: true, Workers: 1})
	})
}

// noPeers claims that nobody sends to anybody but itself.
type noPeers struct{ *Protocol }

func (n noPeers) Peers(self model.NodeID) uint64 { return 1 << self }
