package coordination

import (
	"math/bits"

	"github.com/coordcheck/coordcheck/model"
)

// This file is Zab's recovery (seed 004): phase 0, leader election, made
// deterministic (the leader of epoch e is replica (e-1) mod R); phase 1,
// discovery; phase 2, synchronization.

// nextEpoch is the first epoch after e that self leads, or 0 when it is
// beyond MaxEpoch.
func (p *Protocol) nextEpoch(self model.NodeID, e uint8) uint8 {
	for n := e + 1; n <= p.MaxEpoch; n++ {
		if p.leaderOf(n) == self {
			return n
		}
	}
	return 0
}

// startElection: the election timer fired, so the leader's lease has run
// out; self proposes itself for its next epoch (phase 1: NEWEPOCH).
func (p *Protocol) startElection(self model.NodeID, r Replica, out *model.Out[Msg]) Replica {
	e := p.nextEpoch(self, r.Accepted)
	if e == 0 {
		return r
	}
	return p.startDiscovery(self, r, e, out)
}

// startDiscovery: self, the prospective leader of epoch e (by the formula,
// or elected), starts phase 1: NEWEPOCH.
func (p *Protocol) startDiscovery(self model.NodeID, r Replica, e uint8, out *model.Out[Msg]) Replica {
	r = p.connLoss(r, out)
	r.Role, r.Accepted, r.Votes = Discovery, e, 1<<self
	if p.Leader == ElectedLeader {
		r.Leader, r.Ballot.Votes = uint8(self)+1, 0
	}
	for j := range p.R {
		if id := model.NodeID(j); id != self {
			out.Send(id, Msg{Kind: NewEpoch, Epoch: e})
		}
	}
	return r
}

// onNewEpoch: "followers promise not to go back to previous epochs" and
// "send to the leader L their last epoch and history".
func (p *Protocol) onNewEpoch(r Replica, from model.NodeID, m Msg, out *model.Out[Msg]) Replica {
	if m.Epoch <= r.Accepted {
		return r
	}
	if (r.Role == Candidate || r.Role == Elected) && m.Epoch < r.Ballot.Epoch {
		return r // a late NEWEPOCH: it stands in a later epoch
	}
	if r.Role == Leading {
		// A deposed leader (only when an election was premature): its
		// sessions are no longer its to expire.
		for c := range p.C {
			out.CancelTimer(TimerSession + model.TimerID(c))
		}
	}
	if p.Leader == ElectedLeader {
		// It follows the leader of e, who was elected in e; whatever part
		// it had in the election is over.
		out.CancelTimer(TimerLeaseWait)
		out.CancelTimer(TimerLeaseExpiry)
		r.Ballot, r.Leader = r.Ballot.Observe(m.Epoch), uint8(from)+1
		r.Ballot.Votes = 0
	}
	r = p.connLoss(r, out)
	r.Role, r.Accepted, r.Votes, r.Match = Promised, m.Epoch, 0, [MaxReplicas]uint8{}
	out.SetTimer(TimerElection)
	out.Send(from, Msg{Kind: AckEpoch, Epoch: m.Epoch, N: r.Current, Log: r.Log})
	return r
}

// newer says whether the history log, accepted in epoch cur, is more
// recent than the history held by r: "L selects longest history of latest
// epoch" (the highest current epoch, then the highest last zxid).
func newer(cur uint8, log []Txn, r *Replica) bool {
	if cur != r.Current {
		return cur > r.Current
	}
	last := func(l []Txn) uint8 {
		if len(l) == 0 {
			return 0
		}
		return l[len(l)-1].Epoch
	}
	if a, b := last(log), last(r.Log); a != b {
		return a > b
	}
	return len(log) > len(r.Log)
}

// onAckEpoch: the prospective leader collects promises and the most recent
// history; on a majority it moves to phase 2 and sends NEWLEADER. A late
// promise gets the NEWLEADER of a leader already past discovery.
func (p *Protocol) onAckEpoch(self model.NodeID, r Replica, from model.NodeID, m Msg, out *model.Out[Msg]) Replica {
	if m.Epoch != r.Accepted {
		return r
	}
	switch r.Role {
	case Discovery:
		r.Votes |= 1 << from
		if newer(m.N, m.Log, &r) {
			r.Log, r.Current = m.Log, m.N
			r.Committed = min(r.Committed, uint8(len(r.Log)))
		}
		if bits.OnesCount8(r.Votes) < p.majority() {
			return r
		}
		for j := range p.R {
			if id := model.NodeID(j); id != self && r.Votes&(1<<j) != 0 {
				out.Send(id, Msg{Kind: NewLeader, Epoch: r.Accepted, Log: r.Log})
			}
		}
		r.Role, r.Current, r.Votes, r.Match = Syncing, r.Accepted, 1<<self, [MaxReplicas]uint8{}
	case Syncing, Leading:
		out.Send(from, Msg{Kind: NewLeader, Epoch: r.Accepted, Log: r.Log})
	}
	return r
}

// onNewLeader: a follower adopts the new leader's history (phase 2) and
// starts following it.
func (p *Protocol) onNewLeader(r Replica, from model.NodeID, m Msg, out *model.Out[Msg]) Replica {
	if r.Role != Promised || m.Epoch != r.Accepted {
		return r
	}
	r.Log, r.Current, r.Role = m.Log, m.Epoch, Following
	r.Committed = min(r.Committed, uint8(len(r.Log)))
	out.Send(from, Msg{Kind: AckNewLeader, Epoch: m.Epoch, N: uint8(len(r.Log))})
	return r
}

// onAckNewLeader: on a majority the prospective leader commits the whole
// history and is established (phase 3); a late follower learns what is
// committed.
func (p *Protocol) onAckNewLeader(self model.NodeID, r Replica, from model.NodeID, m Msg, out *model.Out[Msg]) Replica {
	if m.Epoch != r.Accepted {
		return r
	}
	switch r.Role {
	case Syncing:
		r.Votes |= 1 << from
		r.Match[from] = m.N
		if bits.OnesCount8(r.Votes) >= p.majority() {
			return p.establish(self, r, out)
		}
	case Leading:
		r.Match[from] = max(r.Match[from], m.N)
		out.Send(from, Msg{Kind: Commit, Epoch: r.Accepted, N: r.Committed})
		return p.advance(self, r, out)
	}
	return r
}

// establish makes self the leader of its epoch: it commits its history,
// holds the master lease, and watches the sessions still open.
func (p *Protocol) establish(self model.NodeID, r Replica, out *model.Out[Msg]) Replica {
	r.Role, r.Votes = Leading, 0
	n := len(r.Log)
	r = p.apply(self, r, n, out)
	for j := range p.R {
		if id := model.NodeID(j); id != self {
			out.Send(id, Msg{Kind: Commit, Epoch: r.Accepted, N: uint8(n)})
		}
	}
	closed := p.tree(r).Closed
	for c := range p.C {
		if closed&(1<<c) == 0 {
			out.SetTimer(TimerSession + model.TimerID(c))
		}
	}
	if p.Sessions != NoSessions {
		r = p.failover(r, out)
	}
	out.CancelTimer(TimerElection)
	if p.Leader == ElectedLeader {
		out.SetTimer(TimerLeaseExpiry)
	}
	return r
}

// onJoin: a leader, established or prospective, takes a restarted replica
// back: with a NEWEPOCH when it is behind (it promises, and its promise is
// counted, or gets the NEWLEADER of a late promise), with the NEWLEADER
// itself when it had promised this epoch and the leader is past discovery.
func (p *Protocol) onJoin(r Replica, from model.NodeID, m Msg, out *model.Out[Msg]) Replica {
	switch {
	case r.Role != Leading && r.Role != Syncing && r.Role != Discovery, m.Epoch > r.Accepted:
	case m.Epoch < r.Accepted:
		out.Send(from, Msg{Kind: NewEpoch, Epoch: r.Accepted})
	case r.Role != Discovery:
		out.Send(from, Msg{Kind: NewLeader, Epoch: r.Accepted, Log: r.Log})
	}
	return r
}
