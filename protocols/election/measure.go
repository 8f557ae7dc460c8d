// Package election measures the costs of leader-election algorithms as
// the notes count them (seed 001, "Comparison of election algorithms";
// seed 003, "Analysis"): the messages one election run sends, and its
// completion time in message transmission times, for a given initiator.
//
// A run is the protocol's own code driven through model.System in
// synchronous rounds: round r delivers every message in flight at its
// start (each message takes one transmission time), then fires the timers
// that are due. A timer is due once it has been armed for its delay (a
// timeout is as long as the round trip it waits for) and the system
// enables it (under perfect timers, once no reply can still arrive).
package election

import (
	"fmt"
	"math/bits"

	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
)

// Scenario is one election run to measure.
type Scenario[S, M any] struct {
	System *model.System[S, M]
	// Setup is applied before time 0 and not counted: the failure the run
	// reacts to (the coordinator crashes), or the initiator's crash before
	// a restart.
	Setup []model.Action
	// Start is the initiator's first action, at time 0.
	Start model.Action
	// Kind names a message's kind in the counts: "ELECTION".
	Kind func(m M) string
	// Delay is how many transmission times timer t of a node waits once
	// armed; negative: it never fires in this run (a failure detector of
	// a process that is not the initiator).
	Delay func(node model.NodeID, t model.TimerID) int
}

// KindStats are the figures of one kind of message.
type KindStats struct {
	Kind string
	// Sent counts the messages put on the network; Lost those sent to a
	// crashed process (lost at the send, not in Sent).
	Sent, Lost int
	// Last is the round in which the last one was delivered.
	Last int
}

// Run is what one scenario measured.
type Run struct {
	Initiator model.NodeID
	// Kinds holds the figures per kind, in the order kinds first appear.
	Kinds []KindStats
	// Leader is the coordinator every live process decided on.
	Leader model.NodeID
}

func (r *Run) stats(kind string) *KindStats {
	for i := range r.Kinds {
		if r.Kinds[i].Kind == kind {
			return &r.Kinds[i]
		}
	}
	r.Kinds = append(r.Kinds, KindStats{Kind: kind})
	return &r.Kinds[len(r.Kinds)-1]
}

// sum adds f over the given kinds, or over all kinds when none is given.
func (r Run) sum(kinds []string, f func(KindStats) int) int {
	t := 0
	for _, k := range r.Kinds {
		if len(kinds) == 0 || contains(kinds, k.Kind) {
			t += f(k)
		}
	}
	return t
}

// Sent is the number of messages of the given kinds (all when none) that
// reached the network.
func (r Run) Sent(kinds ...string) int { return r.sum(kinds, func(k KindStats) int { return k.Sent }) }

// Lost is the number of messages of the given kinds (all when none) sent
// to a crashed process.
func (r Run) Lost(kinds ...string) int { return r.sum(kinds, func(k KindStats) int { return k.Lost }) }

// Time is the completion time: the round of the last delivery of a
// message of the given kinds (all when none).
func (r Run) Time(kinds ...string) int {
	t := 0
	for _, k := range r.Kinds {
		if len(kinds) == 0 || contains(kinds, k.Kind) {
			t = max(t, k.Last)
		}
	}
	return t
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Extremes returns the run with the least and the one with the greatest
// cost; ties go to the earlier run.
func Extremes(runs []Run, cost func(Run) int) (best, worst Run) {
	for i, r := range runs {
		if i == 0 || cost(r) < cost(best) {
			best = r
		}
		if i == 0 || cost(r) > cost(worst) {
			worst = r
		}
	}
	return best, worst
}

// Measure runs sc in synchronous rounds until no message is in flight and
// no timer is pending, and checks that the run ended as an election must
// (invariants.RunEnded, every live process decided on the highest live
// one). initiator only labels the run.
func Measure[S, M any](sc Scenario[S, M], e invariants.Elector[S, M], initiator model.NodeID) (Run, error) {
	m := &meter[S, M]{sc: sc, run: Run{Initiator: initiator}, limit: 8*sc.System.N()*sc.System.N() + 16}
	sys := sc.System
	w := sys.Init()
	for _, a := range sc.Setup {
		sys.Apply(w, a, &m.next)
		w.CopyFrom(&m.next)
	}
	m.armed = make([][64]int, sys.N()) // whatever is armed now was armed at time 0
	m.act(w, sc.Start, 0)
	if err := m.fireDue(w, 0); err != nil {
		return m.run, err
	}
	for r := 1; len(w.Net) > 0 || m.pending(w); r++ {
		if r > m.limit {
			return m.run, fmt.Errorf("the election started by %s is not over after %d rounds", initiator, m.limit)
		}
		m.deliver(w, r)
		if err := m.fireDue(w, r); err != nil {
			return m.run, err
		}
	}
	if !invariants.RunEnded(e, w) {
		return m.run, fmt.Errorf("the election started by %s stopped before its end", initiator)
	}
	best, _ := invariants.HighestLive(e, w)
	for i := range w.Nodes {
		id := model.NodeID(i)
		if w.IsDown(id) {
			continue
		}
		if l, ok := e.Leader(id, w.Nodes[i]); !ok || l != best {
			return m.run, fmt.Errorf("the election started by %s ended with %s not deciding on %s", initiator, id, best)
		}
	}
	m.run.Leader = best
	return m.run, nil
}

type meter[S, M any] struct {
	sc    Scenario[S, M]
	run   Run
	next  model.World[S, M]
	armed [][64]int // node -> timer -> round it was armed
	limit int
}

// act applies a in w at round r, counting its messages and noting the
// timers it arms.
func (m *meter[S, M]) act(w *model.World[S, M], a model.Action, r int) {
	sys := m.sc.System
	before := w.Timers[a.Node]
	if a.Kind == model.ActFire {
		before &^= 1 << a.Timer
	}
	if a.Kind == model.ActDeliver {
		m.run.stats(m.sc.Kind(w.Net[a.Slot].Msg)).Last = r
	}
	sys.Apply(w, a, &m.next)
	w.CopyFrom(&m.next)
	sys.LastOut().Sends(func(to model.NodeID, msg M) {
		k := m.run.stats(m.sc.Kind(msg))
		if w.IsDown(to) {
			k.Lost++
		} else {
			k.Sent++
		}
	})
	for t := w.Timers[a.Node] &^ before; t != 0; t &= t - 1 {
		m.armed[a.Node][trailingZeros(t)] = r
	}
}

// deliver is one round's deliveries: every message in flight at its
// start, link by link in canonical order (receiver, then sender).
func (m *meter[S, M]) deliver(w *model.World[S, M], r int) {
	type link struct{ from, to model.NodeID }
	var plan []link
	for _, e := range w.Net {
		plan = append(plan, link{e.From, e.To})
	}
	for _, l := range plan {
		for _, a := range m.sc.System.Actions(w, nil) {
			if a.Kind == model.ActDeliver && a.Peer == l.from && a.Node == l.to {
				m.act(w, a, r)
				break
			}
		}
	}
}

// due reports whether timer t of node, armed, may fire at round r.
func (m *meter[S, M]) due(node model.NodeID, t model.TimerID, r int) bool {
	d := m.sc.Delay(node, t)
	return d >= 0 && m.armed[node][t]+d <= r
}

// fireDue fires, one at a time, every enabled timer due at round r.
func (m *meter[S, M]) fireDue(w *model.World[S, M], r int) error {
	for k := 0; ; k++ {
		if k > m.limit {
			return fmt.Errorf("timers keep firing in round %d", r)
		}
		fired := false
		for _, a := range m.sc.System.Actions(w, nil) {
			if a.Kind == model.ActFire && m.due(a.Node, a.Timer, r) {
				m.act(w, a, r)
				fired = true
				break
			}
		}
		if !fired {
			return nil
		}
	}
}

// pending reports whether some armed timer may still fire.
func (m *meter[S, M]) pending(w *model.World[S, M]) bool {
	for i, bits := range w.Timers {
		if w.IsDown(model.NodeID(i)) {
			continue
		}
		for t := bits; t != 0; t &= t - 1 {
			if m.sc.Delay(model.NodeID(i), trailingZeros(t)) >= 0 {
				return true
			}
		}
	}
	return false
}

func trailingZeros(x uint64) model.TimerID { return model.TimerID(bits.TrailingZeros64(x)) }
