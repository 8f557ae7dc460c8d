package linearizability

import (
	"slices"
	"time"

	"github.com/anishathalye/porcupine"
)

// SubHistory is a failing part of a history that is not linearizable, cut
// down by [Minimize].
type SubHistory[I, O any] struct {
	// Key is the key whose operations it holds ("" when the model does
	// not partition).
	Key string
	// Ops are the operations kept, in the order of the history.
	Ops []Operation[I, O]
	// Of is the number of operations of the key in the whole history.
	Of int
	// Minimal says that Ops is not linearizable while removing any one
	// of them (with the reads only it could have supplied, see
	// [Unsupplied]) makes it linearizable. It is false when the search ran out
	// of time first: Ops then still fails, but may not be minimal.
	Minimal bool
	// Checks counts the linearizability checks the search made.
	Checks int
}

// Minimize cuts a history that is not linearizable down to a failing
// sub-history that cannot be cut further: it keeps the key whose
// operations fail with the fewest operations, then removes whole clients,
// then runs of operations, halving their length down to single ones, as
// long as what remains is still not linearizable; it repeats the single
// removals until none succeeds. When the model says which operations are
// operations observe the state and which could supply what they found
// (Model.Observes and Model.Supplies), removing a write also removes the
// observers that nothing left could have supplied (see [Unsupplied]): a read of a value nobody
// wrote fails on its own and says nothing, so the sub-history keeps the
// writes that show the real anomaly (the append that was lost, the write
// that was read too late). A candidate whose check times out counts
// as linearizable, so what is returned always fails. budget bounds the
// whole search (0: no bound); each check has timeout. ok is false when the
// history is linearizable or could not be shown not to be.
//
// Removing an operation from a history keeps the real-time order of the
// rest, so a failing sub-history is a proof on its own: no linearization
// of the whole history exists, because none exists of this part.
func Minimize[S, I, O any](m Model[S, I, O], ops []Operation[I, O], timeout, budget time.Duration) (sub SubHistory[I, O], ok bool) {
	pm := m.porcupine()
	pm.Partition, pm.PartitionEvent = nil, nil
	var deadline time.Time
	if budget > 0 {
		deadline = time.Now().Add(budget)
	}
	unknown := 0 // checks that timed out
	check := func(cand []Operation[I, O]) porcupine.CheckResult {
		sub.Checks++
		res := porcupine.CheckOperationsTimeout(pm, toPorcupine(cand), timeout)
		if res == porcupine.Unknown {
			unknown++
		}
		return res
	}
	fails := func(cand []Operation[I, O]) bool { return check(cand) == porcupine.Illegal }
	late := func() bool { return !deadline.IsZero() && time.Now().After(deadline) }

	keys, parts := []string{""}, [][]Operation[I, O]{ops}
	if m.Key != nil {
		keys, parts = partition(ops, func(op Operation[I, O]) string { return m.Key(op.Input) })
	}
	best := -1
	for i := range parts {
		if (best < 0 || len(parts[i]) < len(parts[best])) && fails(parts[i]) {
			best = i
		}
	}
	if best < 0 {
		return sub, false
	}
	sub.Key, sub.Of = keys[best], len(parts[best])
	cur := slices.Clone(parts[best])
	// A read that nothing wrote in the whole history is an anomaly of its
	// own: removals never take it along.
	type opID struct {
		client int
		call   int64
	}
	var thinAir []opID
	supplied := Unsupplied(m, cur)
	for _, op := range cur {
		if !slices.ContainsFunc(supplied, func(o Operation[I, O]) bool { return o.Client == op.Client && o.Call == op.Call }) {
			thinAir = append(thinAir, opID{op.Client, op.Call})
		}
	}
	prune := func(ops []Operation[I, O]) []Operation[I, O] {
		kept := Unsupplied(m, ops)
		if len(thinAir) == 0 {
			return kept
		}
		return slices.DeleteFunc(ops, func(op Operation[I, O]) bool {
			return !slices.Contains(thinAir, opID{op.Client, op.Call}) &&
				!slices.ContainsFunc(kept, func(o Operation[I, O]) bool { return o.Client == op.Client && o.Call == op.Call })
		})
	}

	// Whole clients first: a client that plays no part goes in one check.
	var clients []int
	for _, op := range cur {
		clients = append(clients, op.Client)
	}
	slices.Sort(clients)
	for _, c := range slices.Compact(clients) {
		if late() {
			break
		}
		cand := prune(slices.DeleteFunc(slices.Clone(cur), func(op Operation[I, O]) bool { return op.Client == c }))
		if len(cand) > 0 && fails(cand) {
			cur = cand
		}
	}
	// Then runs of operations, halving the run down to one operation, and
	// single removals again until none succeeds.
	for size := len(cur) / 2; size >= 1 && !late(); size /= 2 {
		cur = removeRuns(cur, size, fails, late, prune)
	}
	for !late() {
		n, u := len(cur), unknown
		cur = removeRuns(cur, 1, fails, late, prune)
		if len(cur) == n {
			sub.Minimal = unknown == u && !late()
			break
		}
	}
	sub.Ops = cur
	return sub, true
}

// Unsupplied returns ops without the observers (reads, compare-and-sets)
// that found more than the initial state and that nothing else in ops
// could have supplied (see Model.Observes and Model.Supplies), repeated
// while removing one leaves another unsupplied; ops itself when the model
// does not say.
func Unsupplied[S, I, O any](m Model[S, I, O], ops []Operation[I, O]) []Operation[I, O] {
	if m.Observes == nil || m.Supplies == nil {
		return ops
	}
	for {
		kept := slices.DeleteFunc(slices.Clone(ops), func(o Operation[I, O]) bool {
			if !m.Observes(o.Input) {
				return false
			}
			if ok, _ := m.Step(m.Init(), o.Input, o.Output); ok {
				return false // the initial state explains it
			}
			return !slices.ContainsFunc(ops, func(w Operation[I, O]) bool {
				return (w.Client != o.Client || w.Call != o.Call) && m.Supplies(w.Input, o.Input, o.Output)
			})
		})
		if len(kept) == len(ops) {
			return ops
		}
		ops = kept
	}
}

// removeRuns tries to remove each run of size consecutive operations of
// cur in turn (with what prune drops then), keeping a removal when what
// remains still fails.
func removeRuns[I, O any](cur []Operation[I, O], size int, fails func([]Operation[I, O]) bool, late func() bool, prune func([]Operation[I, O]) []Operation[I, O]) []Operation[I, O] {
	for i := 0; i < len(cur) && len(cur) > 1 && !late(); {
		end := min(i+size, len(cur))
		cand := prune(slices.Concat(cur[:i], cur[end:]))
		if len(cand) > 0 && fails(cand) {
			cur = cand
			continue
		}
		i = end
	}
	return cur
}
