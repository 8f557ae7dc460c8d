package protocols

import (
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/protocols/multicast"
	"github.com/coordcheck/coordcheck/protocols/multicast/nack"
)

func init() {
	Register(mcastEntry("nack-mcast",
		"scalable reliable multicast: only missing messages NACKed, NACKs multicast to the group, "+
			"suppressed by another's NACK (seed 001, Scalable reliable multicasting)",
		mcastBuild(newNack, false, nack.Properties), costs.NackTable,
		Param{"retain", "forever", "how long a sender keeps its history buffer: forever, every message (the notes' guarantee); " +
			"timed: it deletes them after some time, possibly before a NACK arrives"},
		Param{"suppression", "on", "off: a process NACKs even when another's NACK for the same messages came first"},
		Param{"session", "on", "on: a sender announces its latest number once its traffic settles; " +
			"off: the notes' scheme alone, which never notices a lost last message"}))
}

// newNack is NACK-based multicast with -retain, -suppression and
// -session. (The history buffer's parameter is not named -history:
// check has a flag of that name.)
func newNack(n int, wl multicast.Workload, v Values) (*nack.Protocol, error) {
	p := nack.New(n, wl)
	h, err := v.Choice("retain", "forever", "timed")
	if err != nil {
		return nil, err
	}
	p.History = []nack.History{nack.Forever, nack.Timed}[h]
	if p.Suppress, err = v.On("suppression"); err != nil {
		return nil, err
	}
	if p.Session, err = v.On("session"); err != nil {
		return nil, err
	}
	return p, nil
}
