package centralized

import (
	"fmt"

	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/property"
)

// Protocol implements, through InCS, the hook the mutual-exclusion
// properties read (checked by the compiler).
var _ invariants.CriticalSection[State] = (*Protocol)(nil)

// ReleaseFromHolder is the SPIN model's assertion on every release, made an
// invariant of the world: every REL in flight comes from the client the
// coordinator granted the token to. It has the signature of an invariant's
// Holds function (package property).
func (p *Protocol) ReleaseFromHolder(w *model.World[State, Msg]) (bool, string) {
	coord := p.Coordinator()
	holder := w.Nodes[coord].Holder
	for _, e := range w.Net {
		if e.To == coord && e.Msg.Kind == Release && e.From != holder {
			return false, fmt.Sprintf("%s sends REL but the coordinator's holder is %s", e.From, formatHolder(holder))
		}
	}
	return true, ""
}

// Properties is what the notes claim for p (seeds 000 and 001, the
// centralized algorithm: mutual exclusion, only the holder releases
// (ReleaseFromHolder), no deadlock and starvation freedom), checked under
// cfg: with cfg.Ordering also the happened-before order of requests.
func Properties(p *Protocol, cfg model.Config) property.Set[State, Msg] {
	return invariants.MutexProperties[State, Msg](p, cfg.Ordering,
		property.Invariant[State, Msg]{Name: invariants.ReleaseFromHolderName, Holds: p.ReleaseFromHolder, Symmetric: true})
}
