package maekawa

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/internal/codectest"
	"github.com/coordcheck/coordcheck/internal/long"
	"github.com/coordcheck/coordcheck/internal/spintest"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

func spec(t *testing.T, n, rounds int, sets string) *checker.Spec[State, Msg] {
	return specWith(t, n, rounds, sets, "all")
}

// specWith is spec with only the given requesters (the requesters
// parameter) requesting the critical section.
func specWith(t *testing.T, n, rounds int, sets, requesters string) *checker.Spec[State, Msg] {
	t.Helper()
	vs, err := ParseSets(sets, n)
	require.NoError(t, err)
	p, err := New(n, rounds, vs)
	require.NoError(t, err)
	p.Requesters, err = ParseRequesters(requesters, n)
	require.NoError(t, err)
	return &checker.Spec[State, Msg]{
		System: model.MustNewSystem[State, Msg](p, model.Config{}),
		Invariants: []checker.Invariant[State, Msg]{
			invariants.MutualExclusion[State, Msg](p),
			{Name: invariants.ReleaseFromHolderName, Holds: p.ReleaseFromHolder},
		},
		Deadlock: true,
	}
}

// The whole state space (Exhaust, like pan -c0) has SPIN's NOREDUCE counts
// on ../shared/bench/spin/models/maekawa.pml (SPIN's "transitions" is
// edges+1) and as many deadlocked states ("invalid end states"); mutual
// exclusion and the release assertion hold in all of it.
func TestStateCountsMatchSPIN(t *testing.T) {
	deadlocks := func(n uint64) []checker.PropertyCount {
		return []checker.PropertyCount{{Property: checker.DeadlockProperty, States: n}}
	}
	cases := []struct {
		n    int
		sets string
		spintest.Counts
	}{
		{3, "all", spintest.Counts{Verdict: checker.Violated, States: 61007, Edges: 239216, Violating: deadlocks(171)}},
		{4, "grid", spintest.Counts{Verdict: checker.Violated, States: 2272135, Edges: 11833406, Violating: deadlocks(939), Long: true}},
	}
	for _, c := range cases {
		spintest.Match(t, fmt.Sprintf("n=%d sets=%s", c.n, c.sets), c.Counts,
			func() *checker.Report { return spec(t, c.n, 1, c.sets).Check(checker.Options{Exhaust: true}) })
	}
}

// The shortest deadlock (BFS) takes 5N steps, as SPIN's BFS trails: N
// requests, 3N REQ receipts and N GRANT receipts (bench/spin README 3.3).
// Every process requests, every voter first serves its own process, and
// all other requests are queued.
func TestShortestDeadlock(t *testing.T) {
	cases := []struct {
		n     int
		sets  string
		steps int
		why   string
		long  bool
	}{
		{3, "all", 15, "circular wait: " +
			"p0 waits for p2 (p2 voted for p1), " +
			"p1 waits for p0 (p0 voted for p0) and p1 (p1 voted for p0), " +
			"p2 waits for p0 (p0 voted for p0) and p1 (p1 voted for p0) and p2 (p2 voted for p1); " +
			"cycle p0 -> p1 -> p0", false},
		{4, "grid", 20, "", true},
	}
	for _, c := range cases {
		if c.long && !long.Enabled() {
			continue
		}
		rep := spec(t, c.n, 1, c.sets).Check(checker.Options{})
		require.Equal(t, checker.Violated, rep.Verdict)
		ce := rep.Counterexample
		require.Equal(t, checker.DeadlockProperty, ce.Property)
		require.Len(t, ce.Steps, c.steps, "n=%d sets=%s", c.n, c.sets)
		if c.why != "" {
			require.Equal(t, c.why, ce.Detail)
		}
		t.Logf("n=%d sets=%s: %s", c.n, c.sets, ce.Detail)
	}
}

// Seed 001's deadlock example: S0={0,1}, S1={1,2}, S2={0,2}; each process
// votes for itself first, so p0 waits for p1, p1 for p2 and p2 for p0.
func TestSeed001Deadlock(t *testing.T) {
	rep := spec(t, 3, 1, "0,1;1,2;0,2").Check(checker.Options{})
	require.Equal(t, checker.Violated, rep.Verdict)
	require.Equal(t, "circular wait: "+
		"p0 waits for p1 (p1 voted for p1), "+
		"p1 waits for p2 (p2 voted for p2), "+
		"p2 waits for p0 (p0 voted for p0); "+
		"cycle p0 -> p1 -> p2 -> p0", rep.Counterexample.Detail)
	require.Len(t, rep.Counterexample.Steps, 12)
}

// Seven processes on the projective plane (seed 001): the space is too
// big to exhaust (SPIN stops at 8.2 million states in 120 s) and BFS
// reaches only depth 12 in 48 million states, so this test takes two
// other routes to the deadlock. A DFS bounded in states finds one at once;
// and the 35-step pattern of SPIN's trail (every process requests, every
// voter serves its own process first and queues the other requests)
// replays to a deadlock. 35 = 5N is also the lower bound (bench/spin
// README 3.3), so it is the shortest.
func TestPlaneDeadlock(t *testing.T) {
	sp := spec(t, 7, 1, "plane")
	rep := sp.Check(checker.Options{Strategy: checker.DFS, MaxStates: 100000})
	require.Equal(t, checker.Violated, rep.Verdict)
	require.Equal(t, checker.DeadlockProperty, rep.Counterexample.Property)
	require.GreaterOrEqual(t, len(rep.Counterexample.Steps), 35)

	var lines []string
	sets := PlaneSets()
	for i := range sets {
		lines = append(lines, fmt.Sprintf("input p%d request", i))
	}
	for i := range sets {
		lines = append(lines, fmt.Sprintf("deliver p%d->p%d REQ(ts=1)", i, i), fmt.Sprintf("deliver p%d->p%d GRANT", i, i))
	}
	for i, v := range sets {
		for _, j := range v.Members() {
			if int(j) != i {
				lines = append(lines, fmt.Sprintf("deliver p%d->%s REQ(ts=1)", i, j))
			}
		}
	}
	require.Len(t, lines, 35)
	r, err := sp.Replay(lines)
	require.NoError(t, err)
	require.Equal(t, checker.DeadlockProperty, r.Trace.Property)
	require.Equal(t, "circular wait: "+
		"p0 waits for p1 (p1 voted for p1) and p2 (p2 voted for p2), "+
		"p1 waits for p3 (p3 voted for p3) and p5 (p5 voted for p5), "+
		"p2 waits for p4 (p4 voted for p4) and p5 (p5 voted for p5), "+
		"p3 waits for p0 (p0 voted for p0) and p4 (p4 voted for p4), "+
		"p4 waits for p1 (p1 voted for p1) and p6 (p6 voted for p6), "+
		"p5 waits for p0 (p0 voted for p0) and p6 (p6 voted for p6), "+
		"p6 waits for p2 (p2 voted for p2) and p3 (p3 voted for p3); "+
		"cycle p0 -> p1 -> p3 -> p0", r.Trace.Detail)
}

// Three requesters suffice for a deadlock when their voting sets form a
// cycle: on the plane, lines 0, 1 and 2 meet pairwise in three different
// voters (a triangle), and each process can hold one vote the next one
// needs. Three lines through one point (0, 3 and 5 all hold p0) cannot:
// whoever gets p0's vote gets everything it needs. The deadlock-free
// variant passes on the same workloads (package maekawadf).
func TestDeadlockWithRequesters(t *testing.T) {
	for _, c := range []struct {
		n          int
		sets, reqs string
		steps      int
		why        string
	}{
		{7, "plane", "0,1,2", 18, "circular wait: p0 waits for p2 (p2 voted for p2), p1 waits for p1 (p1 voted for p0), " +
			"p2 waits for p5 (p5 voted for p1); cycle p0 -> p2 -> p1 -> p0"},
		{4, "grid", "0,1,2", 16, "circular wait: p0 waits for p2 (p2 voted for p2), p1 waits for p0 (p0 voted for p0) " +
			"and p1 (p1 voted for p0), p2 waits for p0 (p0 voted for p0) and p3 (p3 voted for p1); cycle p0 -> p2 -> p0"},
	} {
		rep := specWith(t, c.n, 1, c.sets, c.reqs).Check(checker.Options{})
		require.Equal(t, checker.Violated, rep.Verdict)
		require.Equal(t, checker.DeadlockProperty, rep.Counterexample.Property)
		require.Len(t, rep.Counterexample.Steps, c.steps, "%s %s", c.sets, c.reqs)
		require.Equal(t, c.why, rep.Counterexample.Detail)
	}
	rep := specWith(t, 7, 1, "plane", "0,3,5").Check(checker.Options{})
	require.Equal(t, checker.Pass, rep.Verdict, "%v", rep.Counterexample)
	require.Equal(t, uint64(64137), rep.States)
}

// With faults, a deadlock need not be a cycle: a vote can sit with a
// crashed voter or a GRANT be lost. The explanation says so.
func TestExplainDeadlockWithFaults(t *testing.T) {
	sets, err := ParseSets("0,1;1,2;0,2", 3)
	require.NoError(t, err)
	p, err := New(3, 1, sets)
	require.NoError(t, err)
	w := &model.World[State, Msg]{
		Nodes: []State{
			{Phase: mutex.Wanted, Clock: 1, TS: 1, Voted: 0},            // its own GRANT was dropped
			{Phase: mutex.Wanted, Clock: 1, TS: 1, Grants: 1, Voted: 1}, // waits for p2
			{Voted: Nobody}, // crashed
		},
		Timers: make([]uint64, 3),
		Down:   1 << 2,
	}
	require.Equal(t, "no action is enabled: "+
		"p0 waits for p1 (p1 voted for p1) and a lost GRANT (0 of the 1 votes for p0 arrived), "+
		"p1 waits for p2 (down)", p.ExplainDeadlock(w))
}

// Reference: seed 000, "On receipt of a release": the voter passes its
// vote to the queued request with the smallest (timestamp, id).
func TestReleaseGrantsOldestRequest(t *testing.T) {
	r, err := spec(t, 3, 1, "all").Replay([]string{
		"input p0 request",
		"deliver p0->p0 REQ(ts=1)",
		"deliver p0->p1 REQ(ts=1)",
		"deliver p0->p2 REQ(ts=1)",
		"deliver p0->p0 GRANT",
		"deliver p1->p0 GRANT",
		"deliver p2->p0 GRANT",
		"input p2 request",
		"input p1 request",
		"deliver p2->p0 REQ(ts=2)",
		"deliver p1->p0 REQ(ts=2)",
		"input p0 enter",
		"input p0 exit",
		"deliver p0->p0 REL",
	})
	require.NoError(t, err)
	steps := r.Trace.Steps
	require.Equal(t, "WANTED clock=2 ts=1 grants=3/3 rounds=0 voted=p0 queue=[(2,p1) (2,p2)]", steps[10].State)
	require.Equal(t, "RELEASED clock=2 rounds=1 voted=p1 queue=[(2,p2)]", steps[13].State)
	require.Equal(t, []string{"p0->p1 GRANT"}, steps[13].Sends)
	require.Empty(t, r.Trace.Property)
}

// Encodings round-trip exactly, and different values encode differently.
func TestCodecRoundTrip(t *testing.T) {
	p, err := New(4, 2, AllSets(4))
	require.NoError(t, err)
	var queued State
	queued.Queued[1], queued.Queued[3] = 2, 200
	states := []State{
		{Voted: Nobody},
		{Phase: mutex.Wanted, Clock: 3, TS: 3, Grants: 2, Voted: 1},
		{Phase: mutex.Held, Clock: 300, TS: 129, Grants: 4, Rounds: 1, Voted: 0},
		queued,
	}
	codectest.States(t, p, states)
	codectest.Msgs(t, p, []Msg{{Kind: Request, TS: 1}, {Kind: Request, TS: 300}, {Kind: Grant}, {Kind: Release}})
}
