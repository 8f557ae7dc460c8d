package maekawadf

import (
	"slices"
	"testing"

	"github.com/coordcheck/coordcheck/internal/long"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/internal/codectest"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/maekawa"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

// config names one system: n processes, rounds, voting sets (as the sets
// parameter) and fixes (as the fixes parameter).
type config struct {
	n, rounds   int
	sets, fixes string
}

func (c config) protocol(t *testing.T) *Protocol {
	t.Helper()
	vs, err := maekawa.ParseSets(c.sets, c.n)
	require.NoError(t, err)
	f, err := ParseFixes(c.fixes)
	require.NoError(t, err)
	p, err := New(c.n, c.rounds, vs, f)
	require.NoError(t, err)
	return p
}

// spec is the registry's spec (protocols/entry_maekawadf.go): mutual
// exclusion, one vote per voter, no deadlock, starvation freedom.
func (c config) spec(t *testing.T) *checker.Spec[State, Msg] {
	return specOf(c.protocol(t))
}

// specOf is the spec of p's exported Properties.
func specOf(p *Protocol) *checker.Spec[State, Msg] {
	return checker.SpecOf(model.MustNewSystem[State, Msg](p, model.Config{}), Properties(p, model.Config{}))
}

// With all fixes, the algorithm keeps mutual exclusion and one vote per
// voter, never deadlocks and starves nobody, in the whole state space.
// The counts are pinned. Seed 001's sets, in which two sets meet in one
// process, run two rounds, where a stale INQUIRE of the first round can
// reach the second (FixHeld). On the grid and the projective plane the
// workload is a few requesters (the others only vote): three whose sets
// form a cycle, in which the original algorithm deadlocks (see package
// maekawa's TestDeadlockWithRequesters), and on the plane three whose sets
// meet in one voter. The searches need no state graph: the variant (Rank)
// shows that every run ends, so starvation is a terminal state.
func TestExhaustive(t *testing.T) {
	t.Parallel()
	cases := []struct {
		config
		requesters    string
		states, edges uint64
		long          bool
	}{
		{config{3, 1, "all", "all"}, "all", 538143, 2420209, false},
		{config{3, 1, "0,1;1,2;0,2", "all"}, "all", 18813, 65488, false},
		{config{2, 2, "all", "all"}, "all", 5844, 14459, false},
		{config{4, 1, "grid", "all"}, "0,1,2", 334079, 1583131, false},
		{config{7, 1, "plane", "all"}, "0,1,2", 252373, 1342876, false},
		{config{7, 1, "plane", "all"}, "0,3,5", 136719, 746126, true},
		{config{3, 2, "0,1;1,2;0,2", "all"}, "all", 1631097, 6923208, true},
		{config{4, 1, "grid", "all"}, "all", 40997266, 245447650, true}, // 1.6 GB, minutes
	}
	for _, c := range cases {
		if c.long && !long.Enabled() {
			continue
		}
		p := c.protocol(t)
		var err error
		p.Requesters, err = maekawa.ParseRequesters(c.requesters, c.n)
		require.NoError(t, err)
		rep := specOf(p).Check(checker.Options{})
		require.Equal(t, checker.Pass, rep.Verdict, "%+v %s: %+v", c.config, c.requesters, rep.Counterexample)
		require.Equal(t, c.states, rep.States, "%+v %s", c.config, c.requesters)
		require.Equal(t, c.edges, rep.Transitions, "%+v %s", c.config, c.requesters)
		require.Equal(t, "acyclic", rep.Liveness, "%+v %s", c.config, c.requesters)
		t.Logf("%+v requesters %s: %d states, %d transitions, depth %d, %s", c.config, c.requesters, rep.States, rep.Transitions, rep.Depth, rep.Elapsed)
	}
}

func TestEachFixIsNeeded(t *testing.T) {
	long.Skip(t) // two million states; the corpus replays the counterexamples
	t.Parallel()
	cases := []struct {
		config
		property string
		steps    int
		detail   string
	}{
		// The rules to the letter: two higher requests at p2 make two
		// INQUIREs (Case I), and p2, failed, yields its one vote twice
		// (Case II).
		{config{3, 1, "all", "none"}, OneVoteName, 12,
			"p2 voted for p2(ts=1), and its vote is with p2 (YIELD in flight) and p2 (YIELD in flight)"},
		// Without FixQueue: p1 outranks p2's vote but not p0's queued
		// request, hears nothing from p2 (Case I), and never yields.
		{config{3, 1, "all", "displaced,defer,held"}, checker.DeadlockProperty, 23, "circular wait: " +
			"p0(ts=1) waits for p0 (p0 voted for p1(ts=1)) and p1 (p1 voted for p1(ts=1)), " +
			"p1(ts=1) waits for p2 (p2 voted for p0(ts=1)) and keeps the INQUIRE of {0,1}, " +
			"p2(ts=1) waits for p0 (p0 voted for p1(ts=1), FAILED) and p1 (p1 voted for p1(ts=1), FAILED) and p2 (p2 voted for p0(ts=1), FAILED); " +
			"cycle p0 -> p1 -> p0"},
		// Without FixDefer: p2's INQUIRE reaches p2 before any FAILED and
		// is dropped (Case II has no "otherwise").
		// Without FixDisplaced: p1's request reaches p2 first and makes
		// the INQUIRE; p0's pushes it back, and p1 hears nothing.
		{config{3, 1, "all", "queue,defer,held"}, checker.DeadlockProperty, 22, "circular wait: " +
			"p0(ts=1) waits for p0 (p0 voted for p1(ts=1)) and p1 (p1 voted for p1(ts=1)), " +
			"p1(ts=1) waits for p2 (p2 voted for p0(ts=1)) and keeps the INQUIRE of {0,1}, " +
			"p2(ts=1) waits for p0 (p0 voted for p1(ts=1), FAILED) and p1 (p1 voted for p1(ts=1), FAILED) and p2 (p2 voted for p0(ts=1), FAILED); " +
			"cycle p0 -> p1 -> p0"},
		{config{3, 1, "all", "queue,displaced,held"}, checker.DeadlockProperty, 21, "circular wait: " +
			"p0(ts=1) waits for p2 (p2 voted for p2(ts=1)), " +
			"p1(ts=1) waits for p0 (p0 voted for p0(ts=1), FAILED) and p1 (p1 voted for p0(ts=1), FAILED) and p2 (p2 voted for p2(ts=1), FAILED), " +
			"p2(ts=1) waits for p0 (p0 voted for p0(ts=1), FAILED) and p1 (p1 voted for p0(ts=1), FAILED); " +
			"cycle p0 -> p2 -> p0"},
		// Without FixHeld: the INQUIRE of p1's first request arrives after
		// its second, is kept, and is answered with a vote p1 does not hold.
		{config{3, 2, "all", "queue,displaced,defer"}, OneVoteName, 16,
			"p1 voted for p0(ts=1), and its vote is with p0 (GRANT in flight) and p1 (YIELD in flight)"},
	}
	for _, c := range cases {
		rep := c.spec(t).Check(checker.Options{SkipLiveness: true})
		require.Equal(t, checker.Violated, rep.Verdict, "%+v", c.config)
		ce := rep.Counterexample
		require.Equal(t, c.property, ce.Property, "%+v", c.config)
		require.Len(t, ce.Steps, c.steps, "%+v", c.config)
		require.Equal(t, c.detail, ce.Detail, "%+v", c.config)
	}
}

// The broken invariant is no false alarm: with mutual exclusion the only
// property, BFS finds two processes in the critical section, for the rules
// to the letter (the double YIELD) and without FixHeld (the stale
// INQUIRE). In both, the process that yields a vote it does not hold makes
// the voter give away a vote someone else holds (Case III).
func TestMutualExclusionBreaks(t *testing.T) {
	t.Parallel()
	cases := []struct {
		config
		steps int
	}{
		{config{3, 1, "0,1;1;0,1,2", "none"}, 19},
		{config{3, 2, "0,1;1,2;0,2", "queue,displaced,defer"}, 24},
	}
	for _, c := range cases {
		p := c.protocol(t)
		sp := &checker.Spec[State, Msg]{
			System:     model.MustNewSystem[State, Msg](p, model.Config{}),
			Invariants: []checker.Invariant[State, Msg]{invariants.MutualExclusion[State, Msg](p)},
		}
		rep := sp.Check(checker.Options{})
		require.Equal(t, checker.Violated, rep.Verdict, "%+v", c.config)
		require.Equal(t, "p0 and p1 are in the critical section at once", rep.Counterexample.Detail)
		require.Len(t, rep.Counterexample.Steps, c.steps, "%+v", c.config)
	}
	// With all sets, three processes, one round, one vote given twice
	// is not enough: every set needs every voter.
	if !long.Enabled() {
		return
	}
	p := config{3, 1, "all", "none"}.protocol(t)
	sp := &checker.Spec[State, Msg]{
		System:     model.MustNewSystem[State, Msg](p, model.Config{}),
		Invariants: []checker.Invariant[State, Msg]{invariants.MutualExclusion[State, Msg](p)},
	}
	rep := sp.Check(checker.Options{})
	require.Equal(t, checker.Pass, rep.Verdict)
	require.Equal(t, uint64(697402), rep.States)
}

// replay plays lines on n=3 with all sets and returns the steps.
func replay(t *testing.T, fixes string, lines ...string) []checker.Step {
	t.Helper()
	r, err := config{3, 1, "all", fixes}.spec(t).Replay(lines)
	require.NoError(t, err)
	require.Empty(t, r.Trace.Property, r.Trace.Detail)
	return r.Trace.Steps
}

// Reference: seed 002, Case I, first half: a request of lower priority
// than the one the voter voted for gets FAILED. p1's request takes ts=2,
// after p0's REQ(ts=1) set its clock.
func TestCaseIFailed(t *testing.T) {
	steps := replay(t, "all",
		"input p0 request",
		"deliver p0->p1 REQ(ts=1)",
		"input p1 request",
		"deliver p1->p1 REQ(ts=2)",
	)
	require.Equal(t, []string{"p1->p1 FAILED"}, steps[3].Sends)
	require.Equal(t, "WANTED clock=2 ts=2 votes={}/3 rounds=0 voted=p0(ts=1) queue=[(2,p1)]", steps[3].State)
	steps = replay(t, "all", "input p0 request", "deliver p0->p1 REQ(ts=1)", "input p1 request",
		"deliver p1->p1 REQ(ts=2)", "deliver p1->p1 FAILED")
	require.Equal(t, "WANTED clock=2 ts=2 votes={}/3 failed={1} rounds=0 voted=p0(ts=1) queue=[(2,p1)]", steps[4].State)
}

// Reference: seed 002, Case I, second half: a request of higher priority
// makes the voter INQUIRE the process it voted for. With equal
// timestamps, the smaller id wins.
func TestCaseIInquire(t *testing.T) {
	steps := replay(t, "all",
		"input p1 request",
		"deliver p1->p1 REQ(ts=1)",
		"input p0 request",
		"deliver p0->p1 REQ(ts=1)",
	)
	require.Equal(t, []string{"p1->p1 INQUIRE"}, steps[3].Sends)
}

// FixQueue: a request behind a queued request of higher priority is
// told FAILED, though it outranks the vote. To the letter of Case I, it
// makes a second INQUIRE and is told nothing.
func TestFixQueue(t *testing.T) {
	behind := []string{
		"input p2 request",
		"deliver p2->p2 REQ(ts=1)",
		"input p0 request",
		"deliver p0->p2 REQ(ts=1)",
		"input p1 request",
		"deliver p1->p2 REQ(ts=1)",
	}
	steps := replay(t, "all", behind...)
	require.Equal(t, []string{"p2->p2 INQUIRE"}, steps[3].Sends)
	require.Equal(t, []string{"p2->p1 FAILED"}, steps[5].Sends)
	require.Equal(t, []string{"p2->p2 INQUIRE"}, replay(t, "none", behind...)[5].Sends)
}

// FixDisplaced: a queue head that outranks the vote, pushed back by a
// request of higher priority, is told FAILED; the INQUIRE it made is not
// repeated (FixQueue). Without it, nobody is told.
func TestFixDisplaced(t *testing.T) {
	pushed := []string{
		"input p2 request",
		"deliver p2->p2 REQ(ts=1)",
		"input p1 request",
		"deliver p1->p2 REQ(ts=1)",
		"input p0 request",
		"deliver p0->p2 REQ(ts=1)",
	}
	steps := replay(t, "all", pushed...)
	require.Equal(t, []string{"p2->p2 INQUIRE"}, steps[3].Sends)
	require.Equal(t, []string{"p2->p1 FAILED"}, steps[5].Sends)
	require.Equal(t, "WANTED clock=1 ts=1 votes={}/3 rounds=0 voted=p2(ts=1) queue=[(1,p0) (1,p1)]", steps[5].State)
	require.Empty(t, replay(t, "queue,defer,held", pushed...)[5].Sends)
	require.Equal(t, []string{"p2->p2 INQUIRE"}, replay(t, "none", pushed...)[5].Sends)
}

// p2 holds its own vote and p0 outranks it at p2; p0 has voted for
// itself, so p2's request at p0 fails.
var inquired = []string{
	"input p2 request",
	"deliver p2->p2 REQ(ts=1)",
	"deliver p2->p2 GRANT",
	"input p0 request",
	"deliver p0->p0 REQ(ts=1)",
	"deliver p0->p2 REQ(ts=1)", // p2 -> p2 INQUIRE
	"deliver p2->p0 REQ(ts=1)", // p0 -> p2 FAILED
}

// Reference: seed 002, Case II: a process that has received a FAILED
// answers an INQUIRE with YIELD; and Case III: the voter queues the
// yielding request and votes for the head of its queue.
func TestCaseIIYieldAndCaseIII(t *testing.T) {
	steps := replay(t, "all", append(slices.Clone(inquired),
		"deliver p0->p2 FAILED",
		"deliver p2->p2 INQUIRE",
		"deliver p2->p2 YIELD",
	)...)
	require.Equal(t, []string{"p0->p2 FAILED"}, steps[6].Sends)
	require.Equal(t, "WANTED clock=1 ts=1 votes={}/3 failed={0,2} rounds=0 voted=p2(ts=1) queue=[(1,p0)]", steps[8].State)
	require.Equal(t, []string{"p2->p2 YIELD"}, steps[8].Sends)
	require.Equal(t, "WANTED clock=1 ts=1 votes={}/3 failed={0,2} rounds=0 voted=p0(ts=1) queue=[(1,p2)]", steps[9].State)
	require.Equal(t, []string{"p2->p0 GRANT"}, steps[9].Sends)
}

// FixDefer: an INQUIRE that arrives before the outcome is known
// is kept, and answered by a YIELD when the FAILED arrives. To the letter
// of Case II it is dropped, and the FAILED then yields nothing.
func TestFixDefer(t *testing.T) {
	early := append(slices.Clone(inquired), "deliver p2->p2 INQUIRE", "deliver p0->p2 FAILED")
	steps := replay(t, "all", early...)
	require.Equal(t, "WANTED clock=1 ts=1 votes={2}/3 deferred={2} rounds=0 voted=p2(ts=1) queue=[(1,p0)]", steps[7].State)
	require.Empty(t, steps[7].Sends)
	require.Equal(t, []string{"p2->p2 YIELD"}, steps[8].Sends)
	require.Equal(t, "WANTED clock=1 ts=1 votes={}/3 failed={0,2} rounds=0 voted=p2(ts=1) queue=[(1,p0)]", steps[8].State)

	steps = replay(t, "none", early...)
	require.Equal(t, "WANTED clock=1 ts=1 votes={2}/3 rounds=0 voted=p2(ts=1) queue=[(1,p0)]", steps[7].State)
	require.Empty(t, steps[8].Sends)
}

// A process with every vote ignores an INQUIRE: its RELEASE answers it
// (an INQUIRE asks whether it "has succeeded in locking all the sites",
// seed 002), and the voter then serves the head of its queue.
func TestInquireAnsweredByRelease(t *testing.T) {
	steps := replay(t, "all",
		"input p1 request",
		"input p0 request",
		"deliver p1->p0 REQ(ts=1)",
		"deliver p1->p1 REQ(ts=1)",
		"deliver p1->p2 REQ(ts=1)",
		"deliver p0->p1 REQ(ts=1)", // p1 -> p1 INQUIRE
		"deliver p0->p1 GRANT",
		"deliver p1->p1 GRANT",
		"deliver p2->p1 GRANT",
		"deliver p0->p0 REQ(ts=1)", // p0 -> p1 INQUIRE
		"deliver p0->p1 INQUIRE",
		"deliver p1->p1 INQUIRE",
		"input p1 enter",
		"input p1 exit",
		"deliver p1->p0 REL",
	)
	require.Equal(t, []string{"p1->p1 INQUIRE"}, steps[5].Sends)
	require.Equal(t, []string{"p0->p1 INQUIRE"}, steps[9].Sends)
	for _, i := range []int{10, 11} {
		require.Equal(t, "WANTED clock=1 ts=1 votes={0,1,2}/3 rounds=0 voted=p1(ts=1) queue=[(1,p0)]", steps[i].State)
		require.Empty(t, steps[i].Sends)
	}
	require.Equal(t, []string{"p0->p0 GRANT"}, steps[14].Sends)
	require.Equal(t, "WANTED clock=1 ts=1 votes={}/3 rounds=0 voted=p0(ts=1)", steps[14].State)
}

// The deadlock explanation names the votes each waiting process lacks.
func TestExplainDeadlockWithFaults(t *testing.T) {
	p := config{3, 1, "0,1;1,2;0,2", "all"}.protocol(t)
	w := &model.World[State, Msg]{
		Nodes: []State{
			{Phase: mutex.Wanted, Clock: 1, TS: 1, Voted: 0, VotedTS: 1},                      // its own GRANT was dropped
			{Phase: mutex.Wanted, Clock: 1, TS: 1, Votes: 2, Failed: 4, Voted: 1, VotedTS: 1}, // waits for p2
			{Voted: Nobody}, // crashed
		},
		Timers: make([]uint64, 3),
		Down:   1 << 2,
	}
	require.Equal(t, "no action is enabled: "+
		"p0(ts=1) waits for p0 (its GRANT was lost) and p1 (p1 voted for p1(ts=1)), "+
		"p1(ts=1) waits for p2 (down, FAILED)", p.ExplainDeadlock(w))
}

// Encodings round-trip exactly, and different values encode differently.
func TestCodecRoundTrip(t *testing.T) {
	p := config{4, 2, "all", "all"}.protocol(t)
	var queued State
	queued.Voted, queued.VotedTS = 2, 5
	queued.Queued[1], queued.Queued[3] = 2, 200
	states := []State{
		{Voted: Nobody},
		{Phase: mutex.Wanted, Clock: 3, TS: 3, Votes: 3, Voted: 1, VotedTS: 3},
		{Phase: mutex.Wanted, Clock: 3, TS: 3, Votes: 1, Failed: 2, Voted: 1, VotedTS: 3},
		{Phase: mutex.Wanted, Clock: 3, TS: 3, Votes: 1, Deferred: 1, Voted: 1, VotedTS: 3},
		{Phase: mutex.Held, Clock: 300, TS: 129, Votes: 15, Rounds: 1, Voted: 0, VotedTS: 129},
		queued,
	}
	codectest.States(t, p, states)
	codectest.Msgs(t, p, []Msg{{Kind: Request, TS: 1}, {Kind: Request, TS: 300}, {Kind: Grant}, {Kind: Release},
		{Kind: Fail}, {Kind: Inquire}, {Kind: Yield}})
}

// The fixes parameter round-trips, in a fixed order.
func TestParseFixes(t *testing.T) {
	for _, c := range []struct {
		in, out string
		f       Fixes
	}{
		{"all", "all", AllFixes},
		{"none", "none", NoFixes},
		{"held,queue", "queue,held", FixQueue | FixHeld},
		{"displaced,queue,defer,held", "all", AllFixes},
		{"defer", "defer", FixDefer},
	} {
		f, err := ParseFixes(c.in)
		require.NoError(t, err)
		require.Equal(t, c.f, f, c.in)
		require.Equal(t, c.out, f.String())
	}
	_, err := ParseFixes("queue,yield")
	require.EqualError(t, err, `fixes="queue,yield": "yield" is not a fix (valid: all, none, or a comma list of queue, displaced, defer, held)`)
}
