package coordination

import (
	"slices"

	"github.com/coordcheck/coordcheck/model"
)

// Protocol implements model.TimerGuard (checked by the compiler).
var _ model.TimerGuard[State, Msg] = (*Protocol)(nil)

// TimerReady is abstract time (see the package comment): a timer fires
// when the time it stands for has surely passed.
//
//   - election, at a follower: the leader of its epoch has crashed (or
//     restarted, and leads no more), so its master lease has run out
//     unrenewed ("other replicas run the election protocol when their
//     master leases expire", seed 000), and self leads
//     the first later epoch whose leader is alive (with NoLease: at any
//     time, if self leads a later epoch);
//   - session-pN, at the leader: client pN has crashed, or given up, and
//     sends no more KeepAlives;
//   - connloss, at a client: no answer can come any more: its server has
//     crashed, or has restarted and forgotten the request.
//
// With the elected leader, the election, lease-wait and lease-expiry
// timers follow elected.go (electedReady).
func (p *Protocol) TimerReady(w *model.World[State, Msg], self model.NodeID, t model.TimerID) bool {
	s := &w.Nodes[self]
	switch {
	case p.Leader == ElectedLeader && t < TimerSession && t != TimerConnLoss:
		return p.electedReady(w, self, t)
	case t == TimerElection:
		r := &s.R
		if r.Role != Following && r.Role != Promised {
			return false
		}
		if p.NoLease {
			return p.nextEpoch(self, r.Accepted) != 0
		}
		if p.leads(w, p.leaderOf(r.Accepted), r.Accepted) {
			return false // its lease holds
		}
		for e := r.Accepted + 1; e <= p.MaxEpoch; e++ {
			if l := p.leaderOf(e); !w.IsDown(l) {
				return l == self
			}
		}
		return false
	case t == TimerConnLoss:
		return p.noAnswer(w, self)
	case t == TimerLease || t == TimerGrace || t >= TimerLapse:
		return p.sessionTimerReady(w, self, t)
	case t >= TimerSession:
		c := p.clientNode(uint8(t - TimerSession))
		return s.R.Role == Leading && (w.IsDown(c) || w.Nodes[c].C.Phase == Failed) && p.lockDelayOver(w, c)
	}
	return false
}

// noAnswer says whether client self can no longer get an answer from its
// server: the server is down, or it owes self nothing and neither the
// request nor an answer is on the way.
func (p *Protocol) noAnswer(w *model.World[State, Msg], self model.NodeID) bool {
	c := &w.Nodes[self].C
	conn := model.NodeID(c.Conn)
	if w.IsDown(conn) {
		return true
	}
	r := &w.Nodes[conn].R
	if r.Owed[p.clientOf(self)] != 0 {
		return false
	}
	answer := Reply
	if wr, waits := p.awaitedWatch(self, *c); waits {
		// Waiting for the watch: it may still fire while the server holds it.
		answer = Notify
		if _, held := slices.BinarySearchFunc(r.Watches, wr, compareWatch); held {
			return false
		}
	}
	for i := range w.Net {
		e := &w.Net[i]
		if (e.From == self && e.To == conn) || (e.From == conn && e.To == self && e.Msg.Kind == answer) {
			return false
		}
	}
	return true
}

// leads says whether replica l is, or is about to be, the leader of epoch
// e: it lives, and has not restarted since (a restarted replica is
// PROMISED until a leader takes it back).
func (p *Protocol) leads(w *model.World[State, Msg], l model.NodeID, e uint8) bool {
	r := &w.Nodes[l].R
	return !w.IsDown(l) && r.Accepted == e && (r.Role == Leading || r.Role == Syncing || r.Role == Discovery)
}

// awaitedWatch is the watch client self waits for, if it waits for one.
func (p *Protocol) awaitedWatch(self model.NodeID, c Client) (WatchReg, bool) {
	w := WatchReg{Client: p.clientOf(self)}
	switch {
	case c.Phase == LeaveWaiting:
		w.Path, w.Child = BarrierDir, true
	case c.Phase != Watching:
		return w, false
	case p.Workload == SimpleLockClients:
		w.Path = SimpleLockPath
	case p.Workload == BarrierClients && p.Broken:
		w.Path, w.Child = BarrierDir, true
	case p.Workload == BarrierClients:
		w.Path = ReadyPath
	case p.Workload == MemberClients:
		w.Path, w.Child = GroupDir, true
	default:
		w.Path = p.predPath(c)
	}
	return w, true
}
