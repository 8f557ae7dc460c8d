package nack

import (
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/property"
)

// Claims are the properties the notes claim for scalable reliable
// multicast with negative acknowledgements (seed 001), the history kept
// for ever: those of a reliable FIFO multicast (integrity, delivery in
// each sender's order, validity and agreement).
var Claims = invariants.ReliableFIFOClaims

// Properties is NACK-based reliable multicast's property set: the multicast properties
// named by props, or the claimed ones when props is empty.
func Properties(p *Protocol, props ...string) property.Set[State, Msg] {
	return invariants.McastProperties[State, Msg](Claims, props...)
}
