package coordination

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
)

// recipe is the spec of a recipe over a standalone server (p0), with
// clients p1.. and the fault budget fs.
func recipe(w Workload, clients int, broken bool, fs string) func() *checker.Spec[State, Msg] {
	return func() *checker.Spec[State, Msg] {
		return mustSpec(NewRecipe(w, 1, clients, broken), faults(fs))
	}
}

// brokenRecipe is a recipe's broken variant, caught: the property, the
// exact counts, and the shortest counterexample's length.
type brokenRecipe struct {
	pinned
	steps int
	why   string
}

func (b brokenRecipe) run(t *testing.T) *checker.Trace {
	t.Helper()
	rep := b.pinned.run(t)
	require.Len(t, rep.Counterexample.Steps, b.steps, b.name)
	require.Equal(t, b.why, rep.Counterexample.Detail, b.name)
	return rep.Counterexample
}

// Each recipe holds its property exhaustively for 2-3 clients with, and
// without, a client's crash (its session expires); its broken variant is
// caught, with the shortest counterexample.
func TestRecipes(t *testing.T) {
	t.Parallel()
	for _, c := range []pinned{
		// The simple lock: mutual exclusion, and a dead holder's ephemeral
		// znode goes, which wakes the waiters.
		{name: "simple lock, 3 clients", spec: recipe(SimpleLockClients, 3, false, "none"), states: 11348, edges: 27228, depth: 33},
		{name: "simple lock, 3 clients, crash=1@p1", spec: recipe(SimpleLockClients, 3, false, "crash=1@p1"), states: 45052, edges: 107410, depth: 34},
		// The read/write lock, one writer (p1) and two readers.
		{name: "rwlock, 3 clients", spec: recipe(RWLockClients, 3, false, "none"), states: 27288, edges: 66882, depth: 34},
		{name: "rwlock, 2 clients, crash=1@p1 (the writer)", spec: recipe(RWLockClients, 2, false, "crash=1@p1"), states: 813, edges: 1554, depth: 21},
		{name: "rwlock, 2 clients, crash=1@p2 (the reader)", spec: recipe(RWLockClients, 2, false, "crash=1@p2"), states: 867, edges: 1623, depth: 22},
		{name: "rwlock, 3 clients, crash=1 of any", spec: recipe(RWLockClients, 3, false, "crash=1@p1+p2+p3"), states: 222202, edges: 579650, depth: 35, long: true},
		// The double barrier: with a member's crash, before or after the
		// barrier opened.
		{name: "barrier, 2 clients", spec: recipe(BarrierClients, 2, false, "none"), states: 1632, edges: 2822, depth: 27},
		{name: "barrier, 2 clients, crash=1@p1", spec: recipe(BarrierClients, 2, false, "crash=1@p1"), states: 4776, edges: 9310, depth: 27},
		{name: "barrier, 3 clients, crash=1@p1", spec: recipe(BarrierClients, 3, false, "crash=1@p1"), states: 5352748, edges: 14940928, depth: 43, long: true},
		// Group membership: the views converge after a member's session
		// expires.
		{name: "group, 3 clients", spec: recipe(MemberClients, 3, false, "none"), states: 2936, edges: 7524, depth: 19},
		{name: "group, 3 clients, crash=1@p1", spec: recipe(MemberClients, 3, false, "crash=1@p1"), states: 10534, edges: 27768, depth: 22},
		// The election recipe: one leader, a leader's crash wakes one.
		{name: "election, 3 clients", spec: recipe(ElectionClients, 3, false, "none"), states: 3656, edges: 8448, depth: 19},
		{name: "election, 3 clients, crash=1@p1", spec: recipe(ElectionClients, 3, false, "crash=1@p1"), states: 12700, edges: 31774, depth: 24},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t) })
	}
}

// The broken variants, each caught with its shortest counterexample (the
// files under counterexamples/<entry>/ keep them).
func TestBrokenRecipesAreCaught(t *testing.T) {
	t.Parallel()
	for _, c := range []brokenRecipe{
		// Regular instead of ephemeral: a dead holder never releases.
		{pinned{name: "simple lock, regular znode", spec: recipe(SimpleLockClients, 3, true, "crash=1@p1"),
			verdict: checker.Violated, property: checker.DeadlockProperty, states: 7596, edges: 15488, depth: 14},
			14, "no action is enabled and p2 and p3 still wait"},
		// Readers that ignore earlier writers.
		{pinned{name: "rwlock, readers ignore writers", spec: recipe(RWLockClients, 3, true, "none"),
			verdict: checker.Violated, property: WriterFirstName, states: 397, edges: 701, depth: 8},
			8, "reader p2 holds the lock with /rw/read-1 while writer p1, which came first with /rw/write-0, waits"},
		// No ready znode: the slow member never counts them all.
		{pinned{name: "barrier, no ready znode", spec: recipe(BarrierClients, 2, true, "none"),
			verdict: checker.Violated, property: BarrierProgressName, states: 395, edges: 727, depth: 16},
			16, "the run ends with p1 LEAVE-WAITING, p2 WATCHING in the barrier"},
		// Regular instead of ephemeral: the dead member stays in the views.
		{pinned{name: "group, regular znodes", spec: recipe(MemberClients, 3, true, "crash=1@p1"),
			verdict: checker.Violated, property: ViewConvergesName, states: 7131, edges: 16309, depth: 14},
			14, "the run ends with p2's view {p1,p2,p3}, but the live members are {p2,p3}"},
		// Everyone watches the leader: the herd.
		{pinned{name: "election, all watch the leader", spec: recipe(ElectionClients, 3, true, "crash=1@p1"),
			verdict: checker.Violated, property: OneWakeupName, states: 10322, edges: 24572, depth: 16},
			16, "the deletion of /election/n-0 wakes p2 and p3 (a herd)"},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t) })
	}
}

// The read/write lock's readers do share it: "readers never hold at once"
// is violated, and its counterexample shows two readers in.
func TestReadersShareTheLock(t *testing.T) {
	p := NewRecipe(RWLockClients, 1, 3, false)
	sp := mustSpec(p, model.Config{})
	sp.Invariants = []Invariant{{Name: "readers-alone", Holds: func(w *model.World[State, Msg]) (bool, string) {
		return len(p.holders(w)) < 2, "two readers hold the lock"
	}}}
	rep := sp.Check(checker.Options{})
	require.Equal(t, checker.Violated, rep.Verdict)
	final := rep.Counterexample.Final
	require.Contains(t, final, "p2  HELD read-0 conn=p0 zxid=1")
	require.Contains(t, final, "p3  HELD read-1 conn=p0 zxid=2")
}

// The simple lock and the sequential recipe keep mutual exclusion alike;
// what differs is the herd (TestHerd).
func TestSimpleLockIsMutuallyExclusive(t *testing.T) {
	sp := recipe(SimpleLockClients, 2, false, "none")()
	require.Equal(t, []string{invariants.MutualExclusionName, AgreementName, checker.DeadlockProperty}, sp.PropertyNames())
}
