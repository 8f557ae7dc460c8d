package tokenring

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/internal/codectest"
	"github.com/coordcheck/coordcheck/internal/steptest"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

func spec(n, rounds int) *checker.Spec[State, Msg] {
	return specOf(New(n, rounds), model.Config{})
}

// specOf is the spec of p's exported Properties under cfg: mutual
// exclusion, one token (at most one when a fault may lose a message), no
// deadlock and starvation freedom.
func specOf(p *Protocol, cfg model.Config) *checker.Spec[State, Msg] {
	return checker.SpecOf(model.MustNewSystem[State, Msg](p, cfg), Properties(p, cfg))
}

// config is the system configuration of a network, a -faults spec and a
// timer mode.
func config(t *testing.T, network model.Network, faults string, timers model.TimerMode) model.Config {
	t.Helper()
	f, err := model.ParseFaults(faults)
	require.NoError(t, err)
	return model.Config{Network: network, Faults: f, Timers: timers}
}

// pinned is a pinned row of a variant's state counts on FIFO links with
// token numbers modulo DefaultK: the search under the faults and timers
// passes every property of Properties and finds exactly these counts.
type pinned struct {
	n, rounds     int
	faults        string
	timers        model.TimerMode
	states, edges uint64
	depth         int
}

// check requires the row of variant v.
func (c pinned) check(t *testing.T, v Variant) {
	t.Helper()
	p := NewVariant(c.n, c.rounds, v, DefaultK)
	rep := specOf(p, config(t, model.FIFO, c.faults, c.timers)).Check(checker.Options{})
	require.Equal(t, checker.Pass, rep.Verdict, "%s %+v: %v", v, c, rep.Counterexample)
	require.Equal(t, c.states, rep.States, "%s %+v", v, c)
	require.Equal(t, c.edges, rep.Transitions, "%s %+v", v, c)
	require.Equal(t, c.depth, rep.Depth, "%s %+v", v, c)
}

// Pinned counts: any change in behaviour shows here. The counts equal the
// closed forms of TestCountsByHand. Every configuration passes mutual
// exclusion, one-token, no-deadlock and starvation freedom.
func TestStateCounts(t *testing.T) {
	for _, c := range []pinned{
		{2, 1, "none", model.TimersDefault, 30, 46, 9},
		{3, 1, "none", model.TimersDefault, 135, 252, 14},
		{3, 2, "none", model.TimersDefault, 675, 1365, 26},
		{4, 1, "none", model.TimersDefault, 540, 1188, 19},
		{4, 2, "none", model.TimersDefault, 4500, 10900, 35},
		{5, 2, "none", model.TimersDefault, 28125, 79375, 44},
	} {
		c.check(t, Plain)
	}
}

// The reachable states counted by hand. A process without the token is
// RELEASED after k rounds (k = 0..R) or WANTED after k rounds (k < R):
// 2R+1 states. A process with the token is WANTED or HELD, after k < R
// rounds: 2R states. Either the token is in flight on one of the N links
// and every process is tokenless, or one of N processes holds it:
//
//	states = N·(2R+1)^N + N·2R·(2R+1)^(N-1) = N·(4R+1)·(2R+1)^(N-1).
//
// Every one of them is reachable, as the token keeps circulating. Edges:
// a state with the token in flight has one delivery, a holder has one
// input (enter or exit), and each RELEASED process with rounds left (R of
// the 2R+1 tokenless states) has request:
//
//	edges = N·(2R+1)^N + N·N·R·(2R+1)^(N-1)               (in flight)
//	      + N·2R·(2R+1)^(N-1) + N·2R·(N-1)·R·(2R+1)^(N-2)  (held).
func TestCountsByHand(t *testing.T) {
	pow := func(b, e int) uint64 {
		x := uint64(1)
		for range e {
			x *= uint64(b)
		}
		return x
	}
	for n := 2; n <= 5; n++ {
		for r := 1; r <= 3; r++ {
			if n == 5 && r == 3 {
				continue
			}
			N, R, T := uint64(n), uint64(r), 2*r+1
			states := N*pow(T, n) + N*2*R*pow(T, n-1)
			edges := N*pow(T, n) + N*N*R*pow(T, n-1) + N*2*R*pow(T, n-1) + N*2*R*(N-1)*R*pow(T, n-2)
			rep := spec(n, r).Check(checker.Options{})
			require.Equal(t, checker.Pass, rep.Verdict, "n=%d rounds=%d", n, r)
			require.Equal(t, states, rep.States, "n=%d rounds=%d", n, r)
			require.Equal(t, edges, rep.Transitions, "n=%d rounds=%d", n, r)
		}
	}
}

// Reference: seed 000, "Token ring algorithm": p0 starts with the token and,
// not wanting the CS, forwards it clockwise; a process in enter() keeps it,
// enters, and passes it to its successor on exit.
func TestTokenCirculates(t *testing.T) {
	r, err := spec(3, 1).Replay([]string{
		"input p2 request",
		"deliver p0->p1 TOKEN",
		"deliver p1->p2 TOKEN",
		"input p2 enter",
		"input p2 exit",
		"deliver p2->p0 TOKEN",
		"deliver p0->p1 TOKEN",
	})
	require.NoError(t, err)
	steps := r.Trace.Steps
	require.Equal(t, []string{"p1->p2 TOKEN"}, steps[1].Sends) // p1 does not want it: forward
	require.Equal(t, "WANTED token rounds=0", steps[2].State)  // p2 wants it: keep
	require.Empty(t, steps[2].Sends)
	require.Equal(t, "HELD token rounds=0", steps[3].State)
	require.Equal(t, "RELEASED rounds=1", steps[4].State)
	require.Equal(t, []string{"p2->p0 TOKEN"}, steps[4].Sends) // exit: to the successor
	require.Equal(t, []string{"p0->p1 TOKEN"}, steps[5].Sends) // ring wraps around
	require.Empty(t, r.Trace.Property)
}

// Reference: seed 000, "Not necessarily the process enters the critical
// section": enter is offered only to a WANTED process holding the token.
func TestEnterNeedsToken(t *testing.T) {
	steptest.Offers(t, New(3, 1), 0,
		steptest.Offer(State{}, mutex.Request),
		steptest.Offer(State{Phase: mutex.Wanted}),
		steptest.Offer(State{Phase: mutex.Wanted, Token: true}, mutex.Enter),
		steptest.Offer(State{Phase: mutex.Held, Token: true}, mutex.Exit),
		steptest.Offer(State{Rounds: 1}))
}

// A lost token violates OneToken (what the regeneration variants repair);
// without loss the token still circulates once every process is done.
func TestOneToken(t *testing.T) {
	p := New(2, 1)
	w := &model.World[State, Msg]{Nodes: []State{{}, {}}, Timers: make([]uint64, 2)}
	ok, why := p.OneToken(w)
	require.False(t, ok)
	require.Equal(t, "0 tokens: 0 held, 0 in flight", why)
	w.Net = []model.Envelope[Msg]{{From: 1, To: 0, Msg: Msg{Kind: Token}}, {From: 2, To: 0, App: true}}
	ok, _ = p.OneToken(w) // an application message is no token
	require.True(t, ok)
	w.Nodes[0] = State{Phase: mutex.Wanted, Token: true}
	ok, why = p.OneToken(w)
	require.False(t, ok)
	require.Equal(t, "2 tokens: 1 held, 1 in flight", why)

	// Where tokens may be lost, none is no violation; two still are.
	ok, why = p.AtMostOneToken(w)
	require.False(t, ok)
	require.Equal(t, "2 tokens: 1 held, 1 in flight", why)
	w.Nodes[0], w.Net = State{}, nil
	ok, _ = p.AtMostOneToken(w)
	require.True(t, ok)

	// Ping-pong: one ping (held or in flight) and one pong.
	pp := NewVariant(2, 1, PingPong, DefaultK)
	w.Nodes[1] = State{Phase: mutex.Held, Token: true, Held: 1}
	ok, why = pp.OneToken(w)
	require.False(t, ok)
	require.Equal(t, "0 pongs in flight", why)
	ok, _ = pp.AtMostOneToken(w)
	require.True(t, ok)
	w.Net = []model.Envelope[Msg]{{From: 0, To: 1, Msg: Msg{Kind: Pong, V: -1}}}
	ok, _ = pp.OneToken(w)
	require.True(t, ok)
	w.Net = append(w.Net, model.Envelope[Msg]{From: 0, To: 1, Msg: Msg{Kind: Pong, V: -2}})
	ok, why = pp.AtMostOneToken(w)
	require.False(t, ok)
	require.Equal(t, "2 pongs in flight", why)

	r, err := spec(2, 1).Replay([]string{
		"input p0 request", "input p1 request",
		"deliver p0->p1 TOKEN", "input p1 enter", "input p1 exit",
		"deliver p1->p0 TOKEN", "input p0 enter", "input p0 exit",
		"deliver p0->p1 TOKEN", "deliver p1->p0 TOKEN", "deliver p0->p1 TOKEN",
	})
	require.NoError(t, err)
	require.Equal(t, []string{"p0  RELEASED rounds=1", "p1  RELEASED rounds=1", "net  p1->p0  TOKEN"}, r.Trace.Final)
}

// Reference: seed 001's table, token ring: happened-before ordering "No".
// The token serves requests in ring order: p2 asks first and tells p1
// (an application message), p1 asks next, and the token reaches p1 first:
// the exported properties with ordering fail on it.
func TestHappenedBeforeNotGuaranteed(t *testing.T) {
	rep := specOf(New(3, 1), model.Config{Ordering: true, AppMsgs: 1}).Check(checker.Options{})
	require.Equal(t, checker.Violated, rep.Verdict)
	require.Len(t, rep.Counterexample.Steps, 6)
	require.Equal(t, "p2's request happened before p1's, but p1 entered first", rep.Counterexample.Detail)
}

// Encodings round-trip exactly, and different values encode differently.
func TestCodecRoundTrip(t *testing.T) {
	p := New(3, 2)
	var states []State
	for _, ph := range []mutex.Phase{mutex.Released, mutex.Wanted, mutex.Held} {
		for r := range uint8(3) {
			for _, tok := range []bool{false, true} {
				for _, v := range []int8{-3, 0, 2} {
					for _, asking := range []bool{false, true} {
						states = append(states,
							State{Phase: ph, Rounds: r, Token: tok, Held: v, Asking: asking},
							State{Phase: ph, Rounds: r, Token: tok, Seen: v, Asking: asking})
					}
				}
			}
		}
	}
	codectest.States(t, p, states)
	msgs := []struct {
		m           Msg
		plain, text string // the text under Plain, and under the variant that uses m
		v           Variant
	}{
		{Msg{Kind: Token}, "TOKEN", "TOKEN(0)", Timeout},
		{Msg{Kind: Token, V: 2}, "TOKEN", "TOKEN(2)", Timeout},
		{Msg{Kind: Ask}, "ASK", "ASK", Timeout},
		{Msg{Kind: Answer, V: 1}, "STATE(1)", "STATE(1)", Timeout},
		{Msg{Kind: Ping, V: 3}, "PING(3)", "PING(3)", PingPong},
		{Msg{Kind: Pong, V: -3}, "PONG(-3)", "PONG(-3)", PingPong},
	}
	for _, c := range msgs {
		got, rest := p.ReadMsg(p.AppendMsg([]byte{}, c.m))
		require.Equal(t, c.m, got)
		require.Empty(t, rest)
		require.Equal(t, c.plain, p.FormatMsg(c.m))
		require.Equal(t, c.text, NewVariant(3, 2, c.v, DefaultK).FormatMsg(c.m))
	}
}
