// Package costs measures what the notes' metric tables give: the messages
// and the delays of each algorithm, by running the protocol itself in
// synchronous rounds, so that the figures are those of the code that is
// checked. One driver (Rounds) runs every family: a round delivers every
// message in flight at its start (one message delay), link by link in
// canonical order, and timers fire a given number of rounds after they
// were armed. The families differ only in the scenarios they run on it:
// Mutex (entries, exits, synchronization delay), Election (one election,
// from a failure or a start), Multicast (one multicast per sender, with
// losses or a crash).
package costs

import (
	"bytes"
	"fmt"
	"math/bits"

	"github.com/coordcheck/coordcheck/model"
)

// Rounds runs a system in synchronous rounds from a world, and reports
// what each step sends to its hooks.
type Rounds[S, M any] struct {
	Sys *model.System[S, M]
	W   *model.World[S, M]
	// Round is the current round: 0 until the first Deliver.
	Round int
	// Sent, when set, is called for every message a step sent, after the
	// step; returning true loses it (it is taken off the network).
	Sent func(a model.Action, to model.NodeID, m M) (lose bool)
	// Delivering, when set, is called with each message Deliver delivers,
	// before it is delivered.
	Delivering func(m M)
	// Delay is how many rounds timer t of a node waits once armed before
	// it may fire (nil: none); negative: it never fires.
	Delay func(node model.NodeID, t model.TimerID) int
	// LastOutput is the last round in which a step recorded history
	// (model.Config.History): a delivery, for a multicast.
	LastOutput int

	next     model.World[S, M]
	armed    [][64]int // node -> timer -> the round it was armed in
	acts     []model.Action
	lost     []lostMsg[M]
	enc, was []byte
	before   []uint64
}

type lostMsg[M any] struct {
	from, to model.NodeID
	msg      M
}

// NewRounds starts a run of sys from w; what is armed in w was armed at
// round 0.
func NewRounds[S, M any](sys *model.System[S, M], w *model.World[S, M]) *Rounds[S, M] {
	return &Rounds[S, M]{Sys: sys, W: w, armed: make([][64]int, sys.N())}
}

// Apply takes a in the world, reports what it sent, loses what Sent says
// to lose, and notes the timers it armed.
func (d *Rounds[S, M]) Apply(a model.Action) error {
	d.before = append(d.before[:0], d.W.Timers...)
	hist := len(d.W.History)
	d.Sys.Apply(d.W, a, &d.next)
	d.W.CopyFrom(&d.next)
	if len(d.W.History) > hist {
		d.LastOutput = max(d.LastOutput, d.Round)
	}
	d.lost = d.lost[:0]
	if d.Sent != nil {
		d.Sys.LastOut().Sends(func(to model.NodeID, m M) {
			if d.Sent(a, to, m) {
				d.lost = append(d.lost, lostMsg[M]{a.Node, to, m})
			}
		})
	}
	for _, l := range d.lost {
		i := d.find(l.from, l.to, l.msg)
		if i < 0 {
			return fmt.Errorf("costs: a message to lose is not in flight")
		}
		d.W.Net = append(d.W.Net[:i], d.W.Net[i+1:]...)
	}
	for i := range d.W.Timers {
		for t := d.W.Timers[i] &^ d.before[i]; t != 0; t &= t - 1 {
			d.armed[i][bits.TrailingZeros64(t)] = d.Round
		}
	}
	if a.Kind == model.ActFire && d.W.Timers[a.Node]&(1<<a.Timer) != 0 {
		d.armed[a.Node][a.Timer] = d.Round // re-armed by its own firing
	}
	return nil
}

// find is the index in Net of the last message m from -> to (the one
// just sent), or -1.
func (d *Rounds[S, M]) find(from, to model.NodeID, m M) int {
	d.was = d.Sys.Codec().AppendMsg(d.was[:0], m)
	found := -1
	for i, e := range d.W.Net {
		if e.From == from && e.To == to {
			d.enc = d.Sys.Codec().AppendMsg(d.enc[:0], e.Msg)
			if bytes.Equal(d.enc, d.was) {
				found = i
			}
		}
	}
	return found
}

// Input takes input in at node p if it is enabled, and says whether it
// was.
func (d *Rounds[S, M]) Input(p model.NodeID, in model.Input) (bool, error) {
	d.acts = d.Sys.Actions(d.W, d.acts[:0])
	for _, a := range d.acts {
		if a.Kind == model.ActInput && a.Node == p && a.Input == in {
			return true, d.Apply(a)
		}
	}
	return false, nil
}

// Deliver is one round: it delivers every message in flight at its start,
// link by link in canonical order (a FIFO link's first k messages, where
// k were on it at the start; a message to a crashed process is not
// delivered), and says whether any was in flight.
func (d *Rounds[S, M]) Deliver() (bool, error) {
	d.Round++
	type link struct{ from, to model.NodeID }
	var plan []link
	for _, e := range d.W.Net {
		plan = append(plan, link{e.From, e.To})
	}
	for _, l := range plan {
		d.acts = d.Sys.Actions(d.W, d.acts[:0])
		for _, a := range d.acts {
			if a.Kind == model.ActDeliver && a.Peer == l.from && a.Node == l.to {
				if d.Delivering != nil {
					d.Delivering(d.W.Net[a.Slot].Msg)
				}
				if err := d.Apply(a); err != nil {
					return false, err
				}
				break
			}
		}
	}
	return len(plan) > 0, nil
}

// due says whether timer t of node, armed, may fire now.
func (d *Rounds[S, M]) due(node model.NodeID, t model.TimerID) bool {
	w := 0
	if d.Delay != nil {
		w = d.Delay(node, t)
	}
	return w >= 0 && d.armed[node][t]+w <= d.Round
}

// FireDue fires, one at a time, every enabled timer that is due, until
// none is, and says whether any fired; more than limit firings in a round
// is an error.
func (d *Rounds[S, M]) FireDue(limit int) (any bool, err error) {
	for k := 0; ; k++ {
		if k > limit {
			return any, fmt.Errorf("timers keep firing in round %d", d.Round)
		}
		fired := false
		d.acts = d.Sys.Actions(d.W, d.acts[:0])
		for _, a := range d.acts {
			if a.Kind == model.ActFire && d.due(a.Node, a.Timer) {
				if err := d.Apply(a); err != nil {
					return any, err
				}
				fired, any = true, true
				break // the actions changed
			}
		}
		if !fired {
			return any, nil
		}
	}
}

// Armed says whether a live process has a timer armed that may still
// fire (its Delay is not negative), enabled or not.
func (d *Rounds[S, M]) Armed() bool {
	for i, ts := range d.W.Timers {
		if d.W.IsDown(model.NodeID(i)) {
			continue
		}
		for t := ts; t != 0; t &= t - 1 {
			if d.Delay == nil || d.Delay(model.NodeID(i), model.TimerID(bits.TrailingZeros64(t))) >= 0 {
				return true
			}
		}
	}
	return false
}

// TimerAhead says whether some timer is enabled that may fire later (its
// Delay is not negative) but is not due yet.
func (d *Rounds[S, M]) TimerAhead() bool {
	d.acts = d.Sys.Actions(d.W, d.acts[:0])
	for _, a := range d.acts {
		if a.Kind == model.ActFire && (d.Delay == nil || d.Delay(a.Node, a.Timer) >= 0) {
			return true
		}
	}
	return false
}
