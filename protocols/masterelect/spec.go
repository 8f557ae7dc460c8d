package masterelect

import (
	"fmt"
	"strings"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/property"
)

// Property names.
const (
	OneMasterName     = "one-master-per-epoch"
	OneServingName    = "one-serving-master"
	MasterElectedName = "master-elected"
)

// OneMaster: at most one master (leader) per epoch: "since any two
// quorums intersect, and each server votes at most once, cannot have two
// leaders elected simultaneously" (seed 003).
func (p *Protocol) OneMaster() property.Invariant[State, Msg] {
	return property.Invariant[State, Msg]{
		Name: OneMasterName,
		Holds: func(w *model.World[State, Msg]) (bool, string) {
			for i := range p.R {
				for j := i + 1; j < p.R; j++ {
					a, b := &w.Nodes[i], &w.Nodes[j]
					if !w.IsDown(model.NodeID(i)) && !w.IsDown(model.NodeID(j)) && a.Role == Master && b.Role == Master && a.Epoch == b.Epoch {
						return false, fmt.Sprintf("p%d and p%d are both masters of epoch %d", i, j, a.Epoch)
					}
				}
			}
			return true, ""
		},
	}
}

// OneServing: at most one Chubby master serves at a time: a new master
// waits out the old lease, and the old one stops serving when its lease
// runs out.
func (p *Protocol) OneServing() property.Invariant[State, Msg] {
	return property.Invariant[State, Msg]{
		Name: OneServingName,
		Holds: func(w *model.World[State, Msg]) (bool, string) {
			var serving []string
			for i := range p.R {
				if s := &w.Nodes[i]; !w.IsDown(model.NodeID(i)) && s.Serving {
					serving = append(serving, fmt.Sprintf("p%d (epoch %d)", i, s.Epoch))
				}
			}
			if len(serving) > 1 {
				return false, strings.Join(serving, " and ") + " serve as masters at once"
			}
			return true, ""
		},
		PremiseDoc: "a master elected after the first",
		Premise: func(w *model.World[State, Msg]) bool {
			for i := range p.R {
				if s := &w.Nodes[i]; s.Role == Master && s.Epoch > 1 {
					return true
				}
			}
			return false
		},
	}
}

// MasterElected: at the end of a run, with a majority of the servers up,
// they have one master (serving, for Chubby) that they all follow.
func (p *Protocol) MasterElected() property.Invariant[State, Msg] {
	return property.Invariant[State, Msg]{
		Name:     MasterElectedName,
		Terminal: true,
		Holds: func(w *model.World[State, Msg]) (bool, string) {
			up, master := 0, -1
			for i := range p.R {
				if w.IsDown(model.NodeID(i)) {
					continue
				}
				up++
				if s := &w.Nodes[i]; s.Role == Master && (s.Serving || p.Variant == ZooKeeper) {
					master = i
				}
			}
			if up < p.majority() {
				return true, ""
			}
			if master < 0 {
				return false, fmt.Sprintf("the run ends with %d of %d servers up and no master", up, p.R)
			}
			for i := range p.R {
				if s := &w.Nodes[i]; !w.IsDown(model.NodeID(i)) && i != master && (s.Leader != uint8(master)+1 || s.Role != Follower) {
					return false, fmt.Sprintf("the run ends with p%d %s, not following the master p%d", i, p.FormatState(model.NodeID(i), *s), master)
				}
			}
			return true, ""
		},
	}
}

// Properties is what the notes claim for the election: one master an
// epoch, (Chubby) one serving at a time, a master elected whenever a
// majority is up.
func Properties(p *Protocol) property.Set[State, Msg] {
	invs := []property.Invariant[State, Msg]{p.OneMaster()}
	if p.Variant == Chubby {
		invs = append(invs, p.OneServing())
	}
	return property.Set[State, Msg]{Invariants: append(invs, p.MasterElected()), Deadlock: true}
}
