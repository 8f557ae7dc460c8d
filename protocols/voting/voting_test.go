package voting

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/internal/codectest"
	"github.com/coordcheck/coordcheck/internal/long"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

func spec(n, c, rounds int, opt Option) *checker.Spec[State, Msg] {
	return specWith(New(n, c, rounds, opt), model.Config{})
}

// specWith checks p under cfg for its exported Properties.
func specWith(p *Protocol, cfg model.Config) *checker.Spec[State, Msg] {
	return checker.SpecOf(model.MustNewSystem[State, Msg](p, cfg), Properties(p, cfg))
}

// Pinned counts: any change in behaviour shows here. The fast ones equal
// the independent enumeration of TestIndependentEnumeration. Both options
// pass mutual exclusion, votes-accurate and no-deadlock everywhere. Option
// B is starvation-free everywhere; option A starves wherever nobody can get
// a majority (with c=2 from n=2 on, with c=3 from n=3 on): seed 001, "this
// might cause starvation (liveness violated)" against "ensures liveness".
// Option A equals option B where no such split exists (n=2 c=3). N=3 with
// two rounds and N=4 with one round (c=3) have more than 15 million states
// and are not pinned here.
func TestStateCounts(t *testing.T) {
	cases := []struct {
		n, c, rounds  int
		opt           Option
		states, edges uint64
		depth         int
		starves       bool
		long          bool
	}{
		{1, 1, 1, OptionYield, 7, 6, 6, false, false},
		{2, 1, 1, OptionYield, 53, 80, 12, false, false},
		{1, 3, 2, OptionYield, 479, 1288, 24, false, false},
		{2, 2, 1, OptionYield, 377, 920, 18, false, false},
		{2, 2, 1, OptionBackoff, 883, 2322, 31, true, false},
		{2, 2, 2, OptionYield, 3552, 9916, 40, false, false},
		{2, 2, 2, OptionBackoff, 8528, 23984, 51, true, false},
		{3, 1, 2, OptionYield, 5604, 12297, 38, false, false},
		{3, 2, 1, OptionYield, 13602, 45819, 28, false, false},
		{3, 2, 1, OptionBackoff, 71190, 269357, 40, true, false},
		{2, 3, 1, OptionYield, 14663, 57820, 24, false, false},
		{2, 3, 1, OptionBackoff, 14663, 57820, 24, false, false},
		{3, 2, 2, OptionYield, 721026, 2827252, 69, false, true},
		{3, 2, 2, OptionBackoff, 4811186, 18587792, 93, true, true},
		{3, 3, 1, OptionYield, 3976701, 21721686, 45, false, true},
		{3, 3, 1, OptionBackoff, 7109853, 36549144, 81, true, true},
	}
	for _, c := range cases {
		if c.long && !long.Enabled() {
			continue
		}
		rep := spec(c.n, c.c, c.rounds, c.opt).Check(checker.Options{})
		name := fmt.Sprintf("%s n=%d c=%d rounds=%d", c.opt, c.n, c.c, c.rounds)
		if c.starves {
			require.Equal(t, checker.Violated, rep.Verdict, name)
			require.Equal(t, invariants.StarvationFreedomName, rep.Counterexample.Property, name)
			require.NotNil(t, rep.Counterexample.Loop, name)
		} else {
			require.Equal(t, checker.Pass, rep.Verdict, name)
		}
		require.Equal(t, c.states, rep.States, name)
		require.Equal(t, c.edges, rep.Transitions, name)
		require.Equal(t, c.depth, rep.Depth, name)
		t.Logf("%s: %d states in %s", name, rep.States, rep.Elapsed)
	}
}

// Reference: seed 001, rule c.3, option A: "this might cause starvation".
// The shortest lasso for n=2 c=2: after a prefix of 6 steps the two
// processes release their votes, back off and retry in turn, for ever.
func TestBackoffStarves(t *testing.T) {
	cx := spec(2, 2, 1, OptionBackoff).Check(checker.Options{}).Counterexample
	require.Len(t, cx.Steps, 30)
	require.Equal(t, 6, *cx.Loop)
	require.Equal(t, "p0 waits forever: steps 7 to 30 repeat forever with p0 pending throughout, "+
		"and every fair action that stays enabled along them is taken", cx.Detail)
	retries := 0
	for _, s := range cx.Steps[*cx.Loop:] {
		if s.Action == "input p0 retry" || s.Action == "input p1 retry" {
			retries++
		}
	}
	require.Equal(t, 5, retries)
}

// One process and one coordinator, by hand: the only run is request, REQ,
// RESP (the vote), enter, exit, REL: 7 states, 6 edges, depth 6.
func TestOneProcessByHand(t *testing.T) {
	r, err := spec(1, 1, 1, OptionYield).Replay([]string{
		"input p0 request",
		"deliver p0->p1 REQ(ts=1)",
		"deliver p1->p0 RESP(vote=1:p0)",
		"input p0 enter",
		"input p0 exit",
		"deliver p0->p1 REL",
	})
	require.NoError(t, err)
	var states []string
	for _, s := range r.Trace.Steps {
		states = append(states, s.State)
	}
	require.Equal(t, []string{
		"WANTED clock=1 ts=1 view={p1:?} rounds=0",
		"COORD vote=1:p0 queue=[]",
		"WANTED clock=1 ts=1 view={p1:p0} rounds=0",
		"HELD clock=1 ts=1 view={p1:p0} rounds=0",
		"RELEASED clock=1 rounds=1",
		"COORD vote=none queue=[]",
	}, states)
	rep := spec(1, 1, 1, OptionYield).Check(checker.Options{})
	require.Equal(t, uint64(7), rep.States)
	require.Equal(t, uint64(6), rep.Transitions)
}

// split leads n=3 c=3 to a three-way split: each coordinator votes for a
// different process, and p0's view becomes complete with one vote each.
var split = []string{
	"input p0 request", "input p1 request", "input p2 request",
	"deliver p0->p3 REQ(ts=1)", "deliver p1->p4 REQ(ts=1)", "deliver p2->p5 REQ(ts=1)",
	"deliver p1->p3 REQ(ts=1)", "deliver p2->p3 REQ(ts=1)",
	"deliver p0->p4 REQ(ts=1)", "deliver p0->p5 REQ(ts=1)", "deliver p1->p5 REQ(ts=1)",
	"deliver p3->p0 RESP(vote=1:p0)", "deliver p4->p0 RESP(vote=1:p1)", "deliver p5->p0 RESP(vote=1:p2)",
}

// Reference: seed 001, rules b, c.3 option B, and d. A coordinator that
// has voted queues the request and answers with its current vote; with
// nobody at a majority the requester yields to its voters; a coordinator
// re-queues the yielded request with the same time and votes for the head
// of its queue, notifying the former process when the vote moves.
func TestYield(t *testing.T) {
	r, err := spec(3, 3, 1, OptionYield).Replay(append(append([]string{}, split...),
		"deliver p0->p3 YIELD(ts=1)", // (1,p0) is still the head: the vote stays
		"deliver p3->p1 RESP(vote=1:p0)", "deliver p4->p1 RESP(vote=1:p1)", "deliver p5->p1 RESP(vote=1:p2)",
		"deliver p1->p4 YIELD(ts=1)", // the vote moves to (1,p0); p1 is told
		"deliver p4->p0 RESP(vote=1:p0)", "deliver p3->p0 RESP(vote=1:p0)",
		"input p0 enter",
	))
	require.NoError(t, err)
	st := r.Trace.Steps
	require.Equal(t, "COORD vote=1:p0 queue=[1:p1 1:p2]", st[7].State) // b: queued
	require.Equal(t, []string{"p3->p2 RESP(vote=1:p0)"}, st[7].Sends)  // b: current vote
	require.Equal(t, "WANTED clock=1 ts=1 view={p3:? p4:p1 p5:p2} rounds=0", st[13].State)
	require.Equal(t, []string{"p0->p3 YIELD(ts=1)"}, st[13].Sends) // c.3 B
	require.Equal(t, "COORD vote=1:p0 queue=[1:p1 1:p2]", st[14].State)
	require.Equal(t, []string{"p3->p0 RESP(vote=1:p0)"}, st[14].Sends)
	require.Equal(t, "COORD vote=1:p0 queue=[1:p1]", st[18].State)
	require.Equal(t, []string{"p4->p0 RESP(vote=1:p0)", "p4->p1 RESP(vote=1:p0)"}, st[18].Sends)
	require.Equal(t, "HELD clock=1 ts=1 view={p3:p0 p4:p0 p5:p2} rounds=0", st[21].State)
	require.Empty(t, r.Trace.Property)
}

// Reference: seed 001, rule c.3 option A: with nobody at a majority the
// requester releases its votes and backs off; the coordinator votes for
// the head of its queue; a retry requests again, with the same time, and
// finds the vote taken ("this might cause starvation").
func TestBackoff(t *testing.T) {
	r, err := spec(3, 3, 1, OptionBackoff).Replay(append(append([]string{}, split...),
		"deliver p0->p3 REL", "input p0 retry", "deliver p0->p3 REQ(ts=1)", "deliver p3->p0 RESP(vote=1:p1)",
	))
	require.NoError(t, err)
	st := r.Trace.Steps
	require.Equal(t, "WANTED clock=1 ts=1 view={p3:? p4:p1 p5:p2} backoff rounds=0", st[13].State)
	require.Equal(t, []string{"p0->p3 REL"}, st[13].Sends)
	require.Equal(t, "COORD vote=1:p1 queue=[1:p2]", st[14].State)
	require.Equal(t, []string{"p3->p1 RESP(vote=1:p1)"}, st[14].Sends)
	require.Equal(t, []string{"p0->p3 REQ(ts=1)"}, st[15].Sends)
	require.Equal(t, "COORD vote=1:p1 queue=[1:p0 1:p2]", st[16].State)
	require.Equal(t, "WANTED clock=1 ts=1 view={p3:p1 p4:p1 p5:p2} rounds=0", st[17].State)

	p := New(3, 3, 1, OptionBackoff)
	s := blank()
	s.Phase, s.Backoff, s.TS = mutex.Wanted, true, 1
	require.Equal(t, []model.Input{Retry}, p.Inputs(0, s, nil))
}

// Reference: seed 001, rule e: on exit the coordinators that voted for the
// process vote for the head of their queue and tell it; the rest simply
// dequeue the process.
func TestRelease(t *testing.T) {
	r, err := spec(3, 3, 1, OptionYield).Replay(append(append([]string{}, split...),
		"deliver p0->p3 YIELD(ts=1)",
		"deliver p3->p1 RESP(vote=1:p0)", "deliver p4->p1 RESP(vote=1:p1)", "deliver p5->p1 RESP(vote=1:p2)",
		"deliver p1->p4 YIELD(ts=1)",
		"deliver p4->p0 RESP(vote=1:p0)", "deliver p3->p0 RESP(vote=1:p0)",
		"input p0 enter", "input p0 exit",
		"deliver p0->p3 REL", "deliver p0->p5 REL",
	))
	require.NoError(t, err)
	st := r.Trace.Steps
	require.Equal(t, []string{"p0->p3 REL", "p0->p4 REL", "p0->p5 REL"}, st[22].Sends)
	require.Equal(t, "COORD vote=1:p1 queue=[1:p2]", st[23].State)
	require.Equal(t, []string{"p3->p1 RESP(vote=1:p1)"}, st[23].Sends)
	require.Equal(t, "COORD vote=1:p2 queue=[1:p1]", st[24].State)
	require.Empty(t, st[24].Sends)
}

// A Response from a coordinator that voted for an earlier request of the
// same process is stale and must not count. Here p0 entered its first
// round with 2 of 3 votes; p4 took p0's first REQUEST only after p0 had
// exited and requested again, so p4's vote for (1,p0) arrives during the
// second round. Counted, it would give p0 a second "majority" while p3 and
// p4 vote for p1: both in the critical section (found by the checker when
// the timestamp check was left out).
func TestStaleResponseIgnored(t *testing.T) {
	lines := []string{
		"input p0 request", "input p1 request",
		"deliver p0->p2 REQ(ts=1)", "deliver p2->p0 RESP(vote=1:p0)",
		"deliver p0->p3 REQ(ts=1)", "deliver p3->p0 RESP(vote=1:p0)",
		"input p0 enter", "input p0 exit", "input p0 request",
		"deliver p0->p2 REL", "deliver p0->p2 REQ(ts=2)", "deliver p2->p0 RESP(vote=2:p0)",
		"deliver p0->p3 REL", "deliver p1->p3 REQ(ts=1)", "deliver p3->p1 RESP(vote=1:p1)",
		"deliver p0->p4 REQ(ts=1)", "deliver p4->p0 RESP(vote=1:p0)", // stale
		"input p0 enter",
	}
	r, err := spec(2, 3, 2, OptionYield).Replay(lines[:len(lines)-1])
	require.NoError(t, err)
	st := r.Trace.Steps
	require.Equal(t, "WANTED clock=2 ts=2 view={p2:p0 p3:? p4:?} rounds=1", st[16].State)
	_, err = spec(2, 3, 2, OptionYield).Replay(lines)
	var se *checker.StepError
	require.True(t, errors.As(err, &se))
	require.Equal(t, len(lines), se.Step)
}

// Reference: seed 001's table, voting: happened-before ordering "Not
// guaranteed". p0 requests and tells p1, whose later request reaches two
// idle coordinators first and takes their votes.
func TestHappenedBeforeNotGuaranteed(t *testing.T) {
	rep := specWith(New(2, 3, 1, OptionYield), model.Config{Ordering: true, AppMsgs: 1}).Check(checker.Options{})
	require.Equal(t, checker.Violated, rep.Verdict)
	require.Equal(t, invariants.HappenedBeforeOrderName, rep.Counterexample.Property)
	require.Len(t, rep.Counterexample.Steps, 9)
	require.Equal(t, "p0's request happened before p1's, but p1 entered first", rep.Counterexample.Detail)
}

// VotesAccurate flags a view that counts a vote the coordinator does not
// give, or gives to another request of the process.
func TestVotesAccurate(t *testing.T) {
	p := New(2, 1, 2, OptionYield)
	w := &model.World[State, Msg]{Nodes: []State{blank(), blank(), blank()}, Timers: make([]uint64, 3)}
	w.Nodes[0].Phase, w.Nodes[0].TS, w.Nodes[0].View[0] = mutex.Wanted, 2, 0
	w.Nodes[2].Vote, w.Nodes[2].Req[0] = 0, 2
	ok, _ := p.VotesAccurate(w)
	require.True(t, ok)
	w.Nodes[2].Req[0] = 1
	ok, why := p.VotesAccurate(w)
	require.False(t, ok)
	require.Equal(t, "p0 counts the vote of p2, which votes for 1:p0", why)
	w.Nodes[2].Vote, w.Nodes[2].Req[1] = 1, 1
	ok, why = p.VotesAccurate(w)
	require.False(t, ok)
	require.Equal(t, "p0 counts the vote of p2, which votes for 1:p1", why)
}

// Encodings round-trip exactly, different values encode differently, and
// messages that differ format differently.
func TestCodecRoundTrip(t *testing.T) {
	p := New(3, 3, 2, OptionYield)
	proc := blank()
	proc.Phase, proc.Clock, proc.TS = mutex.Wanted, 2, 2
	proc.View[0], proc.View[2] = 1, 0
	backoff := proc
	backoff.Backoff = true
	coord := blank()
	coord.Vote, coord.Req[0], coord.Req[2] = 2, 3, 1
	coord2 := coord
	coord2.Vote = 0
	states := []State{blank(), proc, backoff, coord, coord2,
		{Phase: mutex.Held, Rounds: 1, Clock: 300, TS: 300, View: proc.View, Vote: None}}
	codectest.States(t, p, states)
	codectest.Msgs(t, p, []Msg{
		{Kind: Request, TS: 1}, {Kind: Request, TS: 2}, {Kind: Yield, TS: 1}, {Kind: Release},
		{Kind: Response, TS: 1, Vote: 0}, {Kind: Response, TS: 2, Vote: 0}, {Kind: Response, TS: 1, Vote: 1},
		{Kind: App, TS: 1},
	})
}

func TestParseOption(t *testing.T) {
	for s, want := range map[string]Option{"yield": OptionYield, "B": OptionYield, "backoff": OptionBackoff, "a": OptionBackoff} {
		got, err := ParseOption(s)
		require.NoError(t, err)
		require.Equal(t, want, got)
	}
	_, err := ParseOption("random")
	require.EqualError(t, err, `unknown option "random" (valid: yield, backoff)`)
	require.Equal(t, "backoff", OptionBackoff.String())
}
