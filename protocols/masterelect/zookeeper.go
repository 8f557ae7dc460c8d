package masterelect

import "github.com/coordcheck/coordcheck/model"

// stepZooKeeper is a ZooKeeper server (seed 000, "Election in ZooKeeper";
// seed 003, "Election in Zookeeper").
func (p *Protocol) stepZooKeeper(self model.NodeID, s State, ev model.Event[Msg], out *model.Out[Msg]) State {
	switch ev.Kind {
	case model.Timeout:
		if ev.Timer != TimerElection {
			return s
		}
		if s.Role == Candidate {
			// "No one has 50% or more of the ACKs -> fail ... you may
			// need to run the leader election again": a later epoch.
			s = State{Role: Candidate, Ballot: s.Ballot.Stand(self), Leader: s.Leader, Watch: s.Watch}
			p.broadcast(self, Msg{NewLeader, s.Epoch}, out)
			out.SetTimer(TimerElection)
			return s
		}
		if s.Watch == 0 {
			return s
		}
		if s.Watch != s.Leader {
			// "ELSE wait for a timeout, and check your successor again":
			// the successor that failed was not the leader; monitor the
			// next one up.
			s.Watch++
			if int(s.Watch) > p.R {
				s.Watch = 0
			} else {
				out.SetTimer(TimerElection)
			}
			return s
		}
		// "IF that successor was the leader and it has failed, become the
		// new leader": committed in two phases, NEW_LEADER first. Its
		// leader variable changes only on COMMIT ("on receiving COMMIT,
		// process updates its leader variable"): a candidate that crashes
		// and restarts still knows whom it was replacing.
		s = State{Role: Candidate, Ballot: s.Ballot.Stand(self), Leader: s.Leader, Watch: s.Watch}
		p.broadcast(self, Msg{NewLeader, s.Epoch}, out)
		out.SetTimer(TimerElection) // to try again if it fails
	case model.Receive:
		m, from := ev.Msg, ev.From
		if m.Kind == Looking {
			// A restarted server asks who leads: the leader tells it with
			// its COMMIT (whatever epoch the asker has reached).
			if s.Role == Master {
				out.Send(from, Msg{Commit, s.Epoch})
			}
			return s
		}
		if m.Epoch > s.Epoch {
			s.Epoch, s.Voted, s.Votes = m.Epoch, false, 0
			if s.Role != Follower {
				s.Role = Follower
			}
		}
		switch m.Kind {
		case NewLeader:
			// "Each process responds with ACK to at most one leader": once
			// an epoch. Only the failed leader's next-lower id asks, so the
			// one asking is the highest id alive.
			if m.Epoch == s.Epoch && !s.Voted {
				s.Voted = true
				out.Send(from, Msg{Ack, m.Epoch})
			}
		case Ack:
			if s.Role != Candidate || m.Epoch != s.Epoch {
				return s
			}
			s.Votes |= 1 << from
			if count(s.Votes) >= p.majority() {
				// "Leader waits for a majority of ACKs and then sends
				// COMMIT to all".
				s.Role, s.Leader, s.Votes = Master, uint8(self)+1, 0
				p.broadcast(self, Msg{Commit, m.Epoch}, out)
			}
		case Commit:
			// "On receiving COMMIT, process updates its leader variable";
			// it goes on monitoring its successor.
			if m.Epoch == s.Epoch {
				s.Role, s.Leader, s.Votes = Follower, uint8(from)+1, 0
			}
		}
	}
	return s
}

// zkReady: a server's monitor fires when the process it monitors has
// failed (a perfect failure detector, as the notes' timeout assumes): it
// is down, or it was the leader and has restarted since (it leads no
// more: a failure the detector saw, however quick the restart); a
// candidate's, when its candidacy can no longer win; and only while the
// epochs are not exhausted and a majority is up (a takeover could not
// win a majority of ACKs otherwise: it waits for servers to restart
// rather than spend the epochs the model bounds).
func (p *Protocol) zkReady(w *model.World[State, Msg], self model.NodeID, t model.TimerID) bool {
	s := &w.Nodes[self]
	if t != TimerElection || s.Epoch >= p.MaxEpoch || p.reach(w, self) < p.majority() {
		return false
	}
	if s.Role == Candidate {
		return !p.viable(w, self)
	}
	if s.Role != Follower || s.Watch == 0 {
		return false
	}
	watched := model.NodeID(s.Watch - 1)
	if w.IsDown(watched) {
		return true
	}
	r := &w.Nodes[watched]
	return s.Watch == s.Leader && (r.Role != Master || r.Epoch != s.Epoch)
}
