package live

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/model"
)

// Mutual exclusion on observed intervals: a section that begins when
// another ends does not overlap it; one that begins before it ends does,
// and so does one nested in a long one; a crash ends a stay; a section
// still open when the record ends lasts until then.
func TestMutualExclusionOnIntervals(t *testing.T) {
	ms := time.Millisecond
	o := &Observer{entries: make([]int, 3), stopped: 100 * ms}
	add := func(at time.Duration, node model.NodeID, k RecordKind) {
		o.recs = append(o.recs, Record{At: at * ms, Node: node, Kind: k})
	}
	add(0, 0, RecEnter)
	add(10, 0, RecExit)
	add(10, 1, RecEnter) // begins as p0's ends: no overlap
	add(50, 1, RecCrash)
	add(50, 1, RecExit)
	add(50, 2, RecEnter)
	add(60, 0, RecEnter) // p2 is inside until 70: overlap
	add(65, 0, RecExit)
	add(70, 2, RecExit)
	add(90, 1, RecEnter) // open until the end, 100
	require.Equal(t, []Interval{
		{Node: 0, Enter: 0, Exit: 10 * ms}, {Node: 1, Enter: 10 * ms, Exit: 50 * ms},
		{Node: 2, Enter: 50 * ms, Exit: 70 * ms}, {Node: 0, Enter: 60 * ms, Exit: 65 * ms},
		{Node: 1, Enter: 90 * ms, Exit: 100 * ms, Open: true},
	}, o.Intervals())
	v := o.MutualExclusion()
	require.Equal(t, Verdict{Property: "mutual-exclusion", Judged: 5, Violations: 1, Of: "observed critical sections",
		First: "p0 entered at 0.060000s while p2 was inside (0.050000s to 0.070000s)"}, v)
}
