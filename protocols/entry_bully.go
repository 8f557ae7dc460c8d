package protocols

import (
	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/bully"
)

func init() {
	Register(Entry{
		Name: "bully",
		Doc: "bully election: ELECTION to higher ids, OK, COORD to lower ids; timeouts as a perfect failure detector " +
			"unless -timers free; a restarted highest process breaks it (seeds 001, 003)",
		Params: []Param{paramN("3"), paramAgreement("end")},
		Build: func(v Values, cfg model.Config) (checker.Target, error) {
			n, err := v.Int("n", 2, model.MaxNodes-1)
			if err != nil {
				return nil, err
			}
			always, err := agreementAlways(v)
			if err != nil {
				return nil, err
			}
			p := bully.New(n)
			return target(p, cfg, bully.Properties(p, always))
		},
		Family: "election",
		Costs:  costs.BullyTable,
	})
}
