package costs

import (
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/bully"
)

// BullyCosts are the measured costs of the bully algorithm among N processes,
// in the two scenarios of the notes. Each run is the cheapest (Best) or
// the dearest (Worst) over the choice of the initiator, by the messages
// that reached a live process.
type BullyCosts struct {
	// CrashBest and CrashWorst: the coordinator p<N-1> has crashed and
	// one process detects it (seed 003, "Analysis": best case, the
	// second-highest detects it; worst case, the lowest).
	CrashBest, CrashWorst ElectionRun
	// SoleBest and SoleWorst: no process is down and one process starts
	// a sole election, as one that has just recovered does (seed 001,
	// "Comparison": best case, the highest starts; worst case, the
	// lowest).
	SoleBest, SoleWorst ElectionRun
}

// Timing of the measured runs, in message transmission times: an
// ok-timeout waits for the round trip of an ELECTION and its OK (at every
// process, the highest included: it announces after the ELECTIONs of the
// others have reached it); a coord-timeout waits for the notes'
// worst-case election time (seed 003: five transmission times). The
// failure detector fires only at the initiator.
const (
	BullyOKTimeout    = 2
	BullyCoordTimeout = 5
)

// Bully runs the bully algorithm among n processes in both scenarios,
// for every possible initiator.
func Bully(n int) (BullyCosts, error) {
	p := bully.New(n)
	h := p.Highest()
	var c BullyCosts
	sys, err := model.NewSystem[bully.State, bully.Msg](p, model.Config{})
	if err != nil {
		return c, err
	}
	delay := func(_ model.NodeID, t model.TimerID) int {
		switch t {
		case bully.TimerOK:
			return BullyOKTimeout
		case bully.TimerCoord:
			return BullyCoordTimeout
		}
		return -1
	}
	kind := func(m bully.Msg) string { return m.String() }
	var crash, sole []ElectionRun
	for i := range n {
		q := model.NodeID(i)
		if q != h {
			r, err := Election(ElectionScenario[bully.State, bully.Msg]{
				System: sys.Clone(),
				Setup:  []model.Action{{Kind: model.ActCrash, Node: h}},
				Start:  model.Action{Kind: model.ActFire, Node: q, Timer: bully.TimerDetect},
				Kind:   kind, Delay: delay,
			}, p, q)
			if err != nil {
				return c, err
			}
			crash = append(crash, r)
		}
		r, err := Election(ElectionScenario[bully.State, bully.Msg]{
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
	sent := func(r ElectionRun) int { return r.Sent() }
	c.CrashBest, c.CrashWorst = Extremes(crash, sent)
	c.SoleBest, c.SoleWorst = Extremes(sole, sent)
	return c, nil
}
