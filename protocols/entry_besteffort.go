package protocols

import (
	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast"
	"github.com/coordcheck/coordcheck/protocols/multicast/besteffort"
)

func init() {
	Register(Entry{
		Name:   "besteffort",
		Doc:    "best-effort multicast: send to each member, nothing else; the baseline reliable multicast improves on (seed 001)",
		Params: mcastParams(),
		Build: func(v Values, cfg model.Config) (checker.Target, error) {
			n, wl, err := mcastWorkload(v)
			if err != nil {
				return nil, err
			}
			return mcastSpec(besteffort.New(n, wl), cfg, v, false, besteffort.Properties)
		},
		Family: "multicast",
		Costs:  bestEffortCosts,
	})
}

// bestEffortCosts: N-1 DATA and one message delay per multicast; a loss
// is never repaired.
func bestEffortCosts(n int) ([]CostRow, error) {
	p := besteffort.New(n, multicast.Workload{Msgs: 1, Senders: 1})
	ok, err := costs.Multicast(mcastScenario(p, besteffort.Kind, nil, nil))
	if err != nil {
		return nil, err
	}
	id := func(m besteffort.Msg) multicast.MsgID { return m.ID }
	lossy, err := costs.Multicast(mcastScenario(p, besteffort.Kind, loseFirstData(besteffort.Kind, id, 1<<(n-1)), nil))
	if err != nil {
		return nil, err
	}
	return []CostRow{
		mcastRow("messages per multicast", ok.Sent(), ok.Breakdown(), "N-1 DATA", n-1, ""),
		mcastRow("feedback messages", ok.Sent()-ok.Sent("DATA"), "", "0", 0, ""),
		mcastRow("delivery latency (message delays)", ok.Latency, "", "1", 1, ""),
		mcastRow("one DATA lost: deliveries missing for good", lossy.Missing, lossy.Breakdown(), "1 (nothing repairs it)", 1, ""),
	}, nil
}
