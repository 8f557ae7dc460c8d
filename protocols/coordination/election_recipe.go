package coordination

import (
	"fmt"
	"strings"

	"github.com/coordcheck/coordcheck/model"
)

// The leader election recipe (seed 000, "Election in ZooKeeper": "each
// server creates a new sequence number (id) for itself"; seed 003, "each
// process monitors its next-higher id process"): a candidate creates a
// sequential ephemeral znode under /election; the lowest leads; every
// other watches the znode just before its own, and when that one goes it
// lists again: it leads if its znode is now the lowest, or watches its new
// predecessor. It is the lock recipe (lock.go) without an unlock, with the
// roles of the notes reversed (the lowest counter, not the highest id,
// leads, as the recipe of seed 004 orders the lock): so a leader's crash
// wakes exactly one candidate, not the herd that "leads to a flood of
// elections" (seed 000). The deliberately broken variant (Broken) has
// every candidate watch the lowest znode, the leader ("everyone monitors
// the current master", the first option of seed 003): a leader's crash
// wakes them all.

// ElectionDir is the directory of the election's znodes.
const ElectionDir = "/election"

// electionPredecessor is the znode a candidate watches: the one just
// before its own, or, broken, the lowest.
func (p *Protocol) electionPredecessor(children []string, mine uint8) (uint8, bool) {
	if !p.Broken {
		return predecessor(children, mine)
	}
	for _, name := range children {
		if n := SeqOf(name); n >= 0 && n < int(mine) {
			return uint8(n), true // children are sorted: the lowest
		}
	}
	return 0, false
}

// Property names of the election recipe.
const (
	OneLeaderName     = "one-leader"
	OneWakeupName     = "one-wakeup"
	LeaderElectedName = "leader-elected"
)

// OneLeader: at most one live candidate leads.
func (p *Protocol) OneLeader() Invariant {
	return Invariant{
		Name: OneLeaderName,
		Holds: func(w *model.World[State, Msg]) (bool, string) {
			if hs := p.holders(w); len(hs) > 1 {
				return false, fmt.Sprintf("%s lead at once", joinIDs(hs))
			}
			return true, ""
		},
		PremiseDoc: "a candidate leads",
		Premise:    func(w *model.World[State, Msg]) bool { return len(p.holders(w)) > 0 },
	}
}

// OneWakeup: the deletion of a znode wakes at most one client: no two
// watch notifications of one deletion are ever in flight.
func (p *Protocol) OneWakeup() Invariant {
	return Invariant{
		Name: OneWakeupName,
		Holds: func(w *model.World[State, Msg]) (bool, string) {
			for i := range w.Net {
				a := &w.Net[i]
				if a.Msg.Kind != Notify || a.Msg.Event.Kind != Deleted {
					continue
				}
				for j := i + 1; j < len(w.Net); j++ {
					if b := &w.Net[j]; b.Msg.Kind == Notify && b.Msg.Event == a.Msg.Event && b.To != a.To {
						return false, fmt.Sprintf("the deletion of %s wakes %s and %s (a herd)", a.Msg.Event.Path, a.To, b.To)
					}
				}
			}
			return true, ""
		},
		PremiseDoc: "a deletion that wakes a watcher",
		Premise: func(w *model.World[State, Msg]) bool {
			for i := range w.Net {
				if m := &w.Net[i].Msg; m.Kind == Notify && m.Event.Kind == Deleted {
					return true
				}
			}
			return false
		},
	}
}

// LeaderElected: at the end of a run, a live candidate leads (every live
// client has volunteered by then).
func (p *Protocol) LeaderElected() Invariant {
	return Invariant{
		Name:     LeaderElectedName,
		Terminal: true,
		Holds: func(w *model.World[State, Msg]) (bool, string) {
			var live []model.NodeID
			for c := range p.C {
				if id := p.clientNode(uint8(c)); !w.IsDown(id) && w.Nodes[id].C.Phase != Failed {
					live = append(live, id)
				}
			}
			if len(live) == 0 || len(p.holders(w)) == 1 {
				return true, ""
			}
			return false, fmt.Sprintf("no leader among the live candidates %s", joinIDs(live))
		},
	}
}

// joinIDs: "p3, p4".
func joinIDs(ids []model.NodeID) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = id.String()
	}
	return strings.Join(s, ", ")
}
