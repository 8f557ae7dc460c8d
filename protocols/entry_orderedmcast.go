package protocols

import (
	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast"
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
		Costs: func(n int) ([]CostRow, error) {
			return orderedCosts(fifo.New(n, multicast.Workload{Msgs: 1, Senders: 1}), fifo.Kind, n)
		},
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
		Costs: func(n int) ([]CostRow, error) {
			p, err := causal.New(n, multicast.Workload{Msgs: 1, Senders: 1})
			if err != nil {
				return nil, err
			}
			return orderedCosts(p, causal.Kind, n)
		},
	})
}

// orderedCosts: an ordering protocol over reliable channels sends N-1
// DATA per multicast, no feedback, and delivers after one message delay.
func orderedCosts[S, M any](p model.Protocol[S, M], kind func(M) string, n int) ([]CostRow, error) {
	r, err := costs.Multicast(mcastScenario(p, kind, nil, nil))
	if err != nil {
		return nil, err
	}
	return []CostRow{
		mcastRow("messages per multicast", r.Sent(), r.Breakdown(), "N-1 DATA", n-1, ""),
		mcastRow("feedback messages", r.Sent()-r.Sent("DATA"), "", "0", 0, ""),
		mcastRow("delivery latency (message delays)", r.Latency, "", "1", 1, ""),
	}, nil
}
