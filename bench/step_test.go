package bench

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/model"
	ra "github.com/coordcheck/coordcheck/protocols/ricartagrawala"
)

// A successor's fingerprint, the search's step, two ways, on the first
// states of RA N=4 R=1 (the SPIN anchor): made (Apply, then StepHash from
// the parent's parts) and peeked (PeekHash, from the parts and the memo of
// steps, without making the world). Each op is one transition; the
// states are loaded as the search loads them, from their encodings.
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
// (decoding it, listing its actions) is timed too, the same for both.
func successors(b *testing.B, step func(sys *model.System[ra.State, ra.Msg], h *model.WorldHash, w *model.World[ra.State, ra.Msg], a model.Action, next *model.World[ra.State, ra.Msg]) uint64) {
	sys, states, fps := stepWorkload(b)
	var w, next model.World[ra.State, ra.Msg]
	var h model.WorldHash
	var acts []model.Action
	var spans []uint32
	var sum uint64
	b.ResetTimer()
	for n := 0; n < b.N; {
		for i, enc := range states {
			spans = sys.DecodeSpans(enc, &w, spans[:0])
			sys.LoadFP(&h, &w, fps[i], enc, spans)
			acts = sys.Actions(&w, acts[:0])
			for _, a := range acts {
				sum += step(sys, &h, &w, a, &next)
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

// BenchmarkSuccessorMade is the step without the memo: the world made,
// its fingerprint from the parts the step changed.
func BenchmarkSuccessorMade(b *testing.B) {
	successors(b, func(sys *model.System[ra.State, ra.Msg], h *model.WorldHash, w *model.World[ra.State, ra.Msg], a model.Action, next *model.World[ra.State, ra.Msg]) uint64 {
		sys.Apply(w, a, next)
		return sys.StepHash(h, w, a, next)
	})
}

// BenchmarkSuccessorPeeked is the step the searches take: the fingerprint
// from the parts and the memo, no world made.
func BenchmarkSuccessorPeeked(b *testing.B) {
	successors(b, func(sys *model.System[ra.State, ra.Msg], h *model.WorldHash, w *model.World[ra.State, ra.Msg], a model.Action, _ *model.World[ra.State, ra.Msg]) uint64 {
		fp, ok := sys.PeekHash(h, w, &a)
		if !ok {
			b.Fatal("the memo does not serve a step of RA")
		}
		return fp
	})
}

// BenchmarkSuccessorNone takes no step: the loading the two above share,
// per transition, to subtract from theirs.
func BenchmarkSuccessorNone(b *testing.B) {
	successors(b, func(*model.System[ra.State, ra.Msg], *model.WorldHash, *model.World[ra.State, ra.Msg], model.Action, *model.World[ra.State, ra.Msg]) uint64 {
		return 0
	})
}
