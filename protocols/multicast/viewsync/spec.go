package viewsync

import (
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/property"
)

// Claims are the properties the notes claim for view-synchronous multicast
// (seed 001): integrity, view synchrony, all or none among the survivors,
// validity and agreement.
var Claims = []string{invariants.IntegrityName, invariants.ViewSynchronyName, invariants.AllOrNoneName,
	invariants.ValidityName, invariants.McastAgreementName}

// Properties is view-synchronous multicast's property set: the multicast properties
// named by props, or the claimed ones when props is empty.
func Properties(p *Protocol, props ...string) property.Set[State, Msg] {
	return invariants.McastProperties[State, Msg](Claims, props...)
}
