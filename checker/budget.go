package checker

import (
	"fmt"
	"time"
)

// Stopping and memory. Every search checks its bounds often enough to stop
// within a fraction of a second of a signal (Options.Stop) or a timeout,
// and before the memory it holds, by its own account, passes
// Options.MaxMemory. The account counts what a search keeps: the visited
// set, the frontier (queue, stack or BFS level), the per-worker buffers
// and merge tables of parallel BFS, and the liveness graph. It counts a
// table or slice about to grow at the size it will have, since growing
// holds the old and the new one at once: a bound is checked before it is
// crossed, not after.

// pollTransitions is how many transitions a one-worker search takes
// between two polls at most; pollBytes how much its frontier may grow.
const (
	pollTransitions = 1024
	pollBytes       = 1 << 20
)

// stopped reports whether the search was asked to stop (Options.Stop).
func stopped(opts *Options) bool {
	if opts.Stop == nil {
		return false
	}
	select {
	case <-opts.Stop:
		return true
	default:
		return false
	}
}

// interrupt is the bound a search must stop at now, other than memory:
// a signal or the timeout; "" when none.
func interrupt(opts *Options, start time.Time) string {
	if stopped(opts) {
		return "interrupted"
	}
	if opts.Timeout > 0 && time.Since(start) >= opts.Timeout {
		return fmt.Sprintf("timeout %s", opts.Timeout)
	}
	return ""
}

// memoryBound is the bound's name in reports.
func memoryBound(opts *Options) string {
	return fmt.Sprintf("max-memory %d MB", opts.MaxMemory>>20)
}

// budget is the memory the search itself may hold: MaxMemory less the
// reserve held outside it; 0 when there is no bound.
func budget(opts *Options) uint64 {
	if opts.MaxMemory == 0 {
		return 0
	}
	return max(opts.MaxMemory, opts.MemoryReserve+1) - opts.MemoryReserve
}

// over reports whether held bytes pass the memory bound.
func over(opts *Options, held uint64) bool {
	return opts.MaxMemory > 0 && held >= budget(opts)
}

// bytesAfter is the memory the visited set will hold once more states
// are added to it (spread evenly over the shards), with a margin of a
// sixteenth of each shard for the states added before the next poll:
// a shard that will grow is counted at its grown size.
func (s *fpSet) bytesAfter(more uint64) uint64 {
	if s.bits != nil {
		return s.bytes() // a bit array does not grow
	}
	var b uint64
	per := more / numShards
	for i := range s.shards {
		sh := &s.shards[i]
		size := uint64(len(sh.keys))
		b += grown(sh.n+per+size/16, size)
	}
	b *= s.slotBytes()
	if s.parents {
		b += s.foundBytes() + 16*(more+more/16)
	}
	return b
}

// growCap is the capacity append gives a slice of capacity c that must
// grow (about: the runtime rounds it up to a size class).
func growCap(c int) int {
	if c < 256 {
		return 2*c + 8
	}
	return c + (c+3*256)/4
}

// sliceBytes is the memory a slice of length n and capacity c, of
// elements of size bytes, holds, or will hold at once while it grows when
// it is within a sixteenth of its capacity: the old and the new array.
func sliceBytes(n, c int, size uint64) uint64 {
	if n+c/16 >= c {
		return uint64(c+growCap(c)) * size
	}
	return uint64(c) * size
}

// bytesAhead is the graph's memory counted as sliceBytes does.
func (g *graph) bytesAhead() uint64 {
	b := g.fpsMem.ahead(len(g.fps), cap(g.fps), 8) + g.startMem.ahead(len(g.start), cap(g.start), 4) +
		g.endMem.ahead(len(g.end), cap(g.end), 4) + g.toMem.ahead(len(g.to), cap(g.to), 4) +
		g.clsMem.ahead(len(g.cls), cap(g.cls), 4) + uint64(len(g.classes))*24 + g.sccBytes()
	for p := range g.pending {
		b += g.pendingMem[p].ahead(len(g.pending[p]), cap(g.pending[p]), 8)
	}
	return b
}

// MinMemory is the memory a search under opts holds before it has
// expanded anything: the empty visited set, the first chunk of the
// frontier with the initial state in it, the workers' first buffers, the
// state graph's first arrays. A MaxMemory below it cannot take effect:
// Check refuses it (an inconclusive report with no state), and the
// command line rejects it as bad usage.
func (sp *Spec[S, M]) MinMemory(opts Options) uint64 {
	sys := sp.System
	enc := sys.Encode(nil, sys.Init())
	entry := uint64(len(enc)) + 24
	seen := newFPSet(opts.Strategy == DFS || opts.Exhaust)
	b := seen.bytes()
	if opts.Bitstate > 0 {
		b = newBitSet(opts.Bitstate).bytes()
	}
	switch {
	case opts.Strategy == Random || opts.Strategy == Swarm:
		return b + uint64(opts.workers())*entry*2
	case len(sp.Liveness) > 0 && !opts.SkipLiveness:
		b += uint64(numShards*len(seen.shards[0].keys)) * 4 // numbering
	}
	if opts.Strategy == BFS && opts.workers() > 1 {
		// The first level, and each worker's part of the next.
		return b + uint64(opts.workers()+1)*max(levelChunk, entry)
	}
	return b + max(chunkSize, entry)
}

// MinMemory is the memory t needs to start a search under opts (see
// Spec.MinMemory); 0 when t cannot tell.
func MinMemory(t Target, opts Options) uint64 {
	if m, ok := t.(interface{ MinMemory(Options) uint64 }); ok {
		return m.MinMemory(opts)
	}
	return 0
}

// refuse is the report of a search that cannot start within its memory
// bound, or nil when it can.
func (sp *Spec[S, M]) refuse(opts Options) *Report {
	if opts.MaxMemory == 0 {
		return nil
	}
	need := sp.MinMemory(opts)
	if need < budget(&opts) {
		return nil
	}
	return &Report{Verdict: Inconclusive, Properties: sp.PropertyNames(), PeakBytes: need,
		Bound: fmt.Sprintf("%s: the initial state and the empty tables need %.1f MB", memoryBound(&opts), float64(need)/(1<<20))}
}
