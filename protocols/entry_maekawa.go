package protocols

import (
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/protocols/maekawa"
)

func init() {
	Register(mutexEntry(Entry{
		Name: "maekawa",
		Doc:  "Maekawa's original voting algorithm: one vote at a time within intersecting voting sets; deadlocks (seeds 000, 001)",
		Params: []Param{
			paramN("3"),
			paramRounds,
			paramSets,
			paramRequesters,
		},
		Costs: costs.MaekawaTable,
	}, newMaekawa, maekawa.Properties))
}

// newMaekawa is the protocol of values v, for the given rounds.
func newMaekawa(v Values, rounds int) (*maekawa.Protocol, error) {
	n, sets, req, err := maekawaParams(v)
	if err != nil {
		return nil, err
	}
	p, err := maekawa.New(n, rounds, sets)
	if err != nil {
		return nil, err
	}
	p.Requesters = req
	return p, nil
}
