package sequencer

import (
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/property"
)

// Claims are the properties the notes claim for totally ordered multicast
// with a sequencer (seed 001): reliable (integrity, validity, agreement)
// and total order.
var Claims = []string{invariants.IntegrityName, invariants.TotalOrderName,
	invariants.ValidityName, invariants.McastAgreementName}

// Properties is the sequencer's property set: the multicast properties
// named by props, or the claimed ones when props is empty.
func Properties(p *Protocol, props ...string) property.Set[State, Msg] {
	return invariants.McastProperties[State, Msg](Claims, props...)
}
