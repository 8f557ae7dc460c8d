package tokenring

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/internal/long"
	"github.com/coordcheck/coordcheck/model"
)

// Pinned counts of Misra's ping-pong on FIFO links, counts modulo 3. Every
// configuration passes mutual exclusion, one ping and one pong (at most,
// with a loss), no deadlock and starvation freedom: with a drop budget the
// loss happens at most once, the other token regenerates the lost one on
// its next round, and every cycle after that is loss-free, so weak
// fairness of delivery and of enter/exit brings the ping to every waiting
// process.
func TestPingPongStateCounts(t *testing.T) {
	for _, c := range []pinned{
		{2, 1, "none", model.TimersDefault, 248, 500, 16},
		{3, 1, "none", model.TimersDefault, 1957, 4770, 26},
		{4, 1, "none", model.TimersDefault, 11824, 33404, 36},
		{2, 1, "drop=1", model.TimersDefault, 972, 2092, 18},
		{3, 1, "drop=1", model.TimersDefault, 8675, 21867, 29},
		{4, 1, "drop=1", model.TimersDefault, 59068, 170348, 40},
		{3, 2, "drop=1", model.TimersDefault, 54245, 151828, 44},
	} {
		c.check(t, PingPong)
	}
}

// Five processes with a loss, and counts modulo 4.
func TestPingPongStateCountsLong(t *testing.T) {
	long.Skip(t)
	rep := specOf(NewVariant(5, 1, PingPong, DefaultK), config(t, model.FIFO, "drop=1", model.TimersDefault)).Check(checker.Options{})
	require.Equal(t, checker.Pass, rep.Verdict)
	require.Equal(t, uint64(341610), rep.States)
	require.Equal(t, uint64(1107062), rep.Transitions)
	rep = specOf(NewVariant(3, 1, PingPong, 4), config(t, model.FIFO, "drop=1", model.TimersDefault)).Check(checker.Options{})
	require.Equal(t, checker.Pass, rep.Verdict)
	require.Equal(t, uint64(11228), rep.States)
}

// Counting modulo 2 is too few: after the ping is lost, p0 regenerates it
// as ping 2 / pong -2; the pong meets the ping held at p1 and comes back
// as -1, the number p2 recorded before the loss, so p2 takes the ping for
// lost too and makes a second one.
func TestPingPongCountsModuloTwo(t *testing.T) {
	rep := specOf(NewVariant(3, 1, PingPong, 2), config(t, model.FIFO, "drop=1", model.TimersDefault)).Check(checker.Options{})
	require.Equal(t, checker.Violated, rep.Verdict)
	tr := rep.Counterexample
	require.Equal(t, OneTokenName, tr.Property)
	require.Equal(t, "2 pings: 1 held, 1 in flight", tr.Detail)
	require.Len(t, tr.Steps, 8)
	require.Equal(t, "WANTED ping(1) m=-1 rounds=0", tr.Steps[6].State) // the meeting wraps 2 to 1
}

// Reference: seed 000's extra slides, "assume that the tokens don't
// overtake each other". On an unordered network the pong overtakes the
// ping, goes round, and p0 regenerates a ping that is not lost: stored as
// counterexamples/tokenring/pingpong-overtaking.cex.
func TestPingPongOvertaking(t *testing.T) {
	rep := specOf(NewVariant(3, 1, PingPong, DefaultK), model.Config{Network: model.Unordered}).Check(checker.Options{})
	require.Equal(t, checker.Violated, rep.Verdict)
	require.Equal(t, "2 pings: 0 held, 2 in flight", rep.Counterexample.Detail)
	require.Equal(t, storedActions(t, "pingpong-overtaking.cex"), actions(rep.Counterexample))
}

// Misra's algorithm repairs the loss of one token: with both lost nothing
// is left to regenerate either.
func TestPingPongBothLost(t *testing.T) {
	rep := specOf(NewVariant(3, 1, PingPong, DefaultK), config(t, model.FIFO, "drop=2", model.TimersDefault)).Check(checker.Options{})
	require.Equal(t, checker.Violated, rep.Verdict)
	require.Equal(t, checker.DeadlockProperty, rep.Counterexample.Property)
	require.Equal(t, "ping and pong are both lost; p0, p1 and p2 wait for ever", rep.Counterexample.Detail)
}

// Reference: seed 000's extra slides, the ping-pong pseudocode. A ping
// that finds m = nbping has gone round without meeting the pong: the pong
// is lost, and both numbers move on (nbping := nbping+1; nbpong :=
// -nbping). A pong that arrives where the ping waits meets it: nbping++,
// nbpong--.
func TestPingPongRules(t *testing.T) {
	p := NewVariant(3, 1, PingPong, DefaultK)
	r, err := specOf(p, config(t, model.FIFO, "drop=1", model.TimersDefault)).Replay([]string{
		"drop p0->p1 PONG(-1)",
		"deliver p0->p1 PING(1)",
		"deliver p1->p2 PING(1)",
		"deliver p2->p0 PING(1)",
		"deliver p0->p1 PING(1)",
		"input p2 request",
		"deliver p1->p2 PONG(-2)",
		"deliver p1->p2 PING(2)",
		"deliver p2->p0 PONG(-2)",
		"deliver p0->p1 PONG(-2)",
		"deliver p1->p2 PONG(-2)",
	})
	require.NoError(t, err)
	st := r.Trace.Steps
	require.Equal(t, "RELEASED m=1 rounds=0", st[1].State) // token <> nbping: token := nbping
	require.Equal(t, []string{"p1->p2 PING(1)"}, st[1].Sends)
	require.Equal(t, "RELEASED m=1 rounds=0", st[3].State) // p0 saw the pong last: m was -1
	require.Equal(t, "RELEASED m=2 rounds=0", st[4].State) // ping back, m = nbping: pong lost
	require.Equal(t, []string{"p1->p2 PONG(-2)", "p1->p2 PING(2)"}, st[4].Sends)
	require.Equal(t, "WANTED ping(2) m=2 rounds=0", st[7].State) // pinghere: kept for the CS
	require.Empty(t, st[7].Sends)
	require.Equal(t, "WANTED ping(3) m=-3 rounds=0", st[10].State) // the tokens meet
	require.Equal(t, []string{"p2->p0 PONG(-3)"}, st[10].Sends)
	require.Empty(t, r.Trace.Property)
}
