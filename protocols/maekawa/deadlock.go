package maekawa

import (
	"fmt"
	"strings"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

// ExplainDeadlock says why the deadlocked world w is stuck (seed 000,
// "possible to construct cyclic wait graph"): for every waiting process,
// in id order, the voters of its set whose vote it lacks and whom each of
// them voted for; then a cycle of the wait-for graph, found by starting at
// the lowest waiting process and following, from each process, the holder
// of the first vote it lacks. With the channels empty, as in every
// deadlock, p_i has the vote of p_v exactly when p_v voted for p_i.
func (p *Protocol) ExplainDeadlock(w *model.World[State, Msg]) string {
	next := make([]model.NodeID, p.N) // the process p_i waits on first
	var waits []string
	start := Nobody
	for i := range p.N {
		self := model.NodeID(i)
		next[i] = Nobody
		if w.Nodes[i].Phase != mutex.Wanted {
			continue
		}
		var lacks []string
		for _, v := range p.Sets[i].Members() {
			holder := w.Nodes[v].Voted
			if holder == self {
				continue
			}
			lacks = append(lacks, fmt.Sprintf("%s (%s voted for %s)", v, v, formatVoted(holder)))
			if next[i] == Nobody {
				next[i] = holder
			}
		}
		if len(lacks) == 0 {
			continue
		}
		if start == Nobody {
			start = self
		}
		waits = append(waits, self.String()+" waits for "+strings.Join(lacks, " and "))
	}
	if cycle := p.cycle(start, next); cycle != "" {
		return "circular wait: " + strings.Join(waits, ", ") + "; cycle " + cycle
	}
	return "no action is enabled: " + strings.Join(waits, ", ")
}

// cycle follows next from start until a process repeats, and renders the
// loop as "p0 -> p1 -> p0"; "" when the walk reaches Nobody first.
func (p *Protocol) cycle(start model.NodeID, next []model.NodeID) string {
	pos := make([]int, p.N) // 1 + position of p_i on the walk, 0 when not on it
	var walk []model.NodeID
	for at := start; at != Nobody && int(at) < p.N; at = next[at] {
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
