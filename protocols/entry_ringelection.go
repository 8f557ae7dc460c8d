package protocols

import (
	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/ringelection"
)

func init() {
	Register(Entry{
		Name: "ringelection",
		Doc: "ring election on a unidirectional ring, ids N-i: Chang-Roberts (several initiators, redundant elections " +
			"killed off) or the enhanced ring (list of ids, crashed successors skipped) (seeds 001, 003)",
		Params: []Param{paramN("4"),
			{"variant", "changroberts", "changroberts (Chang and Roberts) or enhanced (the list of ids, polling successors)"},
			{"initiators", "all", "processes that may start an election spontaneously: all, or ids like p1+p3"},
			paramAgreement("always")},
		Build: func(v Values, cfg model.Config) (checker.Target, error) {
			n, err := v.Int("n", 1, 32)
			if err != nil {
				return nil, err
			}
			variant, err := ringelection.ParseVariant(v.Get("variant"))
			if err != nil {
				return nil, err
			}
			p := ringelection.New(n, variant)
			if p.Initiators, err = ringelection.ParseInitiators(v.Get("initiators"), n); err != nil {
				return nil, err
			}
			always, err := agreementAlways(v)
			if err != nil {
				return nil, err
			}
			return target(p, cfg, ringelection.Properties(p, always))
		},
		Family: "election",
		Costs:  costs.RingElectionTable,
	})
}
