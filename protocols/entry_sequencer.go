package protocols

import (
	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast/sequencer"
)

func init() {
	Register(Entry{
		Name: "sequencer",
		Doc: "total-order multicast by a sequencer: messages go to p0, which numbers them and multicasts them; " +
			"hold-back until the number is reached; p0's crash blocks delivery (seed 001)",
		Params: mcastParams(),
		Build: func(v Values, cfg model.Config) (checker.Target, error) {
			n, wl, err := mcastWorkload(v)
			if err != nil {
				return nil, err
			}
			return mcastSpec(sequencer.New(n, wl), cfg, v, false, sequencer.Properties)
		},
		Family: "multicast",
		Costs:  costs.SequencerTable,
	})
}
