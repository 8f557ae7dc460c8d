package tokenring

import (
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/property"
)

// Properties is what the notes claim for p (seeds 000 and 001, "Token ring
// algorithm"), checked under cfg: mutual exclusion, one token (at most one
// where cfg's faults may lose it, see Lossy), no deadlock and starvation
// freedom; with cfg.Ordering also the happened-before order of requests.
func Properties(p *Protocol, cfg model.Config) property.Set[State, Msg] {
	holds := p.OneToken
	if Lossy(cfg.Faults) {
		holds = p.AtMostOneToken
	}
	return invariants.MutexProperties[State, Msg](p, cfg.Ordering,
		property.Invariant[State, Msg]{Name: OneTokenName, Holds: holds})
}

// Lossy says whether faults may lose the token: drops, crashes or
// partitions.
func Lossy(f model.Faults) bool {
	return f.Budget[model.Drop] != 0 || f.Budget[model.Crash] != 0 || f.Budget[model.Partition] != 0
}
