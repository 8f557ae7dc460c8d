package ringelection

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/internal/spintest"
	"github.com/coordcheck/coordcheck/internal/steptest"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
)

// spec checks the ring election p under faults for the notes' safety at
// the end of a run, agreement at all times, no deadlock and liveness.
func spec(t *testing.T, p *Protocol, faults string) *checker.Spec[State, Msg] {
	t.Helper()
	f, err := model.ParseFaults(faults)
	require.NoError(t, err)
	return checker.SpecOf(model.MustNewSystem[State, Msg](p, model.Config{Faults: f}), Properties(p, true))
}

// Chang-Roberts with every process free to initiate at any time: the
// state and edge counts equal SPIN's NOREDUCE counts on
// ../shared/bench/spin/models/changroberts.pml (SPIN's "transitions" is
// edges+1: 282, 1,429, 7,456, 213,102), and every property holds: one
// leader, the highest id, known to all, and every process decides.
// (N=10 gives SPIN's 1,243,826 states and 6,340,147 edges in about 5 s of
// CPU; it is left to `coordcheck check ringelection -n 10`.)
func TestChangRobertsMatchesSPIN(t *testing.T) {
	cases := []struct {
		n int
		spintest.Counts
	}{
		{3, spintest.Counts{States: 31, Edges: 58, Depth: 7}},
		{4, spintest.Counts{States: 116, Edges: 281, Depth: 10}},
		{5, spintest.Counts{States: 489, Edges: 1428, Depth: 15}},
		{6, spintest.Counts{States: 2206, Edges: 7455, Depth: 21}},
		{8, spintest.Counts{States: 50152, Edges: 213101, Depth: 36}},
	}
	for _, c := range cases {
		spintest.Match(t, fmt.Sprintf("n=%d", c.n), c.Counts,
			func() *checker.Report { return spec(t, New(c.n, ChangRoberts), "none").Check(checker.Options{}) })
	}
}

// The notes' case (seed 001: "liveness violated when process failure
// occurs during the election. Which node will recognize 'Election: 4'?"):
// the would-be leader p0 (id 4) crashes while the election runs, and the
// others, all participants, wait forever. The checker reports the
// terminal state as a deadlock.
func TestChangRobertsLosesLivenessWhenTheLeaderCrashes(t *testing.T) {
	cases := []struct {
		initiators uint64
		acts       []string
	}{
		// The shortest: p1's ELECTION(3) reaches p3, which sends it on to
		// p0 as p0 crashes.
		{0, []string{"input p1 start", "deliver p1->p2 ELECTION(3)", "deliver p2->p3 ELECTION(3)", "crash p0"}},
		// The notes' picture: p0's own ELECTION(4) goes round, and p0 is
		// gone when it should come back.
		{1 << 0, []string{"input p0 start", "deliver p0->p1 ELECTION(4)", "deliver p1->p2 ELECTION(4)",
			"deliver p2->p3 ELECTION(4)", "crash p0"}},
	}
	for _, c := range cases {
		p := New(4, ChangRoberts)
		p.Initiators = c.initiators
		rep := spec(t, p, "crash=1@p0").Check(checker.Options{})
		require.Equal(t, checker.Violated, rep.Verdict)
		cex := rep.Counterexample
		require.Equal(t, checker.DeadlockProperty, cex.Property)
		require.Equal(t, "no action is enabled and p1, p2 and p3 still wait", cex.Detail)
		require.Equal(t, c.acts, steptest.Actions(cex))
	}
}

// Without the deadlock check, the same runs are liveness violations: the
// run ends with p1 undecided.
func TestChangRobertsCrashIsALivenessViolation(t *testing.T) {
	sp := spec(t, New(4, ChangRoberts), "crash=1@p0")
	sp.Deadlock = false
	rep := sp.Check(checker.Options{})
	require.Equal(t, checker.Violated, rep.Verdict)
	require.Equal(t, invariants.ElectionLivenessName, rep.Counterexample.Property)
	require.Nil(t, rep.Counterexample.Loop, "a terminal state, not a cycle: the state graph has no cycle")
}

// The enhanced ring with several initiators: every property holds, with
// no failure and with the crash of any one process, the would-be leader
// included, at any time; it skips the crashed successor and, when the
// elected process is missing from the returning COORD list, elects again.
// (N=4 with every process an initiator: 598,462 states without faults,
// over 5 million with a crash.)
func TestEnhancedToleratesACrash(t *testing.T) {
	cases := []struct {
		n          int
		initiators uint64
		faults     string
		states     uint64
	}{
		{3, 0, "none", 8468},
		{3, 0, "crash=1@p0", 13164},
		{3, 0, "crash=1", 18956},
		{4, 1 << 1, "crash=1@p0", 725},
		{4, 1<<1 | 1<<2, "crash=1@p0", 34384},
		{5, 1 << 1, "crash=1@p0", 3089},
		{5, 1<<1 | 1<<3, "none", 35200},
	}
	for _, c := range cases {
		p := New(c.n, Enhanced)
		p.Initiators = c.initiators
		rep := spec(t, p, c.faults).Check(checker.Options{})
		require.Equal(t, checker.Pass, rep.Verdict, "n=%d %s: %v", c.n, c.faults, rep.Counterexample)
		require.Equal(t, c.states, rep.States, "n=%d initiators=%b %s", c.n, c.initiators, c.faults)
	}
}

// Each rule of seed 001, one step at a time (N=4: ids 4, 3, 2, 1).
func TestRules(t *testing.T) {
	type sent struct {
		to  model.NodeID
		msg Msg
	}
	cr, en := New(4, ChangRoberts), New(4, Enhanced)
	recv := func(from model.NodeID, m Msg) model.Event[Msg] {
		return model.Event[Msg]{Kind: model.Receive, From: from, Msg: m}
	}
	el := func(id uint8) Msg { return Msg{Kind: Election, ID: id} }
	co := func(id uint8) Msg { return Msg{Kind: Coordinator, ID: id} }
	ack := Msg{Kind: Ack}
	cases := []struct {
		name  string
		p     *Protocol
		self  model.NodeID
		s     State
		ev    model.Event[Msg]
		want  State
		sends []sent
	}{
		{"CR 1. initiate: ELECTION(own id), participant", cr, 2, State{},
			model.Event[Msg]{Kind: model.Environment, Input: Start},
			State{Participant: true}, []sent{{3, el(2)}}},
		{"CR 2a. greater id: forward", cr, 2, State{}, recv(1, el(3)),
			State{Participant: true}, []sent{{3, el(3)}}},
		{"CR 2b. smaller id, not a participant: replace", cr, 1, State{}, recv(0, el(1)),
			State{Participant: true}, []sent{{2, el(3)}}},
		{"CR 2b. smaller id, participant: swallow", cr, 1, State{Participant: true}, recv(0, el(1)),
			State{Participant: true}, nil},
		{"CR 2c. own id: win, COORD", cr, 0, State{Participant: true}, recv(3, el(4)),
			State{Participant: true, Leader: 4}, []sent{{1, co(4)}}},
		{"CR 3. COORD: learn it, forward, done", cr, 1, State{Participant: true}, recv(0, co(4)),
			State{Participant: true, Leader: 4, Done: true}, []sent{{2, co(4)}}},
		{"CR 3. own COORD back: done", cr, 0, State{Participant: true, Leader: 4}, recv(3, co(4)),
			State{Participant: true, Leader: 4, Done: true}, nil},
		{"enhanced a) initiate with its id in the list", en, 1, State{Next: 2},
			model.Event[Msg]{Kind: model.Environment, Input: Start},
			State{Participant: true, Next: 2, Unacked: []Msg{{Kind: Election, List: "\x03"}}},
			[]sent{{2, Msg{Kind: Election, List: "\x03"}}}},
		{"enhanced b) add the id, pass on, answer the poll", en, 2, State{Next: 3},
			recv(1, Msg{Kind: Election, List: "\x03"}),
			State{Participant: true, Next: 3, Unacked: []Msg{{Kind: Election, List: "\x03\x02"}}},
			[]sent{{1, ack}, {3, Msg{Kind: Election, List: "\x03\x02"}}}},
		{"enhanced c) back at the initiator: elect the highest", en, 1, State{Participant: true, Next: 2},
			recv(0, Msg{Kind: Election, List: "\x03\x02\x01\x04"}),
			State{Participant: true, Leader: 4, Next: 2, Unacked: []Msg{{Kind: Coordinator, ID: 4, List: "\x03"}}},
			[]sent{{0, ack}, {2, Msg{Kind: Coordinator, ID: 4, List: "\x03"}}}},
		{"enhanced d) learn the coordinator, add the id", en, 2, State{Participant: true, Next: 3},
			recv(1, Msg{Kind: Coordinator, ID: 4, List: "\x03"}),
			State{Participant: true, Leader: 4, Next: 3, Unacked: []Msg{{Kind: Coordinator, ID: 4, List: "\x03\x02"}}},
			[]sent{{1, ack}, {3, Msg{Kind: Coordinator, ID: 4, List: "\x03\x02"}}}},
		{"enhanced e) back, elected in the list: over", en, 1, State{Participant: true, Leader: 4, Next: 2},
			recv(0, Msg{Kind: Coordinator, ID: 4, List: "\x03\x02\x01\x04"}),
			State{Participant: true, Leader: 4, Next: 2}, []sent{{0, ack}}},
		{"enhanced e) back, elected missing: elect again", en, 1, State{Participant: true, Leader: 4, Next: 2},
			recv(3, Msg{Kind: Coordinator, ID: 4, List: "\x03\x02\x01"}),
			State{Participant: true, Next: 2, Unacked: []Msg{{Kind: Election, List: "\x03"}}},
			[]sent{{3, ack}, {2, Msg{Kind: Election, List: "\x03"}}}},
		{"enhanced: an ACK from Next settles the oldest message", en, 1,
			State{Participant: true, Next: 2, Unacked: []Msg{{Kind: Election, List: "\x03"}}},
			recv(2, ack), State{Participant: true, Next: 2}, nil},
		{"enhanced a) poll timeout: the next successor gets what is unanswered", en, 3,
			State{Participant: true, Next: 0, Unacked: []Msg{{Kind: Election, List: "\x01"}}},
			model.Event[Msg]{Kind: model.Timeout, Timer: TimerPoll},
			State{Participant: true, Next: 1, Unacked: []Msg{{Kind: Election, List: "\x01"}}},
			[]sent{{1, Msg{Kind: Election, List: "\x01"}}}},
	}
	for _, c := range cases {
		var out model.Out[Msg]
		got := c.p.Step(c.self, c.s, c.ev, &out)
		require.Equal(t, c.want, got, c.name)
		var ss []sent
		out.Sends(func(to model.NodeID, m Msg) { ss = append(ss, sent{to, m}) })
		require.Equal(t, c.sends, ss, c.name)
	}
}

// Step never changes the state it is given: the enhanced ring's queue of
// unanswered messages is copied, not appended to in place.
func TestStepDoesNotMutateItsInput(t *testing.T) {
	p := New(3, Enhanced)
	q := make([]Msg, 1, 4)
	q[0] = Msg{Kind: Election, List: "\x03"}
	s := State{Participant: true, Next: 1, Unacked: q}
	var out model.Out[Msg]
	p.Step(0, s, model.Event[Msg]{Kind: model.Receive, From: 2, Msg: Msg{Kind: Election, List: "\x01"}}, &out)
	p.Step(0, s, model.Event[Msg]{Kind: model.Receive, From: 2, Msg: Msg{Kind: Election, List: "\x02"}}, &out)
	require.Equal(t, []Msg{{Kind: Election, List: "\x03"}}, s.Unacked)
	require.Equal(t, Msg{}, q[:2][1], "the spare capacity was not written")
}

// Encodings round-trip, and states and messages print as in traces.
func TestCodecRoundTrip(t *testing.T) {
	for _, p := range []*Protocol{New(4, ChangRoberts), New(4, Enhanced)} {
		states := []State{{}, {Participant: true, Leader: 4, Done: true}, {Participant: true, Leader: 2}}
		msgs := []Msg{{Kind: Election, ID: 3}, {Kind: Coordinator, ID: 4}}
		if p.Variant == Enhanced {
			states = append(states, State{Participant: true, Next: 3, Unacked: []Msg{
				{Kind: Election, List: "\x03\x02"}, {Kind: Coordinator, ID: 4, List: "\x03"}}})
			msgs = []Msg{{Kind: Election, List: "\x01\x04"}, {Kind: Coordinator, ID: 4, List: ""}, {Kind: Ack}}
		}
		for _, s := range states {
			got, rest := p.ReadState(p.AppendState(nil, s))
			require.Equal(t, s, got)
			require.Empty(t, rest)
		}
		for _, m := range msgs {
			got, rest := p.ReadMsg(p.AppendMsg(nil, m))
			require.Equal(t, m, got)
			require.Empty(t, rest)
		}
	}
	cr, en := New(4, ChangRoberts), New(4, Enhanced)
	require.Equal(t, "ELECTION(3)", cr.FormatMsg(Msg{Kind: Election, ID: 3}))
	require.Equal(t, "COORD(4)", cr.FormatMsg(Msg{Kind: Coordinator, ID: 4}))
	require.Equal(t, "id=3 participant leader=4 done", cr.FormatState(1, State{Participant: true, Leader: 4, Done: true}))
	require.Equal(t, "ELECTION[3,2]", en.FormatMsg(Msg{Kind: Election, List: "\x03\x02"}))
	require.Equal(t, "COORD(4)[3]", en.FormatMsg(Msg{Kind: Coordinator, ID: 4, List: "\x03"}))
	require.Equal(t, "id=1 participant undecided next=p1 unacked=ELECTION[1]",
		en.FormatState(3, State{Participant: true, Next: 1, Unacked: []Msg{{Kind: Election, List: "\x01"}}}))
}

// The initiators parameter names the processes that may start.
func TestParseInitiators(t *testing.T) {
	set, err := ParseInitiators("all", 4)
	require.NoError(t, err)
	require.Zero(t, set)
	set, err = ParseInitiators("p1+p3", 4)
	require.NoError(t, err)
	require.Equal(t, uint64(0b1010), set)
	_, err = ParseInitiators("p1+p4", 4)
	require.EqualError(t, err, `parameter initiators="p1+p4": "p4" is not a process (want all, or ids like p1+p3 from p0 to p3)`)
}
