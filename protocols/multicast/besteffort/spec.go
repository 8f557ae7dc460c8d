package besteffort

import (
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/property"
)

// Claims are the properties the notes claim for best-effort multicast
// (seed 001), the baseline: integrity, validity and agreement among
// correct processes, nothing about order.
var Claims = []string{invariants.IntegrityName, invariants.ValidityName, invariants.McastAgreementName}

// Properties is best-effort multicast's property set: the multicast properties
// named by props, or the claimed ones when props is empty.
func Properties(p *Protocol, props ...string) property.Set[State, Msg] {
	return invariants.McastProperties[State, Msg](Claims, props...)
}
