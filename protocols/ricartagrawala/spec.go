package ricartagrawala

import (
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/property"
)

// Properties is what the notes claim for p (seeds 000 and 002, Ricart-
// Agrawala: mutual exclusion, no deadlock and starvation freedom), checked
// under cfg: with cfg.Ordering also the happened-before order of requests.
func Properties(p *Protocol, cfg model.Config) property.Set[State, Msg] {
	return invariants.MutexProperties[State, Msg](p, cfg.Ordering)
}
