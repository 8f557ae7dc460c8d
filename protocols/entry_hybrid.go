package protocols

import (
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/protocols/multicast"
	"github.com/coordcheck/coordcheck/protocols/multicast/isis"
)

// The hybrids of seed 001 ("FIFO+total ordering and causal+total ordering
// are also possible"): ISIS agreement over a FIFO or a causal layer.
func init() {
	Register(mcastEntry("fifo-total",
		"FIFO+total multicast: ISIS agreed numbers, a receiver proposing for a sender's messages in their "+
			"order (per-sender numbers, hold-back) (seed 001)",
		mcastBuild(isisOver(isis.FIFOTotal), false, isis.Properties), costs.ISISTable(isis.FIFOTotal)))
	Register(mcastEntry("causal-total",
		"causal+total multicast: ISIS agreed numbers, a receiver proposing for a message only once its "+
			"causal predecessors are in (vector clocks, conditions a. and b.) (seed 001)",
		mcastBuild(isisOver(isis.CausalTotal), false, isis.Properties), costs.ISISTable(isis.CausalTotal)))
}

// isisOver makes ISIS over the layer order, claiming the total-order
// properties and the layer's.
func isisOver(order isis.Order) func(int, multicast.Workload, Values) (*isis.Protocol, error) {
	return func(n int, wl multicast.Workload, _ Values) (*isis.Protocol, error) {
		p := isis.New(n, wl)
		p.Order = order
		return p, nil
	}
}
