package protocols

import (
	"github.com/coordcheck/coordcheck/checker"
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
			return mutexSpec[maekawa.State, maekawa.Msg](p, cfg,
				checker.Invariant[maekawa.State, maekawa.Msg]{Name: maekawa.ReleaseFromHolderName, Holds: p.ReleaseFromHolder}), nil
		},
		Family: "mutex",
		Costs: func(n int) ([]CostRow, error) {
			// The notes' sets of size K ~ 2 sqrt(N): the grid when N is a
			// square, the projective plane for 7, everyone otherwise.
			sets, err := maekawa.GridSets(n)
			switch {
			case n == 7:
				sets = maekawa.PlaneSets()
			case err != nil:
				sets = maekawa.AllSets(n)
			}
			p, err := maekawa.New(n, 2, sets)
			if err != nil {
				return nil, err
			}
			k := sets[0].Len()
			lo, hi := n, 0 // voters a waiting process shares with the one that exits
			for a := range sets {
				for b := range sets {
					if a != b {
						x := (sets[a] & sets[b]).Len()
						lo, hi = min(lo, x), max(hi, x)
					}
				}
			}
			return mutexCosts[maekawa.State, maekawa.Msg](p, mutexFormulas{
				enter:          formula{text: "2K", min: 2 * k, max: 2 * k},
				exit:           exact("K", k),
				exitOneWaiter:  formula{text: "K + |Va∩Vb| (releases + votes)", min: k + lo, max: k + hi},
				exitAllWaiting: exact("K", k),
				client:         exact("2", 2),
				sync:           exact("2 (release + vote)", 2),
			})
		},
	})
}
