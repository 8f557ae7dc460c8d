package maekawa

import (
	"fmt"
	"strings"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
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
	next := make([]model.NodeID, p.N) // the holder of the first vote p_i lacks
	var waits []string
	for i := range p.N {
		self := model.NodeID(i)
		next[i] = Nobody
		if w.IsDown(self) || w.Nodes[i].Phase != mutex.Wanted {
			continue
		}
		var lacks []string
		votes := 0 // voters that voted for p_i
		for _, v := range p.Sets[i].Members() {
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
				if next[i] == Nobody {
					next[i] = holder
				}
			}
		}
		if lost := votes - int(w.Nodes[i].Grants); lost > 0 {
			what := "a lost GRANT"
			if lost > 1 {
				what = fmt.Sprintf("%d lost GRANTs", lost)
			}
			lacks = append(lacks, fmt.Sprintf("%s (%d of the %d votes for %s arrived)", what, w.Nodes[i].Grants, votes, self))
		}
		if len(lacks) > 0 {
			waits = append(waits, self.String()+" waits for "+strings.Join(lacks, " and "))
		}
	}
	for i := range p.N {
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
