package checker

import (
	"encoding/binary"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

// The search's queue keeps every chunk it has read for the pushes after:
// it holds no more chunks than at its widest, gives back the entries in
// the order pushed across reused chunks, takes its chunks after the first
// from its region, and lets the region go when released.
func TestQueueReusesItsChunks(t *testing.T) {
	q := &queue{opts: &Options{}}
	enc := make([]byte, 100)
	entry := func(i int) []byte {
		binary.LittleEndian.PutUint64(enc, uint64(i))
		return enc
	}
	pushed, popped := 0, 0
	push := func(n int) {
		for range n {
			q.push(pushed%7, uint64(pushed)+1, entry(pushed))
			pushed++
		}
	}
	pop := func(n int) {
		for range n {
			d, fp, e, ok := q.pop()
			require.True(t, ok)
			require.Equal(t, popped%7, d)
			require.Equal(t, uint64(popped)+1, fp)
			require.Equal(t, uint64(popped), binary.LittleEndian.Uint64(e))
			popped++
		}
	}
	// About 118 bytes an entry: 40,000 entries fill five chunks.
	push(40000)
	wide := q.total
	require.Equal(t, uint64(5*chunkSize), wide)
	pop(40000)
	require.Equal(t, wide, q.total, "the chunks read are kept")
	require.Len(t, q.free, 4, "all but the one being read")
	// Narrower again, in waves: no new chunk.
	for range 3 {
		push(30000)
		pop(25000)
	}
	pop(pushed - popped)
	require.Equal(t, wide, q.total)
	if runtime.GOOS == "linux" {
		require.NotNil(t, q.mem.raw, "the chunks come from the region")
		require.Equal(t, uintptr(6<<20), q.mem.touched, "five chunks: three huge pages")
	}
	q.release()
	require.Nil(t, q.mem.raw)
	require.Zero(t, q.mem.touched)
}
