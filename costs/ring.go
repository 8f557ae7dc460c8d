package costs

import (
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/ringelection"
)

// RingCosts are the measured costs of one ring variant among N processes with
// no failure and a sole initiator (seed 001, "Comparison"): the runs with
// the fewest (Best) and the most (Worst) ELECTION and COORD messages over
// the choice of the initiator.
type RingCosts struct {
	Best, Worst ElectionRun
}

// RingCounted are the kinds the notes count; the enhanced ring's ACKs (the
// answers to its polls) are measured but not counted.
var RingCounted = []string{"ELECTION", "COORD"}

// RingPollTimeout is the poll timeout in the measured runs: the round trip of
// a message and its ACK.
const RingPollTimeout = 2

// Ring runs the ring election of variant v among n processes once for
// every initiator.
func Ring(n int, v ringelection.Variant) (RingCosts, error) {
	p := ringelection.New(n, v)
	sys, err := model.NewSystem[ringelection.State, ringelection.Msg](p, model.Config{})
	if err != nil {
		return RingCosts{}, err
	}
	var runs []ElectionRun
	for i := range n {
		q := model.NodeID(i)
		r, err := Election(ElectionScenario[ringelection.State, ringelection.Msg]{
			System: sys.Clone(),
			Start:  model.Action{Kind: model.ActInput, Node: q, Input: ringelection.Start},
			Kind:   ringKind,
			Delay:  func(model.NodeID, model.TimerID) int { return RingPollTimeout },
		}, p, q)
		if err != nil {
			return RingCosts{}, err
		}
		runs = append(runs, r)
	}
	var c RingCosts
	c.Best, c.Worst = Extremes(runs, func(r ElectionRun) int { return r.Sent(RingCounted...) })
	return c, nil
}

// ringKind is a message's kind: ELECTION, COORD or ACK.
func ringKind(m ringelection.Msg) string {
	switch m.Kind {
	case ringelection.Election:
		return "ELECTION"
	case ringelection.Coordinator:
		return "COORD"
	}
	return "ACK"
}
