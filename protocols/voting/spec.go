package voting

import (
	"fmt"

	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/property"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

// Protocol implements, through InCS, the hook the mutual-exclusion
// properties read (checked by the compiler).
var _ invariants.CriticalSection[State] = (*Protocol)(nil)

// VotesAccurateName is the name of the VotesAccurate property.
const VotesAccurateName = "votes-accurate"

// VotesAccurate is the lemma behind the algorithm's safety, made an
// invariant of the world: a waiting or entered process that counts
// coordinator k's vote as its own has that vote, for its current request.
// With it, two majorities of the same coordinators cannot both be counted.
// It has the signature of an invariant's Holds function (package checker).
func (p *Protocol) VotesAccurate(w *model.World[State, Msg]) (bool, string) {
	for i := range p.N {
		s := &w.Nodes[i]
		if s.Phase == mutex.Released {
			continue
		}
		for k := range p.C {
			c := &w.Nodes[p.Coordinator(k)]
			if s.View[k] == model.NodeID(i) && (c.Vote != model.NodeID(i) || c.Req[i] != s.TS) {
				return false, fmt.Sprintf("%s counts the vote of %s, which votes for %s",
					model.NodeID(i), p.Coordinator(k), p.formatVote(*c))
			}
		}
	}
	return true, ""
}

// Properties is what the notes claim for p (seed 001, "Voting algorithms
// (Lin's and Maekawa's)": mutual exclusion, votes counted accurately
// (VotesAccurate), no deadlock and starvation freedom), checked under cfg:
// with cfg.Ordering also the happened-before order of requests.
func Properties(p *Protocol, cfg model.Config) property.Set[State, Msg] {
	return invariants.MutexProperties[State, Msg](p, cfg.Ordering,
		property.Invariant[State, Msg]{Name: VotesAccurateName, Holds: p.VotesAccurate})
}
