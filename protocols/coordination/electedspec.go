package coordination

import (
	"fmt"
	"strings"

	"github.com/coordcheck/coordcheck/model"
)

// The properties of the elected leader (elected.go), checked with the
// service's own (Properties).

// Property names of the elected leader.
const (
	OneEpochLeaderName = "one-leader-per-epoch"
	OneServingName     = "one-serving-leader"
	ServiceLeaderName  = "service-leader-elected"
)

// leaderEpoch is the epoch replica r has won (elected, prospective or
// established leader), or 0.
func leaderEpoch(r *Replica) uint8 {
	switch r.Role {
	case Elected:
		return r.Ballot.Epoch
	case Discovery, Syncing, Leading:
		return r.Accepted
	}
	return 0
}

// OneEpochLeader: at most one leader an epoch: "since any two quorums
// intersect, and each server votes at most once, cannot have two leaders
// elected simultaneously" (seed 003).
func (p *Protocol) OneEpochLeader() Invariant {
	return Invariant{
		Name: OneEpochLeaderName,
		Holds: func(w *model.World[State, Msg]) (bool, string) {
			for i := range p.R {
				for j := i + 1; j < p.R; j++ {
					if w.IsDown(model.NodeID(i)) || w.IsDown(model.NodeID(j)) {
						continue
					}
					if e := leaderEpoch(&w.Nodes[i].R); e != 0 && e == leaderEpoch(&w.Nodes[j].R) {
						return false, fmt.Sprintf("p%d and p%d both won epoch %d", i, j, e)
					}
				}
			}
			return true, ""
		},
	}
}

// OneServing: at most one leader serves at a time: a new leader waits out
// the old lease, and the old one stops serving when its lease runs out.
func (p *Protocol) OneServing() Invariant {
	return Invariant{
		Name: OneServingName,
		Holds: func(w *model.World[State, Msg]) (bool, string) {
			var serving []string
			for i := range p.R {
				if r := &w.Nodes[i].R; !w.IsDown(model.NodeID(i)) && r.Role == Leading {
					serving = append(serving, fmt.Sprintf("p%d (epoch %d)", i, r.Accepted))
				}
			}
			if len(serving) > 1 {
				return false, strings.Join(serving, " and ") + " serve as leaders at once"
			}
			return true, ""
		},
		PremiseDoc: "a leader elected after the first",
		Premise: func(w *model.World[State, Msg]) bool {
			for i := range p.R {
				if leaderEpoch(&w.Nodes[i].R) > 1 {
					return true
				}
			}
			return false
		},
	}
}

// ServiceLeader: at the end of a run, with a majority of the replicas up,
// one of them leads and every other live replica follows it in its epoch.
func (p *Protocol) ServiceLeader() Invariant {
	return Invariant{
		Name:     ServiceLeaderName,
		Terminal: true,
		Holds: func(w *model.World[State, Msg]) (bool, string) {
			if p.up(w) < p.majority() {
				return true, ""
			}
			leader := -1
			for i := range p.R {
				if !w.IsDown(model.NodeID(i)) && w.Nodes[i].R.Role == Leading {
					leader = i
				}
			}
			if leader < 0 {
				return false, fmt.Sprintf("the run ends with %d of %d replicas up and no leader", p.up(w), p.R)
			}
			e := w.Nodes[leader].R.Accepted
			for i := range p.R {
				r := &w.Nodes[i].R
				if i == leader || w.IsDown(model.NodeID(i)) {
					continue
				}
				if r.Role != Following || r.Accepted != e || r.Leader != uint8(leader)+1 {
					return false, fmt.Sprintf("the run ends with p%d %s %s, not following the leader p%d of epoch %d",
						i, r.Role, p.formatBallot(r), leader, e)
				}
			}
			return true, ""
		},
	}
}

// formatBallot: "e2 leader=p1 ballot=e2 voted".
func (p *Protocol) formatBallot(r *Replica) string {
	s := fmt.Sprintf("e%d", r.Accepted)
	if r.Leader != 0 {
		s += fmt.Sprintf(" leader=p%d", r.Leader-1)
	}
	s += fmt.Sprintf(" ballot=e%d", r.Ballot.Epoch)
	if r.Ballot.Voted {
		s += " voted"
	}
	return s
}
