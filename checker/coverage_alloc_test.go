package checker

import (
	"testing"

	"github.com/coordcheck/coordcheck/model"
	ra "github.com/coordcheck/coordcheck/protocols/ricartagrawala"
)

// Counting an action allocates nothing once its kind (for a delivery,
// its message's encoding) has been met: the engine counts
// every edge it explores.
func TestCountActionDoesNotAllocate(t *testing.T) {
	faults, err := model.ParseFaults("crash=1,drop=1,dup=1,partition=1")
	if err != nil {
		t.Fatal(err)
	}
	sys := model.MustNewSystem[ra.State, ra.Msg](ra.New(3, 1), model.Config{Faults: faults})
	w := sys.Init()
	next := &model.World[ra.State, ra.Msg]{}
	// Walk a few steps so that messages are in flight, then count every
	// enabled action (inputs, deliveries, faults) of the world reached.
	for range 4 {
		acts := sys.Actions(w, nil)
		sys.Apply(w, acts[0], next)
		w, next = next, w
	}
	acts := sys.Actions(w, nil)
	tab := newKindTable()
	for _, a := range acts {
		countAction(tab, sys, w, a)
	}
	allocs := testing.AllocsPerRun(100, func() {
		for _, a := range acts {
			countAction(tab, sys, w, a)
		}
	})
	if allocs != 0 {
		t.Fatalf("counting %d actions allocates %.1f times", len(acts), allocs)
	}
	kinds := map[model.ActionKind]bool{}
	for _, a := range acts {
		kinds[a.Kind] = true
	}
	if !kinds[model.ActDeliver] || !kinds[model.ActInput] || !kinds[model.ActDrop] {
		t.Fatalf("the world reached should enable inputs, deliveries and drops: %v", kinds)
	}
}
