package protocols

import (
	"fmt"

	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/internal/clip"
	"github.com/coordcheck/coordcheck/protocols/multicast"
	"github.com/coordcheck/coordcheck/protocols/multicast/nack"
)

func init() {
	Register(mcastEntry("nack-mcast",
		"scalable reliable multicast: only missing messages NACKed, NACKs multicast to the group, "+
			"suppressed by another's NACK (seed 001, Scalable reliable multicasting)",
		mcastBuild(newNack, false, nack.Properties), costs.NackTable,
		Param{"history", "forever", "forever: the sender keeps every message (the notes' guarantee); " +
			"timed: it deletes them after some time, possibly before a NACK arrives"},
		Param{"suppression", "on", "off: a process NACKs even when another's NACK for the same messages came first"},
		Param{"session", "on", "on: a sender announces its latest number once its traffic settles; " +
			"off: the notes' scheme alone, which never notices a lost last message"}))
}

// newNack is NACK-based multicast with -history, -suppression and
// -session.
func newNack(n int, wl multicast.Workload, v Values) (*nack.Protocol, error) {
	p := nack.New(n, wl)
	switch h := v.Get("history"); h {
	case "forever":
	case "timed":
		p.History = nack.Timed
	default:
		return nil, fmt.Errorf("parameter history=%s: want forever or timed", clip.Quote(h))
	}
	var err error
	if p.Suppress, err = onOff(v, "suppression"); err != nil {
		return nil, err
	}
	if p.Session, err = onOff(v, "session"); err != nil {
		return nil, err
	}
	return p, nil
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
