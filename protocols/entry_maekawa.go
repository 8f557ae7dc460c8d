package protocols

import (
	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/maekawa"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

func init() {
	Register(Entry{
		Name: "maekawa",
		Doc:  "Maekawa's original voting algorithm: one vote at a time within intersecting voting sets; deadlocks (seeds 000, 001)",
		Params: []Param{
			paramN("3"),
			paramRounds,
			paramSets,
			paramRequesters,
		},
		Build: func(v Values, cfg model.Config) (checker.Target, error) {
			n, r, sets, req, err := maekawaParams(v)
			if err != nil {
				return nil, err
			}
			p, err := maekawa.New(n, r, sets)
			if err != nil {
				return nil, err
			}
			p.Requesters = req
			return target(p, cfg, maekawa.Properties(p, cfg))
		},
		LiveTarget: func(v Values, cfg model.Config) (checker.Target, error) {
			n, _, sets, req, err := maekawaParams(v)
			if err != nil {
				return nil, err
			}
			p, err := maekawa.New(n, mutex.Endless, sets)
			if err != nil {
				return nil, err
			}
			p.Requesters = req
			return target(p, cfg, maekawa.Properties(p, cfg))
		},
		Family: "mutex",
		Costs: func(n int) ([]CostRow, error) {
			sets := costSets(n)
			p, err := maekawa.New(n, 2, sets)
			if err != nil {
				return nil, err
			}
			return mutexCosts[maekawa.State, maekawa.Msg](p, maekawaFormulas(sets))
		},
	})
}
