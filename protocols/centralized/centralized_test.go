package centralized

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/internal/codectest"
	"github.com/coordcheck/coordcheck/internal/spintest"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

func spec(n, rounds int) *checker.Spec[State, Msg] {
	p := New(n, rounds)
	return &checker.Spec[State, Msg]{
		System: model.MustNewSystem[State, Msg](p, model.Config{}),
		Invariants: []checker.Invariant[State, Msg]{
			invariants.MutualExclusion[State, Msg](p),
			{Name: invariants.ReleaseFromHolderName, Holds: p.ReleaseFromHolder, Symmetric: true},
		},
		Deadlock: true,
	}
}

// The state and edge counts equal SPIN's NOREDUCE counts on
// ../shared/bench/spin/models/central.pml (SPIN's "transitions" is
// edges+1). Every maximal run takes 5 steps per client and round (request,
// REQ, GRANT, exit, REL), so the depth is 5·N·R.
func TestStateCountsMatchSPIN(t *testing.T) {
	cases := []struct {
		n, rounds int
		spintest.Counts
	}{
		{3, 2, spintest.Counts{States: 1238, Edges: 2748, Depth: 5 * 3 * 2}},
		{4, 2, spintest.Counts{States: 13029, Edges: 33984, Depth: 5 * 4 * 2}},
		{5, 2, spintest.Counts{States: 149040, Edges: 427340, Depth: 5 * 5 * 2, Long: true}},
		{6, 2, spintest.Counts{States: 1897855, Edges: 5728080, Depth: 5 * 6 * 2, Long: true}},
	}
	for _, c := range cases {
		spintest.Match(t, fmt.Sprintf("n=%d rounds=%d", c.n, c.rounds), c.Counts,
			func() *checker.Report { return spec(c.n, c.rounds).Check(checker.Options{}) })
	}
}

// Reference: seed 000, "Centralized algorithm": a request while the token
// is out is queued in FIFO order, and a release passes the token to the
// head of the queue.
func TestQueueIsFIFO(t *testing.T) {
	r, err := spec(3, 1).Replay([]string{
		"input p1 request",
		"deliver p1->p3 REQ",
		"deliver p3->p1 GRANT",
		"input p2 request",
		"input p0 request",
		"deliver p2->p3 REQ",
		"deliver p0->p3 REQ",
		"input p1 exit",
		"deliver p1->p3 REL",
	})
	require.NoError(t, err)
	steps := r.Trace.Steps
	require.Equal(t, "HELD rounds=0", steps[2].State)
	require.Equal(t, "COORD holder=p1 queue=[p2 p0]", steps[6].State)
	require.Equal(t, "COORD holder=p2 queue=[p0]", steps[8].State)
	require.Equal(t, []string{"p3->p2 GRANT"}, steps[8].Sends)
	require.Empty(t, r.Trace.Property)
}

// A release from a client that does not hold the token violates
// ReleaseFromHolder.
func TestReleaseFromNonHolder(t *testing.T) {
	p := New(2, 1)
	w := &model.World[State, Msg]{
		Nodes:  []State{{Phase: mutex.Released, Rounds: 1}, {Phase: mutex.Wanted}, {Holder: 1}},
		Timers: make([]uint64, 3),
		Net:    []model.Envelope[Msg]{{From: 0, To: 2, Msg: Msg{Release}}},
	}
	ok, why := p.ReleaseFromHolder(w)
	require.False(t, ok)
	require.Equal(t, "p0 sends REL but the coordinator's holder is p1", why)
	w.Nodes[2].Holder = 0
	ok, _ = p.ReleaseFromHolder(w)
	require.True(t, ok)
}

// Without faults there is no deadlock (TestStateCountsMatchSPIN); with
// them the explanation says where the token went.
func TestExplainDeadlock(t *testing.T) {
	p := New(2, 1)
	wanted := State{Phase: mutex.Wanted}
	world := func(down uint64, coord State, client0 State) *model.World[State, Msg] {
		return &model.World[State, Msg]{Nodes: []State{client0, wanted, coord}, Timers: make([]uint64, 3), Down: down}
	}
	cases := []struct {
		w    *model.World[State, Msg]
		want string
	}{
		{world(1<<2, State{Holder: Nobody}, wanted), "p0 and p1 wait for the token: the coordinator p2 is down"},
		{world(0, State{Holder: Nobody}, wanted), "p0 and p1 wait for the token: the coordinator holds it and knows of no request"},
		{world(1<<0, State{Holder: 0}, State{}), "p1 waits for the token: the coordinator gave it to p0, which is down"},
		{world(0, State{Holder: 0, Queue: Queue("").Push(1)}, wanted), "p0 and p1 wait for the token: the coordinator gave it to p0, and the GRANT was lost"},
		{world(0, State{Holder: 0, Queue: Queue("").Push(1)}, State{Rounds: 1}), "p1 waits for the token: the coordinator gave it to p0, and its REL was lost"},
	}
	for _, c := range cases {
		require.Equal(t, c.want, p.ExplainDeadlock(c.w))
	}
}

// Encodings round-trip exactly, and different values encode differently.
func TestCodecRoundTrip(t *testing.T) {
	p := New(4, 2)
	states := []State{
		{},
		{Phase: mutex.Wanted, Rounds: 1},
		{Phase: mutex.Held, Rounds: 1},
		{Holder: Nobody},
		{Holder: 2},
		{Holder: 2, Queue: Queue("").Push(3).Push(0)},
		{Holder: 2, Queue: Queue("").Push(0).Push(3)},
	}
	codectest.States(t, p, states)
	codectest.Msgs(t, p, []Msg{{Request}, {Grant}, {Release}})
}
