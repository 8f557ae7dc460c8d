package maekawadf

import (
	"fmt"
	"sort"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

// Tally counts the messages of a run by kind.
type Tally [Yield + 1]int

// Total is the number of messages of every kind.
func (t Tally) Total() int {
	n := 0
	for _, c := range t {
		n += c
	}
	return n
}

// String lists the counts by kind: "REQ 9, GRANT 10, ...".
func (t Tally) String() string {
	str := ""
	for k, c := range t {
		if k > 0 {
			str += ", "
		}
		str += fmt.Sprintf("%s %d", kindNames[k], c)
	}
	return str
}

// Contention measures the messages of seed 002's worst case, in which the
// deadlock handling works: every process requests at once (all requests
// have timestamp 1, so priority is by id), each enters as soon as it has
// all votes and leaves at once, until each has been in the critical
// section once. The run goes in synchronous rounds, as costs.Mutex's:
// every round delivers every message in flight at its start. Within a
// round, a voter receives the requests of higher priority first, or, with
// lowFirst, those of lower priority first, so that each later request
// outranks the vote and the INQUIREs and YIELDs come into play. p must
// allow one round per process.
func Contention(p *Protocol, lowFirst bool) (Tally, error) {
	var t Tally
	sys, err := model.NewSystem[State, Msg](p, model.Config{})
	if err != nil {
		return t, err
	}
	w, next := sys.Init(), &model.World[State, Msg]{}
	apply := func(a model.Action) {
		sys.Apply(w, a, next)
		sys.LastOut().Sends(func(_ model.NodeID, m Msg) { t[m.Kind]++ })
		w, next = next, w
	}
	input := func(in model.Input) bool {
		for _, a := range sys.Actions(w, nil) {
			if a.Kind == model.ActInput && a.Input == in {
				apply(a)
				return true
			}
		}
		return false
	}
	for input(mutex.Request) {
	}
	for round := 0; round <= 8*p.N; round++ {
		for input(mutex.Enter) {
			input(mutex.Exit)
		}
		if len(w.Net) == 0 {
			for i := range p.N {
				if w.Nodes[i].Rounds != 1 {
					return t, fmt.Errorf("%s has not entered and no message is in flight", model.NodeID(i))
				}
			}
			return t, nil
		}
		type link struct{ from, to model.NodeID }
		var plan []link
		for _, e := range w.Net {
			plan = append(plan, link{e.From, e.To})
		}
		if lowFirst {
			sort.SliceStable(plan, func(a, b int) bool {
				return plan[a].to < plan[b].to || plan[a].to == plan[b].to && plan[a].from > plan[b].from
			})
		}
		for _, l := range plan {
			for _, a := range sys.Actions(w, nil) {
				if a.Kind == model.ActDeliver && a.Peer == l.from && a.Node == l.to {
					apply(a)
					break
				}
			}
		}
	}
	return t, fmt.Errorf("not every process entered within %d rounds", 8*p.N)
}
