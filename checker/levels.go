package checker

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/coordcheck/coordcheck/internal/lines"
)

// exploreLevels is BFS without the state graph on several workers, one
// level at a time: the BFS that cannot run in ordered batches
// (orderedFits: the graph-free liveness check, checkpoints, max-states).
// It runs in three phases:
//
//  1. expand: the workers take the level's states in chunks, each a run
//     of consecutive chunks and then halves of the others' runs
//     (chunkRanges), judge them and make their successors; a successor
//     is noted as a record (fingerprint, key, where its encoding is), the
//     key being the position of the state that made it and the index of
//     the action, and its encoding is kept in the worker's arena, unless
//     the worker recorded it lately in the level (recentFPs) or (where
//     the last level showed that worth it, levelRun.probe) finds it in
//     the visited set;
//  2. merge: shard by shard, the records are reduced to one per
//     fingerprint, the one of the smallest key, those of visited states
//     are dropped, and the new states go into the visited set;
//  3. gather: the new states' encodings, in key order, are copied from
//     the arenas into the next level.
//
// The smallest key is the first discovery a one-worker BFS makes, so the
// next level's order, and hence the counts and every counterexample
// (pathTo), are those of the search on one worker (explore), whatever the
// number of workers and their timing. Where that search would stop inside a level
// (a violation, max-states), the counts are cut where it would have cut.
func (sp *Spec[S, M]) exploreLevels(opts Options, mode livenessMode) (*Report, bool) {
	r := sp.newRun(opts, mode)
	if r.restoreErr != nil {
		return r.restoreFailed(), false
	}
	rep, seen := r.rep, r.seen
	ws := make([]*levelWorker[S, M], opts.workers())
	for i := range ws {
		ws[i] = &levelWorker[S, M]{r: r, idx: uint64(i), x: newExpander(sp, r.store), cov: newKindTable(), recent: newRecentFPs(), premK: lines.Own[uint64](len(r.prem))}
		for j := range ws[i].premK {
			ws[i].premK[j] = ^uint64(0)
		}
		if r.term != nil {
			ws[i].term = newTerminals(len(sp.Liveness), sp.System.N())
		}
	}
	if r.sleeps() {
		for _, w := range ws {
			w.x.keepSleep()
		}
	}
	team := newTeam(len(ws)-1, canSpin(len(ws)-1))
	for _, w := range ws {
		w.team = team
	}
	level := &levelBuf{}
	defer func() {
		team.stop()
		level.release()
		ws[0].arena.disk.close()
		for _, w := range ws {
			for _, g := range w.regions() {
				g.free()
			}
		}
	}()
	var newLater newShare // what share of a level's records are new states
	var base uint64       // the BFS position of the level's first state
	var outdeg []uint32   // levelRun.outdeg, kept from level to level
	var keys []uint64     // the level's keys (levelKeys), kept likewise
	start := 0
	if ck := r.resumed; ck != nil {
		level = ck.level()
		base, start = ck.base, ck.levelDepth
	} else {
		initFP, initEnc := ws[0].x.initial()
		seen.insert(initFP, noParent)
		r.countLevel(0, 1)
		level.add(initFP, ws[0].x.withSleep(initEnc))
	}

	for depth := start; level.n > 0; depth++ {
		if r.ckpt.due() {
			if stop := r.save(engineLevels, levelsFrontier(level, depth, base)); stop != "" {
				rep.Bound = stop
				break
			}
		}
		rep.Depth = depth
		outdeg = zeroed(outdeg, level.n)
		lv := &levelRun{level: level, depth: depth, base: base, outdeg: outdeg}
		lv.cut.Store(^uint64(0))
		lv.held = level.bytes() + uint64(cap(lv.outdeg))*4 + uint64(cap(keys))*8 + r.plog.bytes()
		if level.disk != nil { // each worker reads a chunk at a time
			lv.held += uint64(len(ws)) * levelChunk
		}
		lv.seenBytes = seen.bytes()
		// The workers' scratch does not change while they expand: its
		// memory is counted once, and the polls read only what grows.
		scratch := scratchBytes(ws)
		lv.buffers = func() uint64 { return scratch + grownBytes(ws) }

		lv.ahead.Store(chunkRecBytes(ws))
		lv.workers = len(ws)
		lv.chunks = newChunkRanges(len(level.chunks), len(ws))
		lv.probe = r.probeEarly
		// A stop before the new states go into the visited set keeps
		// nothing of this level: the checkpoint is the state at its start.
		atStart := func(stop string) string {
			if r.ckpt != nil {
				if s := r.save(engineLevels, levelsFrontier(level, depth, base)); s != "" {
					return s
				}
			}
			return stop
		}
		stop := runWorkers(ws, func(w *levelWorker[S, M], main bool) string {
			if seen.n >= recentAfter { // as the one-worker search does
				w.x.ids.UseLargeMemo()
			}
			w.recent.reset() // each worker its own: 512 KB, on its core
			w.taken, w.slept = 0, 0
			w.runs = w.runs[:0]
			return w.expand(lv, main)
		})
		if stop == "" && lv.why != "" { // another worker reached the memory bound
			stop = lv.why
		}
		if stop != "" {
			rep.Bound = atStart(stop)
			r.keepViolation(firstHit(ws, func(w *levelWorker[S, M]) *hit { return &w.viol }))
			break
		}
		if lv.cyclic.Load() {
			rep.Elapsed = time.Since(r.start)
			return rep, true
		}

		// What a one-worker search sees of this level. It pops the states
		// in order up to popped: it stops at the first violation (unless
		// Exhaust), or after expanding the state that finds the state
		// max-states counts to, whichever comes first. The violating state
		// is popped but not expanded, and its outdeg stays 0.
		viol := firstHit(ws, func(w *levelWorker[S, M]) *hit { return &w.viol })
		stopAtViolation := viol.ok && !opts.Exhaust
		// A set that keeps parents takes each new state's from the keys of
		// the level's states.
		var parents []uint64
		if seen.parents {
			var err error
			if keys, err = levelKeys(ws, level, keys); err != nil {
				rep.Bound = atStart(err.Error())
				r.keepViolation(viol)
				break
			}
			parents = keys
		} else {
			keys = nil // the parents were let go (foundPath)
		}
		// Memory: a search that stops at this level's violation makes no
		// next level, and its merge is no larger than the records held.
		stop, inserting := r.mergeFits(ws, lv)
		if stop != "" && !(stopAtViolation && lv.memoryOnly(stop)) {
			rep.Bound = atStart(stop)
			r.keepViolation(viol)
			break
		}
		if inserting { // the merge inserts: room made for what it may find
			growFlatAhead(seen, ws, func(s int) uint64 { return newLater.of(recsOf(ws, s)) })
		}
		recs := totalRecs(ws) // counted before the merge lets the records go
		fresh := sp.merge(ws, lv, stopAtViolation, inserting, parents)
		newLater.note(recs, uint64(len(fresh)))
		if opts.levelShare != nil {
			opts.levelShare(recs, uint64(len(fresh)))
		}
		r.probeEarly = probeWorthIt(ws, r.recordsKept(ws))
		if stop := r.insertFits(ws, lv, fresh, inserting); stop != "" && !(stopAtViolation && lv.memoryOnly(stop)) {
			rep.Bound = atStart(stop)
			r.keepViolation(viol)
			break
		}
		popped, maxStates := level.n-1, false
		if stopAtViolation {
			popped = viol.k
		}
		if opts.MaxStates > 0 && seen.n+uint64(len(fresh)) >= opts.MaxStates {
			// It checks the bound after each expansion: after the first
			// one when the bound is reached already (max-states 1), else
			// after the one that finds the state the bound counts to.
			// fresh only holds discoveries made before the violation.
			k := uint64(0)
			if seen.n < opts.MaxStates {
				k = fresh[opts.MaxStates-seen.n-1].key >> 16
			}
			if !stopAtViolation || k < viol.k {
				fresh = fresh[:sort.Search(len(fresh), func(i int) bool { return fresh[i].key>>16 > k })]
				popped, maxStates = k, true
			}
		}
		if inserting { // the merge inserted them; max-states was out of reach
			seen.n += uint64(len(fresh))
			for _, w := range ws {
				w.fresh = nil
			}
		}
		if r.plog != nil {
			logLevel(ws, r.plog, fresh, popped)
		}
		if viol.ok && viol.k <= popped && !r.found {
			r.found, r.badFP, r.badNum, r.badProp, r.why = true, viol.fp, base+viol.k, viol.prop, viol.why
			r.foundPath()
		}
		for _, w := range ws {
			for _, v := range w.violations {
				if v.k <= popped && (opts.Exhaust || v.k == viol.k) {
					r.counts[v.prop]++
				}
			}
			w.violations = w.violations[:0]
			if r.term != nil {
				r.term.merge(w.term)
			}
		}
		// Every state of a level not cut was expanded by one worker: their
		// sums, not a pass over outdeg on this goroutine alone (1% of
		// centralized N=6 R=2's wall time on two workers).
		if popped+1 == level.n {
			for _, w := range ws {
				rep.Transitions += w.taken
				rep.Slept += w.slept
			}
		} else {
			for k := uint64(0); k <= popped; k++ {
				rep.Transitions += uint64(lv.outdeg[k] & 0xffff)
				rep.Slept += uint64(lv.outdeg[k] >> 16)
			}
		}
		if err := sp.levelCoverage(ws, lv, popped); err != nil {
			rep.Bound = err.Error()
			break
		}
		// Bounds, as the one-worker search sets them: the first unknown
		// judgement fills an empty bound, max-depth and max-states replace it.
		if u := firstHit(ws, func(w *levelWorker[S, M]) *hit { return &w.unknown }); u.ok && u.k <= popped && rep.Bound == "" {
			rep.Bound = u.prop
		}
		if d := firstHit(ws, func(w *levelWorker[S, M]) *hit { return &w.maxDepth }); d.ok && d.k <= popped {
			rep.Bound = fmt.Sprintf("max-depth %d", opts.MaxDepth)
		}
		if !inserting {
			growFlatAhead(seen, ws, func(s int) uint64 { return freshOf(ws, s) })
			insertFresh(seen, ws, len(fresh), popped, parents)
		}
		r.countLevel(depth+1, uint64(len(fresh)))
		keep := r.regionsKept(ws)
		for _, w := range ws {
			w.freshMem.done(keep) // the merge's records are let go
		}
		if maxStates {
			rep.Bound = fmt.Sprintf("max-states %d", opts.MaxStates)
		}
		if maxStates || r.found && !opts.Exhaust {
			break
		}
		// The level is expanded and its new states are in the visited
		// set: nothing reads it again. Let go of it before gather copies
		// the next level out of the workers' arenas, so that two levels'
		// encodings are held at once, not three.
		levelN, levelBytes := level.n, level.bytes()
		level.release()
		level, lv.level = nil, nil
		for _, w := range ws {
			w.next.done(keep)
		}
		lv.regenBase -= levelBytes
		r.spilling = r.spilling || spills(r.opts, uint64(len(fresh))*levelBytes/levelN)
		disk, stop := r.spillFile(&r.spilled)
		if stop != "" {
			rep.Bound = stop
			break
		}
		next := gather(ws, lv, fresh, disk)
		fresh = nil
		// The sorted records are read; the first worker's record region
		// holds them (sortFresh).
		ws[0].recMem.done(keep)
		level = next // released when the search ends here
		r.regenerated(ws, lv, next)
		if lv.stop.Load() {
			rep.Bound = lv.why
			break
		}
		// The frontier: the level and the next. The workers' records and
		// encodings, whose size depends on how the level was shared out,
		// count in PeakBytes, not here, so that the figure is the same
		// every run.
		if b := levelBytes + next.bytes(); b > rep.FrontierBytes {
			rep.FrontierBytes = b
		}
		// The workers' arenas spill with the level they are made from; not
		// counted in SpilledBytes: what they hold depends on how the level
		// was shared out, and the report must not.
		spent := ws[0].arena.disk
		arenaDisk, stop := r.spillFile(nil)
		if stop != "" {
			rep.Bound = stop
			break
		}
		keep = r.regionsKept(ws)
		for _, w := range ws {
			w.recBytes.Add(-w.arena.reset(arenaDisk, keep))
		}
		spent.close()
		base += levelN
		level = next
	}
	rep = r.conclude()
	r.seen.release()
	return rep, false
}

// levelRun is what the workers share while they expand one level.
type levelRun struct {
	level  *levelBuf
	depth  int
	base   uint64
	chunks chunkRanges   // the chunks not yet taken, by worker
	cut    atomic.Uint64 // the first violation's index, when the search stops at it
	stop   atomic.Bool   // a bound was reached, or a cycle may exist
	cyclic atomic.Bool
	outdeg []uint32 // state index -> actions taken from it
	// held is the memory held besides the visited set and the workers'
	// buffers (bufferBytes, which buffers returns): the level and its
	// arrays; regenBase what regenerate holds besides the workers'
	// outputs; why is the bound that stopped merge or regenerate.
	held, regenBase uint64
	seenBytes       uint64        // the visited set's, which does not change while the level expands
	ahead           atomic.Uint64 // what the records may grow by between two polls
	workers         int
	buffers         func() uint64
	why             string
	// probe is whether the workers look each successor up in the visited
	// set as they make it. Merge looks each new-looking state up anyway,
	// in the shard it reduces (a table a 64th of the whole, which the
	// cache holds better); probing early only spares the records and
	// encodings of states visited before, and is worth its probes only
	// where many successors were (probeWorthIt).
	probe bool
}

// levelWorker is one worker's share of a level.
type levelWorker[S, M any] struct {
	_    lines.Pad // no other worker's memory on its lines
	r    *run[S, M]
	idx  uint64 // the worker's index, in the records' references
	team *team  // the goroutines that run the workers' phases
	x    *expander[S, M]
	recs [numShards]recList // successors not yet visited, by shard
	// runs marks where each run of chunks after the worker's first (one
	// it stole, chunkRanges.take) begins in recs: the records of a run
	// are in key order, those of two runs need not be.
	runs  [][numShards]int
	arena arena // their encodings
	// recent holds the fingerprints of the worker's last records of the
	// level: a successor found there is not recorded again. The worker
	// takes the chunks of a run in order, and forgets them all when it
	// begins another, so the first record it makes of a fingerprint in a
	// run is the run's first discovery, the one merge keeps of its
	// records.
	recent *recentFPs

	// The first of each event in this worker's share, by state index.
	viol, unknown, maxDepth hit
	violations              []violationAt // every violation (counted)
	term                    *terminals
	// Coverage (coverage.go): this level's actions by kind, and the first
	// state of the level in which each premise not yet seen holds.
	cov   *kindTable
	premK []uint64

	fresh []freshSeg // merge: the new states of the shards the worker merged
	count []uint32   // merge: sortFresh's counts (the first worker's)
	lists [][]rec    // merge: the records of each run not yet taken
	// probed and found count the visited-set probes of the level and
	// those that found the state (see levelRun.probe).
	probed, found uint64
	// taken and slept sum the level's outdeg fields of the states the
	// worker expanded: the level's transitions, when it is not cut.
	taken, slept uint64
	dedup        []uint64 // merge: scratch hash table of fingerprints
	out          levelBuf // gather: the worker's part of the next level
	// readBuf holds the chunk of the level the worker expands, when the
	// level is spilled; readers, in gather, the chunk of each worker's
	// arena it reads, when the arenas are.
	readBuf []byte
	readers []arenaReader

	// maxGrowth is the most one state's expansion added to the records
	// and the arena.
	maxGrowth uint64
	// Regions (region.go): next holds the chunks of the level the worker
	// gathered, freshMem its merge's new records, recMem the parts of
	// its records, and then (the first worker's) the level's new records
	// in key order (sortFresh). A level is let go before the next is
	// gathered, into the same region: with a region for each of two
	// levels in turn, both widest levels stayed resident (RA N=4 R=2 on
	// two workers: 76 MB each).
	next     region
	freshMem region
	recMem   region
	workerBytes
	_ lines.Pad
}

// regions is the worker's regions.
func (w *levelWorker[S, M]) regions() [4]*region {
	return [4]*region{&w.next, &w.freshMem, &w.recMem, &w.arena.mem}
}

// workerBytes is the memory of a worker's records, arena and output
// (recs, arena, out), kept by the worker as they grow and read by the
// others after each state they expand (overAfterState): on a cache line
// of its own, so that those reads do not take the line from the worker
// each time it writes a field near it.
type workerBytes struct {
	_                  [64]byte
	recBytes, outBytes atomic.Uint64
	_                  [48]byte
}

// rec is a successor: its key (fingerprint), the key of its discovery,
// index<<16 | action, which orders discoveries as a one-worker BFS does,
// and where its encoding is (worker<<56 | arena reference).
type rec struct{ fp, key, ref uint64 }

// recSize is the memory of a rec.
const recSize = 24

// hit is the first state of a kind in a worker's share.
type hit struct {
	k         uint64
	fp        uint64
	prop, why string
	ok        bool
}

func (h *hit) keep(k, fp uint64, prop, why string) {
	if !h.ok || k < h.k {
		*h = hit{k, fp, prop, why, true}
	}
}

// firstHit is the first hit of a kind over all workers; it resets them.
func firstHit[S, M any](ws []*levelWorker[S, M], of func(*levelWorker[S, M]) *hit) hit {
	var first hit
	for _, w := range ws {
		if h := of(w); h.ok {
			first.keep(h.k, h.fp, h.prop, h.why)
			*h = hit{}
		}
	}
	return first
}

type violationAt struct {
	k    uint64
	prop int
}

// runWorkers runs f on every worker, the first on this goroutine (main),
// and returns the first non-empty result of the main worker (a bound).
// The workers' team runs them (exploreLevels makes it); workers made
// without one (the tests of single phases) get one for the call.
func runWorkers[S, M any](ws []*levelWorker[S, M], f func(w *levelWorker[S, M], main bool) string) string {
	t := ws[0].team
	if t == nil || t.n != len(ws)-1 {
		t = newTeam(len(ws)-1, false)
		defer t.stop()
	}
	var stop string
	t.run(func(i int) {
		if s := f(ws[i], i == 0); i == 0 {
			stop = s
		}
	})
	return stop
}

// expand is phase 1 for one worker. The main worker also polls the
// bounds between chunks and returns the one reached.
func (w *levelWorker[S, M]) expand(lv *levelRun, main bool) string {
	for !lv.stop.Load() {
		c, stolen := lv.chunks.take(int(w.idx))
		if c < 0 {
			return ""
		}
		if stolen {
			w.beginRun()
		}
		k := lv.level.starts[c]
		b, err := lv.level.chunk(c, &w.readBuf)
		if err != nil {
			lv.halt(err.Error())
			return ""
		}
		for ; len(b) > 0 && k <= lv.cut.Load() && !lv.stop.Load(); k++ {
			_, fp, enc, rest := readEntry(b)
			b = rest
			prefetchAhead(b)
			before := w.recBytes.Load()
			w.visit(lv, k, fp, enc)
			if w.overAfterState(lv, w.recBytes.Load()-before) {
				return ""
			}
		}
		if main {
			// The queue: the level's states not yet taken.
			left := lv.chunks.left(lv.level.starts, lv.level.n)
			if stop := w.r.poll(int(left), lv.held+lv.buffers(), lv.ahead.Load()); stop != "" {
				lv.stop.Store(true)
				return stop
			}
		}
	}
	return ""
}

// beginRun marks where the records of a run of chunks the worker stole
// begin, and empties its cache of recent records: the run may lie below
// the chunks it took before, and a record made there must not be dropped
// for one made of the same state at a larger key.
func (w *levelWorker[S, M]) beginRun() {
	var at [numShards]int
	for s := range w.recs {
		at[s] = w.recs[s].n
	}
	w.runs = append(w.runs, at)
	w.recent.reset()
}

// overAfterState checks the memory bound after the worker expanded a state
// whose records and encodings took grew bytes, and halts the level when
// the bound is reached or would be once every worker has expanded one
// more state: the workers expand states side by side, any number of them
// while the main worker polls once, and one state's successors (their
// records and encodings) may take kilobytes.
func (w *levelWorker[S, M]) overAfterState(lv *levelRun, grew uint64) bool {
	opts := w.r.opts
	if opts.MaxMemory == 0 {
		return false
	}
	if grew > w.maxGrowth {
		w.maxGrowth = grew
	}
	margin := uint64(lv.workers) * 2 * max(w.maxGrowth, 4<<10)
	// The store too: the steps the workers take intern node states,
	// messages and links as they go (the main worker's poll counts it; a
	// worker that ran on while the main one waited for a core went past
	// the bound by up to 80 KB on RA N=6).
	if !over(opts, lv.seenBytes+w.r.store.Bytes()+lv.held+lv.buffers()+margin) {
		return false
	}
	lv.halt(memoryBound(opts))
	return true
}

// visit judges state k of the level and makes its successors.
func (w *levelWorker[S, M]) visit(lv *levelRun, k, fp uint64, enc []byte) {
	sp, x, opts := w.r.sp, w.x, w.r.opts
	x.load(fp, enc, false) // the level's bytes, or its chunk read, stay while the state is expanded
	prop, why, unknown := sp.judgeLoaded(x.judges, &x.cur, x.enabled(), x.ids)
	if unknown != "" {
		w.unknown.keep(k, 0, unknown, "")
	}
	w.notePremises(k)
	if prop != "" {
		w.violations = append(w.violations, violationAt{k, indexOf(w.r.rep.Properties, prop)})
		w.viol.keep(k, fp, prop, why)
		if !opts.Exhaust {
			for c := lv.cut.Load(); k < c && !lv.cut.CompareAndSwap(c, k); c = lv.cut.Load() {
			}
			return
		}
	}
	if opts.MaxDepth > 0 && lv.depth >= opts.MaxDepth {
		if x.enabled() > 0 {
			w.maxDepth.keep(k, 0, "", "")
		}
		return
	}
	if x.enabled() > 0xffff {
		panic(fmt.Sprintf("checker: %d actions in one state", x.enabled()))
	}
	// The transitions taken, and above them those left asleep.
	lv.outdeg[k] = uint32(len(x.awake)) | uint32(x.enabled()-len(x.awake))<<16
	w.taken += uint64(len(x.awake))
	w.slept += uint64(x.enabled() - len(x.awake))
	var rank uint64
	if w.term != nil {
		rank, _ = x.sys.Rank(&x.cur)
		if x.enabled() == 0 {
			sp.pendingMasks(&x.cur, w.term.masks)
			w.term.note(fp, lv.base+k)
		}
	}
	pf := &prefetcher{recent: w.recent}
	if lv.probe || w.term != nil { // else the visited set is not read until merge
		pf.seen = w.r.seen
	}
	x.makeSuccessors(pf, rank, w.term != nil)
	for _, j32 := range x.awake {
		j := int(j32)
		sc := x.successor(j)
		nfp := key(sc.fp)
		if !w.cov.countTagged(sc.tag) {
			x.countNoting(w.cov, &x.acts[j], sc.at)
		}
		// A state the worker recorded lately in the level is not visited
		// (the visited set does not change while the level is expanded):
		// it is neither probed nor recorded again.
		recorded := w.recent.has(nfp)
		old := false
		if pf.seen != nil && !recorded {
			old = w.r.seen.has(nfp)
			w.probed++
			if old {
				w.found++
			}
		}
		if w.term != nil && closes(x.sys, sc.rankClose, old) { // old: no deeper than k
			lv.cyclic.Store(true)
			lv.stop.Store(true)
			return
		}
		if !old && !recorded {
			w.recent.put(nfp)
			s := nfp >> (64 - shardBits)
			ref, grew, err := w.arena.add(x.entryOf(sc.at, x.sleepAfter(j)))
			if err != nil {
				lv.halt(err.Error())
				return
			}
			// (By the action's index among all the state's, which the
			// parent log replays: in the same order as j.)
			a := uint64(x.ids.IndexInAll(j, &x.acts[j]))
			if d := w.recs[s].add(&w.recMem, rec{nfp, k<<16 | a, w.idx<<56 | ref}) + grew; d != 0 {
				w.recBytes.Add(d)
			}
		}
	}
}

// logLevel writes a level's expansion into the parent log: the new
// states of each of its states up to popped (the last the one-worker
// search expands), fresh being those new states in key order. The
// workers write a range of the level's states each, straight into the
// log's bytes (a pass over the level's records, which on one goroutine
// took 13-19 ms of the 0.49 s ring N=10 and centralized N=6 R=2 take on
// two workers).
func logLevel[S, M any](ws []*levelWorker[S, M], l *parentLog, fresh []rec, popped uint64) {
	n := popped + 1
	m := sort.Search(len(fresh), func(i int) bool { return fresh[i].key>>16 > popped })
	kids0, acts0 := l.kids.extend(n), l.acts.extend(uint64(m))
	l.total += uint64(m)
	nw := uint64(len(ws))
	big := make([]bigLogged, nw)
	runWorkers(ws, func(w *levelWorker[S, M], _ bool) string {
		lo, hi := n*w.idx/nw, n*(w.idx+1)/nw
		b := &big[w.idx]
		i := sort.Search(m, func(i int) bool { return fresh[i].key>>16 >= lo })
		// Both logs' bytes are written in order, from these positions.
		kc, ac := l.kids.cursor(kids0+lo), l.acts.cursor(acts0+uint64(i))
		for k := lo; k < hi; k++ {
			c := 0
			for ; i < m && fresh[i].key>>16 == k; i++ {
				a := uint32(fresh[i].key & 0xffff)
				if a >= 255 {
					b.acts = append(b.acts, [2]uint64{acts0 + uint64(i), uint64(a)})
					a = 255
				}
				ac.put(byte(a))
				c++
			}
			if c >= 255 {
				b.kids = append(b.kids, [2]uint64{kids0 + k, uint64(c)})
				c = 255
			}
			kc.put(byte(c))
		}
		return ""
	})
	for _, b := range big {
		for _, v := range b.kids {
			l.bigKids[v[0]] = uint32(v[1])
		}
		for _, v := range b.acts {
			l.bigActs[v[0]] = uint32(v[1])
		}
	}
}

// bigLogged is what a worker of logLevel found of 255 or more: the
// positions and values of kids counts and of action indices.
type bigLogged struct{ kids, acts [][2]uint64 }

// merge is phase 2's first half: the new states of the level, one record
// each (its first discovery), sorted by key. With cut, records made by
// states at or after the level's first violation are left out. With
// insert, the new states go into the visited set as they are found (the
// second half's work, done while their shard is at hand), with their
// parents' keys from parents when the set keeps parents. Each
// worker reduces whole shards with a hash table of its own, leaving each
// shard's new states in its fresh records in key order; a counting sort
// on the discovering state, each worker sorting a range of the level's
// states, then puts them all in key order.
func (sp *Spec[S, M]) merge(ws []*levelWorker[S, M], lv *levelRun, cut, insert bool, parents []uint64) []rec {
	limit := ^uint64(0)
	if cut {
		limit = lv.cut.Load()
	}
	var next atomic.Int64
	runWorkers(ws, func(w *levelWorker[S, M], _ bool) string {
		w.fresh = w.fresh[:0]
		for {
			s := int(next.Add(1) - 1)
			if s >= numShards || lv.stop.Load() {
				return ""
			}
			// A merge that inserts is not stopped half-way: the visited set
			// would hold part of the next level.
			if b := interrupt(w.r.opts, w.r.start); b != "" && !insert {
				lv.halt(b)
				return ""
			}
			w.reduce(ws, s, limit, lv.probe, insert, parents)
		}
	})
	return sortFresh(ws, lv.level.n)
}

// reduce is merge for shard s on worker w: the fingerprints of the
// workers' records of s, before limit, are taken in key order, and those
// met for the first time, and not visited before, are appended to w's
// fresh records. They are told apart by a hash table of the shard's
// records; with insert, by the visited set itself, into which the new
// states then go.
func (w *levelWorker[S, M]) reduce(ws []*levelWorker[S, M], s int, limit uint64, probed, insert bool, parents []uint64) {
	n := 0
	for _, o := range ws {
		n += o.recs[s].n
	}
	// The workers looked every successor up as they made it, unless the
	// level did not probe (and no liveness check needed to): only then
	// can a record be of a visited state.
	shard := &w.r.seen.shards[s]
	lookup := !probed && w.term == nil
	// The table takes every record, or with insert the sampled ones
	// (counted: a small shard may have many more than one in samples).
	want := n
	switch {
	case insert && lookup:
		want = sampledRecs(ws, s)
	case insert:
		want = 0 // no counts to keep
	}
	size := 16
	for size < 2*want {
		size <<= 1
	}
	if cap(w.dedup) < size {
		w.dedup = make([]uint64, size)
	}
	table, mask := w.dedup[:size], uint64(size-1)
	clear(table) // a record's fingerprint is a key: never 0
	// Room for every record: fresh never grows (and copies) while it is
	// filled.
	fresh := w.freshMem.recs(n)[:0]
	// The records of each run of chunks are in key order (a worker takes
	// a run's chunks in order): merged in key order, the first record of
	// a fingerprint is its first discovery, and the shard's new states
	// come out in the order a one-worker search inserts them.
	w.lists = shardRuns(ws, s, w.lists[:0])
	var runs recMerge
	runs.reset(w.lists)
	// A table larger than the cache misses it on most probes: the
	// records are taken a batch at a time, their slots prefetched
	// first, so that the misses overlap.
	var batch [reduceBatch]rec
	for more := true; more; {
		b := 0
		for ; b < len(batch); b++ {
			rc := runs.next()
			if rc == nil || rc.key>>16 >= limit {
				more = false
				break
			}
			batch[b] = *rc
			if !insert || lookup && sampled(rc.fp) {
				prefetch(unsafe.Pointer(&table[dedupSlot(rc.fp, mask)]))
			}
			if insert || lookup {
				shard.prefetch(rc.fp)
			}
		}
		for _, rc := range batch[:b] {
			if insert {
				p := uint64(noParent)
				if parents != nil {
					p = parents[rc.key>>16]
				}
				_, added := shard.insert(rc.fp, p, 0)
				if added {
					fresh = append(fresh, rc)
				}
				// The visited set does not tell a state found in this
				// level from an older one: probeWorthIt's counts are
				// kept on a sample of the fingerprints, which alone go
				// into the table. One met for the first time in the
				// level is new, or else visited before.
				if lookup && sampled(rc.fp) && firstIn(table, mask, rc.fp) {
					w.probed += samples
					if !added {
						w.found += samples
					}
				}
				continue
			}
			if !firstIn(table, mask, rc.fp) {
				continue // discovered before in the level
			}
			if lookup {
				w.probed++
				if _, old := shard.find(rc.fp); old {
					w.found++
					continue
				}
			}
			fresh = append(fresh, rc)
		}
	}
	w.fresh = append(w.fresh, freshSeg{s, fresh})
}

// firstIn reports whether fp is not in reduce's table (of mask+1 slots),
// and puts it there.
func firstIn(table []uint64, mask, fp uint64) bool {
	i := dedupSlot(fp, mask)
	for table[i] != 0 && table[i] != fp {
		i = (i + 1) & mask
	}
	if table[i] != 0 {
		return false
	}
	table[i] = fp
	return true
}

// sampledRecs is the number of the workers' records of shard s whose
// fingerprint is sampled.
func sampledRecs[S, M any](ws []*levelWorker[S, M], s int) int {
	k := 0
	for _, o := range ws {
		o.recs[s].each(func(rc rec) {
			if sampled(rc.fp) {
				k++
			}
		})
	}
	return k
}

// sampled reports whether reduce counts fingerprint fp's lookups when it
// inserts: one in samples.
func sampled(fp uint64) bool { return fp%samples == 0 }

// samples is the inverse of the share of fingerprints sampled.
const samples = 8

// reduceBatch is how many records reduce prefetches the slots of at once.
const reduceBatch = 32

// dedupSlot is the home slot of fingerprint fp in reduce's table (of
// mask+1 slots).
func dedupSlot(fp, mask uint64) uint64 { return (fp * 0x9e3779b97f4a7c15) >> 7 & mask }

// sortFresh is merge's counting sort: the workers' fresh records, by
// discovering state (of the level's n), then by action. Worker i sorts
// the records of the states in the i-th of len(ws) equal ranges, which
// it finds in each shard's records by binary search (they are in key
// order), into its own part of the result.
func sortFresh[S, M any](ws []*levelWorker[S, M], n uint64) []rec {
	nw := uint64(len(ws))
	from := func(i uint64) uint64 { return n * i / nw } // range i's first state
	// The records of range i in segment g of worker o.
	part := func(i uint64, g freshSeg) []rec {
		recs := g.recs
		lo := sort.Search(len(recs), func(j int) bool { return recs[j].key>>16 >= from(i) })
		hi := sort.Search(len(recs), func(j int) bool { return recs[j].key>>16 >= from(i+1) })
		return recs[lo:hi]
	}
	offset := make([]int, nw+1) // where range i's records go
	for i := range nw {
		offset[i+1] = offset[i]
		for _, o := range ws {
			for _, g := range o.fresh {
				offset[i+1] += len(part(i, g))
			}
		}
	}
	// The records are merged. Their region is kept for the next level
	// when memory is ample (it then counts as the worker's scratch). Else
	// it goes, so that it does not weigh on the insertion and the
	// gathering of the next level. The first worker's serves the sorted
	// records until the next level is gathered: a region of their own
	// kept both widest uses resident (RA N=4 R=2: 48 and 70 MB).
	keep := ws[0].r.recordsKept(ws)
	for _, w := range ws {
		var held uint64
		for s := range w.recs {
			held += w.recs[s].bytes()
			w.recs[s].reset()
		}
		w.recMem.done(keep)
		w.recBytes.Add(-held)
	}
	fresh := ws[0].recMem.recs(offset[nw])
	ws[0].count = zeroed(ws[0].count, n+nw)
	count := ws[0].count // range i's counts: count[from(i)+i:from(i+1)+i+1]
	runWorkers(ws, func(w *levelWorker[S, M], _ bool) string {
		i := w.idx
		lo, hi := from(i), from(i+1)
		c := count[lo+i : hi+i+1]
		for _, o := range ws {
			for _, g := range o.fresh {
				for _, f := range part(i, g) {
					c[f.key>>16-lo+1]++
				}
			}
		}
		c[0] = uint32(offset[i])
		for k := 1; k < len(c); k++ {
			c[k] += c[k-1]
		}
		for _, o := range ws {
			for _, g := range o.fresh {
				for _, f := range part(i, g) {
					k := f.key>>16 - lo
					fresh[c[k]] = f
					c[k]++
				}
			}
		}
		// Then by action within a state.
		out := fresh[offset[i]:offset[i+1]]
		for a := 0; a < len(out); {
			b := a + 1
			for b < len(out) && out[b].key>>16 == out[a].key>>16 {
				b++
			}
			sortByKey(out[a:b])
			a = b
		}
		return ""
	})
	return fresh
}

// sortByKey sorts the records of one state by key (by action): by
// insertion when they are few, as they mostly are (slices.SortFunc took
// a call a comparison: 0.5% of ring N=10's instructions on two workers).
func sortByKey(recs []rec) {
	if len(recs) > 32 {
		slices.SortFunc(recs, func(x, y rec) int { return cmp.Compare(x.key, y.key) })
		return
	}
	for i := 1; i < len(recs); i++ {
		for j := i; j > 0 && recs[j-1].key > recs[j].key; j-- {
			recs[j-1], recs[j] = recs[j], recs[j-1]
		}
	}
}

// regionsKept reports whether the workers keep their regions (region.go)
// for the next level: when the search holds less than a quarter of its
// memory bound (the command line's default bound is 3/4 of the memory
// available). The memory a region holds lowers the runtime's memory limit
// (outsideHeap); kept up to half the bound, as the records' arrays are,
// they made the collector work harder than they saved (RA N=4 R=2 within
// -max-memory 1400: 53.0 user CPU seconds against 44.0).
func (r *run[S, M]) regionsKept(ws []*levelWorker[S, M]) bool {
	held := r.seen.bytes() + r.store.Bytes() + bufferBytes(ws)
	return !over(r.opts, 4*held)
}

// recordsKept reports whether the workers keep their records' arrays for
// the next level: when the search has no memory bound, or holds less
// than half of it. Kept, they stay counted in the workers' records.
func (r *run[S, M]) recordsKept(ws []*levelWorker[S, M]) bool {
	held := r.seen.bytes() + r.store.Bytes() + bufferBytes(ws)
	return !over(r.opts, 2*held)
}

// probeWorthIt reports whether the next level's successors should be
// looked up in the visited set as they are made. A probe is a cache miss
// for every successor the worker did not record lately; not probing costs,
// for each successor visited before, a record, a copy of its encoding and
// a lookup in merge, in a shard the cache holds. Measured on two workers
// (6 pairs each), not probing was faster where 31-41% (ring N=10: 0.965x)
// and 36-53% (bully N=4: 0.921x) of the probes found a visited state, for
// 8-15% more memory: the workers probe only where three in four do, or,
// when memory is not ample (recordsKept: the search holds half its
// bound), where one in eight does, as they did before. It resets the
// counts. The choice changes the work, never the result: merge drops the
// visited states either way.
func probeWorthIt[S, M any](ws []*levelWorker[S, M], ample bool) bool {
	var probed, found uint64
	for _, w := range ws {
		probed, found = probed+w.probed, found+w.found
		w.probed, w.found = 0, 0
	}
	if ample {
		return found*4 > probed*3
	}
	return found*8 > probed
}

// freshSeg is the new states of shard s, in key order.
type freshSeg struct {
	s    int
	recs []rec
}

// freshBytes is the memory of a worker's fresh records.
func freshBytes(fresh []freshSeg) uint64 {
	var b uint64
	for _, g := range fresh {
		b += uint64(cap(g.recs)) * recSize
	}
	return b
}

// zeroed returns n zeros in b's memory when it has room, else in new
// memory. The level engine's arrays of a count per state of the level,
// made anew at each level, took a page fault per 4 KB page each time the
// heap grew for them; reused, they take none after the widest level.
func zeroed(b []uint32, n uint64) []uint32 {
	if uint64(cap(b)) < n {
		return make([]uint32, n)
	}
	b = b[:n]
	clear(b)
	return b
}

// shardRuns appends to lists the records of shard s, one list per run
// of chunks of each worker (levelWorker.runs), each in key order.
func shardRuns[S, M any](ws []*levelWorker[S, M], s int, lists [][]rec) [][]rec {
	for _, w := range ws {
		from := 0
		for _, at := range w.runs {
			lists = w.recs[s].appendRange(lists, from, at[s])
			from = at[s]
		}
		lists = w.recs[s].appendRange(lists, from, w.recs[s].n)
	}
	return lists
}

// recMerge takes the records of lists, each in key order, in key order.
// The lists mostly hold ranges of keys apart (a run of chunks, a chunk
// of a record list): it takes from one list while its records come
// before the first of every other, and looks over all the lists' first
// records only when one does not. Looked over at every record, 5.3 lists
// a shard on centralized N=6 R=2 on two workers, they cost a compare and
// a load each.
type recMerge struct {
	lists [][]rec
	cur   int    // the list taken from, -1 before the first look
	head  []rec  // that list when looked at (lists[cur] is not kept up to date)
	pos   int    // head's records taken since
	bound uint64 // the smallest first key of the other lists (^0: none)
}

// reset starts a merge of lists.
func (m *recMerge) reset(lists [][]rec) { *m = recMerge{lists: lists, cur: -1} }

// next returns the record with the smallest key not yet taken, nil
// when every list is taken.
func (m *recMerge) next() *rec {
	if m.pos == len(m.head) || m.head[m.pos].key >= m.bound {
		if !m.pick() {
			return nil
		}
	}
	m.pos++
	return &m.head[m.pos-1]
}

// pick looks over the lists' first records for the smallest, whose list
// it takes from next, and the one after it (the bound), and reports
// whether there is one.
func (m *recMerge) pick() bool {
	if m.cur >= 0 {
		m.lists[m.cur] = m.head[m.pos:]
	}
	// The keys are a state's index and an action's: no two alike.
	m.cur, m.head, m.pos, m.bound = -1, nil, 0, ^uint64(0)
	for i, l := range m.lists {
		if len(l) == 0 {
			continue
		}
		if m.cur < 0 || l[0].key < m.head[0].key {
			if m.cur >= 0 {
				m.bound = m.head[0].key
			}
			m.cur, m.head = i, l
		} else if l[0].key < m.bound {
			m.bound = l[0].key
		}
	}
	return m.cur >= 0
}

// growFlatAhead grows the visited set flat (fpSet.flatten), its workers
// sharing the shards out, before a level's new states go in, when a
// shard is to take more(s) states than it has room for: else the shards
// grow alone while they go in, each into new memory of its own. On the
// 2-core VM of the spin-compare table, where memory written for the
// first time costs about 1.5 ms a megabyte, growing alone took 73-169
// ms of the two workers' time on ring N=10, centralized N=6 R=2 and RA
// N=4 R=1, about half of their merges. A shard that takes more than
// more said still grows alone, into memory of its own, and goes back
// into the flat table at its next growth. Small sets (below flatFrom)
// grow alone.
func growFlatAhead[S, M any](seen *fpSet, ws []*levelWorker[S, M], more func(s int) uint64) {
	if seen.bits != nil || seen.flatOff {
		return
	}
	var size, cur uint64
	for i := range seen.shards {
		sh := &seen.shards[i]
		n := uint64(len(sh.keys))
		cur = max(cur, n)
		if m := more(i); m > 0 {
			size = max(size, grown(sh.n+m-1, n))
		}
	}
	size = max(size, cur)
	if seen.flat != nil && size == seen.flat.size {
		return // every shard in place, with room
	}
	if seen.flat == nil && (size == cur || numShards*size*seen.slotBytes() < flatFrom) {
		return
	}
	seen.flatten(size, func(job func(int)) {
		runWorkers(ws, func(w *levelWorker[S, M], _ bool) string {
			job(int(w.idx))
			return ""
		})
	})
}

// newShare is the share of a level's records (one per successor not
// found visited, or recorded lately, by its worker) that were new
// states, in the last level: growFlatAhead's estimate of the next
// level's new states, an eighth over.
type newShare struct{ recs, fresh uint64 }

// note keeps a level's count of records and of new states.
func (e *newShare) note(recs, fresh uint64) { e.recs, e.fresh = recs, fresh }

// of is the new states expected of recs records: all of them before the
// first level.
func (e *newShare) of(recs uint64) uint64 {
	if e.recs == 0 {
		return recs
	}
	return min(recs, recs*e.fresh/e.recs*9/8+1)
}

// recsOf is the workers' records of shard s.
func recsOf[S, M any](ws []*levelWorker[S, M], s int) uint64 {
	var n uint64
	for _, w := range ws {
		n += uint64(w.recs[s].n)
	}
	return n
}

// totalRecs is the workers' records of all shards.
func totalRecs[S, M any](ws []*levelWorker[S, M]) uint64 {
	var n uint64
	for s := range numShards {
		n += recsOf(ws, s)
	}
	return n
}

// freshOf is the new states merge found in shard s.
func freshOf[S, M any](ws []*levelWorker[S, M], s int) uint64 {
	var n uint64
	for _, w := range ws {
		for _, g := range w.fresh {
			if g.s == s {
				n += uint64(len(g.recs))
			}
		}
	}
	return n
}

// insertFresh is phase 2's second half: the new states go into the
// visited set, each worker inserting those of the shards it merged, in
// key order (the order of a one-worker search), up to the state of
// index last of the level (the states found after it are left out: the
// search stopped at max-states). It lets go of the workers' records.
// parents holds the level's states' keys when the set keeps parents
// (levelKeys).
func insertFresh[S, M any](seen *fpSet, ws []*levelWorker[S, M], n int, last uint64, parents []uint64) {
	// Most probes miss the cache: the slot of the state some places on
	// is prefetched while this one is inserted.
	const ahead = 16
	runWorkers(ws, func(w *levelWorker[S, M], _ bool) string {
		for _, g := range w.fresh {
			sh := &seen.shards[g.s]
			recs := g.recs
			for i, f := range recs {
				if f.key>>16 > last {
					break
				}
				if i+ahead < len(recs) {
					sh.prefetch(recs[i+ahead].fp)
				}
				p := uint64(noParent)
				if parents != nil {
					p = parents[f.key>>16]
				}
				sh.insert(f.fp, p, 0)
			}
		}
		w.fresh = nil
		return ""
	})
	seen.n += uint64(n)
}

// levelKeys is the keys of the level's states, in order, in keys' memory
// when it has room; the workers read a share of its chunks each.
func levelKeys[S, M any](ws []*levelWorker[S, M], level *levelBuf, keys []uint64) ([]uint64, error) {
	if uint64(cap(keys)) < level.n {
		keys = make([]uint64, level.n)
	}
	keys = keys[:level.n]
	errs := make([]error, len(ws))
	runWorkers(ws, func(w *levelWorker[S, M], _ bool) string {
		for c := int(w.idx); c < len(level.chunks); c += len(ws) {
			b, err := level.chunk(c, &w.readBuf)
			if err != nil {
				errs[w.idx] = err
				return ""
			}
			for k := level.starts[c]; len(b) > 0; k++ {
				_, fp, _, rest := readEntry(b)
				keys[k], b = key(fp), rest
			}
		}
		return ""
	})
	return keys, errors.Join(errs...)
}

// gather is phase 3: the next level, the new states' encodings copied
// from the arenas in key order, the workers taking equal runs of it. With
// disk set, the level is written to it as it is made (spill.go).
func gather[S, M any](ws []*levelWorker[S, M], lv *levelRun, fresh []rec, disk *spillFile) *levelBuf {
	per := (len(fresh) + len(ws) - 1) / len(ws)
	runWorkers(ws, func(w *levelWorker[S, M], _ bool) string {
		w.out = levelBuf{depth: lv.depth + 1, disk: disk}
		if disk == nil {
			w.out.mem = &w.next
		}
		w.readers = w.readers[:0]
		for range ws {
			w.readers = append(w.readers, arenaReader{chunk: -1})
		}
		lo, hi := min(int(w.idx)*per, len(fresh)), min(int(w.idx+1)*per, len(fresh))
		for j, f := range fresh[lo:hi] {
			if j%64 == 0 && w.regenerateStops(lv, ws) {
				return ""
			}
			c := len(w.out.chunks)
			o := f.ref >> 56
			enc, err := ws[o].arena.read(f.ref&(1<<56-1), &w.readers[o])
			if err == nil {
				err = w.out.add(f.fp, enc)
			}
			if err != nil {
				lv.halt(err.Error())
				return ""
			}
			if len(w.out.chunks) != c && disk == nil {
				w.outBytes.Add(uint64(cap(w.out.chunks[c])))
			}
		}
		if err := w.out.flush(); err != nil {
			lv.halt(err.Error())
		}
		return ""
	})
	next := &levelBuf{depth: lv.depth + 1}
	for _, w := range ws {
		next.concat(&w.out)
		w.out = levelBuf{}
		w.outBytes.Store(0)
	}
	return next
}
