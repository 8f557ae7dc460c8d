// Package invariants holds properties written once for any protocol:
// mutual exclusion, and the observers protocols implement to be checked by
// them.
package invariants

import (
	"strings"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/property"
)

// MutualExclusionName is the name of the mutual-exclusion property.
const MutualExclusionName = "mutual-exclusion"

// ReleaseFromHolderName is the name of the SPIN models' assertion on
// every release, made an invariant by the protocols whose permission is
// held by one process at a time (centralized: the coordinator's token;
// maekawa: a voter's vote): only the holder releases it.
const ReleaseFromHolderName = "release-from-holder"

// CriticalSection is implemented by mutual-exclusion protocols: it says
// whether node self, in state s, is in its critical section.
type CriticalSection[S any] interface {
	InCS(self model.NodeID, s S) bool
}

// MutualExclusion is the safety property of every mutual-exclusion
// algorithm (seed 000, "safety: at most one process in the CS"): at most
// one live node is in its critical section. Crashed nodes do not count.
func MutualExclusion[S, M any](cs CriticalSection[S]) property.Invariant[S, M] {
	return property.Invariant[S, M]{
		Name: MutualExclusionName,
		Holds: func(w *model.World[S, M]) (bool, string) {
			first := -1
			for i := range w.Nodes {
				id := model.NodeID(i)
				if w.IsDown(id) || !cs.InCS(id, w.Nodes[i]) {
					continue
				}
				if first < 0 {
					first = i
					continue
				}
				var in []string
				for j := range w.Nodes {
					if !w.IsDown(model.NodeID(j)) && cs.InCS(model.NodeID(j), w.Nodes[j]) {
						in = append(in, model.NodeID(j).String())
					}
				}
				return false, strings.Join(in, " and ") + " are in the critical section at once"
			}
			return true, ""
		},
		// A node's digest is 1 when it is in the critical section.
		Digest: func(self model.NodeID, s S) uint32 {
			if cs.InCS(self, s) {
				return 1
			}
			return 0
		},
		Verdict: func(d []uint32, down uint64) bool {
			in := 0
			for i, v := range d {
				if v != 0 && down&(1<<i) == 0 {
					in++
				}
			}
			return in <= 1
		},
		PremiseDoc: "a process in the critical section",
		Premise: func(w *model.World[S, M]) bool {
			for i := range w.Nodes {
				if id := model.NodeID(i); !w.IsDown(id) && cs.InCS(id, w.Nodes[i]) {
					return true
				}
			}
			return false
		},
		// It counts the nodes in the critical section, naming none.
		Symmetric: true,
	}
}

// StarvationFreedomName is the name of the starvation-freedom property.
const StarvationFreedomName = "starvation-freedom"

// StarvationFreedom is the liveness of mutual exclusion (seed 000,
// "liveness: every request for the CS is granted eventually"): a live node
// that waits for the critical section eventually gets it, under weak
// fairness. A node waits as long as w says so (model.Waiter).
func StarvationFreedom[S, M any](w model.Waiter[S]) property.Liveness[S, M] {
	return property.Liveness[S, M]{
		Name: StarvationFreedomName,
		Pending: func(world *model.World[S, M], i model.NodeID) bool {
			return w.Waiting(i, world.Nodes[i])
		},
		PremiseDoc: "a process waiting for the critical section",
		Premise: func(world *model.World[S, M]) bool {
			for i := range world.Nodes {
				if id := model.NodeID(i); !world.IsDown(id) && w.Waiting(id, world.Nodes[i]) {
					return true
				}
			}
			return false
		},
	}
}
