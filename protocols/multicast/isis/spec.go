package isis

import (
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/property"
)

// Claims are the properties the notes claim for p (seed 001): those of a
// totally ordered multicast, reliable (integrity, validity, agreement) and
// total order, and for the hybrids ("FIFO+total ordering and causal+total
// ordering are also possible") the order of their layer too.
func Claims(p *Protocol) []string {
	claims := []string{invariants.IntegrityName, invariants.TotalOrderName,
		invariants.ValidityName, invariants.McastAgreementName}
	switch p.Order {
	case FIFOTotal:
		claims = append(claims, invariants.FIFOOrderName)
	case CausalTotal:
		claims = append(claims, invariants.FIFOOrderName, invariants.CausalOrderName)
	}
	return claims
}

// Properties is ISIS's property set: the multicast properties
// named by props, or the claimed ones when props is empty.
func Properties(p *Protocol, props ...string) property.Set[State, Msg] {
	return invariants.McastProperties[State, Msg](Claims(p), props...)
}
