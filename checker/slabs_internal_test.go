package checker

import (
	"math"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/require"
)

// A set that grows through slabs large enough to be mapped apart keeps
// every key with its parent and number, holds only the slabs its shards
// use, and gives them all back when released.
func TestFPSetGrowsThroughSlabs(t *testing.T) {
	const n = 300_000 // past the first mapped slab (bigSlab)
	s := newFPSet(true)
	s.numbered()
	rng := rand.New(rand.NewPCG(1, 2))
	keys := make([]uint64, n)
	for i := range keys {
		keys[i] = rng.Uint64() | 1
		id, added := s.insertID(keys[i], uint64(i))
		require.True(t, added)
		require.Equal(t, uint32(i), id)
	}
	require.Equal(t, uint64(n), s.n)
	f := newParentFinder(s)
	for i := n - 1; i >= 0; i-- { // newest first, as a path is found
		k := keys[i]
		require.True(t, s.has(k))
		p, ok := f.parent(k)
		require.True(t, ok)
		require.Equal(t, uint64(i), p)
		require.Equal(t, uint32(i), s.id(k))
		_, added := s.insertID(k, 0)
		require.False(t, added)
	}
	require.False(t, s.has(2))

	// Each kind's tables are in at most two slabs (a growth under way),
	// each of its shards in exactly one; a mapped one was made.
	mapped := false
	users := map[uint8]int{}
	for k, sl := range s.mem.live {
		require.Equal(t, k, sl.key)
		users[k.kind] += sl.users
		mapped = mapped || sl.raw != nil
	}
	if runtime.GOOS == "linux" {
		require.True(t, mapped, "no slab was large enough to be mapped")
	}
	for kind, u := range users {
		require.Equal(t, numShards, u, "kind %d", kind)
	}

	// Parents let go, then everything.
	s.dropParents()
	require.Zero(t, s.foundBytes())
	require.True(t, s.has(keys[n-1]))
	s.release()
	require.Empty(t, s.mem.live)
}

// With a memory limit set (a search bounded by -max-memory), the slabs
// mapped apart from the heap lower it by the memory they hold, as they
// grow and go; without one, they leave it unset. (A table gives huge
// pages back only from 2 MB a shard, 16 M slots in all: too many keys
// for a unit test; held follows it as it does the mapping.)
func TestMappedSlabsLowerTheMemoryLimit(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("slabs are mapped apart on Linux only")
	}
	const limit = int64(1) << 40
	prev := debug.SetMemoryLimit(limit)
	defer debug.SetMemoryLimit(prev)
	held := func(s *fpSet) int64 {
		var b int64
		for _, sl := range s.mem.live {
			b += int64(sl.held)
		}
		return b
	}
	s := newFPSet(false)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 1_500_000 {
		s.insert(rng.Uint64()|1, noParent)
		if i%10_000 == 0 {
			require.Equal(t, limit-held(s), debug.SetMemoryLimit(-1), "after %d keys", i+1)
		}
	}
	require.Positive(t, held(s), "no slab was mapped")
	require.Equal(t, limit-held(s), debug.SetMemoryLimit(-1))
	s.release()
	require.Equal(t, limit, debug.SetMemoryLimit(-1))

	debug.SetMemoryLimit(math.MaxInt64)
	s = newFPSet(false)
	for range 300_000 {
		s.insert(rng.Uint64()|1, noParent)
	}
	require.Positive(t, held(s))
	require.Equal(t, int64(math.MaxInt64), debug.SetMemoryLimit(-1))
	s.release()
	require.Equal(t, int64(math.MaxInt64), debug.SetMemoryLimit(-1))
}
