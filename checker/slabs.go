package checker

import (
	"math"
	"runtime/debug"
	"sync"
	"unsafe"
)

// slabs hands out the visited set's tables. The tables of one size and
// kind (keys or numbers) for all the shards are cut from one
// block of memory, a slab, which goes when the last shard has grown out
// of it. The shards of a set grow in step (the keys spread evenly over
// them), so a slab is mostly full of live tables.
//
// A large slab is mapped from the system on its own (slabs_linux.go), so
// that the pages of a shard's old table go back to the system as soon as
// the shard has grown out of it (drop). It was mapped so for transparent
// huge pages, asked for until session 40: a shard's table alone, a few
// hundred kilobytes, is too small for a 2 MB page, a slab of all of them
// is not. They are no longer asked for: on a VM whose host takes back its
// guest's free memory, the first write of a huge page costs five times
// the small pages it replaces (mapSlab).
type slabs struct {
	mu   sync.Mutex
	live map[slabKey]*slab
}

// slabKey names the slab of the tables of size slots of one kind.
type slabKey struct {
	size uint64
	kind uint8
}

// The kinds of table, and their slot widths.
const (
	slabKeys uint8 = iota
	slabIDs
)

var slabWidth = [...]uintptr{slabKeys: 8, slabIDs: 4}

// slab is the memory of numShards tables of one size and kind.
type slab struct {
	key   slabKey
	base  unsafe.Pointer // the first table
	raw   []byte         // the mapping, nil when the slab is on the heap
	users int            // the shards whose table is here
	// held is the mapping's memory still counted against the Go
	// runtime's memory limit (outsideHeap): its bytes, less the huge
	// pages given back.
	held uintptr
}

// hugePage is the size of a transparent huge page on the machines this
// targets (x86-64 and arm64 with 4 KB pages); elsewhere, the alignment of
// the memory mapped apart, which then is none.
const hugePage = 2 << 20

// bigSlab is the size from which a slab is mapped on its own rather than
// made on the heap: a smaller one could not hold a huge page.
const bigSlab = 2 << 20

// take returns shard i's table of size slots of the kind, and its slab,
// zeroed. Any number of goroutines may take and drop at once.
func (a *slabs) take(kind uint8, size uint64, i int) (unsafe.Pointer, *slab) {
	k := slabKey{size, kind}
	width := slabWidth[kind]
	a.mu.Lock()
	sl := a.live[k]
	if sl == nil {
		sl = newSlab(k, uintptr(size)*width*numShards)
		if a.live == nil {
			a.live = make(map[slabKey]*slab)
		}
		a.live[k] = sl
	}
	sl.users++
	a.mu.Unlock()
	bytes := uintptr(size) * width
	p := unsafe.Add(sl.base, uintptr(i)*bytes)
	if sl.raw != nil {
		touch(p, bytes)
	} else {
		// A table of a fresh heap slab is zero, one of a slab taken
		// before may not be; and its pages are written first (touch).
		clear(unsafe.Slice((*byte)(p), bytes))
	}
	return p, sl
}

// newSlab makes the slab for key of bytes bytes: mapped when it is big
// and the system can, else on the heap.
func newSlab(key slabKey, bytes uintptr) *slab {
	if bytes >= bigSlab {
		if raw, base := mapSlab(bytes); raw != nil {
			outsideHeap(int64(bytes))
			return &slab{key: key, raw: raw, base: base, held: bytes}
		}
	}
	mem := make([]uint64, (bytes+7)/8)
	return &slab{key: key, base: unsafe.Pointer(unsafe.SliceData(mem))}
}

// drop lets go of shard i's table in sl; the slab goes with its last.
// The whole huge pages of a mapped table go back to the system at once
// (unbackSlab): the shards leave a slab one by one as they grow, and a
// large slab held whole until its last shard left would hold up to 2.5
// times the set's memory at once, not 1.5.
func (a *slabs) drop(sl *slab, i int) {
	if sl == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if sl.users--; sl.users > 0 {
		if sl.raw != nil {
			bytes := uintptr(sl.key.size) * slabWidth[sl.key.kind]
			gone := min(unbackSlab(unsafe.Add(sl.base, uintptr(i)*bytes), bytes), sl.held)
			sl.held -= gone
			outsideHeap(-int64(gone))
		}
		return
	}
	delete(a.live, sl.key)
	unmap(sl)
	sl.base = nil
}

// unmap gives a mapped slab's memory back to the system.
func unmap(sl *slab) {
	if sl.raw == nil {
		return
	}
	unmapSlab(sl.raw)
	outsideHeap(-int64(sl.held))
	sl.raw, sl.held = nil, 0
}

// heapLimit is what outsideHeap lowered the Go runtime's soft memory
// limit by.
var heapLimit struct {
	sync.Mutex
	lowered int64
}

// outsideHeap notes that the mapped slabs hold delta more bytes (or
// -delta fewer), and lowers (raises) the Go runtime's soft memory limit
// by as much, when one is set. A search bounded by -max-memory sets the
// limit near the bound (cli/signals.go), so that the collector works
// harder as the heap nears it; the runtime counts only its own memory,
// and with the visited set mapped apart it let the garbage grow as if
// the set took none: RA N=4 R=2 on two workers within -max-memory 1400
// peaked at 1,273,316-1,507,040 KB of RSS over four runs.
func outsideHeap(delta int64) {
	heapLimit.Lock()
	defer heapLimit.Unlock()
	if delta < 0 {
		delta = -min(-delta, heapLimit.lowered) // only what was taken off
	}
	limit := debug.SetMemoryLimit(-1)
	if limit == math.MaxInt64 { // no limit: nothing to lower, or to give back
		if delta < 0 {
			heapLimit.lowered += delta
		}
		return
	}
	heapLimit.lowered += delta
	debug.SetMemoryLimit(max(limit-delta, 1))
}

// free lets every slab go (the set's cleanup, when it was not released).
func (a *slabs) free() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for k, sl := range a.live { // any order: each goes alone
		unmap(sl)
		delete(a.live, k)
	}
}

// touch writes a zero on each page of the n bytes at p, fresh from the
// system. A table whose first access to a page is a read (a probe) maps
// the shared zero page, and the write that follows copies it and flushes
// the TLB of every core the search runs on: an interrupt per page on each
// of them. Written first, a page costs one fault and no flush. (perf,
// bully N=4 on two workers: the copies and flushes under grow were 2.4%
// of the run's samples.) On huge pages (where the system gives them),
// the first write of each 2 MB takes the fault and the others are plain
// stores. (A table need not start on a page: the first write is its
// first byte, the others the start of each page after it, so that the
// last page, begun by the table's tail, is written too.)
func touch(p unsafe.Pointer, n uintptr) {
	if n == 0 {
		return
	}
	b := unsafe.Slice((*byte)(p), n)
	b[0] = 0
	for i := 4096 - uintptr(p)%4096; i < n; i += 4096 {
		b[i] = 0
	}
}
