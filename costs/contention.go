package costs

import (
	"fmt"
	"sort"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/maekawadf"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

// MaekawaContention measures the messages of seed 002's worst case, in
// which the deadlock handling of Maekawa's algorithm works: every process
// requests at once (all requests have timestamp 1, so priority is by id),
// each enters as soon as it has all votes and leaves at once, until each
// has been in the critical section once. The run goes in synchronous
// rounds (Rounds): every round delivers every message in flight at its
// start. Within a round, a voter receives the requests of higher priority
// first, or, with lowFirst, those of lower priority first, so that each
// later request outranks the vote and the INQUIREs and YIELDs come into
// play. p must allow one round per process.
func MaekawaContention(p *maekawadf.Protocol, lowFirst bool) (maekawadf.Tally, error) {
	var t maekawadf.Tally
	sys, err := model.NewSystem[maekawadf.State, maekawadf.Msg](p, model.Config{})
	if err != nil {
		return t, err
	}
	d := NewRounds(sys, sys.Init())
	d.Sent = func(_ model.Action, _ model.NodeID, m maekawadf.Msg) bool {
		t[m.Kind]++
		return false
	}
	if lowFirst {
		d.Order = func(plan []Link) {
			sort.SliceStable(plan, func(a, b int) bool {
				return plan[a].To < plan[b].To || plan[a].To == plan[b].To && plan[a].From > plan[b].From
			})
		}
	}
	// input takes in at the first process where it is enabled.
	var failed error
	input := func(in model.Input) bool {
		for i := range p.N {
			ok, err := d.Input(model.NodeID(i), in)
			if err != nil {
				failed = err
			}
			if ok || err != nil {
				return ok
			}
		}
		return false
	}
	for input(mutex.Request) {
	}
	for round := 0; round <= 8*p.N && failed == nil; round++ {
		for input(mutex.Enter) {
			input(mutex.Exit)
		}
		if len(d.W.Net) == 0 {
			for i := range p.N {
				if d.W.Nodes[i].Rounds != 1 {
					return t, fmt.Errorf("%s has not entered and no message is in flight", model.NodeID(i))
				}
			}
			return t, failed
		}
		if _, err := d.Deliver(); err != nil {
			return t, err
		}
	}
	if failed != nil {
		return t, failed
	}
	return t, fmt.Errorf("not every process entered within %d rounds", 8*p.N)
}
