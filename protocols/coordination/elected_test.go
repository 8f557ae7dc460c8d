package coordination

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/invariants/linearizability"
	"github.com/coordcheck/coordcheck/model"
)

// elected is the service with register clients and the elected leader.
func elected(clients, ops int, epochs uint8, noWait bool, fs string) func() *checker.Spec[State, Msg] {
	return func() *checker.Spec[State, Msg] {
		p := NewRegister(3, clients, ops, LeaderReads)
		p.Leader, p.MaxEpoch, p.NoLeaseWait = ElectedLeader, epochs, noWait
		return mustSpec(p, faults(fs))
	}
}

// With the leader elected by Chubby's vote (elected.go), the election's
// properties (one leader an epoch, one serving at a time, a leader that
// all follow whenever a majority is up) and the service's (Zab's
// agreement, linearizability, no deadlock) hold exhaustively for 3
// replicas: with one replica's crash at any point (with a client that
// does nothing, the election alone; with one operation and 2 epochs, the
// election after the crash), with the premature elections of 3 epochs
// and no crash, and with a crash and a restart.
func TestElectedLeaderHolds(t *testing.T) {
	t.Parallel()
	for _, c := range []pinned{
		{name: "clients=1 ops=0 crash=1", spec: elected(1, 0, 3, false, "crash=1"),
			states: 14389, edges: 41677, depth: 28},
		{name: "clients=1 ops=1 epochs=2 crash=1", spec: elected(1, 1, 2, false, "crash=1"),
			states: 1992, edges: 5175, depth: 18},
		{name: "clients=1 ops=1", spec: elected(1, 1, 3, false, "none"),
			states: 17592, edges: 58528, depth: 29},
		{name: "clients=1 ops=0 crash=1,restart=1", spec: elected(1, 0, 3, false, "crash=1,restart=1"),
			states: 159086, edges: 542589, depth: 36, long: true},
		{name: "clients=1 ops=1 crash=1", spec: elected(1, 1, 3, false, "crash=1"),
			states: 431966, edges: 1482885, depth: 38, long: true},
		{name: "clients=2 ops=1", spec: elected(2, 1, 3, false, "none"),
			states: 558331, edges: 2110291, depth: 34, long: true},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t) })
	}
}

// Without the lease wait, a new leader starts while the old one, which
// has not heard of the election, still serves under its lease: two
// leaders serve (counterexamples/coordination/two-leaders.cex).
func TestElectedLeaderWaitsOutTheLease(t *testing.T) {
	t.Parallel()
	c := pinned{name: "clients=1 ops=0 leasewait=off", spec: elected(1, 0, 3, true, "none"),
		verdict: checker.Violated, property: OneServingName, states: 112, edges: 226, depth: 7}
	tr := c.run(t).Counterexample
	require.Equal(t, "p0 (epoch 1) and p1 (epoch 2) serve as leaders at once", tr.Detail)
	require.Equal(t, []string{"fire p1 election", "deliver p1->p2 VOTEREQ(e2)", "deliver p2->p1 VOTE(e2)",
		"deliver p1->p2 NEWEPOCH(e2)", "deliver p2->p1 ACKEPOCH(e2 cur=1 [])", "deliver p1->p2 NEWLEADER(e2 [])",
		"deliver p2->p1 ACKNEWLEADER(e2 0)"}, actionsOf(tr))
}

// The stored counterexample's configuration (the command line's
// defaults, 2 clients with 2 operations each): the same 7 steps.
func TestElectedLeaderTwoLeadersStored(t *testing.T) {
	t.Parallel()
	c := pinned{name: "clients=2 ops=2 leasewait=off", spec: elected(2, 2, 3, true, "none"),
		verdict: checker.Violated, property: OneServingName, states: 2259, edges: 4877, depth: 7}
	require.Len(t, c.run(t).Counterexample.Steps, 7)
}

// Without the lease wait, the deposed leader's stale read is caught by
// porcupine: the swarm search finds one (the shortest is beyond an
// exhaustive search here; counterexamples/coordination/stale-read-elected.cex
// keeps one of 38 steps, made by hand).
func TestElectedLeaderStaleReadWithoutTheWait(t *testing.T) {
	t.Parallel()
	p := NewRegister(3, 2, 2, LeaderReads)
	p.Leader, p.NoLeaseWait = ElectedLeader, true
	sp := mustSpec(p, model.Config{})
	sp.Invariants = slices.DeleteFunc(sp.Invariants, func(i Invariant) bool { return i.Name == OneServingName })
	rep := sp.Check(checker.Options{Strategy: checker.Swarm, Seed: 2, Walks: 2000})
	require.Equal(t, checker.Violated, rep.Verdict)
	require.Equal(t, linearizability.PropertyName, rep.Counterexample.Property)
	require.Len(t, rep.Counterexample.Steps, 41)
}

func actionsOf(tr *checker.Trace) []string {
	var as []string
	for _, s := range tr.Steps {
		as = append(as, s.Action)
	}
	return as
}

// The lease at work, step by step: p1 stands while p0 leads (its
// KeepAlives late); with p1's vote alone p0's lease is still renewed by a
// majority (p0, p2); once p2 votes too, p1 has won, but it starts only
// after p0's lease ran out and p0 stepped down, telling its client.
func TestElectedLeaderLeaseStepByStep(t *testing.T) {
	p := NewRegister(3, 1, 1, LeaderReads)
	p.Leader = ElectedLeader
	sys := model.MustNewSystem[State, Msg](p, model.Config{})
	w := sys.Init()
	enabled := func(text string) bool {
		for _, a := range sys.Actions(w, nil) {
			if sys.FormatAction(w, a) == text {
				return true
			}
		}
		return false
	}
	do := func(text string) {
		t.Helper()
		for _, a := range sys.Actions(w, nil) {
			if sys.FormatAction(w, a) == text {
				next := &model.World[State, Msg]{}
				sys.Apply(w, a, next)
				w = next
				return
			}
		}
		t.Fatalf("%s is not enabled", text)
	}
	do("input p3 write /x 1")
	do("deliver p3->p0 REQ(#0 setData(/x,1))")
	do("fire p1 election")
	require.False(t, enabled("fire p2 election"), "one election at a time")
	require.False(t, enabled("fire p0 lease-expiry"), "p0 and p2 still renew the lease")
	do("deliver p1->p2 VOTEREQ(e2)")
	require.True(t, enabled("fire p0 lease-expiry"), "p1 and p2 voted in epoch 2: a majority no longer renews")
	do("deliver p2->p1 VOTE(e2)")
	require.Equal(t, Elected, w.Nodes[1].R.Role)
	require.False(t, enabled("fire p1 lease-wait"), "p0 still serves under its lease")
	do("fire p0 lease-expiry")
	require.Equal(t, Promised, w.Nodes[0].R.Role)
	require.Equal(t, 1, w.InFlight(func(e model.Envelope[Msg]) bool {
		return e.From == 0 && e.To == 3 && e.Msg.Kind == Reply && e.Msg.Res.Code == ConnLoss
	}), "p0 owed p3 an answer: the connection is lost")
	do("fire p1 lease-wait")
	require.Equal(t, Discovery, w.Nodes[1].R.Role)
}
