package model

import (
	"fmt"
)

// allowed reports whether the budget admits one more fault of kind k.
func (sys *System[S, M]) allowed(w *World[S, M], k FaultKind) bool {
	b := sys.Config.Faults.Budget[k]
	return b == Unbounded || int(w.Used[k]) < b
}

// faultActions appends the faults the budget still admits in w: drops and
// duplications of each distinct message in flight, crashes of live nodes,
// restarts of crashed ones, a partition, a heal.
func (sys *System[S, M]) faultActions(w *World[S, M], dst []Action) []Action {
	// (Each kind tested before its loop is entered: a loop over the two
	// kinds was 0.4% of bully N=4's instructions, whose budget has none
	// of either.)
	if sys.allowed(w, Drop) {
		dst = sys.messageFaults(w, dst, ActDrop)
	}
	if sys.allowed(w, Dup) {
		dst = sys.messageFaults(w, dst, ActDup)
	}
	if sys.allowed(w, Crash) {
		for i := range sys.n {
			if id := NodeID(i); !w.IsDown(id) && sys.Config.Faults.MayCrash(id) {
				dst = append(dst, Action{Kind: ActCrash, Node: id})
			}
		}
	}
	if sys.allowed(w, Restart) {
		for i := range sys.n {
			if id := NodeID(i); w.IsDown(id) {
				dst = append(dst, Action{Kind: ActRestart, Node: id})
			}
		}
	}
	if w.Cut == 0 && sys.n > 1 && sys.allowed(w, Partition) {
		// Every split into two non-empty groups, named by the group of p0.
		all := uint64(1)<<sys.n - 1
		for g := uint64(1); g < all; g += 2 {
			dst = append(dst, Action{Kind: ActPartition, Group: g})
		}
	}
	if w.Cut != 0 {
		dst = append(dst, Action{Kind: ActHeal})
	}
	return dst
}

// messageFaults appends a fault of kind (ActDrop or ActDup) for each
// distinct message in flight on each link.
func (sys *System[S, M]) messageFaults(w *World[S, M], dst []Action, kind ActionKind) []Action {
	for i := range w.Net {
		e := &w.Net[i]
		if i > 0 && w.Net[i-1].To == e.To && w.Net[i-1].From == e.From && sys.envCompare(&w.Net[i-1], e) == 0 {
			continue // the same message again on the same link: the same fault
		}
		dst = append(dst, Action{Kind: kind, Node: e.To, Peer: e.From, Slot: int32(i)})
	}
	return dst
}

// applyFault carries out the fault action a on w (already a copy).
func (sys *System[S, M]) applyFault(w *World[S, M], a Action) {
	sys.out.Reset()
	switch a.Kind {
	case ActDrop:
		w.Net = append(w.Net[:a.Slot], w.Net[a.Slot+1:]...)
		sys.use(w, Drop)
	case ActDup:
		sys.insert(w, w.Net[a.Slot])
		sys.use(w, Dup)
	case ActCrash:
		// The node stops: its timers go, and what was sent to it is lost.
		w.Down |= 1 << a.Node
		w.Timers[a.Node] = 0
		sys.dropWhere(w, func(e *Envelope[M]) bool { return e.To == a.Node })
		if sys.rest == nil || sys.Config.Faults.Budget[Restart] == 0 {
			// Its state no longer matters: keep one canonical value.
			var discard Out[M]
			w.Nodes[a.Node] = sys.P.Init(a.Node, &discard)
		}
		sys.use(w, Crash)
	case ActRestart:
		w.Down &^= 1 << a.Node
		if sys.rest != nil {
			w.Nodes[a.Node] = sys.rest.Recover(a.Node, w.Nodes[a.Node], &sys.out)
		} else {
			w.Nodes[a.Node] = sys.P.Init(a.Node, &sys.out)
		}
		sys.use(w, Restart)
		sys.effects(w, a.Node)
	case ActPartition:
		w.Cut = a.Group
		sys.dropWhere(w, func(e *Envelope[M]) bool { return w.Separated(e.From, e.To) })
		sys.use(w, Partition)
	case ActHeal:
		w.Cut = 0
	default:
		panic(fmt.Sprintf("model: unknown action kind %d", a.Kind))
	}
}

// use counts one fault of kind k against the budget (unbounded kinds are
// not counted, so that they add no states).
func (sys *System[S, M]) use(w *World[S, M], k FaultKind) {
	if sys.Config.Faults.Budget[k] != Unbounded {
		w.Used[k]++
	}
}
