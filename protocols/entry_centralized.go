package protocols

import (
	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/centralized"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

func init() {
	Register(Entry{
		Name: "centralized",
		Doc:  "centralized mutual exclusion: a coordinator grants the token and queues requests in FIFO order (seed 000)",
		Params: []Param{
			{"n", "3", "number of clients; the coordinator is one more node, p<n>"},
			{"rounds", "2", "critical sections each client enters (bounds the state space)"},
		},
		Build: func(v Values, cfg model.Config) (checker.Target, error) {
			n, err := v.Int("n", 1, model.MaxNodes-2)
			if err != nil {
				return nil, err
			}
			r, err := v.Int("rounds", 1, 100)
			if err != nil {
				return nil, err
			}
			p := centralized.New(n, r)
			return target(p, cfg, centralized.Properties(p, cfg))
		},
		LiveTarget: func(v Values, cfg model.Config) (checker.Target, error) {
			n, err := v.Int("n", 1, model.MaxNodes-2)
			if err != nil {
				return nil, err
			}
			p := centralized.New(n, mutex.Endless)
			return target(p, cfg, centralized.Properties(p, cfg))
		},
		Family: "mutex",
		Costs: func(n int) ([]CostRow, error) {
			return mutexCosts[centralized.State, centralized.Msg](centralized.New(n, 2), mutexFormulas{
				enter:          exact("2 (request + grant)", 2),
				exit:           exact("1 (release)", 1),
				exitOneWaiter:  exact("2 (release + grant)", 2),
				exitAllWaiting: exact("1", 1),
				client:         exact("2 (request + grant)", 2),
				sync:           exact("2 (release + grant)", 2),
			})
		},
	})
}
