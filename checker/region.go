package checker

import (
	"sync/atomic"
	"unsafe"
)

// region is memory for a buffer the level engine fills anew at each level
// (the next level's chunks, the merge's records), mapped apart from the
// heap on huge pages and kept from one level to the next: made on the Go
// heap, such buffers took a page fault per 4 KB page at each level the
// heap grew. Bully N=4 on two workers took 31,000 faults, 15,000 with
// regions; two workers, 8-10 pairs each: RA N=4 R=1 0.904x the time,
// bully 0.938x, Maekawa grid 0.959x, ring N=10 and centralized N=6
// 0.98-1.03x (their levels are narrower).
//
// A use takes pieces one after the other (take) and ends with done, after
// which the pieces are not read again. A use that needs more than the
// mapping holds takes the rest from the heap, and the next use gets a
// mapping of half as much again as the largest use (levels grow from one
// to the next until the widest); a use of less than bigSlab, whose pages
// // would not fill a huge page, is served by the heap. Unless kept (done's
// keep), the mapping goes back to the system at the end of each use, and
// the next use is the heap's: the level engine keeps its regions only in
// a search with no memory bound. Where the system maps nothing apart
// (slabs_other.go), every piece is heap memory.
type region struct {
	raw  []byte // the mapping, nil when none
	mem  []byte // its huge-page-aligned part
	used uintptr
	// want is the most bytes one use has asked for: the size of the next
	// mapping.
	want    uintptr
	refused bool // the system mapped nothing: the heap serves
	// idle is the mapping's bytes while no use holds it: counted then as
	// the worker's scratch (scratchBytes), as the pieces are while a use
	// holds them. Read by every worker's memory checks.
	idle atomic.Uint64
}

// take returns n bytes of the region, not zeroed, valid until done.
func (g *region) take(n int) []byte {
	size := uintptr(n)
	if g.used == 0 {
		if g.raw == nil && g.want >= bigSlab && !g.refused {
			g.mapFor(g.want + g.want/2)
		}
		g.idle.Store(0)
	}
	g.used += size
	g.want = max(g.want, g.used)
	if g.used > uintptr(len(g.mem)) {
		return make([]byte, n)
	}
	at := g.used - size
	return g.mem[at:g.used:g.used]
}

// recs returns room for n records, not zeroed, valid until done.
func (g *region) recs(n int) []rec {
	if n == 0 {
		return nil
	}
	b := g.take(n * recSize)
	return unsafe.Slice((*rec)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// done ends a use: the pieces taken are no longer read. The mapping is
// kept for the next use with keep, unless that use will want more; else
// it goes back to the system.
func (g *region) done(keep bool) {
	if g.raw != nil && (!keep || g.want > uintptr(len(g.mem))) {
		g.free()
	}
	g.used = 0
	if !keep {
		g.want = 0
	}
	g.idle.Store(uint64(len(g.mem)))
}

// mapFor maps room for n bytes, rounded up to whole huge pages.
func (g *region) mapFor(n uintptr) {
	n = (n + hugePage - 1) &^ (hugePage - 1)
	raw, p := mapSlab(n)
	if raw == nil {
		g.refused = true
		return
	}
	outsideHeap(int64(n))
	g.raw, g.mem = raw, unsafe.Slice((*byte)(p), n)
}

// free gives the mapping back to the system.
func (g *region) free() {
	if g.raw == nil {
		return
	}
	unmapSlab(g.raw)
	outsideHeap(-int64(len(g.mem)))
	g.raw, g.mem = nil, nil
	g.idle.Store(0)
}
