package checker

import "strings"

// The memory account of parallel BFS (levels.go). A level holds, besides
// the visited set: the level itself and its outdegrees; each worker's
// records (24 bytes per successor not yet visited, duplicates included),
// its arena of their encodings and its merge scratch; then the merged new
// states (the records let go) and the visited set grown by them; then
// the next level as the workers gather it. The bound is checked while the level is expanded
// (between chunks), before the merge, before the new states are inserted,
// and while the next level is made, each time counting what the coming
// phase will add, so that a level that would not fit stops the search
// inside it instead of after it.

// bufferBytes is the memory of the workers' records, caches of recent
// records (recentFPs), merge scratch and outputs. The records and
// outputs are read through the counters their workers keep; the scratch
// only grows in merge, when nobody polls.
func bufferBytes[S, M any](ws []*levelWorker[S, M]) uint64 {
	return scratchBytes(ws) + grownBytes(ws)
}

// scratchBytes is the memory of the workers' caches of recent records,
// their merge scratch (the sort's counts included), and their regions no
// use holds (region.idle).
func scratchBytes[S, M any](ws []*levelWorker[S, M]) uint64 {
	var b uint64
	for _, w := range ws {
		b += freshBytes(w.fresh) + uint64(cap(w.dedup))*8 + w.recent.bytes() + uint64(cap(w.count))*4
		for _, g := range w.regions() {
			b += g.idle.Load()
		}
	}
	return b
}

// grownBytes is the memory of the workers' records, arenas and outputs,
// read through the counters their workers keep.
func grownBytes[S, M any](ws []*levelWorker[S, M]) uint64 {
	var b uint64
	for _, w := range ws {
		b += w.recBytes.Load() + w.outBytes.Load()
	}
	return b
}

// chunkRecBytes bounds what the workers' records and arenas grow by while
// the polling worker expands one chunk of the level: a chunk each, at 24
// bytes and an encoding per successor, which is seldom more than eight
// times the bytes of the states that make them (and a slice of records
// grows by doubling).
func chunkRecBytes[S, M any](ws []*levelWorker[S, M]) uint64 {
	return uint64(len(ws)) * 8 * levelChunk
}

// halt stops the workers of a merge or a regeneration for the bound why.
func (lv *levelRun) halt(why string) {
	if lv.stop.CompareAndSwap(false, true) {
		lv.why = why
	}
}

// keepViolation keeps v, the first violation met in a level the search
// leaves unfinished, when none was kept before: the state is reachable
// and violating, and as deep as any violation can be (the levels before
// had none), so the verdict is earned.
func (r *run[S, M]) keepViolation(v hit) {
	if v.ok && !r.found {
		r.found, r.badFP, r.badProp, r.why = true, v.fp, v.prop, v.why
		r.counts[indexOf(r.rep.Properties, v.prop)]++
	}
}

// memoryOnly reports whether stop is the memory bound, with the merge
// complete (not halted by a signal or the timeout).
func (lv *levelRun) memoryOnly(stop string) bool {
	return !lv.stop.Load() && strings.HasPrefix(stop, "max-memory")
}

// mergeFits checks, before the merge, that its tables fit: each worker's
// new states (at most every record), the merged list, the count by
// discovering state and the workers' hash tables. It also reports
// whether the merge may put the new states into the visited set as it
// finds them (insertAhead), rather than after.
func (r *run[S, M]) mergeFits(ws []*levelWorker[S, M], lv *levelRun) (stop string, insertAhead bool) {
	if b := interrupt(r.opts, r.start); b != "" {
		return b, false
	}
	var total, widest uint64
	for s := range numShards {
		n := recsOf(ws, s)
		total, widest = total+n, max(widest, n)
	}
	table := uint64(16)
	for table < 2*widest {
		table <<= 1
	}
	extra := 2*total*recSize + (lv.level.n+uint64(len(ws)))*4 + uint64(len(ws))*table*8
	if stop := r.overMemory(lv.held+bufferBytes(ws), extra, 0); stop != "" {
		return stop, false
	}
	return "", r.insertAhead(ws, lv, total, extra)
}

// insertAhead reports whether the merge may insert the level's new states
// as it finds them: when nothing checked between the merge and the
// insertion (insertFits, max-states) could stop the search there. That
// is when the level cannot reach max-states even if all its total
// records were new, and the visited set grown by them all (with their
// parents, when it keeps them) fits beside the merge's tables (extra,
// as mergeFits counts them). (A set that kept parents was filled after
// the merge, in a pass of its own: 13% of Maekawa N=4 grid's two-worker
// check, which keeps them until its first violation, at depth 20 of 48.)
func (r *run[S, M]) insertAhead(ws []*levelWorker[S, M], lv *levelRun, total, extra uint64) bool {
	if r.opts.MaxStates > 0 && r.seen.n+total >= r.opts.MaxStates {
		return false
	}
	return !over(r.opts, r.seen.bytesAfter(total)+lv.held+bufferBytes(ws)+extra)
}

// insertFits checks, after the merge, that the visited set grown by the
// new states fits beside them (unless inserted, when the merge put them
// in already, having checked for it: insertAhead), and sets what
// regenerate (gather) will hold besides the visited set and the workers'
// buffers (which hold its output as it grows): the level, the new
// states' records and, when the arenas spill, the chunks read back.
func (r *run[S, M]) insertFits(ws []*levelWorker[S, M], lv *levelRun, fresh []rec, inserted bool) string {
	if lv.stop.Load() {
		return lv.why
	}
	n := uint64(len(fresh))
	other := lv.held + bufferBytes(ws) + uint64(cap(fresh))*recSize
	if !inserted {
		if b := r.overMemory(other, 0, n); b != "" {
			return b
		}
	}
	lv.regenBase = lv.held + uint64(cap(fresh))*recSize
	if ws[0].arena.disk != nil { // each gather worker reads a chunk of every arena
		lv.regenBase += uint64(len(ws)*len(ws)) * arenaChunk
	}
	return ""
}

// regenerated notes the memory held once the next level is made: the
// visited set, what regenerate holds besides, the workers' buffers (their
// arenas, kept for the next level) and the next level.
func (r *run[S, M]) regenerated(ws []*levelWorker[S, M], lv *levelRun, next *levelBuf) {
	r.rep.PeakBytes = max(r.rep.PeakBytes, r.seen.bytes()+r.store.Bytes()+lv.regenBase+bufferBytes(ws)+next.bytes())
}

// regenerateStops checks, from any worker, whether regenerate must stop:
// a signal, the timeout, or the next level outgrowing the bound.
func (w *levelWorker[S, M]) regenerateStops(lv *levelRun, ws []*levelWorker[S, M]) bool {
	if lv.stop.Load() {
		return true
	}
	if b := interrupt(w.r.opts, w.r.start); b != "" {
		lv.halt(b)
		return true
	}
	// Each worker may add a chunk before it looks again.
	if over(w.r.opts, w.r.seen.bytes()+w.r.store.Bytes()+lv.regenBase+bufferBytes(ws)+uint64(len(ws))*levelChunk) {
		lv.halt(memoryBound(w.r.opts))
		return true
	}
	return false
}
