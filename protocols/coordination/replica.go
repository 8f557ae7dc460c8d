package coordination

import (
	"slices"
	"strings"

	"github.com/coordcheck/coordcheck/model"
)

// This file is phase 3 of Zab, broadcast, and the service's answers to
// clients: "all requests that update ZooKeeper state (writes) are forwarded
// to the leader"; "read requests ... a server reads the state of the local
// database" (seeds 000, 004).

// onRequest: a client's operation reaches the server it is connected to.
func (p *Protocol) onRequest(self model.NodeID, r Replica, c uint8, m Msg, out *model.Out[Msg]) Replica {
	if !r.serving() || r.Committed < m.N || (p.Sessions != NoSessions && r.Role != Leading) {
		// In an election the server does not serve; and a server that has
		// not yet applied what the client has seen refuses it, so that a
		// client never sees the tree go back ("single system image", seed
		// 000). With Chubby sessions, a replica that does not lead refuses
		// too ("contacting replica causes redirect to master", seed 004).
		// The operation did not happen; the client may try again.
		out.Send(p.clientNode(c), Msg{Kind: Reply, Seq: m.Seq, Res: Result{Code: Refused}})
		return r
	}
	op := m.Op
	leader := p.leaderFor(&r)
	switch {
	case op.Kind.IsWrite():
		r.Owed[c] = m.Seq + 1
		if r.Role == Leading {
			t := Txn{Epoch: r.Accepted, Client: c, Origin: uint8(self), Seq: m.Seq, Op: op}
			if p.Cache != NoCache {
				return p.writeCached(self, r, t, out)
			}
			return p.propose(self, r, t, out)
		}
		out.Send(leader, Msg{Kind: Forward, Epoch: r.Accepted, Client: c, Seq: m.Seq, Op: op})
	case r.Role == Leading && p.Cache != NoCache:
		return p.replyCached(r, c, m.Seq, op, out)
	case r.Role == Leading || p.Reads == LocalReads:
		return p.reply(r, c, m.Seq, op, p.tree(r).Read(op), out)
	case p.Reads == LeaderReads:
		r.Owed[c] = m.Seq + 1
		out.Send(leader, Msg{Kind: Forward, Epoch: r.Accepted, Client: c, Seq: m.Seq, Op: op})
	case p.Reads == SyncReads:
		r.Owed[c] = m.Seq + 1
		out.Send(leader, Msg{Kind: Sync, Epoch: r.Accepted, Client: c, Seq: m.Seq, Op: op})
	}
	return r
}

// reply answers client c's request seq, registering the watch its read
// asked for first: a watch is set by an exists whatever the answer, and by
// a getData or getChildren of a znode that exists.
func (p *Protocol) reply(r Replica, c, seq uint8, op Op, res Result, out *model.Out[Msg]) Replica {
	if op.Flags&Watch != 0 && (res.Code == OK || op.Kind == OpExists) {
		r.Watches = addWatch(r.Watches, WatchReg{Path: op.Path, Client: c, Child: op.Kind == OpGetChildren})
	}
	out.Send(p.clientNode(c), Msg{Kind: Reply, Seq: seq, N: r.Committed, Res: res})
	r.Owed[c] = 0
	return r
}

// owes says whether the replica still owes client c the answer to seq.
func (r *Replica) owes(c, seq uint8) bool { return r.Owed[c] == seq+1 }

// onForward: the leader receives a follower's write, or a read in leader
// mode, which it answers under its lease.
func (p *Protocol) onForward(self model.NodeID, r Replica, from model.NodeID, m Msg, out *model.Out[Msg]) Replica {
	if r.Role != Leading || m.Epoch != r.Accepted {
		return r // not (or no longer) the leader: the follower will tell its client
	}
	if m.Op.Kind.IsWrite() {
		return p.propose(self, r, Txn{Epoch: r.Accepted, Client: m.Client, Origin: uint8(from), Seq: m.Seq, Op: m.Op}, out)
	}
	out.Send(from, Msg{Kind: Answer, Epoch: m.Epoch, Client: m.Client, Seq: m.Seq, Op: m.Op, Res: p.tree(r).Read(m.Op)})
	return r
}

// onAnswer: a follower relays the leader's read to its client.
func (p *Protocol) onAnswer(r Replica, m Msg, out *model.Out[Msg]) Replica {
	if r.Role != Following || m.Epoch != r.Accepted || !r.owes(m.Client, m.Seq) {
		return r
	}
	return p.reply(r, m.Client, m.Seq, m.Op, m.Res, out)
}

// onSync: the leader answers a sync behind every COMMIT it has sent: "we
// can force a follower server to catch up with leader, using sync()".
func (p *Protocol) onSync(r Replica, from model.NodeID, m Msg, out *model.Out[Msg]) Replica {
	if r.Role == Leading && m.Epoch == r.Accepted {
		m.Kind = Synced
		out.Send(from, m)
	}
	return r
}

// onSynced: the follower has caught up; it reads its own copy.
func (p *Protocol) onSynced(r Replica, m Msg, out *model.Out[Msg]) Replica {
	if r.Role != Following || m.Epoch != r.Accepted || !r.owes(m.Client, m.Seq) {
		return r
	}
	return p.reply(r, m.Client, m.Seq, m.Op, p.tree(r).Read(m.Op), out)
}

// propose appends t to the leader's history and proposes it to the
// followers ("proposes new transactions").
func (p *Protocol) propose(self model.NodeID, r Replica, t Txn, out *model.Out[Msg]) Replica {
	r.Log = append(clip(r.Log), t)
	for j := range p.R {
		if id := model.NodeID(j); id != self {
			out.Send(id, Msg{Kind: Propose, Epoch: r.Accepted, N: uint8(len(r.Log) - 1), Txn: t})
		}
	}
	return p.advance(self, r, out)
}

// onPropose: a follower accepts the leader's next transaction, in order.
func (p *Protocol) onPropose(r Replica, from model.NodeID, m Msg, out *model.Out[Msg]) Replica {
	if r.Role != Following || m.Epoch != r.Accepted || m.Epoch != r.Current || int(m.N) != len(r.Log) {
		return r
	}
	r.Log = append(clip(r.Log), m.Txn)
	out.Send(from, Msg{Kind: Ack, Epoch: m.Epoch, N: uint8(len(r.Log))})
	return r
}

// onAck: the leader counts the acknowledgement.
func (p *Protocol) onAck(self model.NodeID, r Replica, from model.NodeID, m Msg, out *model.Out[Msg]) Replica {
	if r.Role != Leading || m.Epoch != r.Accepted {
		return r
	}
	r.Match[from] = max(r.Match[from], m.N)
	return p.advance(self, r, out)
}

// advance commits, in order, every transaction a majority holds: "commits
// if quorum acknowledges"; "majority of replicas must acknowledge receipt
// of update before master writes its own value" (seed 004).
func (p *Protocol) advance(self model.NodeID, r Replica, out *model.Out[Msg]) Replica {
	n := len(r.Log)
	for ; n > int(r.Committed); n-- {
		votes := 1 // the leader holds its whole history
		for j := range p.R {
			if model.NodeID(j) != self && int(r.Match[j]) >= n {
				votes++
			}
		}
		if votes >= p.majority() {
			break
		}
	}
	if n <= int(r.Committed) {
		return r
	}
	r = p.apply(self, r, n, out)
	for j := range p.R {
		if id := model.NodeID(j); id != self {
			out.Send(id, Msg{Kind: Commit, Epoch: r.Accepted, N: uint8(n)})
		}
	}
	return r
}

// onCommit: a follower applies what the leader committed.
func (p *Protocol) onCommit(self model.NodeID, r Replica, m Msg, out *model.Out[Msg]) Replica {
	if r.Role != Following || m.Epoch != r.Accepted || m.Epoch != r.Current {
		return r
	}
	if n := min(int(m.N), len(r.Log)); n > int(r.Committed) {
		r = p.apply(self, r, n, out)
	}
	return r
}

// apply applies Log[Committed:n] to the tree: the replica answers the
// clients that wait on it for these writes, and fires the watches.
func (p *Protocol) apply(self model.NodeID, r Replica, n int, out *model.Out[Msg]) Replica {
	t := p.tree(r)
	for i, tx := range r.Log[r.Committed:n] {
		res, evs := t.Apply(tx.Client, tx.Op)
		if tx.Op.Kind == OpCloseSession {
			r = dropWatches(r, tx.Client) // a watch lives no longer than its session
		}
		if tx.Origin == uint8(self) && r.owes(tx.Client, tx.Seq) {
			zxid := r.Committed + uint8(i) + 1
			out.Send(p.clientNode(tx.Client), Msg{Kind: Reply, Seq: tx.Seq, N: zxid, Res: res})
			r.Owed[tx.Client] = 0
		}
		r = p.fire(r, evs, out)
	}
	r.Committed = uint8(n)
	return r
}

// tree is the replica's copy of the database: its committed history
// applied to the initial tree.
func (p *Protocol) tree(r Replica) *Tree {
	t := newTree(p.paths())
	for _, tx := range r.Log[:r.Committed] {
		t.Apply(tx.Client, tx.Op)
	}
	return t
}

// fire sends the events to the clients watching them and forgets those
// watches: "one time triggers".
func (p *Protocol) fire(r Replica, evs []Event, out *model.Out[Msg]) Replica {
	for _, ev := range evs {
		kept := make([]WatchReg, 0, len(r.Watches))
		for _, w := range r.Watches {
			if triggers(w, ev) {
				out.Send(p.clientNode(w.Client), Msg{Kind: Notify, Event: ev})
				continue
			}
			kept = append(kept, w)
		}
		if len(kept) == 0 {
			kept = nil
		}
		r.Watches = kept
	}
	return r
}

// dropWatches forgets the watches of client c, whose session ended.
func dropWatches(r Replica, c uint8) Replica {
	var kept []WatchReg
	for _, w := range r.Watches {
		if w.Client != c {
			kept = append(kept, w)
		}
	}
	r.Watches = kept
	return r
}

// triggers says whether ev fires w: a data watch fires when its znode is
// created, deleted or changed, a child watch when its children change or
// it is deleted.
func triggers(w WatchReg, ev Event) bool {
	if w.Path != ev.Path {
		return false
	}
	if w.Child {
		return ev.Kind == Children || ev.Kind == Deleted
	}
	return ev.Kind != Children
}

// addWatch returns ws with w added, in canonical order, once.
func addWatch(ws []WatchReg, w WatchReg) []WatchReg {
	i, found := slices.BinarySearchFunc(ws, w, compareWatch)
	if found {
		return ws
	}
	return slices.Insert(clip(ws), i, w)
}

func compareWatch(a, b WatchReg) int {
	if c := strings.Compare(a.Path, b.Path); c != 0 {
		return c
	}
	if a.Child != b.Child {
		if a.Child {
			return 1
		}
		return -1
	}
	return int(a.Client) - int(b.Client)
}

// connLoss tells every client the replica owes an answer that the
// connection is lost: the replica lost its leader, and what it forwarded
// may or may not happen.
func (p *Protocol) connLoss(r Replica, out *model.Out[Msg]) Replica {
	for c := range p.C {
		if r.Owed[c] != 0 {
			out.Send(p.clientNode(uint8(c)), Msg{Kind: Reply, Seq: r.Owed[c] - 1, Res: Result{Code: ConnLoss}})
			r.Owed[c] = 0
		}
	}
	return r
}

// expireSession: client c's session timed out at the leader, which
// commits its end (the ephemeral znodes go).
func (p *Protocol) expireSession(self model.NodeID, r Replica, c uint8, out *model.Out[Msg]) Replica {
	if r.Role != Leading {
		return r
	}
	return p.propose(self, r, Txn{Epoch: r.Accepted, Client: c, Origin: NoOrigin, Op: Op{Kind: OpCloseSession}}, out)
}
