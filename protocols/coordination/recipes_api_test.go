package coordination

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/model"
)

// herdRun drives a run by hand, in rounds, and counts what it sends.
type herdRun struct {
	sys         *model.System[State, Msg]
	w, next     *model.World[State, Msg]
	msgs, notes int
}

func (r *herdRun) apply(a model.Action) {
	if r.next == nil {
		r.next = &model.World[State, Msg]{}
	}
	r.sys.Apply(r.w, a, r.next)
	r.sys.LastOut().Sends(func(_ model.NodeID, m Msg) {
		r.msgs++
		if m.Kind == Notify {
			r.notes++
		}
	})
	r.w, r.next = r.next, r.w
}

func (r *herdRun) input(id model.NodeID, in model.Input) bool {
	for _, a := range r.sys.Actions(r.w, nil) {
		if a.Kind == model.ActInput && a.Node == id && a.Input == in {
			r.apply(a)
			return true
		}
	}
	return false
}

// settle runs rounds until no message is in flight: each round delivers
// the messages in flight at its start, link by link in canonical order.
func (r *herdRun) settle() bool {
	for range 64 {
		if len(r.w.Net) == 0 {
			return true
		}
		type link struct{ from, to model.NodeID }
		var plan []link
		for _, e := range r.w.Net {
			plan = append(plan, link{e.From, e.To})
		}
		for _, l := range plan {
			for _, a := range r.sys.Actions(r.w, nil) {
				if a.Kind == model.ActDeliver && a.Peer == l.from && a.Node == l.to {
					r.apply(a)
					break
				}
			}
		}
	}
	return false
}

// newRun is a run of the recipe of workload with n clients of a
// standalone server, driven by hand, with one crash in the budget.
func newRun(t *testing.T, workload Workload, n int) (*Protocol, *herdRun) {
	t.Helper()
	p := NewRecipe(workload, 1, n, false)
	sys, err := model.NewSystem[State, Msg](p, faults("crash=1"))
	require.NoError(t, err)
	return p, &herdRun{sys: sys, w: sys.Init()}
}

// do takes the enabled action of kind k at node id (timer tm for a fire).
func (r *herdRun) do(t *testing.T, k model.ActionKind, id model.NodeID, tm model.TimerID) {
	t.Helper()
	for _, a := range r.sys.Actions(r.w, nil) {
		if a.Kind == k && a.Node == id && (k != model.ActFire || a.Timer == tm) {
			r.apply(a)
			return
		}
	}
	t.Fatalf("no %v at %s enabled", k, id)
}

func (r *herdRun) tree(p *Protocol) string { return p.tree(r.w.Nodes[0].R).format(p) }

// Ephemeral znodes, getChildren and its child watch, through group
// membership: three members join and see each other; p2 dies, its session
// expires, its znode goes, and the child watches of p1 and p3 fire once
// each, so that their views drop p2.
func TestEphemeralZnodesThroughGroupMembership(t *testing.T) {
	p, r := newRun(t, MemberClients, 3)
	for c := range 3 {
		r.input(p.clientNode(uint8(c)), InputJoin)
	}
	require.True(t, r.settle())
	require.Equal(t, "/g /g/p1(p1) /g/p2(p2) /g/p3(p3)", r.tree(p))
	for c := range 3 {
		require.Equal(t, uint8(0b111), r.w.Nodes[p.clientNode(uint8(c))].C.View)
	}
	r.do(t, model.ActCrash, 2, 0)
	r.notes = 0
	r.do(t, model.ActFire, 0, TimerSession+1)
	require.True(t, r.settle())
	require.Equal(t, "/g /g/p1(p1) /g/p3(p3)", r.tree(p), "the session's end removed its ephemeral znode")
	require.Equal(t, 2, r.notes, "one child-watch event for each live member; p2's watch went with its session")
	require.Equal(t, "WATCHING view={p1,p3} conn=p0 zxid=4", p.FormatState(1, r.w.Nodes[1]))
	require.Equal(t, "WATCHING view={p1,p3} conn=p0 zxid=4", p.FormatState(3, r.w.Nodes[3]))
}

// Sequential znodes through the read/write lock: one counter under /rw
// orders writers and readers alike (write-0, read-1, read-2); the readers
// wait for the writer's znode, and share the lock once it goes.
func TestSequentialZnodesThroughTheRWLock(t *testing.T) {
	p, r := newRun(t, RWLockClients, 3)
	for c := range 3 {
		r.input(p.clientNode(uint8(c)), InputLock)
		require.True(t, r.settle())
	}
	require.Equal(t, "/rw /rw/read-1(p2) /rw/read-2(p3) /rw/write-0(p1)", r.tree(p))
	require.Equal(t, "HELD write-0 conn=p0 zxid=1", p.FormatState(1, r.w.Nodes[1]))
	require.Equal(t, "WATCHING read-1 pred=write-0 conn=p0 zxid=2", p.FormatState(2, r.w.Nodes[2]))
	require.Equal(t, "WATCHING read-2 pred=write-0 conn=p0 zxid=3", p.FormatState(3, r.w.Nodes[3]))
	r.notes = 0
	r.input(1, InputUnlock)
	require.True(t, r.settle())
	require.Equal(t, 2, r.notes, "both readers watched the writer")
	require.Len(t, p.holders(r.w), 2, "the readers share the lock")
}

// One-time watches through the simple lock: p2 and p3 watch /slock; the
// release fires both watches and forgets them; the loser of the race that
// follows sets a new one, which is then the only watch the server holds.
func TestOneTimeWatchesThroughTheSimpleLock(t *testing.T) {
	p, r := newRun(t, SimpleLockClients, 3)
	for c := range 3 {
		r.input(p.clientNode(uint8(c)), InputLock)
	}
	require.True(t, r.settle())
	require.Equal(t, []WatchReg{{Path: SimpleLockPath, Client: 1}, {Path: SimpleLockPath, Client: 2}}, r.w.Nodes[0].R.Watches)
	r.notes = 0
	r.input(1, InputUnlock)
	require.True(t, r.settle())
	require.Equal(t, 2, r.notes)
	require.Len(t, p.holders(r.w), 1)
	loser := uint8(1)
	if p.holders(r.w)[0] == 2 {
		loser = 2
	}
	require.Equal(t, []WatchReg{{Path: SimpleLockPath, Client: loser}}, r.w.Nodes[0].R.Watches,
		"the fired watches are gone; the loser watches anew")
}

// The election recipe's chain of watches: each candidate watches its
// predecessor, so the leader's crash wakes exactly its successor, which
// leads; the third goes on watching the second.
func TestElectionCrashWakesOne(t *testing.T) {
	p, r := newRun(t, ElectionClients, 3)
	for c := range 3 {
		r.input(p.clientNode(uint8(c)), InputJoin)
		require.True(t, r.settle())
	}
	require.Equal(t, "HELD n-0 conn=p0 zxid=1", p.FormatState(1, r.w.Nodes[1]))
	require.Equal(t, "WATCHING n-2 pred=n-1 conn=p0 zxid=3", p.FormatState(3, r.w.Nodes[3]))
	r.do(t, model.ActCrash, 1, 0)
	r.notes = 0
	r.do(t, model.ActFire, 0, TimerSession+0)
	require.True(t, r.settle())
	require.Equal(t, 1, r.notes, "one candidate woken")
	require.Equal(t, []model.NodeID{2}, p.holders(r.w))
	require.Equal(t, "WATCHING n-2 pred=n-1 conn=p0 zxid=3", p.FormatState(3, r.w.Nodes[3]))
}
