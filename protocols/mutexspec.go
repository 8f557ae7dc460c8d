package protocols

import (
	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/live"
	"github.com/coordcheck/coordcheck/model"
)

// mutexProtocol is what a mutual-exclusion protocol implements to be
// checked by the shared mutual-exclusion properties.
type mutexProtocol[S, M any] interface {
	model.Protocol[S, M]
	invariants.CriticalSection[S]
	model.Waiter[S]
}

// mutexSpec is the standard spec of a mutual-exclusion protocol: mutual
// exclusion, the protocol's own invariants (extra), no deadlock, starvation
// freedom, and, when cfg tracks causality, the happened-before order of
// requests.
func mutexSpec[S, M any, P mutexProtocol[S, M]](p P, cfg model.Config, extra ...checker.Invariant[S, M]) (checker.Target, error) {
	sys, err := model.NewSystem[S, M](p, cfg)
	if err != nil {
		return nil, err
	}
	invs := []checker.Invariant[S, M]{invariants.MutualExclusion[S, M](p)}
	invs = append(invs, extra...)
	if cfg.Ordering {
		invs = append(invs, invariants.HappenedBeforeOrder[S, M](p, p))
	}
	return live.Target(&checker.Spec[S, M]{
		System:     sys,
		Invariants: invs,
		Deadlock:   true,
		Liveness:   []checker.Liveness[S, M]{invariants.StarvationFreedom[S, M](p)},
	}), nil
}
