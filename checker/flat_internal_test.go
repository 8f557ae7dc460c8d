package checker

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// A set that grows flat holds every key it was given, and no other,
// across the growth that moves its shards from their slabs into the
// flat table and the growths in place after it; its shards all have the
// flat table's size, side by side.
func TestFlatGrowthKeepsEveryKey(t *testing.T) {
	s := newFPSet(false)
	s.growsFlat()
	defer s.release()
	const n = 1 << 20 // a table of 16-24 MB: flat from 4 MB
	fp := func(i uint64) uint64 { return (i + 1) * 0x9e3779b97f4a7c15 }
	sizes := map[uint64]bool{}
	for i := range uint64(n) {
		require.True(t, s.insert(fp(i), noParent))
		if s.flat != nil {
			sizes[s.flat.size] = true
		}
	}
	require.NotNil(t, s.flat, "the set grew flat")
	require.GreaterOrEqual(t, len(sizes), 2, "and grew in place after")
	require.Equal(t, uint64(n), s.n)
	for i := range uint64(n) {
		require.False(t, s.insert(fp(i), noParent), "key %d kept", i)
	}
	for i := uint64(n); i < n+1000; i++ {
		require.False(t, s.has(fp(i)), "key %d never given", i)
	}
	var held uint64
	for i := range s.shards {
		sh := &s.shards[i]
		require.Len(t, sh.keys, int(s.flat.size))
		require.Equal(t, &s.flat.slots[uint64(i)*s.flat.size], &sh.keys[0], "shard %d in its place", i)
		require.LessOrEqual(t, 4*sh.n, 3*s.flat.size, "shard %d at most 3/4 full", i)
		held += sh.n
	}
	require.Equal(t, uint64(n), held)
}

// A set that keeps parents grows flat too (they are logged apart from
// the table), and the path of parents from any state back to the first
// is found through the logs, across shards, in one pass.
func TestFlatGrowthWithParents(t *testing.T) {
	s := newFPSet(true)
	s.growsFlat()
	defer s.release()
	const n = 1 << 19
	fp := func(i uint64) uint64 { return (i + 1) * 0x9e3779b97f4a7c15 }
	s.insert(fp(0), noParent)
	for i := uint64(1); i < n; i++ { // state i reached from state i/2
		s.insert(fp(i), key(fp(i/2)))
	}
	require.NotNil(t, s.flat, "the set grew flat")
	// 16 bytes a state, and at most one chunk a shard not full.
	require.GreaterOrEqual(t, s.foundBytes(), uint64(n)*16)
	require.LessOrEqual(t, s.foundBytes(), uint64(n+numShards*foundMost)*16)
	f := newParentFinder(s)
	hops := 0
	for i := uint64(n - 1); i > 0; i /= 2 {
		p, ok := f.parent(key(fp(i)))
		require.True(t, ok, "state %d", i)
		require.Equal(t, key(fp(i/2)), p, "state %d", i)
		hops++
	}
	require.Equal(t, 19, hops) // 2^19-1 is 19 ones: 19 states to the first
	p, ok := f.parent(key(fp(0)))
	require.True(t, ok)
	require.Equal(t, uint64(noParent), p)
	_, ok = f.parent(key(fp(n)))
	require.False(t, ok, "a state never given")
}

// A set that numbers its states (the liveness checks) grows flat too, its
// numbers laid out beside the keys in a span of their own: every key keeps
// the number it was given, across every growth.
func TestFlatGrowthKeepsNumbers(t *testing.T) {
	if testing.Short() {
		t.Skip("one goroutine: nothing for the race pass (-short) to find; plain go test runs it")
	}
	s := newFPSet(false)
	s.numbered()
	s.growsFlat()
	defer s.release()
	const n = 1 << 20
	fp := func(i uint64) uint64 { return (i + 1) * 0x9e3779b97f4a7c15 }
	sizes := map[uint64]bool{}
	for i := range uint64(n) {
		id, added := s.insertID(fp(i), noParent)
		require.True(t, added)
		require.Equal(t, uint32(i), id)
		if s.flat != nil {
			sizes[s.flat.size] = true
		}
	}
	require.NotNil(t, s.flat, "the set grew flat")
	require.GreaterOrEqual(t, len(sizes), 2, "and grew in place after")
	for i := range uint64(n) {
		id, added := s.insertID(fp(i), noParent)
		require.False(t, added)
		require.Equal(t, uint32(i), id, "key %d", i)
	}
	for i := range s.shards {
		require.Equal(t, &s.flat.ids[uint64(i)*s.flat.size], &s.shards[i].ids[0], "shard %d's numbers in their place", i)
	}
}

// Shared out between goroutines (the level engine's workers), a flat
// growth keeps every key and number, whether a shard was in the flat
// table already or had grown alone into a slab of its own since.
func TestFlattenSharedOut(t *testing.T) {
	s := newFPSet(false)
	s.numbered()
	defer s.release()
	fp := func(i uint64) uint64 { return (i + 1) * 0x9e3779b97f4a7c15 }
	par := func(job func(int)) {
		var wg sync.WaitGroup
		for i := 1; i < 4; i++ {
			wg.Add(1)
			go func() { defer wg.Done(); job(i) }()
		}
		job(0)
		wg.Wait()
	}
	const step = 1 << 18
	n := uint64(0)
	for round := range 5 {
		// Room for the next step's keys in every shard, as growFlatAhead
		// makes it, then the keys; but in round 2, where the shards
		// outgrow their tables and grow alone into slabs, from which
		// round 3 takes them back.
		var size uint64
		for i := range s.shards {
			size = max(size, grown(s.shards[i].n+step/numShards-1, uint64(len(s.shards[i].keys))))
		}
		if round != 2 {
			require.GreaterOrEqual(t, numShards*size*s.slotBytes(), uint64(flatFrom))
			if round == 3 {
				alone := 0
				for i := range s.shards {
					if !overlap(s.shards[i].keys, s.flat.slots) {
						alone++
					}
				}
				require.Positive(t, alone, "shards grew alone in round 2")
			}
			require.True(t, s.flatten(size, par))
			for i := range s.shards {
				require.Equal(t, &s.flat.slots[uint64(i)*size], &s.shards[i].keys[0], "shard %d in its place", i)
			}
		}
		for range step {
			id, added := s.insertID(fp(n), noParent)
			require.True(t, added)
			require.Equal(t, uint32(n), id)
			n++
		}
	}
	require.NotNil(t, s.flat)
	for i := range n {
		id, added := s.insertID(fp(i), noParent)
		require.False(t, added, "key %d", i)
		require.Equal(t, uint32(i), id, "key %d", i)
	}
	require.False(t, s.has(fp(n)))
}
