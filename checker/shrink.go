package checker

import "github.com/coordcheck/coordcheck/model"

// Shrinking: a counterexample found by a random walk is made small before
// anyone sees it. Candidates drop chunks of actions (halving the chunk size
// down to single actions, as in delta debugging), which removes needless
// steps and faults alike; a candidate is replayed leniently (actions no
// longer enabled are skipped) and accepted only if it still violates the
// same property, and is then cut at the first violating world. Passes
// repeat until none shortens the trace.

// shrunkTrace shrinks path, which violates prop, and returns its trace.
func (sp *Spec[S, M]) shrunkTrace(path []string, prop string) *Trace {
	best := sp.Shrink(path, prop)
	rp, err := sp.Replay(best)
	if err != nil {
		panic("checker: a shrunk trace does not replay: " + err.Error())
	}
	return rp.Trace
}

// Shrink returns a shortest-found sub-sequence of the action lines path
// that still leads to a violation of prop. path itself must violate prop.
func (sp *Spec[S, M]) Shrink(path []string, prop string) []string {
	best, ok := sp.lenient(path, prop)
	if !ok {
		panic("checker: the trace to shrink does not violate " + prop)
	}
	for improved := true; improved; {
		improved = false
		for chunk := max(len(best)/2, 1); chunk >= 1; chunk /= 2 {
			for i := 0; i < len(best); {
				cand := append(append([]string{}, best[:i]...), best[min(i+chunk, len(best)):]...)
				if got, ok := sp.lenient(cand, prop); ok && len(got) < len(best) {
					best, improved = got, true
					continue
				}
				i += chunk
			}
			if chunk == 1 {
				break
			}
		}
	}
	return best
}

// lenient replays lines from the initial world, skipping those not
// enabled, and stops at the first world that violates a property. It
// returns the lines applied and whether that violation is of prop.
func (sp *Spec[S, M]) lenient(lines []string, prop string) ([]string, bool) {
	sys := sp.System.Clone()
	cur, next := sys.Init(), &model.World[S, M]{}
	var applied []string
	var acts []model.Action
	for i := 0; ; i++ {
		acts = sys.Actions(cur, acts[:0])
		if p, _ := sp.Violation(cur, acts); p != "" {
			return applied, p == prop
		}
		if i == len(lines) {
			return applied, false
		}
		want := model.NormalizeAction(lines[i])
		for _, a := range acts {
			if sys.FormatAction(cur, a) == want {
				sys.Apply(cur, a, next)
				cur, next = next, cur
				applied = append(applied, want)
				break
			}
		}
	}
}
