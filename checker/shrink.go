package checker

import "github.com/coordcheck/coordcheck/model"

// Shrinking: a counterexample found by a random walk (or drawn by rapid)
// is made small before anyone sees it. A candidate is a variation of the
// best trace so far, replayed leniently (actions no longer enabled are
// skipped, and a delivery whose message changed is matched to the same
// link's message of the same kind) and accepted only if it still violates
// the same property in fewer steps; it is then cut at the first violating
// world. The passes, repeated until none shortens the trace:
//
//   - delete chunks of actions, halving the chunk size down to single
//     actions (as in delta debugging): needless steps and faults go;
//   - delete pairs of actions, for short traces: a request and the
//     delivery it caused, which neither deletion alone removes;
//   - replace one action by another enabled at that point (another node's
//     timer first, a drop for a delivery, another delivery order), so that
//     the rest of the trace may take a shorter way to the violation.
//
// Every pass tries its candidates in a fixed order, so the result is a
// function of the input: the same trace always shrinks the same way.

// pairLimit is the longest trace whose pairs of actions are tried.
const pairLimit = 40

// shrunkTrace shrinks path, which violates prop, and returns its trace.
func (sp *Spec[S, M]) shrunkTrace(path []string, prop string) *Trace {
	best := sp.Shrink(path, prop)
	rp, err := sp.Replay(best)
	if err != nil {
		panic("checker: a shrunk trace does not replay: " + err.Error())
	}
	return rp.Trace
}

// Shrink returns a shortest-found variation of the action lines path that
// still leads to a violation of prop, every line of it enabled where it
// stands. path itself must violate prop (leniently replayed).
func (sp *Spec[S, M]) Shrink(path []string, prop string) []string {
	best, ok := sp.lenient(path, prop)
	if !ok {
		panic("checker: the trace to shrink does not violate " + prop)
	}
	try := func(cand []string) bool {
		if got, ok := sp.lenient(cand, prop); ok && len(got) < len(best) {
			best = got
			return true
		}
		return false
	}
	for {
		n := len(best)
		sp.deleteChunks(&best, try)
		if len(best) <= pairLimit {
			deletePairs(&best, try)
		}
		sp.replaceEach(&best, try)
		if len(best) == n {
			return best
		}
	}
}

// deleteChunks tries deleting runs of chunk actions, for chunk = n/2, n/4,
// ..., 1, until none of them helps.
func (sp *Spec[S, M]) deleteChunks(best *[]string, try func([]string) bool) {
	for improved := true; improved; {
		improved = false
		for chunk := max(len(*best)/2, 1); chunk >= 1; chunk /= 2 {
			for i := 0; i < len(*best); {
				b := *best
				if try(append(append([]string{}, b[:i]...), b[min(i+chunk, len(b)):]...)) {
					improved = true
					continue
				}
				i += chunk
			}
			if chunk == 1 {
				break
			}
		}
	}
}

// deletePairs tries deleting two actions i < j at once.
func deletePairs(best *[]string, try func([]string) bool) {
	for i := 0; i < len(*best); i++ {
		for j := i + 1; j < len(*best); j++ {
			b := *best
			cand := append(append(append([]string{}, b[:i]...), b[i+1:j]...), b[j+1:]...)
			if try(cand) {
				j = i // best changed: try again from i's next partner
			}
		}
	}
}

// replaceEach tries, at every position, each other action enabled there
// in place of the trace's.
func (sp *Spec[S, M]) replaceEach(best *[]string, try func([]string) bool) {
	for i := 0; i < len(*best); i++ {
		b := *best
		for _, alt := range sp.enabledAfter(b[:i]) {
			if alt == b[i] {
				continue
			}
			cand := append(append(append([]string{}, b[:i]...), alt), b[i+1:]...)
			if try(cand) {
				break
			}
		}
	}
}

// enabledAfter lists the actions enabled after the given lines (every one
// enabled in turn, as in a trace that Shrink keeps).
func (sp *Spec[S, M]) enabledAfter(lines []string) []string {
	r := newReplayer(sp)
	for _, line := range lines {
		if !r.step(func(a model.Action, _ *model.World[S, M]) bool { return r.sys.FormatAction(r.cur, a) == line }) {
			return nil
		}
	}
	var names []string
	for _, a := range r.sys.Actions(r.cur, nil) {
		names = append(names, r.sys.FormatAction(r.cur, a))
	}
	return names
}

// lenient replays lines from the initial world, skipping those not
// enabled, and stops at the first world that violates a property. It
// returns the lines applied and whether that violation is of prop. A line
// not enabled as it stands is matched, failing that, to the first enabled
// action of the same shape: the same kind, node or link and message kind
// (see shape), so that a delivery still applies when an earlier deletion
// changed the message's fields (a timestamp).
func (sp *Spec[S, M]) lenient(lines []string, prop string) ([]string, bool) {
	sys := sp.System.Clone()
	cur, next := sys.Init(), &model.World[S, M]{}
	var applied []string
	var acts []model.Action
	var names []string
	for i := 0; ; i++ {
		acts = sys.Actions(cur, acts[:0])
		if p, _ := sp.Violation(cur, acts); p != "" {
			return applied, p == prop
		}
		if i == len(lines) {
			return applied, false
		}
		want := model.NormalizeAction(lines[i])
		names = names[:0]
		for _, a := range acts {
			names = append(names, sys.FormatAction(cur, a))
		}
		j := indexOfName(names, want)
		if j < 0 {
			s := shape(want)
			for k, n := range names {
				if shape(n) == s {
					j = k
					break
				}
			}
		}
		if j >= 0 {
			sys.Apply(cur, acts[j], next)
			cur, next = next, cur
			applied = append(applied, names[j])
		}
	}
}

func indexOfName(names []string, want string) int {
	for i, n := range names {
		if n == want {
			return i
		}
	}
	return -1
}

// shape is an action line without its message's fields: "deliver p0->p1
// REQ(ts=3)" and "deliver p0->p1 REQ(ts=2)" have the same shape.
func shape(line string) string {
	for i := 0; i < len(line); i++ {
		if line[i] == '(' {
			return line[:i]
		}
	}
	return line
}
