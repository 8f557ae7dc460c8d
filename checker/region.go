package checker

import (
	"sync/atomic"
	"unsafe"
)

// region is memory for a buffer the level engine fills anew at each level
// (the next level's chunks, the merge's records), mapped apart from the
// heap (on huge pages until session 40: mapSlab) and kept from one level
// to the next: made on the Go
// heap, such buffers took a page fault per 4 KB page at each level the
// heap grew (RA N=4 R=1 on two workers: 19,500 faults, 10,000 with
// regions; two workers, 8 pairs each: RA 0.930x the time, bully N=4
// 0.933x, Maekawa grid 0.950x, ring N=10 0.877x, centralized N=6 0.890x).
//
// A use takes pieces one after the other (take) and ends with done, after
// which the pieces are not read again. A region maps regionSpan bytes of
// address space once a use has needed regionFrom (a smaller use is served
// by the heap, and a small search maps nothing), and serves every use
// from its start: only the pages written so far are resident, and counted
// (as the workers' scratch between uses, and against the Go memory limit),
// and a level wider than the last writes on into pages never touched
// instead of a new mapping. A use that needs more than the span takes the
// rest from the heap. Unless kept (done's keep), the mapping goes back to
// the system at the end of each use, and the next use is the heap's: the
// level engine keeps its regions while memory is plentiful (regionsKept).
// Where the system maps nothing apart (slabs_other.go), every piece is
// heap memory.
type region struct {
	raw  []byte  // the mapping, nil when none
	mem  []byte  // its huge-page-aligned part, regionSpan bytes
	used uintptr // the bytes the use under way took
	// touched is the bytes of mem written so far, in whole huge pages:
	// resident, and counted against the Go memory limit (outsideHeap).
	touched uintptr
	// want is the most bytes one use has asked for.
	want    uintptr
	refused bool // the system mapped nothing: the heap serves
	// idle is the resident bytes while no use holds them: counted then as
	// the worker's scratch (scratchBytes), as the pieces are while a use
	// holds them. Read by every worker's memory checks.
	idle atomic.Uint64
}

// regionSpan is the address space a region maps: untouched, it costs
// nothing but the mapping.
const regionSpan = 1 << 30

// regionFrom is the use from which a region maps its span.
const regionFrom = 256 << 10

// take returns n bytes of the region, not zeroed, valid until done.
func (g *region) take(n int) []byte {
	size := uintptr(n)
	if g.used == 0 {
		if g.want >= regionFrom {
			g.reserve()
		}
		g.idle.Store(0)
	}
	g.used += size
	g.want = max(g.want, g.used)
	if g.used > uintptr(len(g.mem)) {
		return make([]byte, n)
	}
	if g.used > g.touched {
		t := min((g.used+hugePage-1)&^(hugePage-1), uintptr(len(g.mem)))
		outsideHeap(int64(t - g.touched))
		g.touched = t
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

// done ends a use: the pieces taken are no longer read. With keep, the
// mapping is kept for the next use; else it goes back to the system, and
// the next use is the heap's.
func (g *region) done(keep bool) {
	if !keep {
		g.free()
		g.want = 0
	}
	g.used = 0
	g.idle.Store(uint64(g.touched))
}

// reserve maps the region's address space now, unless it is mapped or
// the system refused it: for a use known to be long (the one-worker
// queue's, which never ends before the search), whose pieces would
// otherwise all come from the heap.
func (g *region) reserve() {
	if g.raw == nil && !g.refused {
		g.mapSpan()
	}
}

// mapSpan maps the region's address space.
func (g *region) mapSpan() {
	raw, p := mapSlab(regionSpan)
	if raw == nil {
		g.refused = true
		return
	}
	g.raw, g.mem = raw, unsafe.Slice((*byte)(p), regionSpan)
}

// free gives the mapping back to the system.
func (g *region) free() {
	if g.raw == nil {
		return
	}
	unmapSlab(g.raw)
	outsideHeap(-int64(g.touched))
	g.raw, g.mem, g.touched = nil, nil, 0
	g.idle.Store(0)
}
