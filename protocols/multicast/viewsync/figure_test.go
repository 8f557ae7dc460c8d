package viewsync

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast"
)

// world runs a system of three processes in which p2 alone multicasts.
type world struct {
	t   *testing.T
	sys *model.System[State, Msg]
	w   *model.World[State, Msg]
}

func newWorld(t *testing.T) *world {
	p := New(3, multicast.Workload{Msgs: 1, Senders: 3})
	f, err := model.ParseFaults("crash=1")
	require.NoError(t, err)
	sys := model.MustNewSystem[State, Msg](p, model.Config{History: true, HistoryByNode: true, Faults: f})
	return &world{t: t, sys: sys, w: sys.Init()}
}

// take applies the first enabled action a satisfies.
func (x *world) take(ok func(a model.Action) bool) {
	x.t.Helper()
	for _, a := range x.sys.Actions(x.w, nil) {
		if ok(a) {
			var next model.World[State, Msg]
			x.sys.Apply(x.w, a, &next)
			x.w = &next
			return
		}
	}
	x.t.Fatalf("no such action enabled")
}

// settle takes protocol steps (no input, no fault) until none is left.
func (x *world) settle() {
	for {
		acts := x.sys.Actions(x.w, nil)
		i := 0
		for i < len(acts) && (acts[i].Kind == model.ActInput || acts[i].Kind.IsFault()) {
			i++
		}
		if i == len(acts) {
			return
		}
		var next model.World[State, Msg]
		x.sys.Apply(x.w, acts[i], &next)
		x.w = &next
	}
}

func (x *world) history(node model.NodeID) []string {
	var h []string
	for _, r := range x.w.History {
		if r.Node == node {
			h = append(h, r.Text)
		}
	}
	return h
}

func input(node model.NodeID) func(model.Action) bool {
	return func(a model.Action) bool { return a.Kind == model.ActInput && a.Node == node }
}

func transmit(node model.NodeID) func(model.Action) bool {
	return func(a model.Action) bool {
		return a.Kind == model.ActFire && a.Node == node && a.Timer == multicast.Transmit
	}
}

func crash(node model.NodeID) func(model.Action) bool {
	return func(a model.Action) bool { return a.Kind == model.ActCrash && a.Node == node }
}

// Seed 001, atomic multicast, the figure's first case: "p crashes before
// m reaches any other process: none of them delivers m".
func TestFigureSenderCrashesBeforeMReachesAnyone(t *testing.T) {
	x := newWorld(t)
	x.take(input(2))
	x.take(crash(2))
	x.settle()
	require.Equal(t, []string{"view 1 {p0,p1}"}, x.history(0))
	require.Equal(t, []string{"view 1 {p0,p1}"}, x.history(1))
}

// The figure's second case: "m has reached at least 1 process when p
// crashes: both q and r deliver first m and then the view".
func TestFigureMReachedOneProcess(t *testing.T) {
	x := newWorld(t)
	x.take(input(2))
	x.take(transmit(2)) // to p0 (ring order from p2)
	x.take(crash(2))
	x.settle()
	require.Equal(t, []string{"deliver p2#1", "view 1 {p0,p1}"}, x.history(0))
	require.Equal(t, []string{"deliver p2#1", "view 1 {p0,p1}"}, x.history(1))
}
