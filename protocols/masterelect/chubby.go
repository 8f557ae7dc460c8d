package masterelect

import "github.com/coordcheck/coordcheck/model"

// stepChubby is a Chubby server (seeds 000, 003, 004: "Election in
// Chubby", "Paxos in Chubby", "Master Fail-over").
func (p *Protocol) stepChubby(self model.NodeID, s State, ev model.Event[Msg], out *model.Out[Msg]) State {
	switch ev.Kind {
	case model.Timeout:
		switch ev.Timer {
		case TimerElection:
			// "Potential leader tries to get votes from other servers": a
			// new epoch, its own vote, VOTEREQ to the others.
			s = State{Role: Candidate, Ballot: s.Ballot.Stand(self)}
			p.broadcast(self, Msg{VoteReq, s.Epoch}, out)
			out.SetTimer(TimerElection) // it may have to try again
		case TimerLeaseWait:
			// The old master's lease has surely run out: serve.
			s.Serving = true
			out.SetTimer(TimerLeaseExpiry)
		case TimerLeaseExpiry:
			// No majority renewed the lease: the master stops serving
			// and steps down.
			s.Role, s.Serving, s.Leader = Follower, false, 0
			out.CancelTimer(TimerHeartbeat)
			out.SetTimer(TimerElection)
		case TimerHeartbeat:
			p.broadcast(self, Msg{Elected, s.Epoch}, out)
			out.SetTimer(TimerHeartbeat)
		}
	case model.Receive:
		m, from := ev.Msg, ev.From
		if m.Epoch > s.Epoch {
			// A later epoch: whatever it was, it follows now, and has not
			// voted in it.
			if s.Role == Master {
				out.CancelTimer(TimerLeaseWait)
				out.CancelTimer(TimerLeaseExpiry)
				out.CancelTimer(TimerHeartbeat)
			}
			s = State{Ballot: s.Ballot.Observe(m.Epoch)}
			out.SetTimer(TimerElection)
		}
		switch m.Kind {
		case VoteReq:
			// "Each server votes for at most one leader": once an epoch.
			var granted bool
			if s.Ballot, granted = s.Ballot.Grant(m.Epoch); granted {
				out.Send(from, Msg{Vote, s.Epoch})
			}
		case Vote:
			if s.Role != Candidate {
				return s
			}
			var won bool
			if s.Ballot, won = s.Ballot.Count(from, m.Epoch, p.R); !won {
				return s
			}
			// "Server with majority of votes becomes new leader, and
			// informs everyone"; it serves once the old lease has run out
			// (at once without the wait: the broken variant).
			s.Role, s.Leader, s.Votes = Master, uint8(self)+1, 0
			out.CancelTimer(TimerElection)
			p.broadcast(self, Msg{Elected, s.Epoch}, out)
			out.SetTimer(TimerHeartbeat)
			if p.NoLeaseWait {
				s.Serving = true
				out.SetTimer(TimerLeaseExpiry)
			} else {
				out.SetTimer(TimerLeaseWait)
			}
		case Elected:
			if m.Epoch == s.Epoch && s.Role != Master {
				s.Role, s.Leader, s.Votes = Follower, uint8(from)+1, 0
			}
		}
	}
	return s
}

// TimerReady is abstract time (see the package comment).
func (p *Protocol) TimerReady(w *model.World[State, Msg], self model.NodeID, t model.TimerID) bool {
	if p.Variant == ZooKeeper {
		return p.zkReady(w, self, t)
	}
	s := &w.Nodes[self]
	switch t {
	case TimerElection:
		// It has lost contact with its master (down, cut off, or none
		// known), and no election it could take part in is still under
		// way (timeouts are randomized: one election at a time, unless a
		// partition hides one from another).
		// A server cut off from a majority waits for the partition to heal
		// (an election there could not succeed), and one that can reach a
		// master of its epoch or a later one waits for its heartbeat.
		return s.Role != Master && s.Epoch < p.MaxEpoch && !p.hasMaster(w, self) && !p.electionUnderWay(w, self) &&
			p.reach(w, self) >= p.majority() && !p.masterInReach(w, self)
	case TimerHeartbeat:
		// The master's lease renewals (KeepAlives) reach a server that
		// does not follow it yet: it missed the announcement.
		if s.Role != Master {
			return false
		}
		for j := range p.R {
			id := model.NodeID(j)
			r := &w.Nodes[j]
			if id == self || w.IsDown(id) || w.Separated(self, id) {
				continue
			}
			if r.Epoch < s.Epoch || (r.Epoch == s.Epoch && r.Leader != uint8(self)+1) {
				if w.InFlight(func(e model.Envelope[Msg]) bool {
					return e.From == self && e.To == id && e.Msg == Msg{Elected, s.Epoch}
				}) == 0 {
					return true
				}
			}
		}
		return false
	case TimerLeaseWait:
		// Waiting out the old lease: no other master still serves.
		if s.Role != Master || s.Serving {
			return false
		}
		other := false
		for j := range p.R {
			if id := model.NodeID(j); id != self && !w.IsDown(id) && w.Nodes[j].Serving {
				other = true
			}
		}
		return LeaseWaitOver(other)
	case TimerLeaseExpiry:
		// The lease is renewed while a majority (itself included) can
		// answer the master and has not moved to a later epoch.
		return s.Serving && !LeaseHeld(p.renewers(w, self), p.R)
	}
	return false
}

// hasMaster says whether self is in contact with a master of its epoch.
func (p *Protocol) hasMaster(w *model.World[State, Msg], self model.NodeID) bool {
	s := &w.Nodes[self]
	if s.Leader == 0 {
		return false
	}
	m := model.NodeID(s.Leader - 1)
	return !w.IsDown(m) && !w.Separated(self, m) && w.Nodes[m].Role == Master && w.Nodes[m].Epoch == s.Epoch
}

// renewers counts the live servers in contact with master m that have not
// moved past its epoch.
func (p *Protocol) renewers(w *model.World[State, Msg], m model.NodeID) int {
	n := 0
	for j := range p.R {
		id := model.NodeID(j)
		if !w.IsDown(id) && !w.Separated(m, id) && w.Nodes[j].Epoch <= w.Nodes[m].Epoch {
			n++
		}
	}
	return n
}

// electionUnderWay says whether a candidate in contact with self can
// still win.
func (p *Protocol) electionUnderWay(w *model.World[State, Msg], self model.NodeID) bool {
	for c := range p.R {
		cid := model.NodeID(c)
		if w.Nodes[c].Role == Candidate && !w.IsDown(cid) && !w.Separated(self, cid) && p.viable(w, cid) {
			return true
		}
	}
	return false
}

// viable says whether candidate c can still win: its votes, the votes on
// their way to it, and the servers its requests are on their way to that
// can still vote for it reach a majority.
func (p *Protocol) viable(w *model.World[State, Msg], c model.NodeID) bool {
	cs := &w.Nodes[c]
	ask, answer := VoteReq, Vote
	if p.Variant == ZooKeeper {
		ask, answer = NewLeader, Ack
	}
	n := count(cs.Votes)
	for i := range w.Net {
		e := &w.Net[i]
		switch {
		case e.To == c && e.Msg == Msg{answer, cs.Epoch}:
			n++
		case e.From == c && e.Msg == Msg{ask, cs.Epoch}:
			if r := &w.Nodes[e.To]; !w.IsDown(e.To) && (r.Epoch < cs.Epoch || !r.Voted) {
				n++
			}
		}
	}
	return n >= p.majority()
}

// reach counts the live servers self can reach, itself included.
func (p *Protocol) reach(w *model.World[State, Msg], self model.NodeID) int {
	n := 0
	for j := range p.R {
		if id := model.NodeID(j); !w.IsDown(id) && !w.Separated(self, id) {
			n++
		}
	}
	return n
}

// masterInReach says whether self can reach a live master of its epoch
// or a later one.
func (p *Protocol) masterInReach(w *model.World[State, Msg], self model.NodeID) bool {
	for j := range p.R {
		id := model.NodeID(j)
		if id != self && !w.IsDown(id) && !w.Separated(self, id) && w.Nodes[j].Role == Master && w.Nodes[j].Epoch >= w.Nodes[self].Epoch {
			return true
		}
	}
	return false
}
