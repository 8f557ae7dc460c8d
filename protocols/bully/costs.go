package bully

import (
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/election"
)

// Costs are the measured costs of the bully algorithm among N processes,
// in the two scenarios of the notes. Each run is the cheapest (Best) or
// the dearest (Worst) over the choice of the initiator, by the messages
// that reached a live process.
type Costs struct {
	// CrashBest and CrashWorst: the coordinator p<N-1> has crashed and
	// one process detects it (seed 003, "Analysis": best case, the
	// second-highest detects it; worst case, the lowest).
	CrashBest, CrashWorst election.Run
	// SoleBest and SoleWorst: no process is down and one process starts
	// a sole election, as one that has just recovered does (seed 001,
	// "Comparison": best case, the highest starts; worst case, the
	// lowest).
	SoleBest, SoleWorst election.Run
}

// Timing of the measured runs, in message transmission times: an
// ok-timeout waits for the round trip of an ELECTION and its OK (at every
// process, the highest included: it announces after the ELECTIONs of the
// others have reached it); a coord-timeout waits for the notes'
// worst-case election time (seed 003: five transmission times). The
// failure detector fires only at the initiator.
const (
	OKTimeout    = 2
	CoordTimeout = 5
)

// Measure runs the bully algorithm among n processes in both scenarios,
// for every possible initiator.
func Measure(n int) (Costs, error) {
	p := New(n)
	h := p.Highest()
	var c Costs
	sys, err := model.NewSystem[State, Msg](p, model.Config{})
	if err != nil {
		return c, err
	}
	delay := func(_ model.NodeID, t model.TimerID) int {
		switch t {
		case TimerOK:
			return OKTimeout
		case TimerCoord:
			return CoordTimeout
		}
		return -1
	}
	kind := func(m Msg) string { return m.String() }
	var crash, sole []election.Run
	for i := range n {
		q := model.NodeID(i)
		if q != h {
			r, err := election.Measure(election.Scenario[State, Msg]{
				System: sys.Clone(),
				Setup:  []model.Action{{Kind: model.ActCrash, Node: h}},
				Start:  model.Action{Kind: model.ActFire, Node: q, Timer: TimerDetect},
				Kind:   kind, Delay: delay,
			}, p, q)
			if err != nil {
				return c, err
			}
			crash = append(crash, r)
		}
		r, err := election.Measure(election.Scenario[State, Msg]{
			System: sys.Clone(),
			Setup:  []model.Action{{Kind: model.ActCrash, Node: q}},
			Start:  model.Action{Kind: model.ActRestart, Node: q},
			Kind:   kind, Delay: delay,
		}, p, q)
		if err != nil {
			return c, err
		}
		sole = append(sole, r)
	}
	sent := func(r election.Run) int { return r.Sent() }
	c.CrashBest, c.CrashWorst = election.Extremes(crash, sent)
	c.SoleBest, c.SoleWorst = election.Extremes(sole, sent)
	return c, nil
}
