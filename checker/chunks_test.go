package checker

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// Workers taking chunks side by side take each exactly once, and each run
// a worker takes (its first, or one it stole) is consecutive chunks in
// ascending order: what merge relies on to find a state's first
// discovery.
func TestChunkRangesTakeEachChunkOnceInRuns(t *testing.T) {
	for _, tc := range []struct{ chunks, workers int }{
		{0, 2}, {1, 1}, {1, 8}, {3, 2}, {64, 2}, {1000, 3}, {1000, 8},
	} {
		rs := newChunkRanges(tc.chunks, tc.workers)
		require.Equal(t, uint64(tc.chunks)*10, rs.left(startsEvery(tc.chunks, 10), uint64(tc.chunks)*10))
		taken := make([][]int, tc.workers) // -1 marks a stolen run's start
		var wg sync.WaitGroup
		for i := range tc.workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					c, stolen := rs.take(i)
					if c < 0 {
						return
					}
					if stolen {
						taken[i] = append(taken[i], -1)
					}
					taken[i] = append(taken[i], c)
				}
			}()
		}
		wg.Wait()
		seen := make([]int, tc.chunks)
		for i, cs := range taken {
			for j, c := range cs {
				if c < 0 {
					continue
				}
				seen[c]++
				if j > 0 && cs[j-1] >= 0 {
					require.Equal(t, cs[j-1]+1, c, "%+v worker %d: a run is consecutive chunks", tc, i)
				}
			}
		}
		for c, k := range seen {
			require.Equal(t, 1, k, "%+v: chunk %d taken once", tc, c)
		}
		require.Equal(t, uint64(0), rs.left(startsEvery(tc.chunks, 10), uint64(tc.chunks)*10))
	}
}

// A worker alone takes its run, then steals the upper half of the largest
// run left, and so on; a run of one chunk is taken whole.
func TestChunkRangesStealTheUpperHalf(t *testing.T) {
	rs := newChunkRanges(8, 2) // worker 0: 0-3, worker 1: 4-7
	var got []int
	for {
		c, stolen := rs.take(0)
		if c < 0 {
			break
		}
		if stolen {
			got = append(got, -1)
		}
		got = append(got, c)
	}
	require.Equal(t, []int{0, 1, 2, 3, -1, 6, 7, -1, 5, -1, 4}, got)
}

// startsEvery is the first state of each of n chunks of k states.
func startsEvery(n, k int) []uint64 {
	s := make([]uint64, n)
	for c := range s {
		s[c] = uint64(c * k)
	}
	return s
}

// reduce merges a worker's runs as separate lists: a state recorded in a
// run the worker stole, below the chunks it expanded before, is kept at
// that smaller key.
func TestReduceMergesRunsByKey(t *testing.T) {
	r := &run[struct{}, struct{}]{seen: newFPSet(false)}
	ws := []*levelWorker[struct{}, struct{}]{{r: r, idx: 0}, {r: r, idx: 1}}
	add := func(w *levelWorker[struct{}, struct{}], fp, k uint64) {
		w.recs[0].add(&w.recMem, rec{fp: fp, key: k << 16, ref: w.idx<<56 | k})
	}
	// Worker 0 expands states 0-1, worker 1 states 4-5 and then, stolen,
	// 2-3: its records are in key order within each run, not across.
	add(ws[0], 10, 0)
	add(ws[0], 11, 1)
	add(ws[1], 12, 4)
	add(ws[1], 13, 5)
	ws[1].beginRun()
	add(ws[1], 13, 2) // found again, first, in the stolen run
	add(ws[1], 14, 3)
	require.Len(t, ws[1].runs, 1)
	for _, insert := range []bool{false, true} {
		r.seen = newFPSet(false)
		ws[0].reduce(ws, 0, ^uint64(0), false, insert, nil)
		got := ws[0].fresh[0].recs
		var keys, fps []uint64
		for _, rc := range got {
			keys, fps = append(keys, rc.key>>16), append(fps, rc.fp)
		}
		require.Equal(t, []uint64{0, 1, 2, 3, 4}, keys, "insert=%v", insert)
		require.Equal(t, []uint64{10, 11, 13, 14, 12}, fps, "insert=%v", insert)
		ws[0].fresh = nil
	}
}

// beginRun forgets the worker's recent records: a state recorded in an
// earlier run is recorded again in the new one.
func TestBeginRunForgetsRecentRecords(t *testing.T) {
	w := &levelWorker[struct{}, struct{}]{recent: newRecentFPs()}
	require.False(t, w.recent.has(42))
	w.recent.put(42)
	require.True(t, w.recent.has(42))
	w.beginRun()
	require.False(t, w.recent.has(42))
}
