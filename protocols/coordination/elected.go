package coordination

import (
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/masterelect"
)

// This file is Zab's phase 0 with the leader elected by the replicas
// (-leader elected), by Chubby's rule (seed 003, "Election in Google
// Chubby"; seed 004, "Master Fail-over"), which package masterelect
// holds (masterelect.Ballot): "potential leader tries to get votes from
// other servers; each server votes for at most one leader; server with
// majority of votes becomes new leader". The winner of epoch e is its
// prospective leader: once it has waited out the old leader's lease, it
// runs Zab's discovery and synchronization (election.go) as the formula's
// leader does.
//
// The master lease. The leader serves reads "under its lease", which it
// renews "as long as it continues to win a majority": a replica that has
// voted in a later epoch no longer renews it, and with fewer than a
// majority renewing, the lease runs out and the leader steps down. A new
// leader "waits out the old lease" before it starts; without the wait
// (NoLeaseWait) it starts at once, and the old leader, deposed but
// unaware, goes on answering reads from its state.
//
// When may a replica stand? Its election timer fires when it has lost
// contact with its leader: the leader crashed, or restarted and leads no
// more. Since time is abstract, the timer may also fire while the leader
// lives (its KeepAlives late: the network is asynchronous), which is
// what the lease is for; such a premature election may start only while
// the epoch it opens is not the last, which MaxEpoch keeps for a real
// failure: the premature elections never spend all the epochs. One
// election at a time (timeouts are randomized): no replica stands while a
// candidate that can still win, or a prospective leader, is up; and only
// with a majority of the replicas up (an election could not succeed
// otherwise).

// stand: the election timer fired; self stands in the next epoch and asks
// every replica for its vote.
func (p *Protocol) stand(self model.NodeID, r Replica, out *model.Out[Msg]) Replica {
	r = p.connLoss(r, out)
	r.Role, r.Ballot = Candidate, r.Ballot.Stand(self)
	for j := range p.R {
		if id := model.NodeID(j); id != self {
			out.Send(id, Msg{Kind: VoteReq, Epoch: r.Ballot.Epoch})
		}
	}
	out.SetTimer(TimerElection) // to try again if it cannot win
	return r
}

// onVoteReq: "each server votes for at most one leader", once an epoch. A
// candidate, or a winner waiting out the lease, that sees a later epoch
// gives up: it waits, not serving, for the new leader's NEWEPOCH.
func (p *Protocol) onVoteReq(r Replica, from model.NodeID, m Msg, out *model.Out[Msg]) Replica {
	if m.Epoch > r.Ballot.Epoch && (r.Role == Candidate || r.Role == Elected) {
		out.CancelTimer(TimerLeaseWait)
		out.SetTimer(TimerElection)
		r.Role = Promised
	}
	var granted bool
	if r.Ballot, granted = r.Ballot.Grant(m.Epoch); granted {
		out.Send(from, Msg{Kind: Vote, Epoch: m.Epoch})
	}
	return r
}

// onVote: "server with majority of votes becomes new leader": the winner
// waits out the old leader's lease (at once without the wait, the broken
// variant), then starts Zab's discovery.
func (p *Protocol) onVote(self model.NodeID, r Replica, from model.NodeID, m Msg, out *model.Out[Msg]) Replica {
	if r.Role != Candidate {
		return r
	}
	var won bool
	if r.Ballot, won = r.Ballot.Count(from, m.Epoch, p.R); !won {
		return r
	}
	out.CancelTimer(TimerElection)
	if p.NoLeaseWait {
		return p.startDiscovery(self, r, r.Ballot.Epoch, out)
	}
	r.Role = Elected
	out.SetTimer(TimerLeaseWait)
	return r
}

// stepDown: the leader's lease ran out unrenewed; it stops serving, tells
// its waiting clients that the connection is lost, and waits, as a
// follower of no one, for the new leader's NEWEPOCH.
func (p *Protocol) stepDown(r Replica, out *model.Out[Msg]) Replica {
	if r.Role != Leading {
		return r
	}
	for c := range p.C {
		out.CancelTimer(TimerSession + model.TimerID(c))
	}
	r = p.connLoss(r, out)
	r.Role, r.Match = Promised, [MaxReplicas]uint8{}
	out.SetTimer(TimerElection)
	return r
}

// electedReady is TimerReady with the elected leader, for the election,
// lease-wait and lease-expiry timers (see the comment at the top).
func (p *Protocol) electedReady(w *model.World[State, Msg], self model.NodeID, t model.TimerID) bool {
	r := &w.Nodes[self].R
	switch t {
	case TimerElection:
		if r.Ballot.Epoch >= p.MaxEpoch || p.up(w) < p.majority() {
			return false
		}
		switch r.Role {
		case Candidate:
			if p.viable(w, self) {
				return false
			}
		case Following, Promised:
		default:
			return false
		}
		leading := false
		for j := range p.R {
			id := model.NodeID(j)
			if w.IsDown(id) {
				continue
			}
			switch o := &w.Nodes[j].R; o.Role {
			case Elected, Discovery, Syncing:
				return false // a new leader is on its way
			case Candidate:
				if id != self && p.viable(w, id) {
					return false // an election under way
				}
			case Leading:
				leading = true
			}
		}
		// A live leader: its KeepAlives are only late (premature), and
		// the last epoch is kept for a real failure.
		return !leading || r.Ballot.Epoch+1 < p.MaxEpoch
	case TimerLeaseWait:
		other := false
		for j := range p.R {
			if id := model.NodeID(j); id != self && !w.IsDown(id) && w.Nodes[j].R.Role == Leading {
				other = true
			}
		}
		return r.Role == Elected && masterelect.LeaseWaitOver(other)
	case TimerLeaseExpiry:
		renewers := 0
		for j := range p.R {
			if !w.IsDown(model.NodeID(j)) && w.Nodes[j].R.Ballot.Epoch <= r.Accepted {
				renewers++
			}
		}
		return r.Role == Leading && !masterelect.LeaseHeld(renewers, p.R)
	}
	return false
}

// up counts the live replicas.
func (p *Protocol) up(w *model.World[State, Msg]) int {
	n := 0
	for j := range p.R {
		if !w.IsDown(model.NodeID(j)) {
			n++
		}
	}
	return n
}

// viable says whether candidate c can still win: its votes, the votes on
// their way to it, and the live replicas its requests are on their way
// to that can still vote for it reach a majority.
func (p *Protocol) viable(w *model.World[State, Msg], c model.NodeID) bool {
	b := &w.Nodes[c].R.Ballot
	n := 0
	for j := range p.R {
		if b.Votes&(1<<j) != 0 {
			n++
		}
	}
	for i := range w.Net {
		e := &w.Net[i]
		switch {
		case e.To == c && e.Msg.Kind == Vote && e.Msg.Epoch == b.Epoch:
			n++
		case e.From == c && e.Msg.Kind == VoteReq && e.Msg.Epoch == b.Epoch:
			if o := &w.Nodes[e.To].R.Ballot; !w.IsDown(e.To) && (o.Epoch < b.Epoch || (o.Epoch == b.Epoch && !o.Voted)) {
				n++
			}
		}
	}
	return n >= p.majority()
}
