package checker

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// reduce, inserting, keeps its lookup counts on the sampled fingerprints
// in a table sized by their number: a shard whose every record is
// sampled (here, all of them multiples of samples), more than the table
// would hold were it sized by the records' share, is reduced all the same,
// each fingerprint once, at its smallest key. (Sized by the share, it
// filled, and the probe for a free slot never ended.)
func TestReduceSizesItsSampleTable(t *testing.T) {
	for _, insert := range []bool{false, true} {
		r := &run[struct{}, struct{}]{seen: newFPSet(false)}
		ws := []*levelWorker[struct{}, struct{}]{{r: r, idx: 0}, {r: r, idx: 1}}
		const n = 100
		visited := uint64(7 * samples) // in the set before the level
		r.seen.shards[0].insert(visited, noParent, 0)
		for i := range uint64(n) {
			fp := (1 + i%40) * samples // 40 states, each met by both workers
			ws[i%2].recs[0].add(&ws[i%2].recMem, rec{fp: fp, key: i << 16, ref: i})
		}
		ws[0].reduce(ws, 0, ^uint64(0), false, insert, nil)
		require.Len(t, ws[0].fresh, 1)
		got := ws[0].fresh[0].recs
		require.Len(t, got, 39, "insert=%v: 40 states, one visited before", insert)
		for j, rc := range got {
			require.Equal(t, rc.fp/samples-1, rc.key>>16, "insert=%v: the first discovery", insert)
			if j > 0 {
				require.Less(t, got[j-1].key, rc.key, "insert=%v: key order", insert)
			}
		}
		weight := uint64(1) // inserting, each sampled lookup stands for samples
		if insert {
			weight = samples
		}
		require.Equal(t, 40*weight, ws[0].probed, "insert=%v: 40 lookups", insert)
		require.Equal(t, weight, ws[0].found, "insert=%v: one visited", insert)
		if insert {
			require.Equal(t, uint64(1+39), r.seen.shards[0].n, "the new states are in the set")
		}
	}
}

// recMerge gives the records of any lists, each in key order, in key
// order: lists of ranges apart (its fast case), interleaved, empty, and
// one alone.
func TestRecMergeIsSorted(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		keys := rng.Perm(1 + rng.IntN(400))
		k := 1 + rng.IntN(7)
		lists := make([][]rec, k)
		if trial%2 == 0 { // ranges apart, cut at random points
			slices.Sort(keys)
			for _, key := range keys {
				i := min(k-1, key*k/len(keys)+rng.IntN(2)-rng.IntN(2))
				lists[max(i, 0)] = append(lists[max(i, 0)], rec{key: uint64(key)})
			}
		} else { // interleaved
			for _, key := range keys {
				i := rng.IntN(k)
				lists[i] = append(lists[i], rec{key: uint64(key)})
			}
		}
		for _, l := range lists {
			slices.SortFunc(l, func(a, b rec) int { return cmp.Compare(a.key, b.key) })
		}
		var m recMerge
		m.reset(lists)
		var got []uint64
		for {
			r := m.next()
			if r == nil {
				break
			}
			got = append(got, r.key)
		}
		require.Len(t, got, len(keys), "trial %d", trial)
		require.True(t, slices.IsSorted(got), "trial %d: %v", trial, got)
	}
}
