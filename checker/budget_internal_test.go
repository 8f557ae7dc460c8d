package checker

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// ring is a state graph of n states in one cycle, every state pending for
// node 0: one strongly connected component, a fair lasso.
func ring(n int) *graph {
	g := newGraph(1)
	for u := range n {
		g.add(uint32(u), uint64(u+1))
		g.start[u] = uint32(len(g.to))
		g.addEdge(uint32((u+1)%n), 0)
		g.end[u] = uint32(len(g.to))
		g.pending[0][u] = 1
	}
	return g
}

// The search for fair cycles, which runs after the state space is
// exhausted and may be long on a large graph, stops when Stop is closed,
// in its scan for terminal states and inside Tarjan's algorithm.
func TestCycleSearchStops(t *testing.T) {
	sp := &Spec[int, int]{Liveness: []Liveness[int, int]{{Name: "served"}}}
	g := ring(100_000)
	in := func(u uint32) bool { return g.pending[0][u] != 0 }

	l, bound := sp.findLasso(g, 1, &Options{}, time.Now(), 0)
	require.Empty(t, bound)
	require.NotNil(t, l, "the ring is a fair cycle")
	sc := newSCCScratch(len(g.fps))
	defer sc.release()
	require.Len(t, g.sccs(in, &poller{opts: &Options{}}, sc), 1)

	stop := make(chan struct{})
	close(stop)
	opts := &Options{Stop: stop}
	l, bound = sp.findLasso(g, 1, opts, time.Now(), 0)
	require.Nil(t, l)
	require.Equal(t, "interrupted", bound)
	pl := &poller{opts: opts}
	require.Nil(t, g.sccs(in, pl, sc))
	require.Equal(t, "interrupted", pl.bound)
	require.Less(t, pl.k, uint32(5000), "Tarjan's algorithm polls every 4096 steps")

	// A component whose fair-cycle search would not fit is not searched.
	opts = &Options{MaxMemory: g.bytes() + g.sccBytes() + 1000*fairCycleBytes}
	l, bound = sp.findLasso(g, 1, opts, time.Now(), g.bytes())
	require.Nil(t, l)
	require.Equal(t, memoryBound(opts), bound)
}

// The visited set is counted at the size it will grow to before the next
// poll, so that the bound is checked before the table grows.
func TestBytesAfterCountsTheNextGrowth(t *testing.T) {
	s := newFPSet(false)
	require.Equal(t, s.bytes(), s.bytesAfter(0))
	full := uint64(numShards * 256 * 3 / 4)
	require.Equal(t, 3*s.bytes()/2, s.bytesAfter(full-numShards), "every shard about to grow by half")
	for i := range full * 3 / 4 {
		s.insert(uint64(i)*0x9e3779b97f4a7c15+1, noParent)
	}
	// What the next states will cost is foreseen, though they do not
	// fall evenly on the shards.
	before, ahead := s.bytes(), s.bytesAfter(full/4)
	for i := range full / 4 {
		s.insert(uint64(i)*0x2545f4914f6cdd1d+7, noParent)
	}
	require.Greater(t, s.bytes(), before, "some shards grew")
	require.LessOrEqual(t, s.bytes(), ahead)
}
