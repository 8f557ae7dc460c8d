package checker

import (
	"syscall"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// touch writes every page its bytes lie on, the last one too when they
// do not start on a page (a table's tail left to the probe that reads it
// first would cost a copy of the zero page and a TLB flush on every
// core). Read through mincore: a page never touched is not resident.
func TestTouchWritesEveryPage(t *testing.T) {
	const page = 4096
	for _, c := range []struct{ off, n uintptr }{
		{0, 3 * page},        // whole pages
		{2048, 2 * page},     // ends a page past its whole ones
		{8, 2*page - 16},     // inside three pages
		{page - 1, 2},        // across one boundary
		{100, 1},             // one byte
		{0, 0},               // nothing
		{4000, 2*page + 200}, // four pages
	} {
		raw, err := syscall.Mmap(-1, 0, 6*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
		require.NoError(t, err)
		base := uintptr(unsafe.Pointer(&raw[0]))
		touch(unsafe.Pointer(&raw[c.off]), c.n)
		vec := make([]byte, 6)
		_, _, e := syscall.Syscall(syscall.SYS_MINCORE, base, 6*page, uintptr(unsafe.Pointer(&vec[0])))
		require.Zero(t, e)
		for p := uintptr(0); p < 6; p++ {
			in := c.n > 0 && p >= c.off/page && p <= (c.off+c.n-1)/page
			require.Equal(t, in, vec[p]&1 == 1, "off %d n %d: page %d", c.off, c.n, p)
		}
		require.NoError(t, syscall.Munmap(raw))
	}
}
