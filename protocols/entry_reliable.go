package protocols

import (
	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast"
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
		Costs:  reliableCosts,
	})
}

// reliableCosts: N-1 DATA and N-1 ACKs per multicast (the feedback
// implosion of the notes: the sender hears from every receiver); under a
// loss of p0's first message on its way to every receiver, the second
// message reveals the gap to all of them, and each requests the
// retransmission.
func reliableCosts(n int) ([]CostRow, error) {
	p := reliable.New(n, multicast.Workload{Msgs: 2, Senders: 1})
	ok, err := costs.Multicast(mcastScenario(p, reliable.KindOf, nil, nil))
	if err != nil {
		return nil, err
	}
	id := func(m reliable.Msg) multicast.MsgID { return m.ID }
	all := uint64(1<<n-1) &^ 1
	roundTrip := func(_ model.NodeID, t model.TimerID) int {
		return map[bool]int{true: 2, false: 0}[t == reliable.Retransmit]
	}
	lossy, err := costs.Multicast(mcastScenario(p, reliable.KindOf, loseFirstData(reliable.KindOf, id, all), roundTrip, 0, 0))
	if err != nil {
		return nil, err
	}
	return []CostRow{
		mcastRow("messages per multicast", ok.Sent(), ok.Breakdown(), "(N-1) DATA + (N-1) ACK = 2(N-1)", 2*(n-1), ""),
		mcastRow("ACKs per multicast (feedback implosion)", ok.Sent("ACK"), "", "N-1", n-1, ""),
		mcastRow("delivery latency (message delays)", ok.Latency, "", "1", 1, ""),
		mcastRow("2 multicasts, the 1st lost to all: retransmission requests", lossy.Sent("RETRANS-REQ"), lossy.Breakdown(),
			"N-1 (every receiver asks)", n-1, ""),
		mcastRow("2 multicasts, the 1st lost to all: all messages", lossy.Sent(), "",
			"3(N-1) DATA + (N-1) RETRANS-REQ + 2(N-1) ACK = 6(N-1)", 6*(n-1), ""),
		mcastRow("2 multicasts, the 1st lost to all: latency", lossy.Latency, "", "3 (DATA, request, retransmission)", 3, ""),
	}, nil
}
