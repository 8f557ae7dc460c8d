package bully

import (
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/property"
)

// Protocol implements the hooks the election's properties read (checked by
// the compiler).
var _ invariants.Elector[State, Msg] = (*Protocol)(nil)

// Properties is what the notes claim for p (seeds 001 and 003, the bully
// algorithm): the election's safety once a run has ended, with always also
// agreement in every state (which flags transient disagreement during a
// run), no deadlock, and every live process eventually decides.
func Properties(p *Protocol, always bool) property.Set[State, Msg] {
	return invariants.ElectionProperties[State, Msg](p, always)
}
