package protocols

import (
	"fmt"
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/internal/clip"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast"
	"github.com/coordcheck/coordcheck/protocols/multicast/nack"
)

func init() {
	Register(Entry{
		Name: "nack-mcast",
		Doc: "scalable reliable multicast: only missing messages NACKed, NACKs multicast to the group, " +
			"suppressed by another's NACK (seed 001, Scalable reliable multicasting)",
		Params: mcastParams(
			Param{"history", "forever", "forever: the sender keeps every message (the notes' guarantee); " +
				"timed: it deletes them after some time, possibly before a NACK arrives"},
			Param{"suppression", "on", "off: a process NACKs even when another's NACK for the same messages came first"},
			Param{"session", "on", "on: a sender announces its latest number once its traffic settles; " +
				"off: the notes' scheme alone, which never notices a lost last message"}),
		Build: func(v Values, cfg model.Config) (checker.Target, error) {
			n, wl, err := mcastWorkload(v)
			if err != nil {
				return nil, err
			}
			p := nack.New(n, wl)
			switch h := v.Get("history"); h {
			case "forever":
			case "timed":
				p.History = nack.Timed
			default:
				return nil, fmt.Errorf("parameter history=%s: want forever or timed", clip.Quote(h))
			}
			if p.Suppress, err = onOff(v, "suppression"); err != nil {
				return nil, err
			}
			if p.Session, err = onOff(v, "session"); err != nil {
				return nil, err
			}
			return mcastSpec(p, cfg, v, false, nack.Properties)
		},
		Family: "multicast",
		Costs:  nackCosts,
	})
}

// onOff reads an on/off parameter.
func onOff(v Values, name string) (bool, error) {
	switch s := v.Get(name); s {
	case "on":
		return true, nil
	case "off":
		return false, nil
	default:
		return false, fmt.Errorf("parameter %s=%s: want on or off", name, clip.Quote(s))
	}
}

// nackCosts: N-1 DATA per multicast and no feedback without loss. Under
// the loss of p0's first message on its way to every receiver, its second
// message reveals the gap to all; each receiver's random delay is its
// distance from p0 in rounds, so the first NACK, multicast to the group,
// reaches the others before their own delay is over and suppresses
// their NACKs: one NACK and one repair. When every delay is the same
// ("setting timers to ensure only one NACK is hard"), every receiver
// NACKs and the sender repairs each time.
func nackCosts(n int) ([]CostRow, error) {
	p := nack.New(n, multicast.Workload{Msgs: 2, Senders: 1})
	ok, err := costs.Multicast(mcastScenario(p, nack.KindOf, nil, nil))
	if err != nil {
		return nil, err
	}
	id := func(m nack.Msg) multicast.MsgID { return m.ID }
	lose := loseFirstData(nack.KindOf, id, uint64(1<<n-1)&^1)
	delay := func(spread bool) func(model.NodeID, model.TimerID) int {
		return func(node model.NodeID, t model.TimerID) int {
			switch {
			case t == nack.SessionTimer:
				return -1 // the second message reveals the gap
			case t == nack.NackTimer && spread:
				return int(node) // its distance from p0
			case t == nack.NackTimer:
				return 1
			}
			return 0
		}
	}
	spread, err := costs.Multicast(mcastScenario(p, nack.KindOf, lose, delay(true), 0, 0))
	if err != nil {
		return nil, err
	}
	same, err := costs.Multicast(mcastScenario(p, nack.KindOf, lose, delay(false), 0, 0))
	if err != nil {
		return nil, err
	}
	return []CostRow{
		mcastRow("messages per multicast", ok.Sent(), ok.Breakdown(), "N-1 DATA", n-1, ""),
		mcastRow("feedback messages without loss", ok.Sent()-ok.Sent("DATA"), "", "0 (delivery is never acknowledged)", 0, ""),
		mcastRow("delivery latency (message delays)", ok.Latency, "", "1", 1, ""),
		mcastRow("2 multicasts, the 1st lost to all: NACK messages", spread.Sent("NACK"), spread.Breakdown(),
			"N-1 (one NACK to the group, the others suppressed)", n-1, ""),
		mcastRow("2 multicasts, the 1st lost to all: all messages", spread.Sent(), "",
			"2(N-1) DATA + (N-1) NACK + (N-1) repair = 4(N-1)", 4*(n-1), ""),
		mcastRow("2 multicasts, the 1st lost to all: latency", spread.Latency, "", "4 (DATA, delay, NACK, repair)", 4, ""),
		mcastRow("same loss, equal delays: NACK messages", same.Sent("NACK"), same.Breakdown(),
			"(N-1)^2 (every receiver NACKs to the group)", (n-1)*(n-1), ""),
	}, nil
}
