package protocols

import (
	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast/causal"
	"github.com/coordcheck/coordcheck/protocols/multicast/fifo"
)

func init() {
	Register(Entry{
		Name:   "fifo-mcast",
		Doc:    "FIFO-ordered multicast: per-sender numbers, hold-back queue (seed 001, Implementing FIFO ordering)",
		Params: mcastParams(),
		Build: func(v Values, cfg model.Config) (checker.Target, error) {
			n, wl, err := mcastWorkload(v)
			if err != nil {
				return nil, err
			}
			return mcastSpec(fifo.New(n, wl), cfg, v, false, fifo.Properties)
		},
		Family: "multicast",
		Costs:  costs.FIFOTable,
	})
	Register(Entry{
		Name:   "causal-mcast",
		Doc:    "causally-ordered multicast with vector clocks, conditions a. and b. (seed 001, Implementing causal ordering)",
		Params: mcastParams(),
		Build: func(v Values, cfg model.Config) (checker.Target, error) {
			n, wl, err := mcastWorkload(v)
			if err != nil {
				return nil, err
			}
			p, err := causal.New(n, wl)
			if err != nil {
				return nil, err
			}
			return mcastSpec(p, cfg, v, false, causal.Properties)
		},
		Family: "multicast",
		Costs:  costs.CausalTable,
	})
}
