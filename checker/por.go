package checker

import (
	"fmt"

	"github.com/coordcheck/coordcheck/model"
)

// Partial-order reduction (Options.POR): in each state the search expands
// only a persistent set of actions (model.Reducer), the actions of one
// node that nothing else can interfere with. It keeps every terminal state
// at its shortest depth, so deadlocks and the properties judged in terminal
// states only (Invariant.Terminal) get the verdict and the shortest
// counterexample length of the full search; it is refused for the others:
// an invariant judged in every state (whose violation may lie only in an
// interleaving left out), liveness, random and swarm search, symmetry
// reduction (refused there: a representative need not keep a node's set
// persistent), and what model.NewReducer refuses. Premises (coverage)
// are judged on the states explored, which may miss one that holds only
// in an interleaving left out: a warning then, never a verdict.

// checkReduced is Check with Options.POR on.
func (sp *Spec[S, M]) checkReduced(opts Options) *Report {
	if err := sp.porError(opts); err != nil {
		return &Report{Verdict: Inconclusive, Error: "-por: " + err.Error(), Properties: sp.PropertyNames()}
	}
	cp := *sp
	cp.por = true
	opts.POR = false
	rep := cp.Check(opts)
	if rep.Error == "" {
		rep.POR = true
	}
	return rep
}

// porError says why opts cannot use partial-order reduction on sp.
func (sp *Spec[S, M]) porError(opts Options) error {
	switch {
	case opts.Strategy == Random || opts.Strategy == Swarm:
		return fmt.Errorf("applies to bfs and dfs")
	case len(sp.Liveness) > 0 && !opts.SkipLiveness:
		return fmt.Errorf("liveness properties (%s) are not checked under partial-order reduction (-liveness=false checks safety)",
			joinWords(sp.LivenessNames()))
	}
	for _, inv := range sp.Invariants {
		if !inv.Terminal {
			return fmt.Errorf("property %s is judged in every state, and a reduced search sees only the terminal states of every interleaving (-skip it, or check it without -por)", inv.Name)
		}
	}
	_, err := model.NewReducer(sp.System.Clone())
	return err
}

// reducer returns the persistent-set chooser of sys when the search
// reduces, nil otherwise.
func (sp *Spec[S, M]) reducer(sys *model.System[S, M]) *model.Reducer[S, M] {
	if !sp.por {
		return nil
	}
	r, err := model.NewReducer(sys)
	if err != nil {
		panic("checker: " + err.Error()) // checkReduced accepted it
	}
	return r
}
