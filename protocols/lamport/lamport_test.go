package lamport

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/internal/codectest"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

func spec(n, rounds int, net model.Network) *checker.Spec[State, Msg] {
	return specWith(New(n, rounds), model.Config{Network: net})
}

// specWith checks p under cfg for its exported Properties.
func specWith(p *Protocol, cfg model.Config) *checker.Spec[State, Msg] {
	return checker.SpecOf(model.MustNewSystem[State, Msg](p, cfg), Properties(p, cfg))
}

// Pinned counts: any change in behaviour shows here. They equal the
// independent enumeration of TestIndependentEnumeration. Every
// configuration passes mutual exclusion, no-deadlock and starvation freedom.
//
// With the notes' clock rule (1 + max on every receipt) the clocks record
// how deliveries interleaved, so the space grows fast: N=3 with two rounds
// and N=4 with one round have more than 20 million states each and are not
// pinned here.
func TestStateCounts(t *testing.T) {
	cases := []struct {
		n, rounds     int
		states, edges uint64
		depth         int
	}{
		{2, 1, 100, 133, 12},
		{2, 2, 1702, 2780, 24},
		{2, 3, 10511, 18688, 36},
		{3, 1, 596326, 1595456, 27},
	}
	for _, c := range cases {
		rep := spec(c.n, c.rounds, model.FIFO).Check(checker.Options{})
		require.Equal(t, checker.Pass, rep.Verdict, "n=%d rounds=%d", c.n, c.rounds)
		require.Equal(t, c.states, rep.States, "n=%d rounds=%d", c.n, c.rounds)
		require.Equal(t, c.edges, rep.Transitions, "n=%d rounds=%d", c.n, c.rounds)
		require.Equal(t, c.depth, rep.Depth, "n=%d rounds=%d", c.n, c.rounds)
		t.Logf("n=%d rounds=%d: %d states in %s", c.n, c.rounds, rep.States, rep.Elapsed)
	}
}

// Reference: seed 002, "This algorithm requires communication channels to
// deliver messages the FIFO order". On an unordered network p0's REPLY can
// overtake its REQUEST: p1 then has L1 (a later message from p0) and L2
// (p0's request is not in its queue yet), and both sites enter.
func TestNeedsFIFO(t *testing.T) {
	rep := spec(2, 1, model.Unordered).Check(checker.Options{})
	require.Equal(t, checker.Violated, rep.Verdict)
	cx := rep.Counterexample
	require.Equal(t, invariants.MutualExclusionName, cx.Property)
	var actions []string
	for _, s := range cx.Steps {
		actions = append(actions, s.Action)
	}
	require.Equal(t, []string{
		"input p0 request",
		"input p1 request",
		"deliver p1->p0 REQ(ts=1)",
		"input p0 enter",
		"deliver p0->p1 REP(ts=2)",
		"input p1 enter",
	}, actions)
	require.Equal(t, "net  p0->p1  REQ(ts=1)", cx.Final[2])
}

// Reference: seed 002, "Lamport's Algorithm": REQUEST is queued and answered
// with a timestamped REPLY; the clock becomes 1 + max (seed 000); L1 needs
// a later message from every other site, L2 the own request at the head;
// RELEASE removes the request, which can bring the own one to the head.
func TestRules(t *testing.T) {
	r, err := spec(3, 1, model.FIFO).Replay([]string{
		"input p1 request",         // REQUEST(1, p1) to all, queued at p1
		"input p0 request",         // REQUEST(1, p0)
		"deliver p1->p0 REQ(ts=1)", // p0: clock 1+max(1,1)=2; (1,p1) is later than (1,p0)
		"deliver p0->p1 REQ(ts=1)", // p1 queues (1,p0) ahead of its own
		"deliver p0->p2 REQ(ts=1)",
		"deliver p1->p2 REQ(ts=1)",
		"deliver p2->p0 REP(ts=2)", // p0 has L1 and L2
	})
	require.NoError(t, err)
	st := r.Trace.Steps
	require.Equal(t, "WANTED clock=1 queue=[1:p1] rounds=0", st[0].State)
	require.Equal(t, []string{"p1->p0 REQ(ts=1)", "p1->p2 REQ(ts=1)"}, st[0].Sends)
	require.Equal(t, "WANTED clock=2 queue=[1:p0 1:p1] heard={p1} rounds=0", st[2].State)
	require.Equal(t, []string{"p0->p1 REP(ts=2)"}, st[2].Sends)
	require.Equal(t, "WANTED clock=2 queue=[1:p0 1:p1] rounds=0", st[3].State)
	require.Equal(t, "RELEASED clock=3 queue=[1:p0 1:p1] rounds=0", st[5].State)
	require.Equal(t, "WANTED clock=3 queue=[1:p0 1:p1] heard={p1,p2} rounds=0", st[6].State)

	// p0 may enter; p1 has L1 too, but not L2: (1,p0) is ahead of (1,p1).
	p := New(3, 1)
	s0 := State{Phase: mutex.Wanted, Clock: 3, Heard: 0b110}
	s0.Queue[0], s0.Queue[1] = 1, 1
	require.True(t, p.L1(0, s0))
	require.True(t, p.L2(0, s0))
	require.Equal(t, []model.Input{mutex.Enter}, p.Inputs(0, s0, nil))
	s1 := State{Phase: mutex.Wanted, Clock: 3, Heard: 0b101}
	s1.Queue[0], s1.Queue[1] = 1, 1
	require.True(t, p.L1(1, s1))
	require.False(t, p.L2(1, s1))
	require.Empty(t, p.Inputs(1, s1, nil))

	// p0 enters and exits: RELEASE(3) to all; at p1 it removes (1,p0), and
	// p1's own request comes to the head of its queue.
	r, err = spec(3, 1, model.FIFO).Replay([]string{
		"input p1 request", "input p0 request",
		"deliver p1->p0 REQ(ts=1)", "deliver p0->p1 REQ(ts=1)",
		"deliver p0->p2 REQ(ts=1)", "deliver p1->p2 REQ(ts=1)",
		"deliver p2->p0 REP(ts=2)", "input p0 enter", "input p0 exit",
		"deliver p0->p1 REP(ts=2)", "deliver p0->p1 REL(ts=3)",
		"deliver p2->p1 REP(ts=3)",
	})
	require.NoError(t, err)
	st = r.Trace.Steps
	require.Equal(t, []string{"p0->p1 REL(ts=3)", "p0->p2 REL(ts=3)"}, st[8].Sends)
	require.Equal(t, "RELEASED clock=3 queue=[1:p1] rounds=1", st[8].State)
	require.Equal(t, "WANTED clock=4 queue=[1:p1] heard={p0} rounds=0", st[10].State)
	require.Equal(t, "WANTED clock=5 queue=[1:p1] heard={p0,p2} rounds=0", st[11].State)
	require.Empty(t, r.Trace.Property)
}

// Reference: seed 002, "Theorem: Lamport's algorithm is fair": requests
// are granted in timestamp order, hence in happened-before order when every
// message, the application's too, carries the clock: the exported
// properties with ordering (mutual exclusion, happened-before order, no
// deadlock, starvation freedom) hold. (N=3 with one application message
// passes as well: 21,552,746 states, about a minute.)
func TestHappenedBeforeOrder(t *testing.T) {
	rep := specWith(New(2, 1), model.Config{Ordering: true, AppMsgs: 1}).Check(checker.Options{})
	require.Equal(t, checker.Pass, rep.Verdict)
	require.Equal(t, uint64(1094), rep.States)
}

// Encodings round-trip exactly, different values encode differently, and
// messages that differ format differently.
func TestCodecRoundTrip(t *testing.T) {
	p := New(3, 2)
	q := func(ts ...uint32) (a [MaxSites]uint32) { copy(a[:], ts); return a }
	states := []State{
		{},
		{Phase: mutex.Wanted, Clock: 1, Queue: q(1)},
		{Phase: mutex.Wanted, Clock: 1, Queue: q(0, 1)},
		{Phase: mutex.Wanted, Clock: 300, Queue: q(200, 0, 1), Heard: 0b110},
		{Phase: mutex.Held, Clock: 5, Queue: q(2, 3, 4), Heard: 0b110, Rounds: 1},
		{Phase: mutex.Released, Clock: 5, Queue: q(0, 3, 4), Rounds: 2},
	}
	codectest.States(t, p, states)
	codectest.Msgs(t, p, []Msg{{Kind: Request, TS: 1}, {Kind: Request, TS: 2}, {Kind: Reply, TS: 1}, {Kind: Reply, TS: 200},
		{Kind: Release, TS: 1}, {Kind: Release, TS: 2}, {Kind: App, TS: 1}})
}
