package coordination

import (
	"fmt"

	"github.com/coordcheck/coordcheck/model"
)

// The herd effect (seed 004, "Simple Lock ... Problems: herd effect";
// "Simple Lock without herd effect: we line up all the clients requesting
// the lock and each client obtains the lock in order of request arrival"),
// measured by running the recipes' own code: every client asks for the
// lock at once, then each holder in turn releases it, and the watch
// notifications each release causes are counted.

// Herd is what a measured run counted.
type Herd struct {
	// PerRelease[k] is the watch notifications the k-th release caused
	// (N-1-k clients were waiting).
	PerRelease []int
	// Messages is every message the run sent.
	Messages int
}

// First is the notifications of the first release, all N-1 others
// waiting.
func (h Herd) First() int { return h.PerRelease[0] }

// Total is the notifications of all N releases.
func (h Herd) Total() int {
	t := 0
	for _, n := range h.PerRelease {
		t += n
	}
	return t
}

// MeasureHerd runs the lock of workload (LockClients, the sequential
// recipe, or SimpleLockClients) with n clients of a standalone server in
// synchronous rounds (one round delivers every message in flight).
func MeasureHerd(workload Workload, n int) (Herd, error) {
	var h Herd
	if workload != LockClients && workload != SimpleLockClients {
		return h, fmt.Errorf("the herd is measured on the lock recipes, not workload %d", workload)
	}
	if n < 2 || n > MaxClients {
		return h, fmt.Errorf("%d clients: want 2 to %d", n, MaxClients)
	}
	p := NewRecipe(workload, 1, n, false)
	sys, err := model.NewSystem[State, Msg](p, model.Config{})
	if err != nil {
		return h, err
	}
	r := &herdRun{sys: sys, w: sys.Init()}
	for c := range n {
		if !r.input(p.clientNode(uint8(c)), InputLock) {
			return h, fmt.Errorf("%s cannot ask for the lock", p.clientNode(uint8(c)))
		}
	}
	for k := range n {
		if !r.settle() {
			return h, fmt.Errorf("release %d: the run does not settle", k)
		}
		holder := -1
		for c := range n {
			if p.InCS(p.clientNode(uint8(c)), r.w.Nodes[p.clientNode(uint8(c))]) {
				holder = c
			}
		}
		if holder < 0 {
			return h, fmt.Errorf("release %d: nobody holds the lock", k)
		}
		r.notes = 0
		r.input(p.clientNode(uint8(holder)), InputUnlock)
		if !r.settle() {
			return h, fmt.Errorf("release %d: the run does not settle", k)
		}
		h.PerRelease = append(h.PerRelease, r.notes)
	}
	h.Messages = r.msgs
	return h, nil
}

// herdRun drives one run and counts what it sends.
type herdRun struct {
	sys         *model.System[State, Msg]
	w, next     *model.World[State, Msg]
	msgs, notes int
}

func (r *herdRun) apply(a model.Action) {
	if r.next == nil {
		r.next = &model.World[State, Msg]{}
	}
	r.sys.Apply(r.w, a, r.next)
	r.sys.LastOut().Sends(func(_ model.NodeID, m Msg) {
		r.msgs++
		if m.Kind == Notify {
			r.notes++
		}
	})
	r.w, r.next = r.next, r.w
}

func (r *herdRun) input(id model.NodeID, in model.Input) bool {
	for _, a := range r.sys.Actions(r.w, nil) {
		if a.Kind == model.ActInput && a.Node == id && a.Input == in {
			r.apply(a)
			return true
		}
	}
	return false
}

// settle runs rounds until no message is in flight: each round delivers
// the messages in flight at its start, link by link in canonical order.
func (r *herdRun) settle() bool {
	for range 64 {
		if len(r.w.Net) == 0 {
			return true
		}
		type link struct{ from, to model.NodeID }
		var plan []link
		for _, e := range r.w.Net {
			plan = append(plan, link{e.From, e.To})
		}
		for _, l := range plan {
			for _, a := range r.sys.Actions(r.w, nil) {
				if a.Kind == model.ActDeliver && a.Peer == l.from && a.Node == l.to {
					r.apply(a)
					break
				}
			}
		}
	}
	return false
}
