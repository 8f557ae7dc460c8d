package checker

import (
	"runtime"
	"runtime/debug"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// A region serves a small use from the heap, maps room for the largest
// use once one needs a huge page's worth, keeps it while memory is ample
// (counted as idle between uses, and against the Go memory limit while
// mapped), and lets it go when it is not.
func TestRegionKeepsTheLargestUse(t *testing.T) {
	const limit = int64(1) << 40
	prev := debug.SetMemoryLimit(limit)
	defer debug.SetMemoryLimit(prev)
	inMapping := func(g *region, b []byte) bool {
		p, lo := uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(unsafe.Pointer(unsafe.SliceData(g.mem)))
		return g.mem != nil && p >= lo && p+uintptr(len(b)) <= lo+uintptr(len(g.mem))
	}
	var g region
	small := g.take(64 << 10)
	require.Len(t, small, 64<<10)
	require.Nil(t, g.raw, "a small use is the heap's")
	g.done(true)
	require.Zero(t, g.idle.Load())

	// A use of 3 MB: the heap's, then a mapping of 6 MB (4.5 rounded up
	// to huge pages) for the next.
	for range 3 {
		g.take(1 << 20)
	}
	require.Nil(t, g.raw)
	g.done(true)
	if runtime.GOOS != "linux" {
		return // nothing is mapped apart
	}
	var pieces [][]byte
	for range 3 {
		pieces = append(pieces, g.take(1<<20))
	}
	require.Len(t, g.mem, 6<<20)
	require.Equal(t, limit-6<<20, debug.SetMemoryLimit(-1))
	for i, b := range pieces {
		require.True(t, inMapping(&g, b), "piece %d", i)
		require.Equal(t, 1<<20, cap(b))
		b[0], b[len(b)-1] = 1, 1
	}
	require.Zero(t, g.idle.Load(), "a use holds it: its pieces are counted")
	over := g.take(4 << 20) // 7 MB in all: the last from the heap
	require.False(t, inMapping(&g, over))
	g.done(true)
	require.Nil(t, g.raw, "too small for the next use: let go")
	require.Equal(t, limit, debug.SetMemoryLimit(-1))
	g.take(1 << 20)
	require.Len(t, g.mem, 12<<20, "the largest use and half again (10.5 MB), in whole huge pages")
	g.done(true)
	require.Equal(t, uint64(12<<20), g.idle.Load())
	require.Equal(t, limit-12<<20, debug.SetMemoryLimit(-1))

	// Memory not ample: the mapping goes at the end of the use.
	g.take(1 << 20)
	g.done(false)
	require.Nil(t, g.raw)
	require.Zero(t, g.idle.Load())
	require.Equal(t, limit, debug.SetMemoryLimit(-1))
	g.take(3 << 20)
	require.Nil(t, g.raw, "the use after is the heap's")
	g.done(true)
	g.take(1)
	require.NotNil(t, g.raw)
	g.free()
	require.Nil(t, g.raw)
	require.Equal(t, limit, debug.SetMemoryLimit(-1))
}
