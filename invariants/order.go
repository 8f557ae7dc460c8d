package invariants

import (
	"fmt"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/property"
)

// HappenedBeforeOrderName is the name of the ordering property.
const HappenedBeforeOrderName = "happened-before-order"

// HappenedBeforeOrder is the ordering property of mutual exclusion (seed
// 000, the metric tables' "ordering" row): if one request happened before
// another, the first is granted first. It reads the request vectors that
// model.Config.Ordering keeps: it fails when a node is in its critical
// section while another still waits on a request that happened before the
// first node's.
func HappenedBeforeOrder[S, M any](cs CriticalSection[S], wt model.Waiter[S]) property.Invariant[S, M] {
	return property.Invariant[S, M]{
		Name: HappenedBeforeOrderName,
		Holds: func(w *model.World[S, M]) (bool, string) {
			if w.VC == nil {
				return true, ""
			}
			for k := range w.Nodes {
				kid := model.NodeID(k)
				if w.IsDown(kid) || !cs.InCS(kid, w.Nodes[k]) {
					continue
				}
				for i := range w.Nodes {
					iid := model.NodeID(i)
					if i == k || w.IsDown(iid) || !wt.Waiting(iid, w.Nodes[i]) {
						continue
					}
					if w.HappenedBefore(iid, kid) {
						return false, fmt.Sprintf("%s's request happened before %s's, but %s entered first", iid, kid, kid)
					}
				}
			}
			return true, ""
		},
		// Ordered grants are only tested when one process enters while
		// another waits.
		PremiseDoc: "a process in the critical section while another waits",
		Premise: func(w *model.World[S, M]) bool {
			in, waiting := false, false
			for i := range w.Nodes {
				id := model.NodeID(i)
				if w.IsDown(id) {
					continue
				}
				in = in || cs.InCS(id, w.Nodes[i])
				waiting = waiting || wt.Waiting(id, w.Nodes[i])
			}
			return in && waiting && w.VC != nil
		},
	}
}
