package coordination

import (
	"fmt"
	"time"

	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/invariants/linearizability"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/property"
)

// LinearizabilityTimeout bounds porcupine's check of one history. The
// histories of a model are small; a timeout is reported, never passed.
const LinearizabilityTimeout = 10 * time.Second

// Property names.
const (
	AgreementName   = "zab-agreement"
	NoLateWriteName = "no-late-write"
)

// Agreement is Zab's agreement and total order (seed 004, "followers
// deliver the same transaction and in the same order"): the committed
// histories of any two live replicas are prefixes of one another.
func (p *Protocol) Agreement() property.Invariant[State, Msg] {
	return property.Invariant[State, Msg]{
		Name: AgreementName,
		Holds: func(w *model.World[State, Msg]) (bool, string) {
			for i := range p.R {
				for j := i + 1; j < p.R; j++ {
					if w.IsDown(model.NodeID(i)) || w.IsDown(model.NodeID(j)) {
						continue
					}
					a, b := &w.Nodes[i].R, &w.Nodes[j].R
					n := min(a.Committed, b.Committed)
					for k := range n {
						if a.Log[k] != b.Log[k] {
							return false, fmt.Sprintf("p%d and p%d committed different transactions at %d: %s and %s",
								i, j, k+1, p.formatTxn(a.Log[k]), p.formatTxn(b.Log[k]))
						}
					}
				}
			}
			return true, ""
		},
		PremiseDoc: "a committed transaction",
		Premise: func(w *model.World[State, Msg]) bool {
			for i := range p.R {
				if w.Nodes[i].R.Committed > 0 {
					return true
				}
			}
			return false
		},
	}
}

// NoLateWrite: the storage server never applies a lock holder's write
// after a write of a later holder (seed 004, "Use of Sequences").
func (p *Protocol) NoLateWrite() property.Invariant[State, Msg] {
	return property.Invariant[State, Msg]{
		Name: NoLateWriteName,
		Holds: func(w *model.World[State, Msg]) (bool, string) {
			if !p.Store {
				return true, ""
			}
			why := p.LateWrite(w.Nodes[p.storeNode()].D)
			return why == "", why
		},
		PremiseDoc: "a write applied by the storage server",
		Premise: func(w *model.World[State, Msg]) bool {
			return p.Store && w.Nodes[p.storeNode()].D.Gen > 0
		},
	}
}

// Properties is what the service claims for p's clients. Register
// clients: Zab's agreement in every state, the linearizability of the
// recorded history once a run has ended (so the history is recorded), and
// no deadlock (no client waits forever for an answer). Lock clients:
// mutual exclusion among the live clients, Zab's agreement, with a
// storage server no late write, and no deadlock. The other recipes: see
// recipeProperties.
func Properties(p *Protocol) property.Set[State, Msg] {
	if p.Workload != RegisterClients && p.Workload != LockClients {
		return recipeProperties(p)
	}
	if p.Workload == RegisterClients {
		invs := []property.Invariant[State, Msg]{p.Agreement()}
		if p.Leader == ElectedLeader {
			// The election's own properties (elected.go).
			invs = append(invs, p.OneEpochLeader(), p.OneServing(), p.ServiceLeader())
		}
		invs = append(invs, linearizability.RecordsInvariant[State, Msg](LinearizabilityTimeout))
		if p.Sessions != NoSessions {
			invs = append(invs, p.NoActAfterExpiry(), p.SessionSurvives())
		}
		return property.Set[State, Msg]{Invariants: invs, Deadlock: true, History: true}
	}
	invs := []property.Invariant[State, Msg]{invariants.MutualExclusion[State, Msg](p), p.Agreement()}
	if p.Store {
		invs = append(invs, p.NoLateWrite())
	}
	return property.Set[State, Msg]{Invariants: invs, Deadlock: true}
}
