package protocols

import (
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/protocols/multicast"
	"github.com/coordcheck/coordcheck/protocols/multicast/isis"
)

func init() {
	Register(mcastEntry("isis",
		"total-order multicast by agreed numbers (ISIS): proposals max(A,P)+1 with the proposer's id, "+
			"the largest agreed, hold-back reordered; -tiebreak none or -choose smallest break it (seed 001)",
		mcastBuild(newISIS, false, isis.Properties), costs.ISISTable(isis.Total),
		Param{"tiebreak", "id", "id: a proposal carries its proposer's id, which breaks ties (the notes); none: numbers only"},
		Param{"choose", "largest", "largest: the sender agrees on the largest proposal (the notes); smallest: on the smallest"}))
}

// newISIS is ISIS with -tiebreak and -choose.
func newISIS(n int, wl multicast.Workload, v Values) (*isis.Protocol, error) {
	p := isis.New(n, wl)
	tie, err := v.Choice("tiebreak", "id", "none")
	if err != nil {
		return nil, err
	}
	p.TieBreak = tie == 0
	choose, err := v.Choice("choose", "largest", "smallest")
	if err != nil {
		return nil, err
	}
	p.Choose = []isis.Choice{isis.ChooseLargest, isis.ChooseSmallest}[choose]
	return p, nil
}
