package checker

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/internal/lines"
	"github.com/coordcheck/coordcheck/model"
	ra "github.com/coordcheck/coordcheck/protocols/ricartagrawala"
)

// Two workers' expanders, made one after the other as the level engine
// makes them, write their action lists, entry buffers, kind-table counts
// and judge plans on cache lines neither shares with the other's (the
// store into the action list was 36% of load's samples in a slow
// two-worker run of centralized N=6 R=2).
func TestWorkersWriteOnLinesOfTheirOwn(t *testing.T) {
	p := ra.New(3, 1)
	sys := model.MustNewSystem[ra.State, ra.Msg](p, model.Config{})
	sp := &Spec[ra.State, ra.Msg]{System: sys, Invariants: ra.Properties(p, model.Config{}).Invariants}
	require.NotEmpty(t, sp.Invariants)
	st := model.NewStore[ra.State, ra.Msg]()
	var xs [2]*expander[ra.State, ra.Msg]
	var covs [2]*kindTable
	for i := range xs {
		xs[i], covs[i] = newExpander(sp, st), newKindTable()
	}
	// In turn, as two workers would: what each grows, it grows just
	// after the other.
	fp, enc := xs[0].initial()
	for _, x := range xs {
		x.load(fp, enc, true)
	}
	for _, x := range xs {
		x.makeSuccessors(&prefetcher{}, 0, false)
	}
	for i, x := range xs {
		require.NotEmpty(t, x.acts)
		for j := range x.acts {
			x.count(covs[i], x.acts[j])
		}
	}
	var spans [2][][2]uintptr
	for i, x := range xs {
		spans[i] = [][2]uintptr{capSpan(x.acts), capSpan(x.buf), capSpan(x.enc), capSpan(x.guardedAwake),
			capSpan(covs[i].counts), capSpan(x.judges.all), capSpan(x.judges.busy)}
	}
	for _, p := range spans[0] {
		for _, q := range spans[1] {
			if p[0] == p[1] || q[0] == q[1] {
				continue // an array not made
			}
			require.False(t, p[0]/lines.Size <= (q[1]-1)/lines.Size && q[0]/lines.Size <= (p[1]-1)/lines.Size,
				"arrays at %#x-%#x and %#x-%#x share a line", p[0], p[1], q[0], q[1])
		}
	}
}

// capSpan is the addresses of s's capacity.
func capSpan[T any](s []T) [2]uintptr {
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	return [2]uintptr{lo, lo + uintptr(cap(s))*unsafe.Sizeof(*new(T))}
}
