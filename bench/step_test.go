package bench

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/model"
	ra "github.com/coordcheck/coordcheck/protocols/ricartagrawala"
)

// A successor's fingerprint, the search's step, two ways, on the first
// states of RA N=4 R=1 (the SPIN anchor): made (Apply, then the
// successor stored: its parts interned, model.Cursor.AppendStored) and
// on ids (model.Cursor.Step, from the parts and the cursor's memo of
// steps, without making the world). Each op is one transition; the
// states are loaded as the search loads them, from their stored forms.
//
//	go test ./bench/ -run '^$' -bench Successor

// stepStates is how many states the step benchmarks take their
// transitions from.
const stepStates = 4096

// stepWorkload returns the system, and the encodings and fingerprints of
// the first stepStates states of RA N=4 R=1 in BFS order.
func stepWorkload(tb testing.TB) (*model.System[ra.State, ra.Msg], [][]byte, []uint64) {
	sys := model.MustNewSystem[ra.State, ra.Msg](ra.New(4, 1), model.Config{})
	first := sys.Encode(nil, sys.Init())
	seen := map[string]bool{string(first): true}
	queue := [][]byte{first}
	var w, next model.World[ra.State, ra.Msg]
	for i := 0; i < len(queue) && len(queue) < stepStates; i++ {
		sys.Decode(queue[i], &w)
		for _, a := range sys.Actions(&w, nil) {
			sys.Apply(&w, a, &next)
			if enc := sys.Encode(nil, &next); !seen[string(enc)] && len(queue) < stepStates {
				seen[string(enc)] = true
				queue = append(queue, enc)
			}
		}
	}
	require.Len(tb, queue, stepStates)
	fps := make([]uint64, len(queue))
	for i, enc := range queue {
		sys.Decode(enc, &w)
		fps[i] = sys.HashWorld(&w)
	}
	return sys, queue, fps
}

// successors takes every transition of the workload's states b.N times
// over (at least), through step: an op is a transition. Loading a state
// (its parts read from the store, its actions listed) is timed too, the
// same for all.
func successors(b *testing.B, step func(c *model.Cursor[ra.State, ra.Msg], w *model.World[ra.State, ra.Msg], a model.Action, next *model.World[ra.State, ra.Msg]) uint64) {
	sys, states, fps := stepWorkload(b)
	c := model.NewCursor(model.NewStore[ra.State, ra.Msg](), sys.Clone())
	var w, next model.World[ra.State, ra.Msg]
	stored := make([][]byte, len(states))
	for i, enc := range states {
		sys.Decode(enc, &w)
		stored[i], _ = c.AppendStored(nil, &w)
	}
	var acts []model.Action
	var sum uint64
	b.ResetTimer()
	for n := 0; n < b.N; {
		for i, vec := range stored {
			c.Load(vec, fps[i], &w)
			acts = c.Actions(&w, acts[:0])
			for _, a := range acts {
				sum += step(c, &w, a, &next)
			}
			n += len(acts)
			if n >= b.N {
				break
			}
		}
	}
	if sum == 1 {
		b.Log("unlikely") // keeps sum alive
	}
}

// BenchmarkSuccessorMade is the step without ids: the world made, its
// parts interned and its fingerprint summed from theirs.
func BenchmarkSuccessorMade(b *testing.B) {
	var buf []byte
	successors(b, func(c *model.Cursor[ra.State, ra.Msg], w *model.World[ra.State, ra.Msg], a model.Action, next *model.World[ra.State, ra.Msg]) uint64 {
		sys := c.System()
		sys.Apply(w, a, next)
		var fp uint64
		buf, fp = c.AppendStored(buf[:0], next)
		return fp
	})
}

// BenchmarkSuccessorIDs is the step the searches take: the fingerprint
// from the parts' ids and the cursor's memo, no world made.
func BenchmarkSuccessorIDs(b *testing.B) {
	var r model.Stepped
	successors(b, func(c *model.Cursor[ra.State, ra.Msg], w *model.World[ra.State, ra.Msg], a model.Action, _ *model.World[ra.State, ra.Msg]) uint64 {
		fp, ok := c.Step(w, &a, &r)
		if !ok {
			b.Fatal("a step of RA is not taken on ids")
		}
		return fp
	})
}

// BenchmarkSuccessorNone takes no step: the loading the two above share,
// per transition, to subtract from theirs.
func BenchmarkSuccessorNone(b *testing.B) {
	successors(b, func(*model.Cursor[ra.State, ra.Msg], *model.World[ra.State, ra.Msg], model.Action, *model.World[ra.State, ra.Msg]) uint64 {
		return 0
	})
}
