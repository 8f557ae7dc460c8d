package checker

import (
	"fmt"
	"slices"
	"strings"

	"github.com/coordcheck/coordcheck/internal/clip"
	"github.com/coordcheck/coordcheck/model"
)

// rebuild turns the fingerprint of a violating state into a trace: it
// finds the path of fingerprints from the initial state (pathTo) unless
// path is that path already, then replays from the initial world, at each
// step taking the action whose successor has the next fingerprint on the
// path.
func (sp *Spec[S, M]) rebuild(seen *fpSet, path []uint64, bad uint64, prop, why string) *Trace {
	if path == nil {
		path = sp.pathTo(seen, key(bad))
	}
	r := newReplayer(sp)
	// Under symmetry reduction the path holds representatives, and the
	// run replayed reaches renamings of them: perm renames the world
	// reached into the path's state (symmetry.go).
	sym := sp.canonicaliser(r.sys)
	var perm []model.NodeID
	var renamed model.World[S, M]
	var buf []byte
	if sym != nil {
		sym.Canonical(r.sys.Encode(nil, r.cur), r.cur)
		perm = slices.Clone(sym.Perm())
	}
	for _, want := range path[1:] {
		ok := r.step(func(a model.Action, next *model.World[S, M]) bool {
			if sym != nil {
				sym.Rename(next, perm, &renamed)
				buf = sym.Canonical(r.sys.Encode(buf[:0], &renamed), &renamed)
				return key(model.Fingerprint(buf)) == want
			}
			return key(r.sys.HashWorld(next)) == want
		})
		if !ok {
			panic("checker: no action reproduces a recorded transition")
		}
		if sym != nil {
			rho := sym.Perm()
			for i := range perm {
				perm[i] = rho[perm[i]]
			}
		}
	}
	if sym != nil {
		// The run reached a renaming of the stored state: its own
		// detail names its own nodes.
		if p, w := sp.Violation(r.cur, r.sys.Actions(r.cur, nil)); p != "" {
			prop, why = p, w
		}
	}
	return r.trace(prop, why)
}

// pathTo returns the keys of the states on the path from the initial
// state to the state of key target, which seen holds: the chain of first
// discoverers, which seen keeps when it keeps parents (DFS, the state
// graph). A BFS keeps fingerprints alone and takes the path from its
// parent log (parentlog.go); without one (a search resumed from a
// checkpoint), this path is found by a second BFS that keeps parents,
// stopping when it reaches the target: a
// BFS discovers states in the same order every time, so each state has
// the parent the first search would have kept, and the path is the same.
// The second search costs at most what the first did up to the target's
// depth, and only when there is a counterexample to show.
func (sp *Spec[S, M]) pathTo(seen *fpSet, target uint64) []uint64 {
	if !seen.parents {
		seen = sp.discoverers(target)
		defer seen.release() // its tables are outside the heap (slabs)
	}
	path := []uint64{target}
	f := newParentFinder(seen)
	for k := target; ; {
		p, ok := f.parent(k)
		if !ok {
			panic("checker: broken parent chain")
		}
		if p == noParent {
			break
		}
		path = append(path, p)
		k = p
	}
	slices.Reverse(path)
	return path
}

// discoverers is a BFS that keeps every state's parent, until it meets the
// state of key target. It makes a state's successors as the search does
// (makeSuccessors), their slots in the visited set asked for as they are
// made, and passes over those it met lately (recentFPs: all of them in
// the set already, so no parent changes). Making one successor at a time
// and looking it up at once, it took longer than the search it repeats:
// 1.31 s of the 2.34 s that Maekawa N=4 grid took to show its deadlock.
func (sp *Spec[S, M]) discoverers(target uint64) *fpSet {
	x := newExpander(sp, sp.newStore())
	seen := newFPSet(true)
	seen.growsFlat() // one goroutine inserts
	fp, enc := x.initial()
	seen.insert(fp, noParent)
	if key(fp) == target {
		return seen
	}
	recent := newRecentFPs()
	prefetch := &prefetcher{seen: seen, recent: recent}
	q := &queue{}
	defer q.release()
	q.push(0, fp, enc)
	for {
		depth, fp, enc, ok := q.pop()
		if !ok {
			panic("checker: the state to rebuild is not reachable")
		}
		x.load(fp, enc, true)
		x.makeSuccessors(prefetch, 0, false)
		for i := range x.acts {
			sc := x.successor(i)
			k := key(sc.fp)
			if recent.has(k) {
				continue
			}
			recent.put(k)
			if seen.insert(sc.fp, key(fp)) {
				if k == target {
					return seen
				}
				q.push(depth+1, sc.fp, x.encodeOf(sc.at))
			}
		}
	}
}

// Replayed is the outcome of replaying a list of actions.
type Replayed struct {
	// Trace holds the steps taken and the final world; its Property is the
	// property the final world violates, "" when none is.
	Trace *Trace
}

// StepError says that an action line of a replay does not apply.
type StepError struct {
	Step    int      // 1-based index of the action
	Line    string   // the action as given
	Enabled []string // the actions enabled at that point
	// Reason, when set, says why the action cannot apply in this
	// configuration at all (it names a node the system does not have).
	Reason string
}

// Error says which step is not enabled and what is.
func (e *StepError) Error() string {
	if e.Reason != "" {
		return fmt.Sprintf("step %d: %s: %s", e.Step, clip.Quote(e.Line), e.Reason)
	}
	return fmt.Sprintf("step %d: %s is not enabled (enabled: %s)", e.Step, clip.Quote(e.Line), strings.Join(e.Enabled, "; "))
}

// Replay applies the given action lines, by value, from the initial world
// and checks the properties in the world reached.
func (sp *Spec[S, M]) Replay(lines []string) (*Replayed, error) { return sp.ReplayLoop(lines, -1) }

// ReplayLoop is Replay for a lasso whose cycle starts at line index loop
// (negative for a finite trace): the liveness properties are judged on the
// cycle, which must close on the world it started from.
func (sp *Spec[S, M]) ReplayLoop(lines []string, loop int) (*Replayed, error) {
	r := newReplayer(sp)
	var worlds [][]byte
	var classes []uint64
	if loop >= 0 {
		worlds = append(worlds, r.sys.Encode(nil, r.cur))
	}
	for i, line := range lines {
		if err := r.sys.CheckActionNodes(line); err != nil {
			return nil, &StepError{Step: i + 1, Line: line, Reason: err.Error()}
		}
		want := model.NormalizeAction(line)
		var class uint64
		ok := r.step(func(a model.Action, _ *model.World[S, M]) bool {
			if r.sys.FormatAction(r.cur, a) != want {
				return false
			}
			if c, fair := r.sys.FairClass(r.cur, a); fair {
				class = c | 1<<63
			}
			return true
		})
		if ok && loop >= 0 {
			worlds = append(worlds, r.sys.Encode(nil, r.cur))
			classes = append(classes, class)
		}
		if !ok {
			var enabled []string
			for _, a := range r.sys.Actions(r.cur, nil) {
				enabled = append(enabled, r.sys.FormatAction(r.cur, a))
			}
			return nil, &StepError{Step: i + 1, Line: line, Enabled: enabled}
		}
	}
	acts := r.sys.Actions(r.cur, nil)
	prop, why := sp.Violation(r.cur, acts)
	if prop == "" && loop >= 0 {
		prop, why = sp.checkLasso(r, worlds, classes, loop)
	}
	if prop == "" && loop < 0 && len(acts) == 0 {
		prop, why = sp.pendingAtEnd(r.cur)
	}
	tr := r.trace(prop, why)
	if loop >= 0 {
		tr.Loop = &loop
	}
	return &Replayed{Trace: tr}, nil
}

// replayer walks one path from the initial world, recording its steps.
type replayer[S, M any] struct {
	sys       *model.System[S, M]
	cur, next *model.World[S, M]
	steps     []Step
}

func newReplayer[S, M any](sp *Spec[S, M]) *replayer[S, M] {
	sys := sp.System.Clone()
	return &replayer[S, M]{sys: sys, cur: sys.Init(), next: &model.World[S, M]{}}
}

// step takes the first enabled action for which match holds.
func (r *replayer[S, M]) step(match func(a model.Action, next *model.World[S, M]) bool) bool {
	for _, a := range r.sys.Actions(r.cur, nil) {
		r.sys.Apply(r.cur, a, r.next)
		if !match(a, r.next) {
			continue
		}
		st := Step{
			Action: r.sys.FormatAction(r.cur, a),
			Node:   a.Node.String(),
			State:  r.sys.FormatState(a.Node, r.next.Nodes[a.Node]),
			Sends:  r.sys.FormatSends(r.next, a.Node),
		}
		if outs := r.sys.LastOut().Outputs(); len(outs) > 0 {
			st.Outputs = append([]string(nil), outs...)
		}
		r.steps = append(r.steps, st)
		r.cur, r.next = r.next, r.cur
		return true
	}
	return false
}

func (r *replayer[S, M]) trace(prop, why string) *Trace {
	return &Trace{Property: prop, Detail: why, Steps: r.steps, Final: r.sys.FormatWorld(r.cur),
		History: append([]model.Record(nil), r.cur.History...)}
}

// pendingAtEnd judges the liveness properties on a terminal world: a node
// still pending there waits for ever.
func (sp *Spec[S, M]) pendingAtEnd(w *model.World[S, M]) (string, string) {
	for _, l := range sp.Liveness {
		for i := range w.Nodes {
			if id := model.NodeID(i); !w.IsDown(id) && l.Pending(w, id) {
				return l.Name, lassoDetail(id, 0, 0, false)
			}
		}
	}
	return "", ""
}
