package checker

import (
	"math/rand/v2"
	"runtime"
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
	for i, k := range keys {
		require.True(t, s.has(k))
		p, ok := s.parent(k)
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
	for _, sl := range s.mem.live {
		require.NotEqual(t, slabParents, sl.key.kind)
	}
	require.True(t, s.has(keys[n-1]))
	s.release()
	require.Empty(t, s.mem.live)
}
