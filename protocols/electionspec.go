package protocols

import (
	"fmt"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/internal/clip"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/live"
	"github.com/coordcheck/coordcheck/model"
)

// electionProtocol is what a leader-election protocol implements to be
// checked by the shared election properties.
type electionProtocol[S, M any] interface {
	model.Protocol[S, M]
	invariants.Elector[S, M]
	model.Waiter[S]
}

// paramAgreement chooses when agreement is judged.
func paramAgreement(def string) Param {
	return Param{"agreement", def, "when agreement is judged: end (the notes' safety, once an election run has ended, " +
		"as SPIN checks at quiescence) or always (also no two live processes follow two different live coordinators " +
		"in any state, which flags transient disagreement during a run)"}
}

// agreementAlways reads the agreement parameter.
func agreementAlways(v Values) (bool, error) {
	switch s := v.Get("agreement"); s {
	case "end":
		return false, nil
	case "always":
		return true, nil
	default:
		return false, fmt.Errorf("parameter agreement=%s: want end or always", clip.Quote(s))
	}
}

// electionSpec is the standard spec of an election protocol: the notes'
// safety once a run has ended, agreement in every state when always is
// set, no deadlock, and the notes' liveness (every live process
// eventually decides).
func electionSpec[S, M any, P electionProtocol[S, M]](p P, cfg model.Config, always bool) (checker.Target, error) {
	sys, err := model.NewSystem[S, M](p, cfg)
	if err != nil {
		return nil, err
	}
	invs := []checker.Invariant[S, M]{invariants.ElectionSafety[S, M](p)}
	if always {
		invs = append(invs, invariants.Agreement[S, M](p))
	}
	return live.Target(&checker.Spec[S, M]{
		System:     sys,
		Invariants: invs,
		Deadlock:   true,
		Liveness:   []checker.Liveness[S, M]{invariants.ElectionLiveness[S, M](p)},
	}), nil
}
