package protocols

import (
	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast/reliable"
)

func init() {
	Register(Entry{
		Name: "reliable-mcast",
		Doc: "basic reliable multicast: S_P, history buffer emptied when all ACKed, L_Q(P), hold-back queue, " +
			"retransmission requests (seed 001, Basic reliable multicasting)",
		Params: mcastParams(),
		Build: func(v Values, cfg model.Config) (checker.Target, error) {
			n, wl, err := mcastWorkload(v)
			if err != nil {
				return nil, err
			}
			return mcastSpec(reliable.New(n, wl), cfg, v, false, reliable.Properties)
		},
		Family: "multicast",
		Costs:  costs.ReliableTable,
	})
}
