package protocols

import (
	"fmt"

	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/internal/clip"
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
	switch s := v.Get("tiebreak"); s {
	case "id":
	case "none":
		p.TieBreak = false
	default:
		return nil, fmt.Errorf("parameter tiebreak=%s: want id or none", clip.Quote(s))
	}
	switch s := v.Get("choose"); s {
	case "largest":
	case "smallest":
		p.Choose = isis.ChooseSmallest
	default:
		return nil, fmt.Errorf("parameter choose=%s: want largest or smallest", clip.Quote(s))
	}
	return p, nil
}
