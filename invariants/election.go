package invariants

import (
	"fmt"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/property"
)

// Elector is implemented by leader-election protocols, so that the
// election properties below are written once for all of them. It says
// what each node believes and whether an election run is still going on.
type Elector[S, M any] interface {
	// Leader returns the node that self, in state s, considers its
	// coordinator; ok is false while self has not decided (it takes part
	// in an election whose result it does not know yet).
	Leader(self model.NodeID, s S) (leader model.NodeID, ok bool)
	// ID is the election attribute of node p: unique and totally ordered;
	// the notes elect the live process with the largest one.
	ID(p model.NodeID) int
	// Electing reports whether self, in state s, is in the middle of an
	// election run: it waits for answers, for the result, or for a timer
	// that will move the run on.
	Electing(self model.NodeID, s S) bool
	// ElectionMsg reports whether m belongs to an election run (as
	// opposed to traffic the protocol carries for other purposes).
	ElectionMsg(m M) bool
}

// Names of the election properties.
const (
	AgreementName        = "agreement"
	ElectionSafetyName   = "election-safety"
	ElectionLivenessName = "election-liveness"
)

// Agreement is property (a), checked in every world: no two live
// processes consider two different live processes their coordinator
// (seed 001: "all the processes agreeing on a unique coordinator"). A
// belief in a crashed coordinator does not count: it is stale, and the
// process will learn of the crash. This is stronger than the notes'
// safety, which judges a run at its end: the bully algorithm breaks it
// transiently whenever the highest process restarts, announces itself and
// its COORD is still on its way to a process that believes in the interim
// coordinator.
func Agreement[S, M any](e Elector[S, M]) property.Invariant[S, M] {
	return property.Invariant[S, M]{
		Name: AgreementName,
		Holds: func(w *model.World[S, M]) (bool, string) {
			first, firstLeader := -1, model.NodeID(0)
			for i := range w.Nodes {
				id := model.NodeID(i)
				if w.IsDown(id) {
					continue
				}
				l, ok := e.Leader(id, w.Nodes[i])
				if !ok || w.IsDown(l) {
					continue
				}
				if first < 0 {
					first, firstLeader = i, l
					continue
				}
				if l != firstLeader {
					return false, fmt.Sprintf("%s considers %s its coordinator but %s considers %s",
						model.NodeID(first), firstLeader, id, l)
				}
			}
			return true, ""
		},
		// A node's digest is its leader, plus one, or 0 when it has none.
		Digest: func(self model.NodeID, s S) uint32 {
			if l, ok := e.Leader(self, s); ok {
				return uint32(l) + 1
			}
			return 0
		},
		Verdict: func(d []uint32, down uint64) bool {
			var first uint32
			for i, v := range d {
				if v == 0 || down&(1<<i) != 0 || down&(1<<(v-1)) != 0 {
					continue
				}
				if first == 0 {
					first = v
				} else if v != first {
					return false
				}
			}
			return true
		},
		PremiseDoc: "a live process following a live coordinator",
		Premise: func(w *model.World[S, M]) bool {
			return someDecided(e, w)
		},
	}
}

// someDecided reports whether some live process follows a live coordinator.
func someDecided[S, M any](e Elector[S, M], w *model.World[S, M]) bool {
	for i := range w.Nodes {
		id := model.NodeID(i)
		if w.IsDown(id) {
			continue
		}
		if l, ok := e.Leader(id, w.Nodes[i]); ok && !w.IsDown(l) {
			return true
		}
	}
	return false
}

// RunEnded reports whether no election run is going on in w: no election
// message is in flight, no live process is electing, and no live process
// believes in a crashed coordinator (it will notice the crash and start a
// new run: seed 001, "when P notes that coordinator is not responding").
func RunEnded[S, M any](e Elector[S, M], w *model.World[S, M]) bool {
	for i := range w.Net {
		if !w.Net[i].App && e.ElectionMsg(w.Net[i].Msg) {
			return false
		}
	}
	for i := range w.Nodes {
		id := model.NodeID(i)
		if w.IsDown(id) {
			continue
		}
		if e.Electing(id, w.Nodes[i]) {
			return false
		}
		if l, ok := e.Leader(id, w.Nodes[i]); ok && w.IsDown(l) {
			return false
		}
	}
	return true
}

// HighestLive returns the live node with the largest election attribute;
// ok is false when every node is down.
func HighestLive[S, M any](e Elector[S, M], w *model.World[S, M]) (best model.NodeID, ok bool) {
	for i := range w.Nodes {
		id := model.NodeID(i)
		if !w.IsDown(id) && (!ok || e.ID(id) > e.ID(best)) {
			best, ok = id, true
		}
	}
	return best, ok
}

// ElectionSafety is property (b), the notes' safety judged when a run has
// ended (see RunEnded): every live process has decided, and on the live
// process with the largest id (seed 001: "a participant is either
// non-decided or decided with the non-crashed process with the largest
// ID"; seed 003: "a run of the election algorithm must always guarantee
// at the end"). SPIN checks its bully model the same way, at quiescence;
// disagreement in the middle of a run is not flagged. A coordinator that
// crashes after it was elected is no violation: the run is then not over.
func ElectionSafety[S, M any](e Elector[S, M]) property.Invariant[S, M] {
	return property.Invariant[S, M]{
		Name: ElectionSafetyName,
		Holds: func(w *model.World[S, M]) (bool, string) {
			if !RunEnded(e, w) {
				return true, ""
			}
			best, ok := HighestLive(e, w)
			if !ok {
				return true, ""
			}
			for i := range w.Nodes {
				id := model.NodeID(i)
				if w.IsDown(id) {
					continue
				}
				l, ok := e.Leader(id, w.Nodes[i])
				switch {
				case !ok:
					return false, fmt.Sprintf("the election is over but %s has not decided", id)
				case l != best:
					return false, fmt.Sprintf("the election is over but %s considers %s its coordinator, not %s, the highest live process (%s)",
						id, l, best, formatBeliefs(e, w))
				}
			}
			return true, ""
		},
		PremiseDoc: "an election run that has ended with a coordinator",
		// The run's end first: it is rare, and most worlds show at once
		// that it has not come (an election message is in flight), where
		// most have no decided process either but show it only once
		// every node was asked (ring N=10: 9% of a search's samples).
		Premise: func(w *model.World[S, M]) bool {
			return RunEnded(e, w) && someDecided(e, w)
		},
	}
}

// formatBeliefs lists every live process's coordinator: "p0->p1 p1->p2".
func formatBeliefs[S, M any](e Elector[S, M], w *model.World[S, M]) string {
	s := ""
	for i := range w.Nodes {
		id := model.NodeID(i)
		if w.IsDown(id) {
			continue
		}
		if s != "" {
			s += " "
		}
		if l, ok := e.Leader(id, w.Nodes[i]); ok {
			s += id.String() + "->" + l.String()
		} else {
			s += id.String() + "->?"
		}
	}
	return s
}

// ElectionLiveness is property (c), the notes' liveness (seed 001: "all
// processes eventually participate & either decide on an elected
// coordinator or crash"): under weak fairness, every live process that
// has not decided eventually does.
func ElectionLiveness[S, M any](e Elector[S, M]) property.Liveness[S, M] {
	return property.Liveness[S, M]{
		Name: ElectionLivenessName,
		Pending: func(w *model.World[S, M], i model.NodeID) bool {
			_, ok := e.Leader(i, w.Nodes[i])
			return !ok
		},
		PremiseDoc: "a live process that has not decided",
		Premise: func(w *model.World[S, M]) bool {
			for i := range w.Nodes {
				id := model.NodeID(i)
				if _, ok := e.Leader(id, w.Nodes[i]); !ok && !w.IsDown(id) {
					return true
				}
			}
			return false
		},
	}
}
