package protocols

import (
	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/model"
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
		Costs:  costs.BestEffortTable,
	})
}
