package maekawa

import (
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/property"
)

// Properties is what a mutual-exclusion algorithm must have (seed 000,
// "Maekawa algorithm":
// mutual exclusion, only the holder of a vote releases it
// (ReleaseFromHolder), no deadlock (which the notes show it lacks) and
// starvation freedom), checked under cfg: with cfg.Ordering also the
// happened-before order of requests.
func Properties(p *Protocol, cfg model.Config) property.Set[State, Msg] {
	return invariants.MutexProperties[State, Msg](p, cfg.Ordering,
		property.Invariant[State, Msg]{Name: ReleaseFromHolderName, Holds: p.ReleaseFromHolder})
}
