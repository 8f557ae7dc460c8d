package protocols

import (
	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/lamport"
)

func init() {
	register(Entry{
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
			return &checker.Spec[lamport.State, lamport.Msg]{
				System:     model.NewSystem[lamport.State, lamport.Msg](p, cfg),
				Invariants: []checker.Invariant[lamport.State, lamport.Msg]{invariants.MutualExclusion[lamport.State, lamport.Msg](p)},
				Deadlock:   true,
			}, nil
		},
	})
}
