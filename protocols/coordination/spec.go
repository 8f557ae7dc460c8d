package coordination

import (
	"fmt"
	"time"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/invariants/linearizability"
	"github.com/coordcheck/coordcheck/model"
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
func (p *Protocol) Agreement() checker.Invariant[State, Msg] {
	return checker.Invariant[State, Msg]{
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
	}
}

// NoLateWrite: the storage server never applies a lock holder's write
// after a write of a later holder (seed 004, "Use of Sequences").
func (p *Protocol) NoLateWrite() checker.Invariant[State, Msg] {
	return checker.Invariant[State, Msg]{
		Name: NoLateWriteName,
		Holds: func(w *model.World[State, Msg]) (bool, string) {
			if !p.Store {
				return true, ""
			}
			why := p.LateWrite(w.Nodes[p.storeNode()].D)
			return why == "", why
		},
	}
}

// RegisterSpec is the spec of register clients: Zab's agreement in every
// state, the linearizability of the recorded history once a run has
// ended, and no deadlock (no client waits forever for an answer). It
// turns cfg.History on. It returns model.NewSystem's error for a cfg that
// cannot take effect.
func RegisterSpec(p *Protocol, cfg model.Config) (*checker.Spec[State, Msg], error) {
	cfg.History = true
	sys, err := model.NewSystem[State, Msg](p, cfg)
	if err != nil {
		return nil, err
	}
	return &checker.Spec[State, Msg]{
		System: sys,
		Invariants: []checker.Invariant[State, Msg]{
			p.Agreement(),
			linearizability.RecordsInvariant[State, Msg](LinearizabilityTimeout),
		},
		Deadlock: true,
	}, nil
}

// LockSpec is the spec of lock clients: mutual exclusion among the live
// clients, Zab's agreement, with a storage server no late write, and no
// deadlock. It returns model.NewSystem's error for a cfg that cannot
// take effect.
func LockSpec(p *Protocol, cfg model.Config) (*checker.Spec[State, Msg], error) {
	sys, err := model.NewSystem[State, Msg](p, cfg)
	if err != nil {
		return nil, err
	}
	invs := []checker.Invariant[State, Msg]{invariants.MutualExclusion[State, Msg](p), p.Agreement()}
	if p.Store {
		invs = append(invs, p.NoLateWrite())
	}
	return &checker.Spec[State, Msg]{
		System:     sys,
		Invariants: invs,
		Deadlock:   true,
	}, nil
}
