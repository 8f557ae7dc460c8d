package protocols

import (
	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast/isis"
)

// The hybrids of seed 001 ("FIFO+total ordering and causal+total ordering
// are also possible"): ISIS agreement over a FIFO or a causal layer.
func init() {
	Register(Entry{
		Name: "fifo-total",
		Doc: "FIFO+total multicast: ISIS agreed numbers, a receiver proposing for a sender's messages in their " +
			"order (per-sender numbers, hold-back) (seed 001)",
		Params: mcastParams(),
		Build:  hybridBuild(isis.FIFOTotal),
		Family: "multicast",
		Costs:  costs.ISISTable(isis.FIFOTotal),
	})
	Register(Entry{
		Name: "causal-total",
		Doc: "causal+total multicast: ISIS agreed numbers, a receiver proposing for a message only once its " +
			"causal predecessors are in (vector clocks, conditions a. and b.) (seed 001)",
		Params: mcastParams(),
		Build:  hybridBuild(isis.CausalTotal),
		Family: "multicast",
		Costs:  costs.ISISTable(isis.CausalTotal),
	})
}

// hybridBuild builds ISIS over the layer order, claiming the total-order
// properties and the layer's.
func hybridBuild(order isis.Order) func(Values, model.Config) (checker.Target, error) {
	return func(v Values, cfg model.Config) (checker.Target, error) {
		n, wl, err := mcastWorkload(v)
		if err != nil {
			return nil, err
		}
		p := isis.New(n, wl)
		p.Order = order
		return mcastSpec(p, cfg, v, false, isis.Properties)
	}
}
