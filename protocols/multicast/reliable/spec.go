package reliable

import (
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/property"
)

// Claims are the properties the notes claim for basic reliable multicast
// (seed 001), whose processes "do not fail": the reliable multicast
// properties, delivery in each sender's order, and all or none.
var Claims = []string{invariants.IntegrityName, invariants.FIFOOrderName, invariants.AllOrNoneName,
	invariants.ValidityName, invariants.McastAgreementName}

// Properties is basic reliable multicast's property set: the multicast properties
// named by props, or the claimed ones when props is empty.
func Properties(p *Protocol, props ...string) property.Set[State, Msg] {
	return invariants.McastProperties[State, Msg](Claims, props...)
}
