package lines

import (
	"testing"
	"unsafe"
)

// Two slices made by Own one after the other are a line apart at least.
func TestOwnKeepsOthersOffItsLines(t *testing.T) {
	span := func(s []uint32) (uintptr, uintptr) {
		lo := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
		return lo, lo + uintptr(len(s))*4
	}
	for _, n := range []int{1, 3, 17, 40} {
		a, b := Own[uint32](n), Own[uint32](n)
		if len(a) != n || cap(a) != n {
			t.Fatalf("Own(%d): len %d cap %d", n, len(a), cap(a))
		}
		aLo, aHi := span(a)
		bLo, bHi := span(b)
		if bLo < aHi+Size && aLo < bHi+Size {
			t.Fatalf("Own(%d): arrays at %#x-%#x and %#x-%#x share a line", n, aLo, aHi, bLo, bHi)
		}
	}
}
