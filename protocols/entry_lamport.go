package protocols

import (
	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/lamport"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

func init() {
	Register(Entry{
		Name:   "lamport",
		Doc:    "Lamport's mutual exclusion: request queues, REQUEST/REPLY/RELEASE, enter on L1 and L2 (seed 002)",
		Params: []Param{paramN("3"), paramRounds},
		Build: func(v Values, cfg model.Config) (checker.Target, error) {
			n, err := v.Int("n", 2, lamport.MaxSites)
			if err != nil {
				return nil, err
			}
			r, err := v.Int("rounds", 1, 100)
			if err != nil {
				return nil, err
			}
			p := lamport.New(n, r)
			return target(p, cfg, lamport.Properties(p, cfg))
		},
		LiveTarget: func(v Values, cfg model.Config) (checker.Target, error) {
			n, err := v.Int("n", 2, lamport.MaxSites)
			if err != nil {
				return nil, err
			}
			p := lamport.New(n, mutex.Endless)
			return target(p, cfg, lamport.Properties(p, cfg))
		},
		Family: "mutex",
		Costs: func(n int) ([]CostRow, error) {
			return mutexCosts[lamport.State, lamport.Msg](lamport.New(n, 2), mutexFormulas{
				enter:          exact("2(N-1) (requests + replies; 3(N-1) per CS)", 2*(n-1)),
				exit:           exact("N-1 (releases)", n-1),
				exitOneWaiter:  exact("N-1 (releases)", n-1),
				exitAllWaiting: exact("N-1", n-1),
				client:         exact("2 (request + reply)", 2),
				sync:           exact("T: 1 (the release)", 1),
			})
		},
	})
}
