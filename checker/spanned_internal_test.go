package checker

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// A slice grown by push keeps every element, moves into a span of its
// own once past spannedFrom (on Linux), and from then on grows in place:
// its array never moves again, and the memory counted follows its length
// in whole huge pages.
func TestSpannedGrowsInPlace(t *testing.T) {
	var sp spanned
	defer sp.release()
	var s []uint32
	const n = 3 << 20 // 12 MB of elements
	var first *uint32
	for i := range uint32(n) {
		s = push(&sp, s, i)
		if sp.raw != nil && first == nil {
			first = &s[0]
			if i*4 < spannedFrom-4 {
				t.Fatalf("moved at %d bytes, before spannedFrom", i*4)
			}
		}
	}
	for i, v := range s {
		if v != uint32(i) {
			t.Fatalf("element %d is %d", i, v)
		}
	}
	if runtime.GOOS != "linux" {
		require.Nil(t, sp.raw)
		return
	}
	require.NotNil(t, first)
	require.Equal(t, first, &s[0], "the array never moved after")
	b := sp.bytes(cap(s), 4)
	require.GreaterOrEqual(t, b, uint64(n*4))
	require.Less(t, b, uint64(n*4+hugePage))
	require.Equal(t, b+hugePage, sp.ahead(len(s), cap(s), 4))
}
