package ringelection

import (
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/election"
)

// Costs are the measured costs of one ring variant among N processes with
// no failure and a sole initiator (seed 001, "Comparison"): the runs with
// the fewest (Best) and the most (Worst) ELECTION and COORD messages over
// the choice of the initiator.
type Costs struct {
	Best, Worst election.Run
}

// Counted are the kinds the notes count; the enhanced ring's ACKs (the
// answers to its polls) are measured but not counted.
var Counted = []string{"ELECTION", "COORD"}

// PollTimeout is the poll timeout in the measured runs: the round trip of
// a message and its ACK.
const PollTimeout = 2

// Measure runs the ring election of variant v among n processes once for
// every initiator.
func Measure(n int, v Variant) (Costs, error) {
	p := New(n, v)
	sys, err := model.NewSystem[State, Msg](p, model.Config{})
	if err != nil {
		return Costs{}, err
	}
	var runs []election.Run
	for i := range n {
		q := model.NodeID(i)
		r, err := election.Measure(election.Scenario[State, Msg]{
			System: sys.Clone(),
			Start:  model.Action{Kind: model.ActInput, Node: q, Input: Start},
			Kind:   kindName,
			Delay:  func(model.NodeID, model.TimerID) int { return PollTimeout },
		}, p, q)
		if err != nil {
			return Costs{}, err
		}
		runs = append(runs, r)
	}
	var c Costs
	c.Best, c.Worst = election.Extremes(runs, func(r election.Run) int { return r.Sent(Counted...) })
	return c, nil
}

// kindName is a message's kind: ELECTION, COORD or ACK.
func kindName(m Msg) string {
	switch m.Kind {
	case Election:
		return "ELECTION"
	case Coordinator:
		return "COORD"
	}
	return "ACK"
}
