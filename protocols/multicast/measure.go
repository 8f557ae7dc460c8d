package multicast

import (
	"bytes"
	"fmt"
	"math/bits"
	"strings"

	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
)

// Scenario is one multicast run to measure (`coordcheck costs
// multicast`). The run is the protocol's own code driven through
// model.System in synchronous rounds: round r delivers every message in
// flight at its start (each message takes one message delay), then fires
// the timers that are due. Local steps take no time: the senders'
// multicasts and their Transmit firings all happen in round 0.
type Scenario[S, M any] struct {
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

// Run is what a scenario measured.
type Run struct {
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
func (r Run) Sent(kinds ...string) int {
	t := 0
	for _, k := range r.Kinds {
		if len(kinds) == 0 || containsWord(kinds, k.Kind) {
			t += k.Sent
		}
	}
	return t
}

// Breakdown is "2 DATA, 2 ACK, 1 DATA lost".
func (r Run) Breakdown() string {
	var parts []string
	for _, k := range r.Kinds {
		parts = append(parts, fmt.Sprintf("%d %s", k.Sent, k.Kind))
		if k.Lost > 0 {
			parts = append(parts, fmt.Sprintf("%d %s lost", k.Lost, k.Kind))
		}
	}
	return strings.Join(parts, ", ")
}

func containsWord(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func (r *Run) count(kind string) *KindCount {
	for i := range r.Kinds {
		if r.Kinds[i].Kind == kind {
			return &r.Kinds[i]
		}
	}
	r.Kinds = append(r.Kinds, KindCount{Kind: kind})
	return &r.Kinds[len(r.Kinds)-1]
}

// sent is a message a step sent.
type sent[M any] struct {
	to  model.NodeID
	msg M
}

// meter runs a scenario.
type meter[S, M any] struct {
	sc    Scenario[S, M]
	run   Run
	w     *model.World[S, M]
	next  model.World[S, M]
	armed [][64]int // node -> timer -> the round it was armed in
	round int
	acts  []model.Action
	enc   []byte
}

// Measure runs sc until every live process delivered every multicast and
// no message is in flight, and returns its counts.
func Measure[S, M any](sc Scenario[S, M]) (Run, error) {
	sys := sc.System
	if !sys.Config.History {
		return Run{}, fmt.Errorf("multicast.Measure: the system keeps no history")
	}
	m := &meter[S, M]{sc: sc, w: sys.Init(), armed: make([][64]int, sys.N())}
	for _, p := range sc.Senders {
		m.finishLocal() // a sender transmits one multicast at a time
		if err := m.apply(model.Action{Kind: model.ActInput, Node: p, Input: Input}); err != nil {
			return m.run, err
		}
	}
	if len(sc.Crash) > 0 {
		m.finishLocal()
		for _, p := range sc.Crash {
			if err := m.apply(model.Action{Kind: model.ActCrash, Node: p}); err != nil {
				return m.run, err
			}
		}
	}
	limit := 20*sys.N() + 20
	for !m.done() {
		// Timers are looked at only while the run is not over: a
		// protocol may keep one armed for good (a session message).
		if !m.finishLocal() && len(m.w.Net) == 0 && !m.timerAhead() {
			break // nothing more can happen: some deliveries are missing for good
		}
		if m.done() {
			break
		}
		if m.round++; m.round > limit {
			return m.run, fmt.Errorf("the multicasts are not delivered everywhere after %d rounds", limit)
		}
		if err := m.deliverAll(); err != nil {
			return m.run, err
		}
	}
	m.run.Missing = m.missing()
	return m.run, nil
}

// apply takes a in the current world, counting what it sends and losing
// what the scenario loses.
func (m *meter[S, M]) apply(a model.Action) error {
	sys := m.sc.System
	before := append([]uint64(nil), m.w.Timers...)
	hist := len(m.w.History)
	sys.Apply(m.w, a, &m.next)
	m.w.CopyFrom(&m.next)
	if len(m.w.History) > hist {
		m.run.Latency = max(m.run.Latency, m.round) // a delivery (multicasts are at round 0)
	}
	var lost []sent[M]
	sys.LastOut().Sends(func(to model.NodeID, msg M) {
		c := m.run.count(m.sc.Kind(msg))
		c.Sent++
		if m.sc.Lose != nil && !m.w.IsDown(to) && m.sc.Lose(a.Node, to, msg, m.round) {
			c.Lost++
			lost = append(lost, sent[M]{to, msg})
		}
	})
	for _, l := range lost {
		i := m.find(a.Node, l.to, l.msg, true)
		if i < 0 {
			return fmt.Errorf("multicast.Measure: a message to lose is not in flight")
		}
		m.w.Net = append(m.w.Net[:i], m.w.Net[i+1:]...)
	}
	for i := range m.w.Timers {
		for t := m.w.Timers[i] &^ before[i]; t != 0; t &= t - 1 {
			m.armed[i][trailing(t)] = m.round
		}
	}
	if a.Kind == model.ActFire && m.w.Timers[a.Node]&(1<<a.Timer) != 0 {
		m.armed[a.Node][a.Timer] = m.round // re-armed by its own firing
	}
	return nil
}

// find is the index in Net of the message msg from -> to: the last such
// one (just sent) or the first (the oldest).
func (m *meter[S, M]) find(from, to model.NodeID, msg M, last bool) int {
	want := m.sc.System.Codec().AppendMsg(nil, msg)
	found := -1
	for i, e := range m.w.Net {
		if e.From == from && e.To == to {
			m.enc = m.sc.System.Codec().AppendMsg(m.enc[:0], e.Msg)
			if bytes.Equal(m.enc, want) {
				found = i
				if !last {
					return i
				}
			}
		}
	}
	return found
}

// deliverAll delivers every message in flight at the round's start.
func (m *meter[S, M]) deliverAll() error {
	type env struct {
		from, to model.NodeID
		msg      M
	}
	var now []env
	for _, e := range m.w.Net {
		now = append(now, env{e.From, e.To, e.Msg})
	}
	for _, e := range now {
		i := m.find(e.from, e.to, e.msg, false)
		if i < 0 || m.w.IsDown(e.to) {
			continue
		}
		if err := m.apply(model.Action{Kind: model.ActDeliver, Node: e.to, Peer: e.from, Slot: int32(i)}); err != nil {
			return err
		}
	}
	return nil
}

// finishLocal fires the due timers, again and again, until none is, and
// reports whether any fired.
func (m *meter[S, M]) finishLocal() (any bool) {
	for range 1000 {
		fired := false
		m.acts = m.sc.System.Actions(m.w, m.acts[:0])
		for _, a := range m.acts {
			if a.Kind != model.ActFire {
				continue
			}
			d := 0
			if m.sc.Delay != nil {
				d = m.sc.Delay(a.Node, a.Timer)
			}
			if d < 0 || m.round-m.armed[a.Node][a.Timer] < d {
				continue
			}
			if err := m.apply(a); err != nil {
				panic(err)
			}
			fired, any = true, true
			break // the actions changed
		}
		if !fired {
			return any
		}
	}
	return any
}

// timerAhead reports whether some timer is enabled but not yet due.
func (m *meter[S, M]) timerAhead() bool {
	m.acts = m.sc.System.Actions(m.w, m.acts[:0])
	for _, a := range m.acts {
		if a.Kind == model.ActFire && (m.sc.Delay == nil || m.sc.Delay(a.Node, a.Timer) >= 0) {
			return true
		}
	}
	return false
}

// done reports whether no message is in flight and every live process
// delivered every message multicast.
func (m *meter[S, M]) done() bool { return len(m.w.Net) == 0 && m.missing() == 0 }

// missing counts the pairs of a live process and a multicast it has not
// delivered.
func (m *meter[S, M]) missing() int {
	logs, err := invariants.McastLogs(m.w)
	if err != nil {
		panic(err)
	}
	var all uint64
	n := 0
	for _, log := range logs {
		for _, ev := range log {
			if ev.Kind == invariants.McastSend {
				all |= 1 << (uint(ev.Msg.Sender)*MaxMsgs + uint(ev.Msg.Seq) - 1)
			}
		}
	}
	for i, log := range logs {
		if m.w.IsDown(model.NodeID(i)) {
			continue
		}
		got := uint64(0)
		for _, ev := range log {
			if ev.Kind == invariants.McastDeliver {
				got |= 1 << (uint(ev.Msg.Sender)*MaxMsgs + uint(ev.Msg.Seq) - 1)
			}
		}
		n += bits.OnesCount64(all &^ got)
	}
	return n
}

func trailing(x uint64) int {
	n := 0
	for x&1 == 0 {
		x >>= 1
		n++
	}
	return n
}
