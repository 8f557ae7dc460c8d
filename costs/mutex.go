package costs

import (
	"fmt"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

// The costs of a mutual-exclusion algorithm, as the notes' metric tables
// define them (seed 000, "analysis metrics"):
//   - bandwidth: the messages sent by one entry to the critical section and
//     by one exit;
//   - client delay: the delay of an entry when no process is in or waiting
//     for the critical section, in message latencies;
//   - synchronization delay: the time from one process's exit to the next
//     process's entry when exactly one process waits, in message latencies.
//
// They are measured by running the protocol itself through model.System in
// synchronous rounds: every round delivers every message in flight at its
// start (one message latency), and a process enters as soon as it may.

// MutexCosts are the measured figures of one algorithm and size.
type MutexCosts struct {
	// EnterMsgs and ExitMsgs: messages of one entry and one exit without
	// contention (min and max over the processes).
	EnterMsgs, ExitMsgs Range
	// ClientDelay: latencies from request to entry, without contention.
	ClientDelay Range
	// SyncDelay: latencies from one exit to the waiting process's entry,
	// over every ordered pair of processes; SyncExitMsgs the messages sent
	// meanwhile.
	SyncDelay, SyncExitMsgs Range
	// ExitAllWaiting: messages of the exit step itself while every other
	// process waits (the notes' worst case).
	ExitAllWaiting Range
	// Perpetual: messages keep flowing when nobody wants the critical
	// section (a token ring), so an exit's cost is the messages of the
	// exit step itself.
	Perpetual bool
}

// Range is the least and the greatest of a measured figure.
type Range struct{ Min, Max int }

func (r *Range) add(x int, first bool) {
	if first || x < r.Min {
		r.Min = x
	}
	if first || x > r.Max {
		r.Max = x
	}
}

// String renders "3" or "1..3".
func (r Range) String() string {
	if r.Min == r.Max {
		return fmt.Sprint(r.Min)
	}
	return fmt.Sprintf("%d..%d", r.Min, r.Max)
}

// Observer tells the measurement who is in the critical section.
type Observer[S any] interface {
	InCS(self model.NodeID, s S) bool
}

// Mutex measures the costs of the protocol of sys (which must use the
// inputs mutex.Request, Enter and Exit). Processes are the nodes where
// Request is enabled initially.
func Mutex[S, M any](sys *model.System[S, M], obs Observer[S]) (MutexCosts, error) {
	r := &runner[S, M]{sys: sys, obs: obs, limit: 8 * sys.N()}
	var c MutexCosts
	procs := r.processes()
	if len(procs) < 2 {
		return c, fmt.Errorf("need two processes that request the critical section, found %d", len(procs))
	}
	for k, p := range procs {
		d := r.start()
		msgs, lat, err := r.enter(d, p)
		if err != nil {
			return c, err
		}
		c.EnterMsgs.add(msgs, k == 0)
		c.ClientDelay.add(lat, k == 0)
		msgs, perpetual, err := r.exit(d, p)
		if err != nil {
			return c, err
		}
		c.ExitMsgs.add(msgs, k == 0)
		c.Perpetual = c.Perpetual || perpetual
	}
	for k, a := range procs {
		d := r.start()
		if _, _, err := r.enter(d, a); err != nil {
			return c, err
		}
		for _, b := range procs {
			if b != a {
				r.input(d, b, mutex.Request)
			}
		}
		r.settle(d)
		r.msgs = 0
		r.input(d, a, mutex.Exit)
		c.ExitAllWaiting.add(r.msgs, k == 0)
	}
	first := true
	for _, a := range procs {
		for _, b := range procs {
			if a == b {
				continue
			}
			d := r.start()
			if _, _, err := r.enter(d, a); err != nil {
				return c, err
			}
			// b asks, and every message its request causes is delivered,
			// until nothing moves but a's critical section.
			r.input(d, b, mutex.Request)
			r.settle(d)
			if !sys.Waiting(d.W, b) {
				return c, fmt.Errorf("%s does not wait while %s is in the critical section", b, a)
			}
			r.msgs = 0
			r.input(d, a, mutex.Exit)
			lat, err := r.until(d, b)
			if err != nil {
				return c, err
			}
			c.SyncDelay.add(lat, first)
			c.SyncExitMsgs.add(r.msgs, first)
			first = false
		}
	}
	return c, nil
}

// runner runs the scenarios of Mutex on Rounds, counting the messages
// sent in msgs.
type runner[S, M any] struct {
	sys   *model.System[S, M]
	obs   Observer[S]
	msgs  int
	limit int // rounds before giving up
}

// start is a run from the initial world.
func (r *runner[S, M]) start() *Rounds[S, M] {
	d := NewRounds(r.sys, r.sys.Init())
	d.Sent = func(model.Action, model.NodeID, M) bool { r.msgs++; return false }
	return d
}

func (r *runner[S, M]) processes() []model.NodeID {
	w := r.sys.Init()
	var ps []model.NodeID
	for i := range r.sys.N() {
		for _, a := range r.sys.Actions(w, nil) {
			if a.Kind == model.ActInput && a.Node == model.NodeID(i) && a.Input == mutex.Request {
				ps = append(ps, model.NodeID(i))
				break
			}
		}
	}
	return ps
}

// input takes in at p if it is enabled.
func (r *runner[S, M]) input(d *Rounds[S, M], p model.NodeID, in model.Input) bool {
	ok, _ := d.Input(p, in) // no message is lost: Apply cannot fail
	return ok
}

// enter has p request and counts rounds until it is in the critical
// section; it returns the messages sent and the latencies.
func (r *runner[S, M]) enter(d *Rounds[S, M], p model.NodeID) (int, int, error) {
	r.msgs = 0
	if !r.input(d, p, mutex.Request) {
		return 0, 0, fmt.Errorf("%s cannot request the critical section", p)
	}
	lat, err := r.until(d, p)
	return r.msgs, lat, err
}

// until runs rounds until p enters; it returns the rounds taken.
func (r *runner[S, M]) until(d *Rounds[S, M], p model.NodeID) (int, error) {
	for lat := 0; lat <= r.limit; lat++ {
		if r.input(d, p, mutex.Enter) || r.obs.InCS(p, d.W.Nodes[p]) {
			return lat, nil
		}
		d.Deliver()
	}
	return 0, fmt.Errorf("%s did not enter within %d message latencies", p, r.limit)
}

// settle runs rounds until no message is in flight, or the limit.
func (r *runner[S, M]) settle(d *Rounds[S, M]) bool {
	for range r.limit {
		if moved, _ := d.Deliver(); !moved {
			return true
		}
	}
	return false
}

// exit has p leave and counts the messages until the system is quiet.
func (r *runner[S, M]) exit(d *Rounds[S, M], p model.NodeID) (int, bool, error) {
	r.msgs = 0
	if !r.input(d, p, mutex.Exit) {
		return 0, false, fmt.Errorf("%s cannot exit", p)
	}
	own := r.msgs
	if r.settle(d) {
		return r.msgs, false, nil
	}
	return own, true, nil
}
