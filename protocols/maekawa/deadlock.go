package maekawa

import (
	"fmt"
	"strings"

	"github.com/coordcheck/coordcheck/model"
)

// Protocol implements model.DeadlockExplainer (checked by the compiler).
var _ model.DeadlockExplainer[State, Msg] = (*Protocol)(nil)

// ExplainDeadlock says why the deadlocked world w is stuck (seed 000,
// "possible to construct cyclic wait graph"): for every waiting process,
// in id order, the voters of its set whose vote it lacks and whom each of
// them voted for; then a cycle of the wait-for graph (p -> q when a vote p
// lacks is held by q), found by following from each process the holder of
// the first vote it lacks, starting from the lowest waiting process that
// leads into a cycle. With the channels empty, as in every deadlock, p has
// the vote of v exactly when v voted for p; GRANTs lost to faults are
// reported as such.
func (p *Protocol) ExplainDeadlock(w *model.World[State, Msg]) string {
	return ExplainWaits(w, p, func(self model.NodeID, s *State) (string, model.NodeID) {
		next := Nobody // the holder of the first vote p_i lacks
		var lacks []string
		votes := 0 // voters that voted for p_i
		for _, v := range p.Sets[self].Members() {
			holder := w.Nodes[v].Voted
			switch {
			case w.IsDown(v):
				lacks = append(lacks, fmt.Sprintf("%s (down)", v))
			case holder == self:
				votes++
			case holder == Nobody:
				lacks = append(lacks, fmt.Sprintf("%s (%s has not voted)", v, v))
			default:
				lacks = append(lacks, fmt.Sprintf("%s (%s voted for %s)", v, v, holder))
				if next == Nobody {
					next = holder
				}
			}
		}
		if lost := votes - int(s.Grants); lost > 0 {
			what := "a lost GRANT"
			if lost > 1 {
				what = fmt.Sprintf("%d lost GRANTs", lost)
			}
			lacks = append(lacks, fmt.Sprintf("%s (%d of the %d votes for %s arrived)", what, s.Grants, votes, self))
		}
		if len(lacks) == 0 {
			return "", next
		}
		return self.String() + " waits for " + strings.Join(lacks, " and "), next
	})
}

// ExplainWaits is the frame of the explanation of a deadlock among voters
// (seed 000, "possible to construct cyclic wait graph"), which package
// maekawadf shares: wait says, for every process up and waiting (wt), in
// id order, what it waits for ("" for nothing to say) and the holder of
// the first vote it lacks (Nobody if none); those are the edges of the
// wait-for graph. The text is "circular wait: <waits>; cycle <cycle>",
// with the cycle found by following the graph from the lowest process
// that leads into one (WaitCycle), or "no action is enabled: <waits>".
func ExplainWaits[S, M any](w *model.World[S, M], wt model.Waiter[S], wait func(self model.NodeID, s *S) (string, model.NodeID)) string {
	next := make([]model.NodeID, len(w.Nodes))
	var waits []string
	for i := range w.Nodes {
		self := model.NodeID(i)
		next[i] = Nobody
		if w.IsDown(self) || !wt.Waiting(self, w.Nodes[i]) {
			continue
		}
		text, holder := wait(self, &w.Nodes[i])
		next[i] = holder
		if text != "" {
			waits = append(waits, text)
		}
	}
	for i := range next {
		if cycle := WaitCycle(model.NodeID(i), next); cycle != "" {
			return "circular wait: " + strings.Join(waits, ", ") + "; cycle " + cycle
		}
	}
	return "no action is enabled: " + strings.Join(waits, ", ")
}

// WaitCycle follows next (the process each waits for, Nobody for none)
// from start until a process repeats, and renders the loop as
// "p0 -> p1 -> p0"; "" when the walk reaches Nobody first.
func WaitCycle(start model.NodeID, next []model.NodeID) string {
	pos := make([]int, len(next)) // 1 + position of p_i on the walk, 0 when not on it
	var walk []model.NodeID
	for at := start; at != Nobody; at = next[at] {
		if pos[at] != 0 {
			var ids []string
			for _, q := range walk[pos[at]-1:] {
				ids = append(ids, q.String())
			}
			return strings.Join(append(ids, at.String()), " -> ")
		}
		walk = append(walk, at)
		pos[at] = len(walk)
	}
	return ""
}
