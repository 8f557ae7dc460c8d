package maekawadf

import (
	"fmt"
	"strings"

	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/property"
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
		count, stray := 0, false
		p.voteHolders(w, voter, func(i model.NodeID, _ string) {
			count++
			stray = stray || i != w.Nodes[j].Voted
		})
		if count <= 1 && !stray {
			continue
		}
		// Only a violation is worth the text.
		var with []string
		p.voteHolders(w, voter, func(i model.NodeID, how string) {
			with = append(with, fmt.Sprintf("%s (%s)", i, how))
		})
		return false, fmt.Sprintf("%s voted for %s, and its vote is with %s",
			voter, formatVote(w.Nodes[j].Voted, w.Nodes[j].VotedTS), strings.Join(with, " and "))
	}
	return true, ""
}

// voteHolders calls with for every process that has voter's vote in w, and
// how: it holds it, or a GRANT, YIELD or RELEASE carries it.
func (p *Protocol) voteHolders(w *model.World[State, Msg], voter model.NodeID, with func(i model.NodeID, how string)) {
	for i := range p.N {
		if !w.IsDown(model.NodeID(i)) && w.Nodes[i].Votes.Has(voter) {
			with(model.NodeID(i), "holds it")
		}
	}
	for _, e := range w.Net {
		switch {
		case e.From == voter && e.Msg.Kind == Grant:
			with(e.To, "GRANT in flight")
		case e.To == voter && e.Msg.Kind == Yield:
			with(e.From, "YIELD in flight")
		case e.To == voter && e.Msg.Kind == Release:
			with(e.From, "REL in flight")
		}
	}
}

// Properties is what the notes claim for p (seed 002, Maekawa made
// deadlock-free: mutual exclusion, one vote per voter (OneVote), no
// deadlock and starvation freedom), checked under cfg: with cfg.Ordering
// also the happened-before order of requests.
func Properties(p *Protocol, cfg model.Config) property.Set[State, Msg] {
	return invariants.MutexProperties[State, Msg](p, cfg.Ordering,
		property.Invariant[State, Msg]{Name: OneVoteName, Holds: p.OneVote})
}
