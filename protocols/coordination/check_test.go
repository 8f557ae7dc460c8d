package coordination

import (
	"testing"

	"github.com/coordcheck/coordcheck/internal/long"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/invariants/linearizability"
	"github.com/coordcheck/coordcheck/model"
)

// A pinned exhaustive check: its verdict, the property violated (if any),
// and the exact counts.
type pinned struct {
	name          string
	spec          func() *checker.Spec[State, Msg]
	verdict       checker.Verdict
	property      string
	states, edges uint64
	depth         int
	long          bool // run only without -short
}

func (c pinned) run(t *testing.T) *checker.Report {
	t.Helper()
	if c.long && !long.Enabled() {
		t.Skip("long exhaustive check; run without -short")
	}
	rep := c.spec().Check(checker.Options{})
	require.Equal(t, c.verdict, rep.Verdict, c.name)
	if c.property != "" {
		require.Equal(t, c.property, rep.Counterexample.Property, c.name)
	}
	require.Equal(t, c.states, rep.States, c.name)
	require.Equal(t, c.edges, rep.Transitions, c.name)
	require.Equal(t, c.depth, rep.Depth, c.name)
	t.Logf("%s: %v, %d states, %d transitions, depth %d, %.2fs", c.name, rep.Verdict, rep.States, rep.Transitions, rep.Depth, rep.Elapsed.Seconds())
	return rep
}

// faults is the configuration with the fault budget spec.
func faults(spec string) model.Config {
	f, err := model.ParseFaults(spec)
	if err != nil {
		panic(err)
	}
	return model.Config{Faults: f}
}

// mustSpec is a spec of a configuration fixed in the test.
// mustSpec is the spec of p's exported properties under cfg.
func mustSpec(p *Protocol, cfg model.Config) *checker.Spec[State, Msg] {
	sp, err := checker.NewSpec(p, cfg, Properties(p))
	if err != nil {
		panic(err)
	}
	return sp
}

func register(ops int, reads ReadMode, fs string) func() *checker.Spec[State, Msg] {
	return func() *checker.Spec[State, Msg] {
		return mustSpec(NewRegister(3, 2, ops, reads), faults(fs))
	}
}

// (1) Reads at the leader, under its lease: every history of 3 replicas
// and 2 clients is linearizable, also when the leader crashes at any
// point and the survivors elect a new one; so are histories with
// sync-then-read.
func TestLeaderAndSyncReadsAreLinearizable(t *testing.T) {
	t.Parallel()
	for _, c := range []pinned{
		{name: "reads=leader ops=1", spec: register(1, LeaderReads, "none"),
			states: 686, edges: 1702, depth: 14},
		{name: "reads=leader ops=1 crash=1@p0", spec: register(1, LeaderReads, "crash=1@p0"),
			states: 18074, edges: 54553, depth: 20},
		{name: "reads=sync ops=1 crash=1@p0", spec: register(1, SyncReads, "crash=1@p0"),
			states: 18026, edges: 54447, depth: 20},
		{name: "reads=leader ops=2", spec: register(2, LeaderReads, "none"),
			states: 28214, edges: 77296, depth: 27},
		{name: "reads=leader ops=2 crash=1@p0", spec: register(2, LeaderReads, "crash=1@p0"),
			states: 1844337, edges: 6134373, depth: 33, long: true},
		// A restarted replica keeps its history (stable storage) and joins
		// the new leader: what was committed survives.
		{name: "clients=1 reads=leader ops=2 crash=1@p0,restart=1", spec: func() *checker.Spec[State, Msg] {
			return mustSpec(NewRegister(3, 1, 2, LeaderReads), faults("crash=1@p0,restart=1"))
		}, states: 74991, edges: 293395, depth: 30},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t) })
	}
}

// (2) ZooKeeper's local reads may be stale: a client reads the old value
// at a follower that has acknowledged a write but not yet heard that it
// committed, after the writer was told it committed. With sync before the
// read, the same configuration is linearizable.
func TestLocalReadsAreStaleSyncIsNot(t *testing.T) {
	t.Parallel()
	stale := pinned{name: "reads=local ops=1", spec: register(1, LocalReads, "none"),
		verdict: checker.Violated, property: linearizability.PropertyName, states: 464, edges: 1129, depth: 12}
	rep := stale.run(t)
	tr := rep.Counterexample
	require.Equal(t, "the history is not linearizable: key /x (at most 1 of its 2 operations linearize)", tr.Detail)
	require.Contains(t, tr.Final, "  history  p3:invoke write /x 1; p3:ok write /x 1; p4:invoke read /x; p4:ok read /x nil"[2:])
	require.Len(t, tr.Steps, 12)
	require.Equal(t, "deliver p4->p1 REQ(#0 getData(/x))", tr.Steps[9].Action, "p1 answers from its own copy")
	require.Equal(t, "deliver p0->p1 COMMIT(e1 1)", tr.Steps[10].Action, "and hears of the commit only after")

	for _, c := range []pinned{
		{name: "reads=sync ops=1", spec: register(1, SyncReads, "none"), states: 686, edges: 1702, depth: 14},
		{name: "reads=sync ops=2", spec: register(2, SyncReads, "none"), states: 28214, edges: 77296, depth: 27},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t) })
	}
}

func lock(clients int, store, seq bool, fs string) func() *checker.Spec[State, Msg] {
	return func() *checker.Spec[State, Msg] {
		return mustSpec(NewLock(3, clients, store, seq), faults(fs))
	}
}

// (3) The ZooKeeper lock recipe keeps mutual exclusion among its clients,
// also when a client crashes (in the critical section or waiting): its
// session expires and its ephemeral znode goes, which wakes the next. (With
// crash=1@p0, the leader, it holds too: 4,563,372 states, not run here.)
func TestLockRecipeMutualExclusion(t *testing.T) {
	t.Parallel()
	for _, c := range []pinned{
		{name: "clients=2", spec: lock(2, false, false, "none"), states: 21292, edges: 68843, depth: 46},
		{name: "clients=2 crash=1@p3", spec: lock(2, false, false, "crash=1@p3"), states: 169273, edges: 557985, depth: 53},
		// A follower crashes: its client reconnects to the next replica,
		// which must not be behind what the client has seen, and lists
		// again (its watch went with the connection).
		{name: "clients=2 crash=1@p1", spec: lock(2, false, false, "crash=1@p1"), states: 150223, edges: 504502, depth: 54},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t) })
	}
}

// (4) Chubby's late write (seed 004, "Use of Sequences"): without
// sequencers, the write of a holder that crashed reaches the storage
// server after its successor's; with sequencers the server rejects it.
func TestLateWriteNeedsSequencers(t *testing.T) {
	t.Parallel()
	off := pinned{name: "sequencers=off crash=1@p3", spec: lock(2, true, false, "crash=1@p3"),
		verdict: checker.Violated, property: NoLateWriteName, states: 54702, edges: 172983, depth: 24}
	tr := off.run(t).Counterexample
	require.Equal(t, "crash p3", tr.Steps[15].Action, "the holder crashes with its write in flight")
	require.Equal(t, "deliver p3->p5 WRITE(1 seq=0)", tr.Steps[len(tr.Steps)-1].Action, "which arrives last")

	on := pinned{name: "sequencers=on crash=1@p3", spec: lock(2, true, true, "crash=1@p3"),
		states: 200568, edges: 666952, depth: 57}
	on.run(t)
}

// Under -timers free a session may expire while its client lives, and the
// recipe loses mutual exclusion: the checker's random search finds it.
func TestPrematureSessionExpiryBreaksTheLock(t *testing.T) {
	t.Parallel()
	p := NewLock(3, 2, false, false)
	p.MaxEpoch = 1
	sp := mustSpec(p, model.Config{Timers: model.TimersFree})
	rep := sp.Check(checker.Options{Strategy: checker.Swarm, Seed: 1, Walks: 2000})
	require.Equal(t, checker.Violated, rep.Verdict)
	require.Equal(t, invariants.MutualExclusionName, rep.Counterexample.Property)
}

// The master lease is what makes reads at the leader safe: with NoLease, a
// follower may start an election while the leader lives, and the deposed
// leader, which has not heard of it yet, answers a read with a value the
// new epoch has overwritten. (The exhaustive search for the shortest such
// run takes 12,623,168 states; counterexamples/coordination/lease-broken.cex
// keeps it. Here the swarm search finds one.)
func TestLeaderReadsNeedTheLease(t *testing.T) {
	t.Parallel()
	p := NewRegister(3, 2, 2, LeaderReads)
	p.NoLease, p.MaxEpoch = true, 2
	rep := mustSpec(p, model.Config{}).Check(checker.Options{Strategy: checker.Swarm, Seed: 1, Walks: 20000})
	require.Equal(t, checker.Violated, rep.Verdict)
	require.Equal(t, linearizability.PropertyName, rep.Counterexample.Property)
}
