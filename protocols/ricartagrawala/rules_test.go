package ricartagrawala

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/internal/steptest"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

// Each rule of seed 000's pseudocode ("Ricart-Agrawala algorithm"), one
// step at a time, with the notes' clocks (a reply carries the replier's
// clock T_i; a receipt takes the larger clock).
func TestRules(t *testing.T) {
	p := New(3, 1)
	steptest.Check(t, p, []steptest.Rule[State, Msg]{
		steptest.Step("to enter: state := WANTED; multicast request to all processes; T := request's timestamp", 1,
			State{Clock: 4}, steptest.Input[Msg](mutex.Request),
			State{Phase: mutex.Wanted, Clock: 5, TS: 5}, "p0 REQ(ts=5)", "p2 REQ(ts=5)"),
		steptest.Step("a reply counts towards N-1, and its clock is taken", 1,
			State{Phase: mutex.Wanted, Clock: 5, TS: 5}, steptest.Receive(0, Msg{Kind: Reply, TS: 7}),
			State{Phase: mutex.Wanted, Clock: 7, TS: 5, Replies: 1}),
		steptest.Step("replies = N-1: state := HELD", 1,
			State{Phase: mutex.Wanted, Clock: 7, TS: 5, Replies: 2}, steptest.Input[Msg](mutex.Enter),
			State{Phase: mutex.Held, Clock: 7, TS: 5, Replies: 2}),
		steptest.Step("request while HELD: queue it without replying", 0,
			State{Phase: mutex.Held, Clock: 7, TS: 5, Replies: 2}, steptest.Receive(2, Msg{Kind: Request, TS: 3}),
			State{Phase: mutex.Held, Clock: 7, TS: 5, Replies: 2, Deferred: 1 << 2}),
		steptest.Step("request while WANTED and (T, p_j) < (T_i, p_i): queue it", 0,
			State{Phase: mutex.Wanted, Clock: 5, TS: 5}, steptest.Receive(2, Msg{Kind: Request, TS: 6}),
			State{Phase: mutex.Wanted, Clock: 6, TS: 5, Deferred: 1 << 2}),
		steptest.Step("equal timestamps: the lower id has the preference (p0 queues p2's)", 0,
			State{Phase: mutex.Wanted, Clock: 5, TS: 5}, steptest.Receive(2, Msg{Kind: Request, TS: 5}),
			State{Phase: mutex.Wanted, Clock: 5, TS: 5, Deferred: 1 << 2}),
		steptest.Step("equal timestamps: the lower id has the preference (p2 replies to p0)", 2,
			State{Phase: mutex.Wanted, Clock: 5, TS: 5}, steptest.Receive(0, Msg{Kind: Request, TS: 5}),
			State{Phase: mutex.Wanted, Clock: 5, TS: 5}, "p0 REP(clock=5)"),
		steptest.Step("request while WANTED with a later own timestamp: reply immediately", 1,
			State{Phase: mutex.Wanted, Clock: 6, TS: 6}, steptest.Receive(0, Msg{Kind: Request, TS: 4}),
			State{Phase: mutex.Wanted, Clock: 6, TS: 6}, "p0 REP(clock=6)"),
		steptest.Step("request while RELEASED: reply immediately, with the larger clock", 1,
			State{Clock: 2}, steptest.Receive(2, Msg{Kind: Request, TS: 9}),
			State{Clock: 9}, "p2 REP(clock=9)"),
		steptest.Step("to exit: state := RELEASED; reply to any queued requests", 0,
			State{Phase: mutex.Held, Clock: 8, TS: 5, Replies: 2, Deferred: 1<<1 | 1<<2}, steptest.Input[Msg](mutex.Exit),
			State{Clock: 8, Rounds: 1}, "p1 REP(clock=8)", "p2 REP(clock=8)"),
	})

	// Wait until (number of replies received = (N-1)): enter is offered
	// only then, and request only while RELEASED with rounds left.
	steptest.Offers(t, p, 1,
		steptest.Offer(State{Phase: mutex.Wanted, TS: 5, Replies: 1}),
		steptest.Offer(State{Phase: mutex.Wanted, TS: 5, Replies: 2}, mutex.Enter),
		steptest.Offer(State{}, mutex.Request),
		steptest.Offer(State{Rounds: 1}),
		steptest.Offer(State{Phase: mutex.Held}, mutex.Exit))

	// The SPIN variant's replies carry no time (the anchor model).
	spin := &Protocol{N: 3, Rounds: 1, Clocks: SPIN}
	steptest.Check(t, spin, []steptest.Rule[State, Msg]{
		steptest.Step("SPIN: request while RELEASED: reply immediately, without a time", 1,
			State{Clock: 2}, steptest.Receive(2, Msg{Kind: Request, TS: 9}),
			State{Clock: 9}, "p2 REP"),
	})
	require.Equal(t, Msg{Kind: Reply}, spin.reply(State{Clock: 9}))
}
