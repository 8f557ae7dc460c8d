package protocols

import (
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/protocols/multicast"
	"github.com/coordcheck/coordcheck/protocols/multicast/causal"
	"github.com/coordcheck/coordcheck/protocols/multicast/fifo"
)

func init() {
	Register(mcastEntry("fifo-mcast",
		"FIFO-ordered multicast: per-sender numbers, hold-back queue (seed 001, Implementing FIFO ordering)",
		mcastBuild(plain(fifo.New), false, fifo.Properties), costs.FIFOTable))
	Register(mcastEntry("causal-mcast",
		"causally-ordered multicast with vector clocks, conditions a. and b. (seed 001, Implementing causal ordering)",
		mcastBuild(newCausal, false, causal.Properties), costs.CausalTable))
}

// newCausal is causal multicast, which bounds its hold-back queue.
func newCausal(n int, wl multicast.Workload, _ Values) (*causal.Protocol, error) {
	return causal.New(n, wl)
}
