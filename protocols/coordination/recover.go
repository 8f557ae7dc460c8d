package coordination

import (
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/masterelect"
)

// Protocol implements model.Restarter (checked by the compiler).
var _ model.Restarter[State, Msg] = (*Protocol)(nil)

// Recover restarts a crashed node (model.Restarter).
//
// A replica keeps Zab's persistent state, its history, its committed
// prefix and its epochs ("process with stable storage may rejoin protocol
// after failure", seed 004), and forgets the rest: its clients, watches
// and leadership. It serves nobody until the leader has synchronized it:
// it asks every replica to JOIN, and an established leader answers.
//
// A register client goes on with its script; an operation it had in
// flight has an unknown outcome. A lock client has lost track of its
// lock and gives up; it no longer renews its session, which therefore
// expires. The store keeps its data.
func (p *Protocol) Recover(self model.NodeID, crashed State, out *model.Out[Msg]) State {
	s := State{Kind: crashed.Kind}
	switch s.Kind {
	case ReplicaNode:
		c := crashed.R
		s.R = Replica{Role: Promised, Accepted: c.Accepted, Current: c.Current, Log: c.Log, Committed: c.Committed}
		if p.Leader == ElectedLeader {
			// Its vote is stable storage too ("each server votes for at
			// most one leader"), and so is whom it promised.
			s.R.Ballot = masterelect.Ballot{Epoch: c.Ballot.Epoch, Voted: c.Ballot.Voted}
			s.R.Leader = c.Leader
		}
		out.SetTimer(TimerElection)
		for j := range p.R {
			if id := model.NodeID(j); id != self {
				out.Send(id, Msg{Kind: Join, Epoch: c.Accepted})
			}
		}
	case ClientNode:
		s.C = crashed.C
		if p.Workload == RegisterClients {
			if s.C.Busy {
				out.Output("info " + p.script(p.clientOf(self), s.C.Next-1).text())
			}
			s.C.Busy = false
		} else {
			s.C.Phase = Failed
		}
	case StoreNode:
		s.D = crashed.D
	}
	return s
}
