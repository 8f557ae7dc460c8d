package coordination

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
)

// The versioned counter: no increment is lost, exhaustively, for 2 and 3
// clients with and without a client's crash (its session expires), over a
// standalone server and, with the leader's crash, over Zab; with an
// unconditional setData two increments collapse into one
// (counterexamples/zkcounter/unconditional-setdata.cex).
func TestCounterLosesNoUpdate(t *testing.T) {
	t.Parallel()
	for _, c := range []pinned{
		{name: "counter, 2 clients", spec: recipe(CounterClients, 2, false, "none"), states: 72, edges: 108, depth: 14},
		{name: "counter, 2 clients, crash=1@p1", spec: recipe(CounterClients, 2, false, "crash=1@p1"), states: 212, edges: 377, depth: 15},
		{name: "counter, 3 clients", spec: recipe(CounterClients, 3, false, "none"), states: 3496, edges: 7332, depth: 27},
		{name: "counter, 3 clients, crash=1@p1", spec: recipe(CounterClients, 3, false, "crash=1@p1"), states: 12064, edges: 27038, depth: 28},
		{name: "counter, 3 clients, crash=1 of any", spec: recipe(CounterClients, 3, false, "crash=1@p1+p2+p3"), states: 29200, edges: 66450, depth: 28},
		// Over Zab, the leader crashes: a committed increment survives the
		// failover, and one whose answer is lost is given up, not repeated.
		{name: "counter, 3 replicas, 2 clients, crash=1@p0", spec: func() *checker.Spec[State, Msg] {
			return mustSpec(NewRecipe(CounterClients, 3, 2, false), faults("crash=1@p0"))
		}, states: 179269, edges: 619428, depth: 47, long: true},
	} {
		t.Run(c.name, func(t *testing.T) { c.run(t) })
	}
	for _, c := range []brokenRecipe{
		{pinned{name: "counter, unconditional setData, 2 clients", spec: recipe(CounterClients, 2, true, "none"),
			verdict: checker.Violated, property: NoLostUpdateName, states: 56, edges: 84, depth: 10},
			10, "p0's /cnt ends at 1 after 2 increments applied: an update was lost"},
		{pinned{name: "counter, unconditional setData, 3 clients, crash=1@p1", spec: recipe(CounterClients, 3, true, "crash=1@p1"),
			verdict: checker.Violated, property: NoLostUpdateName, states: 2294, edges: 4946, depth: 12},
			12, "p0's /cnt ends at 1 after 2 increments applied: an update was lost"},
	} {
		tr := c.run(t)
		require.Contains(t, tr.Final[0], "tree={/cnt=1v2}", "two setData(/cnt,1) without a version both applied")
	}
}

// The version check is what rejects the stale write: the shortest run in
// which a server answers badversion has p2 and p3 read /cnt at version 0;
// p2's setData(v0) lands first, and p3's setData(/cnt,1,v0) is refused by
// the tree, after which p3 reads again (version 1) and writes 2.
func TestCounterVersionCheckRejectsTheStaleWrite(t *testing.T) {
	p := NewRecipe(CounterClients, 1, 2, false)
	sp := mustSpec(p, model.Config{})
	sp.Invariants = []Invariant{{Name: "no-badversion", Holds: func(w *model.World[State, Msg]) (bool, string) {
		for _, e := range w.Net {
			if e.Msg.Kind == Reply && e.Msg.Res.Code == BadVersion {
				return false, "a setData is refused: badversion"
			}
		}
		return true, ""
	}}}
	rep := sp.Check(checker.Options{})
	require.Equal(t, checker.Violated, rep.Verdict)
	tr := rep.Counterexample
	require.Len(t, tr.Steps, 8)
	require.Equal(t, "deliver p2->p0 REQ(#14 setData(/cnt,1,v0))", tr.Steps[7].Action)
	require.Contains(t, tr.Final, "net  p0->p2  REPLY(#14 badversion zxid=2)", "the refused setData is a transaction too")

	// Then p2 reads the new version, and its retry is applied.
	res := newTree(p.paths())
	_, _ = res.Apply(0, Op{Kind: OpSetData, Path: CounterPath, Data: 1, Version: 0})
	got, _ := res.Apply(1, Op{Kind: OpSetData, Path: CounterPath, Data: 1, Version: 0})
	require.Equal(t, BadVersion, got.Code, "a stale version is refused")
	read := res.Read(Op{Kind: OpGetData, Path: CounterPath, Flags: Stat})
	require.Equal(t, Result{Data: 1, Version: 1}, read, "getData with Stat reads the version")
	require.Equal(t, Result{Data: 1}, res.Read(Op{Kind: OpGetData, Path: CounterPath}), "and without it does not")
	got, _ = res.Apply(1, Op{Kind: OpSetData, Path: CounterPath, Data: 2, Version: int8(read.Version)})
	require.Equal(t, OK, got.Code)
}
