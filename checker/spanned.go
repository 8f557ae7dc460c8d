package checker

import "unsafe"

// spanned is the memory behind a slice that only grows, one element at a
// time (the state graph's arrays): past spannedFrom bytes, the slice is
// moved once into address space reserved for it (mapSpan) and grows
// there in place, copying nothing and writing no memory twice; before
// that, or where no span can be had, it grows as append does. Grown by
// append, the graph's arrays copied themselves at every doubling and
// wrote about twice their size in memory never written before: 23% of
// ring N=10's check with liveness, on the 2-core VM where such memory
// costs about 1.5 ms a megabyte.
type spanned struct {
	raw []byte // the reservation, nil while on the heap
	// touched is the bytes of the span counted as held so far, in whole
	// huge pages (against the Go memory limit: outsideHeap).
	touched uintptr
	off     bool // no span could be had: the heap's, for good
}

const (
	// spannedSpan is the address space a spanned slice reserves.
	spannedSpan = 1 << 36
	// spannedFrom is the size from which a slice is moved to a span.
	spannedFrom = 1 << 20
)

// push returns s, whose memory sp holds, with v appended.
func push[T uint32 | uint64](sp *spanned, s []T, v T) []T {
	size := unsafe.Sizeof(v)
	if end := uintptr(len(s)+1) * size; sp.raw != nil && end > sp.touched {
		t := min((end+hugePage-1)&^(hugePage-1), spannedSpan)
		outsideHeap(int64(t - sp.touched))
		sp.touched = t
	} else if len(s) == cap(s) && sp.raw == nil && !sp.off && uintptr(cap(s))*size >= spannedFrom {
		raw := mapSpan(spannedSpan)
		if raw == nil {
			sp.off = true
		} else {
			sp.raw = raw
			moved := unsafe.Slice((*T)(alignedSpan(raw)), spannedSpan/size)[:len(s)]
			copy(moved, s)
			sp.touched = 0
			return push(sp, moved, v)
		}
	}
	return append(s, v)
}

// bytes is the memory behind s: the span's pages counted, or the heap
// array's.
func (sp *spanned) bytes(capacity int, size uint64) uint64 {
	if sp.raw != nil {
		return uint64(sp.touched)
	}
	return uint64(capacity) * size
}

// ahead is bytes, and what growing by a sixteenth more may add at once:
// a huge page in a span, the new array beside the old on the heap
// (sliceBytes).
func (sp *spanned) ahead(n, capacity int, size uint64) uint64 {
	if sp.raw != nil {
		return uint64(sp.touched) + hugePage
	}
	return sliceBytes(n, capacity, size)
}

// release gives the span back to the system; the slice must not be read
// again.
func (sp *spanned) release() {
	if sp.raw != nil {
		unmapSlab(sp.raw)
		outsideHeap(-int64(sp.touched))
	}
	*sp = spanned{}
}
