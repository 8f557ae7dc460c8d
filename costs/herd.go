package costs

import (
	"fmt"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/coordination"
)

// The herd effect (seed 004, "Simple Lock ... Problems: herd effect";
// "Simple Lock without herd effect: we line up all the clients requesting
// the lock and each client obtains the lock in order of request arrival"),
// measured by running the recipes' own code over a standalone server:
// every client asks for the lock at once, then each holder in turn
// releases it, and the watch notifications each release causes are
// counted.

// HerdCosts is what a measured run counted.
type HerdCosts struct {
	// PerRelease[k] is the watch notifications the k-th release caused
	// (N-1-k clients were waiting).
	PerRelease []int
	// Messages is every message the run sent.
	Messages int
}

// First is the notifications of the first release, all N-1 others
// waiting.
func (h HerdCosts) First() int { return h.PerRelease[0] }

// Total is the notifications of all N releases.
func (h HerdCosts) Total() int {
	t := 0
	for _, n := range h.PerRelease {
		t += n
	}
	return t
}

// Herd runs the lock of workload (coordination.LockClients, the
// sequential recipe, or coordination.SimpleLockClients) with n clients,
// p1..pn, of a standalone server p0, in synchronous rounds.
func Herd(workload coordination.Workload, n int) (HerdCosts, error) {
	var h HerdCosts
	if workload != coordination.LockClients && workload != coordination.SimpleLockClients {
		return h, fmt.Errorf("the herd is measured on the lock recipes, not workload %d", workload)
	}
	if n < 2 || n > coordination.MaxClients {
		return h, fmt.Errorf("%d clients: want 2 to %d", n, coordination.MaxClients)
	}
	p := coordination.NewRecipe(workload, 1, n, false)
	sys, err := model.NewSystem[coordination.State, coordination.Msg](p, model.Config{})
	if err != nil {
		return h, err
	}
	d := NewRounds(sys, sys.Init())
	notes := 0
	d.Sent = func(_ model.Action, _ model.NodeID, m coordination.Msg) bool {
		h.Messages++
		if m.Kind == coordination.Notify {
			notes++
		}
		return false
	}
	client := func(c int) model.NodeID { return model.NodeID(1 + c) }
	settle := func() error {
		for range 64 {
			moved, err := d.Deliver()
			if err != nil || !moved {
				return err
			}
		}
		return fmt.Errorf("the run does not settle")
	}
	for c := range n {
		if ok, err := d.Input(client(c), coordination.InputLock); !ok || err != nil {
			return h, fmt.Errorf("%s cannot ask for the lock", client(c))
		}
	}
	for k := range n {
		if err := settle(); err != nil {
			return h, fmt.Errorf("release %d: %v", k, err)
		}
		holder := -1
		for c := range n {
			if p.InCS(client(c), d.W.Nodes[client(c)]) {
				holder = c
			}
		}
		if holder < 0 {
			return h, fmt.Errorf("release %d: nobody holds the lock", k)
		}
		notes = 0
		if _, err := d.Input(client(holder), coordination.InputUnlock); err != nil {
			return h, err
		}
		if err := settle(); err != nil {
			return h, fmt.Errorf("release %d: %v", k, err)
		}
		h.PerRelease = append(h.PerRelease, notes)
	}
	return h, nil
}
