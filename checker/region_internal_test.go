package checker

import (
	"runtime"
	"runtime/debug"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// A region serves a small use from the heap, maps its span once a use has
// needed a huge page's worth, serves each use from the span's start,
// counting the huge pages written (as idle between uses, and against the
// Go memory limit), keeps them while kept, and lets them go when not.
func TestRegionServesUsesFromItsSpan(t *testing.T) {
	const limit = int64(1) << 40
	prev := debug.SetMemoryLimit(limit)
	defer debug.SetMemoryLimit(prev)
	inSpan := func(g *region, b []byte) bool {
		p, lo := uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(unsafe.Pointer(unsafe.SliceData(g.mem)))
		return g.mem != nil && p >= lo && p+uintptr(len(b)) <= lo+uintptr(len(g.mem))
	}
	var g region
	small := g.take(64 << 10)
	require.Len(t, small, 64<<10)
	require.Nil(t, g.raw, "a small use is the heap's")
	g.done(true)
	require.Zero(t, g.idle.Load())

	// A use of 3 MB: the heap's; the next is the span's.
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
	require.Len(t, g.mem, regionSpan)
	for i, b := range pieces {
		require.True(t, inSpan(&g, b), "piece %d", i)
		require.Equal(t, 1<<20, cap(b))
		b[0], b[len(b)-1] = 1, 1
	}
	require.Equal(t, uintptr(4<<20), g.touched, "3 MB written: two huge pages")
	require.Equal(t, limit-4<<20, debug.SetMemoryLimit(-1))
	require.Zero(t, g.idle.Load(), "a use holds it: its pieces are counted")
	g.done(true)
	require.Equal(t, uint64(4<<20), g.idle.Load())

	// A wider use writes on into new pages, from the same start.
	first := g.take(5 << 20)
	require.Equal(t, unsafe.SliceData(pieces[0]), unsafe.SliceData(first))
	require.Equal(t, uintptr(6<<20), g.touched)
	require.Equal(t, limit-6<<20, debug.SetMemoryLimit(-1))
	span := g.mem
	g.mem = g.mem[:8<<20] // as if the span were 8 MB
	require.True(t, inSpan(&g, g.take(3<<20)))
	require.False(t, inSpan(&g, g.take(1)), "past the span: the heap's")
	require.Equal(t, uintptr(8<<20), g.touched)
	g.mem = span
	g.done(true)
	require.Equal(t, uint64(8<<20), g.idle.Load())

	// Not kept: the mapping goes at the end of the use, and the use after
	// is the heap's.
	g.take(1 << 20)
	g.done(false)
	require.Nil(t, g.raw)
	require.Zero(t, g.idle.Load())
	require.Equal(t, limit, debug.SetMemoryLimit(-1))
	g.take(3 << 20)
	require.Nil(t, g.raw)
	g.done(true)
	g.take(1)
	require.NotNil(t, g.raw)
	g.free()
	require.Nil(t, g.raw)
	require.Equal(t, limit, debug.SetMemoryLimit(-1))
}
