package checker

import (
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
