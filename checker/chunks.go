package checker

import "sync/atomic"

// chunkRanges shares a level's chunks out among the workers: each
// starts with an equal run of consecutive chunks, which it takes in
// order, and a worker whose run is done steals the upper half of the
// largest run left.
//
// Consecutive, not dealt out one chunk at a time: the successors of
// states near each other in a level are often the same states, and a
// worker's recent-records cache (recentFPs) drops the repeats it made
// itself, not those another worker made. Dealt out, neighbouring chunks
// went to different workers and two workers recorded 1.3-1.7 times the
// states one does (RA N=4 R=1: 2,187,017 records for 1,470,923 new
// states; in runs, 1,544,975-1,563,193).
type chunkRanges []chunkRange

// chunkRange is a run of chunks, next<<32 | end, changed by compare and
// swap: its owner takes next, a thief lowers end. On a cache line of
// its own, so that one worker's takes do not slow another's.
type chunkRange struct {
	v atomic.Uint64
	_ [56]byte
}

// newChunkRanges shares out n chunks among workers.
func newChunkRanges(n, workers int) chunkRanges {
	rs := make(chunkRanges, workers)
	for i := range rs {
		rs[i].v.Store(uint64(i*n/workers)<<32 | uint64((i+1)*n/workers))
	}
	return rs
}

// take returns the next chunk for worker i, and whether it begins a run
// stolen from another worker (after the chunks the worker took before,
// but not necessarily above them); c is -1 when every chunk is taken.
func (rs chunkRanges) take(i int) (c int, stolen bool) {
	own := &rs[i].v
	for {
		v := own.Load()
		next, end := v>>32, v&(1<<32-1)
		if next >= end {
			break
		}
		if own.CompareAndSwap(v, v+1<<32) {
			return int(next), false
		}
	}
	for {
		// The largest run left; none: the level is taken.
		victim, most := -1, uint64(0)
		for j := range rs {
			v := rs[j].v.Load()
			if next, end := v>>32, v&(1<<32-1); end > next && end-next > most {
				victim, most = j, end-next
			}
		}
		if victim < 0 {
			return -1, false
		}
		v := rs[victim].v.Load()
		next, end := v>>32, v&(1<<32-1)
		if next >= end {
			continue
		}
		mid := next + (end-next)/2 // a run of one chunk is taken whole
		if !rs[victim].v.CompareAndSwap(v, next<<32|mid) {
			continue
		}
		// Nobody steals from an empty run: own is not changed under us.
		own.Store((mid+1)<<32 | end)
		return int(mid), true
	}
}

// left is the number of the level's states in chunks not yet taken; the
// level's chunk c begins with state starts[c], of n.
func (rs chunkRanges) left(starts []uint64, n uint64) uint64 {
	at := func(c uint64) uint64 {
		if c < uint64(len(starts)) {
			return starts[c]
		}
		return n
	}
	var k uint64
	for j := range rs {
		v := rs[j].v.Load()
		if next, end := v>>32, v&(1<<32-1); end > next {
			k += at(end) - at(next)
		}
	}
	return k
}
