package protocols

import (
	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	ra "github.com/coordcheck/coordcheck/protocols/ricartagrawala"
)

func init() {
	register(Entry{
		Name:   "ricartagrawala",
		Doc:    "Ricart-Agrawala mutual exclusion: timestamped requests to all, deferred replies (seed 000)",
		Params: []Param{paramN("3"), paramRounds},
		Build: func(v Values, cfg model.Config) (checker.Target, error) {
			n, err := v.Int("n", 2, 63)
			if err != nil {
				return nil, err
			}
			r, err := v.Int("rounds", 1, 100)
			if err != nil {
				return nil, err
			}
			p := ra.New(n, r)
			return &checker.Spec[ra.State, ra.Msg]{
				System:     model.NewSystem[ra.State, ra.Msg](p, cfg),
				Invariants: []checker.Invariant[ra.State, ra.Msg]{invariants.MutualExclusion[ra.State, ra.Msg](p)},
				Deadlock:   true,
				Liveness:   []checker.Liveness[ra.State, ra.Msg]{invariants.StarvationFreedom[ra.State, ra.Msg](p)},
			}, nil
		},
	})
}
