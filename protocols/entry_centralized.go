package protocols

import (
	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/centralized"
)

func init() {
	register(Entry{
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
			return &checker.Spec[centralized.State, centralized.Msg]{
				System: model.NewSystem[centralized.State, centralized.Msg](p, cfg),
				Invariants: []checker.Invariant[centralized.State, centralized.Msg]{
					invariants.MutualExclusion[centralized.State, centralized.Msg](p),
					{Name: centralized.ReleaseFromHolderName, Holds: p.ReleaseFromHolder},
				},
				Deadlock: true,
			}, nil
		},
	})
}
