package maekawa

import (
	"fmt"

	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/property"
)

// ReleaseFromHolder is the SPIN model's assertion on every release, made an
// invariant of the world: every REL in flight to a voter comes from the
// process the voter voted for. It has the signature of an invariant's Holds
// function (package property).
func (p *Protocol) ReleaseFromHolder(w *model.World[State, Msg]) (bool, string) {
	for _, e := range w.Net {
		if e.Msg.Kind == Release && w.Nodes[e.To].Voted != e.From {
			return false, fmt.Sprintf("%s sends REL to %s, which voted for %s", e.From, e.To, formatVoted(w.Nodes[e.To].Voted))
		}
	}
	return true, ""
}

// Properties is what a mutual-exclusion algorithm must have (seed 000,
// "Maekawa algorithm": mutual exclusion, only the holder of a vote
// releases it (ReleaseFromHolder), no deadlock (which the notes show it
// lacks) and starvation freedom), checked under cfg: with cfg.Ordering
// also the happened-before order of requests.
func Properties(p *Protocol, cfg model.Config) property.Set[State, Msg] {
	return invariants.MutexProperties[State, Msg](p, cfg.Ordering,
		property.Invariant[State, Msg]{Name: invariants.ReleaseFromHolderName, Holds: p.ReleaseFromHolder})
}
