// Package property is the vocabulary of what a model is checked against:
// invariants (Always), the no-deadlock check, liveness properties under
// weak fairness, the set of them a protocol claims (Set), and the three
// verdicts. It sits below the checker and imports only model, so that a
// protocol package can export its own properties (ricartagrawala.Spec,
// bully.Spec, ...) without importing the engine; checker.SpecOf joins a
// Set to a system.
package property

import (
	"fmt"

	"github.com/coordcheck/coordcheck/model"
)

// Verdict is the outcome of a check, or of one property's judgement.
type Verdict uint8

// The three verdicts.
const (
	// Pass: every property holds in the whole reachable state space.
	Pass Verdict = iota
	// Violated: a property fails; the report carries a counterexample.
	Violated
	// Inconclusive: a bound was reached before the space was exhausted.
	Inconclusive
)

// String is the verdict's word in reports and JSON.
func (v Verdict) String() string {
	switch v {
	case Pass:
		return "pass"
	case Violated:
		return "violated"
	case Inconclusive:
		return "inconclusive"
	}
	return fmt.Sprintf("verdict(%d)", uint8(v))
}

// ExitCode is the command-line exit code of the verdict (DESIGN.md).
func (v Verdict) ExitCode() int {
	switch v {
	case Pass:
		return 0
	case Violated:
		return 1
	}
	return 3
}

// MarshalText writes the verdict's word, for JSON.
func (v Verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// UnmarshalText reads the verdict's word, for reports read back (merge).
func (v *Verdict) UnmarshalText(b []byte) error {
	for _, w := range []Verdict{Pass, Violated, Inconclusive} {
		if string(b) == w.String() {
			*v = w
			return nil
		}
	}
	return fmt.Errorf("unknown verdict %q", b)
}

// Invariant is an Always property: Holds must be true in every reachable
// world. When it is false, the string says why ("p0 and p2 are both in
// the critical section").
type Invariant[S, M any] struct {
	Name  string
	Holds func(w *model.World[S, M]) (bool, string)
	// Judge, when set, replaces Holds for invariants whose check can be
	// inconclusive (a linearizability check that times out): it returns
	// Pass, Violated or Inconclusive, and why. An inconclusive judgement
	// makes the whole check inconclusive, never a pass.
	Judge func(w *model.World[S, M]) (Verdict, string)
	// Terminal restricts the check to worlds with no enabled action (the
	// end of a run: a complete history, an election that has ended).
	Terminal bool
	// Premise, when set, is what must happen somewhere for the property
	// to be tested at all (a process in the critical section, for mutual
	// exclusion), and PremiseDoc says it in words ("a process in the
	// critical section"). A search evaluates it on the states it explores
	// until it first holds; a pass in which it never held carries a
	// warning (checker.Report.Warnings). It must be cheap and free of
	// effects.
	Premise    func(w *model.World[S, M]) bool
	PremiseDoc string
	// Digest and Verdict, set together, split Holds for speed, for an
	// invariant that reads nothing of a world but its nodes' states and
	// which nodes are down (mutual exclusion; agreement on a leader).
	// Digest(self, s) is what the invariant reads of node self's state
	// s; Verdict(d, down) says whether it holds in a world whose nodes'
	// digests are d, in node order, and whose crashed nodes are the bits
	// of down (model.World.Down). An exhaustive search computes each node
	// state's digest once, when it first stores the state, and then
	// judges each world from its n digests, not its n states. Holds is
	// still needed: the search asks it why when Verdict is false (and
	// reports the two disagreeing as an error of the invariant's), and
	// the searches that make their worlds whole (random walks, replays)
	// judge with it. The codec self-check compares the two on the states
	// it visits.
	Digest  func(self model.NodeID, s S) uint32
	Verdict func(d []uint32, down uint64) bool
	// Symmetric declares that Holds (or Judge) gives the same verdict on
	// worlds that differ by a renaming of the protocol's interchangeable
	// nodes (model.Symmetric): the property singles out no such node.
	// Symmetry reduction checks only symmetric properties.
	Symmetric bool
}

// Liveness is a property checked on the cycles of the state graph, not only
// on its terminal states, under weak fairness (see model.System.FairClass).
// Pending(w, i) says that node i has an obligation not yet met in w: it
// waits for the critical section, or has not decided on a leader. The
// property holds when no fair execution keeps a node pending forever: no
// reachable terminal state leaves it pending, and no reachable cycle on
// which it stays pending is fair. A violation is shown as a lasso: a prefix,
// then a cycle that repeats forever and takes every fair action that stays
// enabled along it.
type Liveness[S, M any] struct {
	Name    string
	Pending func(w *model.World[S, M], i model.NodeID) bool
	// Premise and PremiseDoc are as Invariant's: what must happen for the
	// property to be tested at all (a process waits for something).
	Premise    func(w *model.World[S, M]) bool
	PremiseDoc string
}

// DeadlockProperty is the name of the built-in no-deadlock property: no
// reachable world has no enabled action while some node waits (see
// model.Waiter).
const DeadlockProperty = "no-deadlock"

// Set is the properties a protocol claims, the part of a checker.Spec
// that is not the system: what a protocol package exports
// (ricartagrawala.Spec) and checker.SpecOf joins to a system.
type Set[S, M any] struct {
	Invariants []Invariant[S, M]
	// Deadlock enables the no-deadlock check.
	Deadlock bool
	// Liveness properties are checked on the whole state graph, after an
	// exhaustive search (BFS or DFS) that found no safety violation.
	Liveness []Liveness[S, M]
	// History says that the properties read the world's history
	// (model.Config.History), HistoryByNode that they read it kept per
	// node (model.Config.HistoryByNode, which implies History):
	// checker.NewSpec turns them on.
	History, HistoryByNode bool
}

// Names lists the properties of the set, in checking order: the
// invariants, no-deadlock, then the liveness properties.
func (s *Set[S, M]) Names() []string {
	var names []string
	for _, inv := range s.Invariants {
		names = append(names, inv.Name)
	}
	if s.Deadlock {
		names = append(names, DeadlockProperty)
	}
	for _, l := range s.Liveness {
		names = append(names, l.Name)
	}
	return names
}
