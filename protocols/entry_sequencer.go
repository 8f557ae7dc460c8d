package protocols

import (
	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast"
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
		Costs:  sequencerCosts,
	})
}

// sequencerCosts: a multicast takes two hops, sender to sequencer and
// sequencer to all: 1 DATA + N-1 ORDER = N messages and two message
// delays; the sequencer's own takes N-1 ORDER and one delay. When all N
// multicast at once, every message passes through p0 (the notes'
// "performance bottleneck"): N-1 DATA + N(N-1) ORDER = N²-1.
func sequencerCosts(n int) ([]CostRow, error) {
	p := sequencer.New(n, multicast.Workload{Msgs: 1, Senders: n})
	other, err := costs.Multicast(mcastScenario(p, sequencer.KindName, nil, nil, 1))
	if err != nil {
		return nil, err
	}
	own, err := costs.Multicast(mcastScenario(p, sequencer.KindName, nil, nil, 0))
	if err != nil {
		return nil, err
	}
	all, err := costs.Multicast(mcastScenario(p, sequencer.KindName, nil, nil, everyone(n)...))
	if err != nil {
		return nil, err
	}
	return []CostRow{
		mcastRow("messages per multicast (p1 multicasts)", other.Sent(), other.Breakdown(), "1 DATA + N-1 ORDER = N", n, ""),
		mcastRow("sequencer hops per multicast", other.Sent("DATA"), "", "1 (sender to sequencer)", 1, ""),
		mcastRow("delivery latency (message delays)", other.Latency, "", "2 (to the sequencer, then to all)", 2, ""),
		mcastRow("messages per multicast by the sequencer", own.Sent(), own.Breakdown(), "N-1 ORDER", n-1, ""),
		mcastRow("its delivery latency (message delays)", own.Latency, "", "1", 1, ""),
		mcastRow("all N multicast once: messages", all.Sent(), all.Breakdown(), "N-1 DATA + N(N-1) ORDER = N²-1", n*n-1, ""),
		mcastRow("all N multicast once: ORDER sent by the sequencer", all.Sent("ORDER"), "", "N(N-1), all of them", n*(n-1), ""),
	}, nil
}

// everyone is p0 .. p(n-1).
func everyone(n int) []model.NodeID {
	ids := make([]model.NodeID, n)
	for i := range ids {
		ids[i] = model.NodeID(i)
	}
	return ids
}
