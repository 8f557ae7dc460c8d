package checker

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/coordcheck/coordcheck/model"
)

// Symmetry reduction (Options.Symmetry): the search stores one state per
// orbit of the protocol's interchangeable nodes (model.Symmetric), the
// canonical representative model.Symmetry computes, so that worlds that
// differ only by a renaming of those nodes are explored once. It is sound
// for the properties checked when each gives the same verdict on worlds
// that differ by such a renaming (Invariant.Symmetric); deadlock freedom
// is, when the protocol's Waiting commutes with renaming, which Symmetric
// promises. A counterexample is rebuilt as a real execution from the
// initial world: at each step, the action whose successor's representative
// is the next stored state, from the world reached so far (which may be a
// renaming of the stored one); its final world violates the same property,
// judged again there, so that its detail names the nodes of that run.
//
// Refused (the check reports Error, the command line exits 2): random and
// swarm search, where it would change nothing but the count of distinct
// states; liveness properties, whose lassos in the reduced graph close only
// up to a renaming (use -liveness=false); an invariant not declared
// symmetric; and what model.NewSymmetry refuses. Before the search, a
// self-check explores symmetrySample worlds and refuses the reduction when
// renaming two neighbouring interchangeable nodes changes the initial
// world, the representatives of a world's successors, or a property's
// verdict: a wrong PermuteState, or a property that singles out a node, is
// caught there on small configurations.

// symmetrySample is how many worlds the symmetry self-check explores.
const symmetrySample = 200

// checkSymmetric is Check with Options.Symmetry on.
func (sp *Spec[S, M]) checkSymmetric(opts Options) *Report {
	y, err := sp.symmetryError(opts)
	if err != nil {
		return &Report{Verdict: Inconclusive, Error: "-symmetry: " + err.Error(), Properties: sp.PropertyNames()}
	}
	cp := *sp
	cp.symmetric = true
	opts.Symmetry = false
	rep := cp.Check(opts)
	if rep.Error == "" {
		rep.Symmetry = y.Interchangeable()
	}
	return rep
}

// symmetryError says why opts cannot use symmetry reduction on sp, or
// returns the canonicaliser.
func (sp *Spec[S, M]) symmetryError(opts Options) (*model.Symmetry[S, M], error) {
	switch {
	case opts.Strategy == Random || opts.Strategy == Swarm:
		return nil, fmt.Errorf("applies to bfs and dfs (a walk is the same walk under any renaming)")
	case opts.POR:
		return nil, fmt.Errorf("is not combined with -por (a representative need not keep a node's actions persistent)")
	case len(sp.Liveness) > 0 && !opts.SkipLiveness:
		return nil, fmt.Errorf("liveness properties (%s) are not checked under symmetry reduction: a cycle of representatives closes only up to a renaming (-liveness=false checks safety)",
			joinWords(sp.LivenessNames()))
	}
	y, err := model.NewSymmetry(sp.System.Clone())
	if err != nil {
		return nil, err
	}
	for _, inv := range sp.Invariants {
		if !inv.Symmetric {
			return nil, fmt.Errorf("property %s is not declared symmetric (it may single out a node; -skip it to reduce)", inv.Name)
		}
	}
	if err := sp.symmetrySelfCheck(symmetrySample); err != nil {
		return nil, err
	}
	return y, nil
}

// canonicaliser returns the canonicaliser of sys's worlds when the search
// reduces by symmetry, nil otherwise.
func (sp *Spec[S, M]) canonicaliser(sys *model.System[S, M]) *model.Symmetry[S, M] {
	if !sp.symmetric {
		return nil
	}
	y, err := model.NewSymmetry(sys)
	if err != nil {
		panic("checker: " + err.Error()) // checkSymmetric accepted it
	}
	return y
}

// symmetrySelfCheck explores up to max worlds breadth first and checks,
// for each and each generating transposition τ, that the initial world is
// its own renaming, that the successors of the world's renaming are the
// renamings of its successors, and that the two have the same verdict.
func (sp *Spec[S, M]) symmetrySelfCheck(max int) error {
	sys := sp.System.Clone()
	y, err := model.NewSymmetry(sys)
	if err != nil {
		return err
	}
	init := sys.Init()
	gens := y.Generators()
	var renamed model.World[S, M]
	enc := sys.Encode(nil, init)
	for _, g := range gens {
		y.Rename(init, g, &renamed)
		if !bytes.Equal(sys.Encode(nil, &renamed), enc) {
			return fmt.Errorf("renaming %s changes the initial world: the protocol's PermuteState or Init does not commute with renaming", swapText(g))
		}
	}
	// succ lists the encodings of w's successors, each renamed by perm
	// (nil: as they are).
	succ := func(w *model.World[S, M], perm []model.NodeID) []string {
		var out []string
		var next, ren model.World[S, M]
		for _, a := range sys.Actions(w, nil) {
			sys.Apply(w, a, &next)
			if perm != nil {
				y.Rename(&next, perm, &ren)
				out = append(out, string(sys.Encode(nil, &ren)))
				continue
			}
			out = append(out, string(sys.Encode(nil, &next)))
		}
		slices.Sort(out)
		return out
	}
	queue := []*model.World[S, M]{init}
	seen := map[string]bool{string(enc): true}
	for len(queue) > 0 && len(seen) <= max {
		w := queue[0]
		queue = queue[1:]
		prop, _ := sp.Violation(w, sys.Actions(w, nil))
		for _, g := range gens {
			// Renaming commutes with stepping: the successors of the
			// renamed world are the renamed successors.
			y.Rename(w, g, &renamed)
			if !slices.Equal(succ(w, g), succ(&renamed, nil)) {
				return fmt.Errorf("renaming %s changes a world's successors (world %s): the protocol is not symmetric in its interchangeable nodes, or PermuteState/PermuteMsg misses a node id",
					swapText(g), strings.Join(sys.FormatWorld(w), "; "))
			}
			if p, _ := sp.Violation(&renamed, sys.Actions(&renamed, nil)); p != prop {
				return fmt.Errorf("renaming %s changes the verdict of a world (%s vs %s): a property singles out a node", swapText(g), verdictText(prop), verdictText(p))
			}
		}
		for _, a := range sys.Actions(w, nil) {
			next := &model.World[S, M]{}
			sys.Apply(w, a, next)
			if k := string(sys.Encode(nil, next)); !seen[k] {
				seen[k] = true
				queue = append(queue, next)
			}
		}
	}
	return nil
}

// swapText names a transposition: "p0<->p1".
func swapText(perm []model.NodeID) string {
	var ids []string
	for i, j := range perm {
		if int(j) != i {
			ids = append(ids, model.NodeID(i).String())
		}
	}
	return ids[0] + "<->" + ids[1]
}

func verdictText(prop string) string {
	if prop == "" {
		return "no violation"
	}
	return prop
}
