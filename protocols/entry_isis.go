package protocols

import (
	"fmt"
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/internal/clip"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast"
	"github.com/coordcheck/coordcheck/protocols/multicast/isis"
)

func init() {
	Register(Entry{
		Name: "isis",
		Doc: "total-order multicast by agreed numbers (ISIS): proposals max(A,P)+1 with the proposer's id, " +
			"the largest agreed, hold-back reordered; -tiebreak none or -choose smallest break it (seed 001)",
		Params: mcastParams(
			Param{"tiebreak", "id", "id: a proposal carries its proposer's id, which breaks ties (the notes); none: numbers only"},
			Param{"choose", "largest", "largest: the sender agrees on the largest proposal (the notes); smallest: on the smallest"}),
		Build: func(v Values, cfg model.Config) (checker.Target, error) {
			n, wl, err := mcastWorkload(v)
			if err != nil {
				return nil, err
			}
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
			return mcastSpec(p, cfg, v, false, isis.Properties)
		},
		Family: "multicast",
		Costs:  func(n int) ([]CostRow, error) { return isisCosts(n, isis.Total) },
	})
}

// isisCosts: p0's multicast to N-1 receivers, their N-1 proposals and the
// N-1 agreed numbers, 3(N-1) messages in three message delays (seed 001,
// steps 1, 2 and 3); the layer of a hybrid adds no message.
func isisCosts(n int, order isis.Order) ([]CostRow, error) {
	p := isis.New(n, multicast.Workload{Msgs: 1, Senders: n})
	p.Order = order
	r, err := costs.Multicast(mcastScenario(p, isis.KindName, nil, nil))
	if err != nil {
		return nil, err
	}
	all, err := costs.Multicast(mcastScenario(p, isis.KindName, nil, nil, everyone(n)...))
	if err != nil {
		return nil, err
	}
	return []CostRow{
		mcastRow("messages per multicast", r.Sent(), r.Breakdown(), "3(N-1)", 3*(n-1), ""),
		mcastRow("proposals", r.Sent("PROPOSE"), "", "N-1 (the sender proposes to itself)", n-1, ""),
		mcastRow("agreed numbers", r.Sent("AGREED"), "", "N-1", n-1, ""),
		mcastRow("delivery latency (message delays)", r.Latency, "", "3 (message, proposals, agreed number)", 3, ""),
		mcastRow("all N multicast once: messages", all.Sent(), "", "3N(N-1)", 3*n*(n-1), ""),
		mcastRow("all N multicast once: latency (message delays)", all.Latency, "", "3", 3, ""),
	}, nil
}
