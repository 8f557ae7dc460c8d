package protocols

import (
	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/tokenring"
)

func init() {
	register(Entry{
		Name:   "tokenring",
		Doc:    "token ring mutual exclusion: one token circulates on a logical ring; its holder may enter (seed 000)",
		Params: []Param{paramN("3"), paramRounds},
		Build: func(v Values, cfg model.Config) (checker.Target, error) {
			n, err := v.Int("n", 2, model.MaxNodes)
			if err != nil {
				return nil, err
			}
			r, err := v.Int("rounds", 1, 100)
			if err != nil {
				return nil, err
			}
			p := tokenring.New(n, r)
			return mutexSpec[tokenring.State, tokenring.Msg](p, cfg,
				checker.Invariant[tokenring.State, tokenring.Msg]{Name: tokenring.OneTokenName, Holds: p.OneToken}), nil
		},
		Family: "mutex",
	})
}
