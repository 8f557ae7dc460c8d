package checker

import (
	"fmt"
	"slices"
	"strings"

	"github.com/coordcheck/coordcheck/internal/clip"
	"github.com/coordcheck/coordcheck/internal/lines"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/property"
)

// Invariant is an Always property (property.Invariant).
type Invariant[S, M any] = property.Invariant[S, M]

// DeadlockProperty is the name of the built-in no-deadlock property
// (property.DeadlockProperty).
const DeadlockProperty = property.DeadlockProperty

// Spec is what to check: a system and its properties.
type Spec[S, M any] struct {
	System     *model.System[S, M]
	Invariants []Invariant[S, M]
	// Deadlock enables the no-deadlock check.
	Deadlock bool
	// Liveness properties are checked on the whole state graph, after an
	// exhaustive search (BFS or DFS) that found no safety violation.
	Liveness []Liveness[S, M]

	// symmetric: the search stores the canonical representatives of
	// states (Options.Symmetry, symmetry.go).
	symmetric bool
	// por: the search expands persistent sets (Options.POR, por.go).
	por bool
}

// SpecOf is the spec that checks the properties of set (those a protocol
// package exports) on sys, which must record the history when set reads
// it (see NewSpec).
func SpecOf[S, M any](sys *model.System[S, M], set property.Set[S, M]) *Spec[S, M] {
	return &Spec[S, M]{System: sys, Invariants: set.Invariants, Deadlock: set.Deadlock, Liveness: set.Liveness}
}

// NewSpec is the spec that checks set on p's system under cfg, with the
// history recorded when set reads it (property.Set.History). It returns
// model.NewSystem's error for a cfg that cannot take effect.
func NewSpec[S, M any](p model.Protocol[S, M], cfg model.Config, set property.Set[S, M]) (*Spec[S, M], error) {
	if set.History || set.HistoryByNode {
		cfg.History = true
	}
	if set.HistoryByNode {
		cfg.HistoryByNode = true
	}
	sys, err := model.NewSystem[S, M](p, cfg)
	if err != nil {
		return nil, err
	}
	return SpecOf(sys, set), nil
}

// Properties is the spec's property set, without the system (History and
// HistoryByNode say how the system records the history).
func (sp *Spec[S, M]) Properties() property.Set[S, M] {
	return property.Set[S, M]{Invariants: sp.Invariants, Deadlock: sp.Deadlock, Liveness: sp.Liveness,
		History: sp.System.Config.History, HistoryByNode: sp.System.Config.HistoryByNode}
}

// PropertyNames lists the properties the spec checks, in checking order.
func (sp *Spec[S, M]) PropertyNames() []string {
	set := sp.Properties()
	return set.Names()
}

// LivenessNames lists the liveness properties the spec checks: those that
// -liveness=false would skip.
func (sp *Spec[S, M]) LivenessNames() []string {
	var names []string
	for _, l := range sp.Liveness {
		names = append(names, l.Name)
	}
	return names
}

// Violation checks w, whose enabled actions are acts, and returns the
// first property it violates, with the reason; "" when all hold (or could
// not be judged: see judge).
func (sp *Spec[S, M]) Violation(w *model.World[S, M], acts []model.Action) (string, string) {
	prop, why, _ := sp.judge(w, acts)
	return prop, why
}

// judge is Violation that also returns, when no property is violated but
// one could not be judged, that property and why ("" otherwise).
func (sp *Spec[S, M]) judge(w *model.World[S, M], acts []model.Action) (prop, why, unknown string) {
	return sp.judgeLoaded(sp.plan(), w, len(acts), nil)
}

// judgePlan is the spec's invariants in the order they are judged, each
// with the index of its digest (Cursor.Digests; -1 when it has none):
// busy for a world with an enabled action (no Terminal invariant), all
// for one without. A search makes one for each worker (newExpander): a
// world's judgement then takes its invariants' steps and no more.
// (Walking the spec's invariants and their fields at every world was
// 2.5% of centralized N=6 R=2's instructions.)
type judgePlan[S, M any] struct {
	busy, all []judgeStep[S, M]
}

// judgeStep is one invariant of a judgePlan. An invariant judged from
// its digests remembers the last world it found it to hold in: the
// cursor's DigestEpoch and the world's Down. A world loaded after it with
// the same two has the same digests, and it holds there too without a
// call: the states expanded one after the other are mostly siblings,
// whose digests the step did not change (centralized N=6 R=2: mutual
// exclusion's Verdict was 1.4% of the instructions).
type judgeStep[S, M any] struct {
	inv    *Invariant[S, M]
	digest int
	held   bool   // it held in the world of epoch and down
	epoch  uint64 // the cursor's DigestEpoch there
	down   uint64
}

// plan is the spec's judgePlan.
func (sp *Spec[S, M]) plan() *judgePlan[S, M] {
	// Each worker has a plan, and notes in it at every state: on cache
	// lines of its own (internal/lines).
	k := len(sp.Invariants)
	p := &judgePlan[S, M]{all: lines.Own[judgeStep[S, M]](k)[:0], busy: lines.Own[judgeStep[S, M]](k)[:0]}
	j := 0 // the digest of the next invariant with one
	for i := range sp.Invariants {
		st := judgeStep[S, M]{inv: &sp.Invariants[i], digest: -1}
		if st.inv.Digest != nil {
			st.digest, j = j, j+1
		}
		p.all = append(p.all, st)
		if !st.inv.Terminal {
			p.busy = append(p.busy, st)
		}
	}
	return p
}

// judgeLoaded is judge of w, by plan p (the spec's), w being the world ids
// loaded last (nil: a world made whole), whose store keeps the
// invariants' digests (newStore): an invariant with a Digest is judged
// from the loaded nodes' digests. enabled is the number of w's actions
// (0: w is terminal).
func (sp *Spec[S, M]) judgeLoaded(p *judgePlan[S, M], w *model.World[S, M], enabled int, ids *model.Cursor[S, M]) (prop, why, unknown string) {
	steps := p.busy
	if enabled == 0 {
		steps = p.all
	}
	for k := range steps {
		inv, digest := steps[k].inv, steps[k].digest
		if inv.Judge != nil {
			switch v, detail := inv.Judge(w); v {
			case Violated:
				return inv.Name, detail, ""
			case Inconclusive:
				if unknown == "" {
					unknown = inv.Name + ": " + detail
				}
			}
			continue
		}
		verdictNo := false // Verdict, on the digests, found it violated
		if digest >= 0 && ids != nil {
			st := &steps[k]
			if st.held && st.epoch == ids.DigestEpoch() && st.down == w.Down {
				continue
			}
			if d := ids.Digests(digest); d != nil {
				if inv.Verdict(d, w.Down) {
					st.held, st.epoch, st.down = true, ids.DigestEpoch(), w.Down
					continue
				}
				verdictNo = true
			}
		}
		if ok, detail := inv.Holds(w); !ok {
			return inv.Name, detail, ""
		}
		if verdictNo {
			return inv.Name, "the invariant's Verdict finds it violated but its Holds finds it holds: " +
				"the two must agree (property.Invariant.Digest)", ""
		}
	}
	if sp.Deadlock && enabled == 0 {
		if detail := sp.deadlock(w); detail != "" {
			return DeadlockProperty, detail, ""
		}
	}
	return "", "", unknown
}

// digested is the number of the spec's invariants judged from their
// digests (property.Invariant.Digest).
func (sp *Spec[S, M]) digested() int {
	k := 0
	for i := range sp.Invariants {
		if sp.Invariants[i].Digest != nil {
			k++
		}
	}
	return k
}

// newStore is a search's store, which keeps the digests of the node
// states it interns for the invariants that have them.
func (sp *Spec[S, M]) newStore() *model.Store[S, M] {
	st := model.NewStore[S, M]()
	if k := sp.digested(); k > 0 {
		invs := sp.Invariants
		st.SetDigests(k, func(self model.NodeID, s S, d []uint32) {
			j := 0
			for i := range invs {
				if invs[i].Digest != nil {
					d[j] = invs[i].Digest(self, s)
					j++
				}
			}
		})
	}
	return st
}

// deadlock describes why the terminal world w is a deadlock, or returns
// "" when no node waits.
func (sp *Spec[S, M]) deadlock(w *model.World[S, M]) string {
	var waiting []string
	for i := range w.Nodes {
		if sp.System.Waiting(w, model.NodeID(i)) {
			waiting = append(waiting, model.NodeID(i).String())
		}
	}
	if len(waiting) == 0 {
		return ""
	}
	if ex, ok := sp.System.P.(model.DeadlockExplainer[S, M]); ok {
		return ex.ExplainDeadlock(w)
	}
	return "no action is enabled and " + joinWords(waiting) + " still wait"
}

func joinWords(ws []string) string {
	switch len(ws) {
	case 0:
		return ""
	case 1:
		return ws[0]
	}
	s := ws[0]
	for _, w := range ws[1 : len(ws)-1] {
		s += ", " + w
	}
	return s + " and " + ws[len(ws)-1]
}

// Without returns a copy of sp that does not check the named properties,
// or an error naming an unknown one and the valid names. Skipping an
// auxiliary invariant lets a search go on to the property behind it (two
// tokens before two processes in the critical section).
func (sp *Spec[S, M]) Without(names []string) (Target, error) {
	valid := sp.PropertyNames()
	for _, n := range names {
		if !slices.Contains(valid, n) {
			return nil, fmt.Errorf("unknown property %s (valid: %s)", clip.Quote(n), strings.Join(valid, ", "))
		}
	}
	cp := *sp
	cp.Invariants = slices.DeleteFunc(slices.Clone(sp.Invariants), func(i Invariant[S, M]) bool { return slices.Contains(names, i.Name) })
	cp.Liveness = slices.DeleteFunc(slices.Clone(sp.Liveness), func(l Liveness[S, M]) bool { return slices.Contains(names, l.Name) })
	cp.Deadlock = sp.Deadlock && !slices.Contains(names, DeadlockProperty)
	return &cp, nil
}
