package maekawadf

import (
	"fmt"
	"strings"

	"github.com/coordcheck/coordcheck/model"
)

// OneVoteName is the name of the OneVote property.
const OneVoteName = "one-vote"

// OneVote is the invariant behind mutual exclusion (seed 002: "a site can
// send out only one REPLY message at any time"), as a property of the world:
// a voter's vote is with at most one process, and only with the one the
// voter voted for. A process has voter j's vote when it holds it (j in
// Votes), when a GRANT from j is on its way to it, or when a YIELD or a
// RELEASE from it is on its way back to j. A vote may be with nobody only
// when a fault lost it. It has the signature of an invariant's Holds
// function (package checker).
func (p *Protocol) OneVote(w *model.World[State, Msg]) (bool, string) {
	for j := range p.N {
		voter := model.NodeID(j)
		if w.IsDown(voter) {
			continue
		}
		var with []string
		stray := false
		add := func(i model.NodeID, how string) {
			with = append(with, fmt.Sprintf("%s (%s)", i, how))
			stray = stray || i != w.Nodes[j].Voted
		}
		for i := range p.N {
			if !w.IsDown(model.NodeID(i)) && w.Nodes[i].Votes.Has(voter) {
				add(model.NodeID(i), "holds it")
			}
		}
		for _, e := range w.Net {
			switch {
			case e.From == voter && e.Msg.Kind == Grant:
				add(e.To, "GRANT in flight")
			case e.To == voter && e.Msg.Kind == Yield:
				add(e.From, "YIELD in flight")
			case e.To == voter && e.Msg.Kind == Release:
				add(e.From, "REL in flight")
			}
		}
		if len(with) > 1 || stray {
			return false, fmt.Sprintf("%s voted for %s, and its vote is with %s",
				voter, formatVote(w.Nodes[j].Voted, w.Nodes[j].VotedTS), strings.Join(with, " and "))
		}
	}
	return true, ""
}
