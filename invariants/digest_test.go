package invariants

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/property"
)

// verdictOf judges w as a search does from its store: from each node's
// digest, made of the node's state alone.
func verdictOf[S, M any](inv property.Invariant[S, M], w *model.World[S, M]) bool {
	d := make([]uint32, len(w.Nodes))
	for i := range w.Nodes {
		d[i] = inv.Digest(model.NodeID(i), w.Nodes[i])
	}
	return inv.Verdict(d, w.Down)
}

// toyCS is in the critical section when its leader field is 1 (any toy
// state will do: the property reads only InCS).
type toyCS struct{}

func (toyCS) InCS(_ model.NodeID, s toy) bool { return s.leader == 1 }

// The invariants split for the search (Digest and Verdict) judge every
// world as Holds does: any nodes, any crashed.
func TestDigestsJudgeAsHolds(t *testing.T) {
	invs := []property.Invariant[toy, int]{
		MutualExclusion[toy, int](toyCS{}),
		Agreement[toy, int](toyElector{}),
	}
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 8).Draw(t, "n")
		nodes := make([]toy, n)
		for i := range nodes {
			nodes[i] = toy{leader: rapid.IntRange(-1, n-1).Draw(t, "leader"), electing: rapid.Bool().Draw(t, "electing")}
		}
		w := world(rapid.Uint64Range(0, 1<<n-1).Draw(t, "down"), nil, nodes...)
		for _, inv := range invs {
			ok, why := inv.Holds(w)
			if fast := verdictOf(inv, w); fast != ok {
				t.Fatalf("%s: Verdict %v, Holds %v (%s) on %+v down %b", inv.Name, fast, ok, why, nodes, w.Down)
			}
		}
	})
}
