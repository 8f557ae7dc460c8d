package protocols

import (
	"fmt"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/internal/clip"
	"github.com/coordcheck/coordcheck/model"
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
		Costs:  costs.NackTable,
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
