package costs

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast"
)

// McastScenario is one multicast run to measure (`coordcheck costs
// multicast`). The run is the protocol's own code driven through
// model.System in synchronous rounds: round r delivers every message in
// flight at its start (each message takes one message delay), then fires
// the timers that are due. Local steps take no time: the senders'
// multicasts and their Transmit firings all happen in round 0.
type McastScenario[S, M any] struct {
	// System must keep the history (model.Config.History).
	System *model.System[S, M]
	// Senders multicast once each at time 0, in this order.
	Senders []model.NodeID
	// Crash are the processes that crash at time 0, once the senders'
	// multicasts are made and transmitted (what was sent to them is lost):
	// the run of a view change.
	Crash []model.NodeID
	// Kind names a message's kind in the counts: "DATA", "ACK".
	Kind func(m M) string
	// Lose, when set, says whether a message just sent is lost (the
	// run's failure: "a message lost on its way to every receiver").
	Lose func(from, to model.NodeID, m M, round int) bool
	// Delay is how many rounds timer t of a node waits once armed before
	// it may fire (0: in the round it was armed); negative: it never
	// fires. A timer fires only when the system enables it, too.
	Delay func(node model.NodeID, t model.TimerID) int
}

// KindCount counts the messages of one kind.
type KindCount struct {
	Kind string
	// Sent counts every message put on the network, Lost those of them
	// the scenario lost.
	Sent, Lost int
}

// McastRun is what a multicast scenario measured.
type McastRun struct {
	// Kinds, in the order kinds first appear.
	Kinds []KindCount
	// Missing counts the deliveries that never happened: a live process
	// and a multicast it did not deliver when the run could go no further.
	Missing int
	// Latency is the round of the last delivery: the delay, in message
	// delays, from the multicasts to their delivery everywhere.
	Latency int
}

// Sent is the number of messages of the given kinds (all when none).
func (r McastRun) Sent(kinds ...string) int {
	t := 0
	for _, k := range r.Kinds {
		if len(kinds) == 0 || contains(kinds, k.Kind) {
			t += k.Sent
		}
	}
	return t
}

// Breakdown is "2 DATA, 2 ACK, 1 DATA lost".
func (r McastRun) Breakdown() string {
	var parts []string
	for _, k := range r.Kinds {
		parts = append(parts, fmt.Sprintf("%d %s", k.Sent, k.Kind))
		if k.Lost > 0 {
			parts = append(parts, fmt.Sprintf("%d %s lost", k.Lost, k.Kind))
		}
	}
	return strings.Join(parts, ", ")
}

func (r *McastRun) count(kind string) *KindCount {
	for i := range r.Kinds {
		if r.Kinds[i].Kind == kind {
			return &r.Kinds[i]
		}
	}
	r.Kinds = append(r.Kinds, KindCount{Kind: kind})
	return &r.Kinds[len(r.Kinds)-1]
}

// Multicast runs sc until every live process delivered every multicast
// and no message is in flight, and returns its counts.
func Multicast[S, M any](sc McastScenario[S, M]) (McastRun, error) {
	sys := sc.System
	var run McastRun
	if !sys.Config.History {
		return run, fmt.Errorf("costs.Multicast: the system keeps no history")
	}
	d := NewRounds(sys, sys.Init())
	d.Delay = sc.Delay
	d.Sent = func(a model.Action, to model.NodeID, m M) bool {
		c := run.count(sc.Kind(m))
		c.Sent++
		if sc.Lose != nil && !d.W.IsDown(to) && sc.Lose(a.Node, to, m, d.Round) {
			c.Lost++
			return true
		}
		return false
	}
	const local = 1000 // timer firings in one round before giving up
	for _, p := range sc.Senders {
		if _, err := d.FireDue(local); err != nil { // a sender transmits one multicast at a time
			return run, err
		}
		if err := d.Apply(model.Action{Kind: model.ActInput, Node: p, Input: multicast.Input}); err != nil {
			return run, err
		}
	}
	if len(sc.Crash) > 0 {
		if _, err := d.FireDue(local); err != nil {
			return run, err
		}
		for _, p := range sc.Crash {
			if err := d.Apply(model.Action{Kind: model.ActCrash, Node: p}); err != nil {
				return run, err
			}
		}
	}
	limit := 20*sys.N() + 20
	for !mcastDone(d.W) {
		// Timers are looked at only while the run is not over: a
		// protocol may keep one armed for good (a session message).
		fired, err := d.FireDue(local)
		if err != nil {
			return run, err
		}
		if !fired && len(d.W.Net) == 0 && !d.TimerAhead() {
			break // nothing more can happen: some deliveries are missing for good
		}
		if mcastDone(d.W) {
			break
		}
		if d.Round >= limit {
			return run, fmt.Errorf("the multicasts are not delivered everywhere after %d rounds", limit)
		}
		if _, err := d.Deliver(); err != nil {
			return run, err
		}
	}
	run.Latency = d.LastOutput
	run.Missing = mcastMissing(d.W)
	return run, nil
}

// mcastDone reports whether no message is in flight and every live
// process delivered every message multicast.
func mcastDone[S, M any](w *model.World[S, M]) bool { return len(w.Net) == 0 && mcastMissing(w) == 0 }

// missing counts the pairs of a live process and a multicast it has not
// delivered.
func mcastMissing[S, M any](w *model.World[S, M]) int {
	logs, err := invariants.McastLogs(w)
	if err != nil {
		panic(err)
	}
	var all uint64
	n := 0
	for _, log := range logs {
		for _, ev := range log {
			if ev.Kind == invariants.McastSend {
				all |= 1 << (uint(ev.Msg.Sender)*multicast.MaxMsgs + uint(ev.Msg.Seq) - 1)
			}
		}
	}
	for i, log := range logs {
		if w.IsDown(model.NodeID(i)) {
			continue
		}
		got := uint64(0)
		for _, ev := range log {
			if ev.Kind == invariants.McastDeliver {
				got |= 1 << (uint(ev.Msg.Sender)*multicast.MaxMsgs + uint(ev.Msg.Seq) - 1)
			}
		}
		n += bits.OnesCount64(all &^ got)
	}
	return n
}
