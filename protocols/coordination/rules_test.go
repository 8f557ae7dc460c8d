package coordination

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/model"
)

// One test per rule of the notes, each driving Step directly.

// outbox collects the effects of one step.
type outbox struct{ out model.Out[Msg] }

func (b *outbox) o() *model.Out[Msg] { b.out.Reset(); return &b.out }

// sent lists the messages of the last step as "p1 PROPOSE(...)".
func (b *outbox) sent(p *Protocol) []string {
	var s []string
	b.out.Sends(func(to model.NodeID, m Msg) { s = append(s, to.String()+" "+p.FormatMsg(m)) })
	return s
}

func recv(from model.NodeID, m Msg) model.Event[Msg] {
	return model.Event[Msg]{Kind: model.Receive, From: from, Msg: m}
}

var set1 = Op{Kind: OpSetData, Path: RegisterPath, Data: 1, Version: AnyVersion}
var get = Op{Kind: OpGetData, Path: RegisterPath}

// Reference: seed 004, Zab phase 3: "proposes new transactions", "commits
// if quorum acknowledges"; Chubby: "majority of replicas must acknowledge
// receipt of update before master writes its own value".
func TestLeaderCommitsOnMajority(t *testing.T) {
	p := NewRegister(3, 2, 1, LeaderReads)
	var b outbox
	s := p.Init(0, b.o())
	s = p.Step(0, s, recv(3, Msg{Kind: Request, Seq: 0, Op: set1}), b.o())
	require.Equal(t, []string{"p1 PROPOSE(e1 0 e1:p3#0@p0:setData(/x,1))", "p2 PROPOSE(e1 0 e1:p3#0@p0:setData(/x,1))"}, b.sent(p))
	require.Equal(t, uint8(0), s.R.Committed)
	s = p.Step(0, s, recv(2, Msg{Kind: Ack, Epoch: 1, N: 1}), b.o())
	require.Equal(t, []string{"p3 REPLY(#0 ok zxid=1)", "p1 COMMIT(e1 1)", "p2 COMMIT(e1 1)"}, b.sent(p))
	require.Equal(t, "/x=1v1", p.tree(s.R).format(p))
	s = p.Step(0, s, recv(1, Msg{Kind: Ack, Epoch: 1, N: 1}), b.o())
	require.Empty(t, b.sent(p), "a late ACK commits nothing new")
	require.Equal(t, uint8(1), s.R.Match[1])
}

// Reference: seed 000, ZooKeeper: "all requests that update ZooKeeper
// state (writes) are forwarded to the leader"; the follower answers once
// it has applied the commit.
func TestFollowerForwardsWritesAndAnswersOnCommit(t *testing.T) {
	p := NewRegister(3, 2, 1, LocalReads)
	var b outbox
	s := p.Init(1, b.o())
	s = p.Step(1, s, recv(4, Msg{Kind: Request, Seq: 0, Op: set1}), b.o())
	require.Equal(t, []string{"p0 FWD(e1 p4 #0 setData(/x,1))"}, b.sent(p))
	s = p.Step(1, s, recv(0, Msg{Kind: Propose, Epoch: 1, N: 0, Txn: Txn{Epoch: 1, Client: 1, Origin: 1, Op: set1}}), b.o())
	require.Equal(t, []string{"p0 ACK(e1 1)"}, b.sent(p))
	s = p.Step(1, s, recv(0, Msg{Kind: Propose, Epoch: 1, N: 3, Txn: Txn{Epoch: 1, Client: 1, Origin: 1, Op: set1}}), b.o())
	require.Empty(t, b.sent(p), "proposals are accepted in order only")
	s = p.Step(1, s, recv(0, Msg{Kind: Commit, Epoch: 1, N: 1}), b.o())
	require.Equal(t, []string{"p4 REPLY(#0 ok zxid=1)"}, b.sent(p))
	require.Equal(t, [MaxClients]uint8{}, s.R.Owed)
}

// Reference: seeds 000 and 004. Local reads are "in any server ... the
// view of a client may be outdated"; Chubby's "read requests are satisfied
// by the master alone"; sync() "forces a follower to catch up".
func TestReadModes(t *testing.T) {
	follower := Replica{Role: Following, Accepted: 1, Current: 1,
		Log: []Txn{{Epoch: 1, Client: 0, Origin: 0, Op: set1}}} // accepted, not yet committed
	for _, c := range []struct {
		reads ReadMode
		want  string
	}{
		{LocalReads, "p4 REPLY(#0 ok)"}, // stale: x is still empty here
		{LeaderReads, "p0 FWD(e1 p4 #0 getData(/x))"},
		{SyncReads, "p0 SYNC(e1 p4 #0 getData(/x))"},
	} {
		p := NewRegister(3, 2, 1, c.reads)
		var b outbox
		r := p.stepReplica(1, follower, recv(4, Msg{Kind: Request, Op: get}), b.o())
		require.Equal(t, []string{c.want}, b.sent(p), c.reads.String())
		if c.reads == SyncReads {
			r = p.stepReplica(1, r, recv(0, Msg{Kind: Commit, Epoch: 1, N: 1}), b.o())
			r = p.stepReplica(1, r, recv(0, Msg{Kind: Synced, Epoch: 1, Client: 1, Op: get}), b.o())
			require.Equal(t, []string{"p4 REPLY(#0 ok 1 zxid=1)"}, b.sent(p), "after the sync, the write is there")
		}
	}
	// The leader answers a forwarded read from its own copy, under its
	// lease, and the follower relays it.
	p := NewRegister(3, 2, 1, LeaderReads)
	var b outbox
	leader := Replica{Role: Leading, Accepted: 1, Current: 1, Log: follower.Log, Committed: 1}
	p.stepReplica(0, leader, recv(1, Msg{Kind: Forward, Epoch: 1, Client: 1, Op: get}), b.o())
	require.Equal(t, []string{"p1 ANSWER(e1 p4 #0 getData(/x) ok 1)"}, b.sent(p))
}

// Reference: seed 004, ZooKeeper's FIFO client order and Zab's phases:
// a server in an election serves nobody, and a server that loses its
// leader tells the clients it owes that their connection is lost.
func TestElectionsRefuseAndDisconnect(t *testing.T) {
	p := NewRegister(3, 2, 1, LeaderReads)
	var b outbox
	r := Replica{Role: Promised, Accepted: 2, Current: 1}
	p.stepReplica(2, r, recv(4, Msg{Kind: Request, Seq: 1, Op: set1}), b.o())
	require.Equal(t, []string{"p4 REPLY(#1 refused)"}, b.sent(p))

	// Reference: seed 000, "single system image": a server behind what
	// the client has seen refuses it.
	behind := Replica{Role: Following, Accepted: 1, Current: 1}
	p.stepReplica(2, behind, recv(4, Msg{Kind: Request, Seq: 1, N: 1, Op: get}), b.o())
	require.Equal(t, []string{"p4 REPLY(#1 refused)"}, b.sent(p))

	r = Replica{Role: Following, Accepted: 1, Current: 1}
	r.Owed[1] = 1 + 1
	r = p.stepReplica(2, r, recv(1, Msg{Kind: NewEpoch, Epoch: 2}), b.o())
	require.Equal(t, []string{"p4 REPLY(#1 connloss)", "p1 ACKEPOCH(e2 cur=1 [])"}, b.sent(p))
	require.Equal(t, Promised, r.Role)
	p.stepReplica(2, r, recv(1, Msg{Kind: NewEpoch, Epoch: 2}), b.o())
	require.Empty(t, b.sent(p), "a promise is made once per epoch")
}

// Reference: seed 004, Zab phase 1: "L selects longest history of latest
// epoch"; phase 2: "sends new history to followers"; then "commits".
func TestDiscoveryChoosesLatestHistory(t *testing.T) {
	p := NewRegister(3, 2, 1, LeaderReads)
	var b outbox
	r := Replica{Role: Following, Accepted: 1, Current: 1}
	r = p.stepReplica(1, r, model.Event[Msg]{Kind: model.Timeout, Timer: TimerElection}, b.o())
	require.Equal(t, []string{"p0 NEWEPOCH(e2)", "p2 NEWEPOCH(e2)"}, b.sent(p))
	longer := []Txn{{Epoch: 1, Client: 0, Origin: 0, Op: set1}}
	r = p.stepReplica(1, r, recv(2, Msg{Kind: AckEpoch, Epoch: 2, N: 1, Log: longer}), b.o())
	require.Equal(t, []string{"p2 NEWLEADER(e2 [e1:p3#0@p0:setData(/x,1)])"}, b.sent(p))
	require.Equal(t, Syncing, r.Role)
	r = p.stepReplica(1, r, recv(2, Msg{Kind: AckNewLeader, Epoch: 2, N: 1}), b.o())
	require.Equal(t, []string{"p0 COMMIT(e2 1)", "p2 COMMIT(e2 1)"}, b.sent(p))
	require.Equal(t, Leading, r.Role)
	require.Equal(t, "/x=1v1", p.tree(r).format(p), "the new leader commits the history it chose")
	require.False(t, newer(1, nil, &Replica{Current: 1, Log: longer}))
	require.True(t, newer(2, nil, &Replica{Current: 1, Log: longer}), "a later epoch wins over a longer history")
}

// Reference: the package comment, "time is abstract": the lease, the
// sessions and the connections run out only when what renews them has
// crashed.
func TestTimerGuards(t *testing.T) {
	p := NewRegister(3, 2, 1, LeaderReads)
	sys := model.MustNewSystem[State, Msg](p, model.Config{})
	w, w2 := sys.Init(), &model.World[State, Msg]{}
	ready := func(id model.NodeID, tm model.TimerID) bool { return p.TimerReady(w, id, tm) }
	require.False(t, ready(1, TimerElection), "the leader's lease holds while it lives")
	require.False(t, ready(0, TimerSession+1), "p4 keeps its session alive")
	w.Down = 1 << 0
	require.True(t, ready(1, TimerElection), "p1 leads epoch 2")
	require.False(t, ready(2, TimerElection), "p2 waits for p1")
	w.Down = 1<<0 | 1<<1
	require.True(t, ready(2, TimerElection), "p1 is down too: p2 leads epoch 3")
	w.Down = 1 << 4
	require.True(t, ready(0, TimerSession+1))
	require.False(t, ready(0, TimerSession+0))
	w.Down = 0
	sys.Apply(w, model.Action{Kind: model.ActInput, Node: 3, Input: "write /x 1"}, w2)
	w, w2 = w2, w
	require.False(t, ready(3, TimerConnLoss), "the request is on its way to p0")
	sys.Apply(w, model.Action{Kind: model.ActDeliver, Node: 0, Peer: 3, Slot: 0}, w2)
	w, w2 = w2, w
	require.False(t, ready(3, TimerConnLoss), "p0 owes p3 an answer")
	w.Down = 1 << 0
	require.True(t, ready(3, TimerConnLoss), "p3's server has crashed")
	w.Down = 0
	w.Nodes[0].R.Owed = [MaxClients]uint8{}
	require.True(t, ready(3, TimerConnLoss), "p3's server has restarted and forgot the request")
}

// Reference: seed 004, the lock recipe, lines 2-6. A request is numbered
// by the phase that sends it (CREATING 1, LISTING 2, CHECKING 3,
// RELEASING 7), and answers to another phase are ignored.
func TestLockRecipe(t *testing.T) {
	p := NewLock(3, 3, false, false)
	var b outbox
	in := func(c Client, phase LockPhase, res Result) Client {
		return p.stepLock(5, c, recv(2, Msg{Kind: Reply, Seq: uint8(phase), N: 4, Res: res}), b.o())
	}
	c := Client{Phase: Creating, Conn: 2}
	c = in(c, Creating, Result{Path: "/lock/n-4"})
	require.Equal(t, []string{"p2 REQ(#2 getChildren(/lock) zxid=4)"}, b.sent(p))
	c = in(c, Listing, Result{Children: []string{"n-1", "n-3", "n-4", "n-6"}})
	require.Equal(t, []string{"p2 REQ(#3 exists(/lock/n-3,watch) zxid=4)"}, b.sent(p), "watch the predecessor, not the lowest")
	c = in(c, Listing, Result{Children: []string{"n-4"}})
	require.Equal(t, Checking, c.Phase, "a late answer to LISTING")
	c = in(c, Checking, Result{})
	require.Equal(t, Watching, c.Phase)
	c = p.stepLock(5, c, recv(2, Msg{Kind: Notify, Event: Event{"/lock/n-1", Deleted}}), b.o())
	require.Equal(t, Watching, c.Phase, "another znode's event")
	c = p.stepLock(5, c, recv(2, Msg{Kind: Notify, Event: Event{"/lock/n-3", Deleted}}), b.o())
	require.Equal(t, []string{"p2 REQ(#2 getChildren(/lock) zxid=4)"}, b.sent(p))
	c = in(c, Listing, Result{Children: []string{"n-4", "n-6"}})
	require.Equal(t, Held, c.Phase)
	require.True(t, p.InCS(5, State{Kind: ClientNode, C: c}))
	c = p.stepLock(5, c, model.Event[Msg]{Kind: model.Environment, Input: InputUnlock}, b.o())
	require.Equal(t, []string{"p2 REQ(#7 delete(/lock/n-4) zxid=4)"}, b.sent(p))
	require.False(t, p.InCS(5, State{Kind: ClientNode, C: c}))
	// The connection is lost while it releases: it deletes again at the
	// next server.
	c = p.stepLock(5, c, model.Event[Msg]{Kind: model.Timeout, Timer: TimerConnLoss}, b.o())
	require.Equal(t, []string{"p0 REQ(#7 delete(/lock/n-4) zxid=4)"}, b.sent(p))
	require.Equal(t, Releasing, c.Phase)
}

// Reference: seed 004, "Use of Sequences": the server verifies the
// sequencer, here against the most recent one it has seen.
func TestStoreChecksSequencers(t *testing.T) {
	for _, seq := range []bool{false, true} {
		p := NewLock(3, 2, true, seq)
		var b outbox
		d := p.stepStore(Store{}, recv(4, Msg{Kind: Write, N: 2, Seq: 1}), b.o())
		d = p.stepStore(d, recv(3, Msg{Kind: Write, N: 1, Seq: 0}), b.o())
		if seq {
			require.Equal(t, []string{"p3 WRITTEN(badversion)"}, b.sent(p))
			require.Empty(t, p.LateWrite(d))
			continue
		}
		require.Equal(t, []string{"p3 WRITTEN(ok)"}, b.sent(p))
		require.Equal(t, "the store applied a write under lock /lock/n-0 after one under lock /lock/n-1: "+
			"the late write of a former holder overwrote its successor's data", p.LateWrite(d))
	}
}
