package fifo

import (
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/property"
)

// Claims are the properties the notes claim for FIFO-ordered multicast
// over reliable channels (seed 001): those of a reliable FIFO multicast
// (integrity, FIFO order, validity and agreement).
var Claims = invariants.ReliableFIFOClaims

// Properties is FIFO multicast's property set: the multicast properties
// named by props, or the claimed ones when props is empty.
func Properties(p *Protocol, props ...string) property.Set[State, Msg] {
	return invariants.McastProperties[State, Msg](Claims, props...)
}
