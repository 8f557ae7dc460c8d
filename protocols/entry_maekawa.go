package protocols

import (
	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/maekawa"
)

func init() {
	register(Entry{
		Name: "maekawa",
		Doc:  "Maekawa's original voting algorithm: one vote at a time within intersecting voting sets; deadlocks (seeds 000, 001)",
		Params: []Param{
			paramN("3"),
			paramRounds,
			{"sets", "all", "voting sets: all (everyone), grid (row+column of a square grid; n a square), " +
				"plane (n=7, the projective plane of seed 001), or V0;V1;... with comma-separated ids, " +
				"e.g. 0,1,2;1,3,5;2,4,5;0,3,4;1,4,6;0,5,6;2,3,6 ('/' may replace ';')"},
		},
		Build: func(v Values, cfg model.Config) (checker.Target, error) {
			n, err := v.Int("n", 1, 63)
			if err != nil {
				return nil, err
			}
			r, err := v.Int("rounds", 1, 100)
			if err != nil {
				return nil, err
			}
			sets, err := maekawa.ParseSets(v.Get("sets"), n)
			if err != nil {
				return nil, err
			}
			p, err := maekawa.New(n, r, sets)
			if err != nil {
				return nil, err
			}
			return &checker.Spec[maekawa.State, maekawa.Msg]{
				System: model.NewSystem[maekawa.State, maekawa.Msg](p, cfg),
				Invariants: []checker.Invariant[maekawa.State, maekawa.Msg]{
					invariants.MutualExclusion[maekawa.State, maekawa.Msg](p),
					{Name: maekawa.ReleaseFromHolderName, Holds: p.ReleaseFromHolder},
				},
				Deadlock: true,
			}, nil
		},
	})
}
