package protocols

import (
	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast"
	"github.com/coordcheck/coordcheck/protocols/multicast/viewsync"
)

func init() {
	Register(Entry{
		Name: "viewsync",
		Doc: "view-synchronous (atomic) multicast: a membership service installs views in total order after a flush; " +
			"messages tied to their sender's view; all survivors deliver m or none does (seed 001)",
		Params: mcastParams(),
		Build: func(v Values, cfg model.Config) (checker.Target, error) {
			n, wl, err := mcastWorkload(v)
			if err != nil {
				return nil, err
			}
			return mcastSpec(viewsync.New(n, wl), cfg, v, true, viewsync.Properties)
		},
		Family: "multicast",
		Costs:  viewsyncCosts,
	})
}

// viewsyncCosts: without failures a multicast is N-1 messages delivered in
// one message delay, as best-effort multicast; the price of atomicity is
// paid at a view change. After p(N-1) crashes, the coordinator p0 sends
// FLUSH-REQ to the N-2 other survivors, they answer with FLUSH, and p0
// sends them NEWVIEW: 3(N-2) messages, the view installed everywhere after
// three message delays. In the run p0 multicast m just before the crash;
// m is in p0's flush answer, and the one copy sent to the crashed process
// is lost with it.
func viewsyncCosts(n int) ([]CostRow, error) {
	p := viewsync.New(n, multicast.Workload{Msgs: 1, Senders: n})
	ok, err := costs.Multicast(mcastScenario(p, viewsync.KindName, nil, nil))
	if err != nil {
		return nil, err
	}
	sc := mcastScenario(p, viewsync.KindName, nil, nil)
	sc.Crash = []model.NodeID{model.NodeID(n - 1)}
	vc, err := costs.Multicast(sc)
	if err != nil {
		return nil, err
	}
	change := vc.Sent("FLUSH-REQ", "FLUSH", "NEWVIEW")
	return []CostRow{
		mcastRow("messages per multicast", ok.Sent(), ok.Breakdown(), "N-1 MSG", n-1, ""),
		mcastRow("delivery latency (message delays)", ok.Latency, "", "1", 1, ""),
		mcastRow("view change after a crash: messages", change, vc.Breakdown(), "3(N-2): FLUSH-REQ, FLUSH, NEWVIEW to each survivor", 3*(n-2), ""),
		mcastRow("view change: latency to the new view (message delays)", vc.Latency, "", "3", 3, ""),
		mcastRow("view change: deliveries missing at survivors", vc.Missing, "", "0 (all survivors deliver m, then the view)", 0, ""),
	}, nil
}
