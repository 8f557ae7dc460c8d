package causal

import (
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/property"
)

// Claims are the properties the notes claim for causally-ordered multicast
// over reliable channels (seed 001): integrity, FIFO and causal order,
// validity and agreement.
var Claims = []string{invariants.IntegrityName, invariants.FIFOOrderName, invariants.CausalOrderName,
	invariants.ValidityName, invariants.McastAgreementName}

// Properties is causal multicast's property set: the multicast properties
// named by props, or the claimed ones when props is empty.
func Properties(p *Protocol, props ...string) property.Set[State, Msg] {
	return invariants.McastProperties[State, Msg](Claims, props...)
}
