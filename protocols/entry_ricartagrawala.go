package protocols

import (
	"fmt"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/internal/clip"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
	ra "github.com/coordcheck/coordcheck/protocols/ricartagrawala"
)

func init() {
	Register(Entry{
		Name: "ricartagrawala",
		Doc:  "Ricart-Agrawala mutual exclusion: timestamped requests to all, deferred replies (seed 000)",
		Params: []Param{paramN("3"), paramRounds,
			{"clock", "notes", "notes: every message carries the sender's clock; spin: only requests do (the SPIN anchor model)"}},
		Build: func(v Values, cfg model.Config) (checker.Target, error) {
			r, err := v.Int("rounds", 1, 100)
			if err != nil {
				return nil, err
			}
			p, err := newRicartAgrawala(v, r)
			if err != nil {
				return nil, err
			}
			return target(p, cfg, ra.Properties(p, cfg))
		},
		LiveTarget: func(v Values, cfg model.Config) (checker.Target, error) {
			p, err := newRicartAgrawala(v, mutex.Endless)
			if err != nil {
				return nil, err
			}
			return target(p, cfg, ra.Properties(p, cfg))
		},
		Family: "mutex",
		Costs: func(n int) ([]CostRow, error) {
			return mutexCosts[ra.State, ra.Msg](ra.New(n, 2), mutexFormulas{
				enter: exact("2(N-1)", 2*(n-1)),
				exit: formula{text: "N-1", min: n - 1, max: n - 1,
					note: "the notes count the worst case, all N-1 others waiting; an exit replies only to deferred requests"},
				exitOneWaiter:  exact("1 (the deferred reply)", 1),
				exitAllWaiting: exact("N-1", n-1),
				client:         exact("2", 2),
				sync:           exact("1 (the reply of the process in the CS)", 1),
			})
		},
	})
}

// newRicartAgrawala is the protocol of values v, for the given rounds.
func newRicartAgrawala(v Values, rounds int) (*ra.Protocol, error) {
	n, err := v.Int("n", 2, 63)
	if err != nil {
		return nil, err
	}
	p := ra.New(n, rounds)
	switch v.Get("clock") {
	case "notes":
	case "spin":
		p.Clocks = ra.SPIN
	default:
		return nil, fmt.Errorf("parameter clock=%s: want notes or spin", clip.Quote(v.Get("clock")))
	}
	return p, nil
}
