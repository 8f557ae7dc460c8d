package maekawa

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/internal/steptest"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

// Each rule of seed 000's pseudocode ("Maekawa algorithm"), one step at a
// time, on the voting sets all (V_i is every process: K = N = 3). The
// model sends a process's own request and release to itself too (the
// notes: "we need to send release to all V_i, and then include i=j here
// too"), so K replies are awaited, its own vote among them.
func TestRules(t *testing.T) {
	sets, err := ParseSets("all", 3)
	require.NoError(t, err)
	p, err := New(3, 1, sets)
	require.NoError(t, err)
	queued := func(ts ...uint32) Queue { // the timestamps queued from p0, p1, ...
		var q Queue
		copy(q[:], ts)
		return q
	}
	// On initialization: state := RELEASED; voted := FALSE.
	var out model.Out[Msg]
	require.Equal(t, State{Phase: mutex.Released, Voted: Nobody}, p.Init(0, &out))
	require.Empty(t, steptest.Sends(p, &out))

	steptest.Check(t, p, []steptest.Rule[State, Msg]{
		steptest.Step("to enter: state := WANTED; multicast request to all processes in V_i", 1,
			State{Clock: 2, Voted: Nobody}, steptest.Input[Msg](mutex.Request),
			State{Phase: mutex.Wanted, Clock: 3, TS: 3, Voted: Nobody}, "p0 REQ(ts=3)", "p1 REQ(ts=3)", "p2 REQ(ts=3)"),
		steptest.Step("request, not voted: send reply; voted := TRUE", 2,
			State{Clock: 1, Voted: Nobody}, steptest.Receive(1, Msg{Kind: Request, TS: 3}),
			State{Clock: 3, Voted: 1}, "p1 GRANT"),
		steptest.Step("request, voted = TRUE: queue it without replying", 2,
			State{Clock: 3, Voted: 1}, steptest.Receive(0, Msg{Kind: Request, TS: 2}),
			State{Clock: 3, Voted: 1, Queued: queued(2)}),
		steptest.Step("request while HELD (voted for itself): queue it without replying", 1,
			State{Phase: mutex.Held, Clock: 3, TS: 3, Grants: 3, Voted: 1}, steptest.Receive(2, Msg{Kind: Request, TS: 4}),
			State{Phase: mutex.Held, Clock: 4, TS: 3, Grants: 3, Voted: 1, Queued: queued(0, 0, 4)}),
		steptest.Step("a reply counts towards K", 1,
			State{Phase: mutex.Wanted, Clock: 3, TS: 3, Grants: 1, Voted: 1}, steptest.Receive(2, Msg{Kind: Grant}),
			State{Phase: mutex.Wanted, Clock: 3, TS: 3, Grants: 2, Voted: 1}),
		steptest.Step("replies = K: state := HELD", 1,
			State{Phase: mutex.Wanted, Clock: 3, TS: 3, Grants: 3, Voted: 1}, steptest.Input[Msg](mutex.Enter),
			State{Phase: mutex.Held, Clock: 3, TS: 3, Grants: 3, Voted: 1}),
		steptest.Step("to exit: state := RELEASED; multicast release to all processes in V_i", 1,
			State{Phase: mutex.Held, Clock: 3, TS: 3, Grants: 3, Voted: 1}, steptest.Input[Msg](mutex.Exit),
			State{Clock: 3, Rounds: 1, Voted: 1}, "p0 REL", "p1 REL", "p2 REL"),
		steptest.Step("release, queue non-empty: remove its head p_k (the oldest request); reply to p_k; voted := TRUE", 2,
			State{Clock: 5, Voted: 1, Queued: queued(4, 0, 0, 0)}, steptest.Receive(1, Msg{Kind: Release}),
			State{Clock: 5, Voted: 0}, "p0 GRANT"),
		steptest.Step("the head is the smallest (timestamp, id): p0's (2) before p2's (3)", 1,
			State{Clock: 5, Voted: 1, Queued: queued(2, 0, 3)}, steptest.Receive(1, Msg{Kind: Release}),
			State{Clock: 5, Voted: 0, Queued: queued(0, 0, 3)}, "p0 GRANT"),
		steptest.Step("release, queue empty: voted := FALSE", 0,
			State{Clock: 5, Voted: 2}, steptest.Receive(2, Msg{Kind: Release}),
			State{Clock: 5, Voted: Nobody}),
	})

	// Wait until (number of replies received = K): enter is offered only
	// then, and request only while RELEASED with rounds left.
	steptest.Offers(t, p, 1,
		steptest.Offer(State{Phase: mutex.Wanted, TS: 3, Grants: 2, Voted: 1}),
		steptest.Offer(State{Phase: mutex.Wanted, TS: 3, Grants: 3, Voted: 1}, mutex.Enter),
		steptest.Offer(State{Voted: Nobody}, mutex.Request),
		steptest.Offer(State{Rounds: 1, Voted: Nobody}))
}
