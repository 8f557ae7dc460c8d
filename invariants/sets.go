package invariants

import (
	"slices"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/property"
)

// The property sets of the three families, written once: a protocol
// package exports its own set (ricartagrawala.Properties, bully.Properties,
// reliable.Properties, ...) by calling the one of its family with what is
// its own (an extra invariant of its state, the properties the notes claim
// for it).

// MutexProtocol is what a mutual-exclusion protocol implements to be
// checked by the mutual-exclusion properties.
type MutexProtocol[S any] interface {
	CriticalSection[S]
	model.Waiter[S]
}

// MutexProperties is the set of a mutual-exclusion protocol: mutual
// exclusion, the protocol's own invariants (own), with ordering the
// happened-before order of requests (which needs model.Config.Ordering),
// no deadlock, and starvation freedom (seed 000).
func MutexProperties[S, M any](p MutexProtocol[S], ordering bool, own ...property.Invariant[S, M]) property.Set[S, M] {
	invs := []property.Invariant[S, M]{MutualExclusion[S, M](p)}
	invs = append(invs, own...)
	if ordering {
		invs = append(invs, HappenedBeforeOrder[S, M](p, p))
	}
	return property.Set[S, M]{
		Invariants: invs,
		Deadlock:   true,
		Liveness:   []property.Liveness[S, M]{StarvationFreedom[S, M](p)},
	}
}

// ElectionProperties is the set of a leader-election protocol: the notes'
// safety once a run has ended, agreement in every state when always is
// set, no deadlock, and the notes' liveness (every live process
// eventually decides) (seed 002).
func ElectionProperties[S, M any](e Elector[S, M], always bool) property.Set[S, M] {
	invs := []property.Invariant[S, M]{ElectionSafety[S, M](e)}
	if always {
		invs = append(invs, Agreement[S, M](e))
	}
	return property.Set[S, M]{
		Invariants: invs,
		Deadlock:   true,
		Liveness:   []property.Liveness[S, M]{ElectionLiveness[S, M](e)},
	}
}

// McastReports are the properties every multicast protocol reports (its
// records let the checker judge them), in checking order; a protocol that
// outputs ViewRecords reports ViewSynchronyName too.
var McastReports = []string{
	IntegrityName, FIFOOrderName, CausalOrderName, TotalOrderName,
	AllOrNoneName, ValidityName, McastAgreementName,
}

// ReliableFIFOClaims are the claims of a reliable multicast that delivers
// each sender's messages in the order it sent them (seed 001, "Basic
// reliable multicasting" with "FIFO ordering"): integrity, FIFO order,
// validity and agreement. FIFO multicast over reliable channels and the
// NACK-based scalable reliable multicast claim them.
var ReliableFIFOClaims = []string{IntegrityName, FIFOOrderName, ValidityName, McastAgreementName}

// McastProperties is the set of the multicast properties named by props
// (seed 001), or of those the protocol claims when props is empty, in
// checking order, over the history the protocol records per node. A name
// it does not know is left out (the registry checks names first).
func McastProperties[S, M any](claims []string, props ...string) property.Set[S, M] {
	names := props
	if len(names) == 0 {
		names = claims
	}
	set := property.Set[S, M]{HistoryByNode: true}
	for _, name := range append(slices.Clone(McastReports), ViewSynchronyName) {
		if !slices.Contains(names, name) {
			continue
		}
		switch name {
		case IntegrityName:
			set.Invariants = append(set.Invariants, Integrity[S, M]())
		case FIFOOrderName:
			set.Invariants = append(set.Invariants, FIFOOrder[S, M]())
		case CausalOrderName:
			set.Invariants = append(set.Invariants, CausalOrder[S, M]())
		case TotalOrderName:
			set.Invariants = append(set.Invariants, TotalOrder[S, M]())
		case ViewSynchronyName:
			set.Invariants = append(set.Invariants, ViewSynchrony[S, M]())
		case AllOrNoneName:
			set.Invariants = append(set.Invariants, AllOrNone[S, M]())
		case ValidityName:
			set.Liveness = append(set.Liveness, Validity[S, M]())
		case McastAgreementName:
			set.Liveness = append(set.Liveness, McastAgreement[S, M]())
		}
	}
	return set
}
