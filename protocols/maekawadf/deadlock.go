package maekawadf

import (
	"fmt"
	"strings"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/maekawa"
)

// Protocol implements model.DeadlockExplainer (checked by the compiler).
var _ model.DeadlockExplainer[State, Msg] = (*Protocol)(nil)

// ExplainDeadlock says why the deadlocked world w is stuck, in the words
// of package maekawa: for every waiting process, in id order, the voters
// whose vote it lacks, whom each of them voted for and whether it knows it
// has failed there (FAILED), and the voters whose INQUIRE it keeps; then a cycle of the
// wait-for graph (p -> q when a vote p lacks is held by q), following from
// each process the holder of the first vote it lacks. With the channels
// empty, as in every deadlock, p has the vote of v exactly when v voted for
// p; votes lost to faults are reported as such.
func (p *Protocol) ExplainDeadlock(w *model.World[State, Msg]) string {
	return maekawa.ExplainWaits(w, p, func(self model.NodeID, s *State) (string, model.NodeID) {
		next := Nobody // the holder of the first vote p_i lacks
		var lacks []string
		for _, v := range p.Sets[self].Members() {
			holder := w.Nodes[v].Voted
			var why string
			switch {
			case w.IsDown(v):
				why = "down"
			case s.Votes.Has(v):
				continue
			case holder == self:
				why = "its GRANT was lost"
			case holder == Nobody:
				why = v.String() + " has not voted"
			default:
				why = fmt.Sprintf("%s voted for %s", v, formatVote(holder, w.Nodes[v].VotedTS))
				if next == Nobody {
					next = holder
				}
			}
			if s.Failed.Has(v) {
				why += ", FAILED"
			}
			lacks = append(lacks, fmt.Sprintf("%s (%s)", v, why))
		}
		if len(lacks) == 0 {
			return "", next
		}
		wait := fmt.Sprintf("%s(ts=%d) waits for %s", self, s.TS, strings.Join(lacks, " and "))
		if s.Deferred != 0 {
			wait += " and keeps the INQUIRE of " + s.Deferred.String()
		}
		return wait, next
	})
}
