package checker

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coordcheck/coordcheck/model"
)

// Random and swarm search: many random walks from the initial world, each
// to a depth bound, checking the properties at every step. Every choice is
// drawn from one seeded stream per walk (PCG seeded with Options.Seed and
// the walk's index), so walk k of seed s is the same on every run and can
// be replayed alone (Options.Walk). The walks use the engine's own
// machinery: System.Actions and Apply, Spec.violation, the fingerprint set
// (for the count of distinct states seen) and the replayer (for traces).

// Defaults of random and swarm search.
const (
	DefaultWalks     = 10000
	DefaultWalkDepth = 200
)

// ExtraWalks is how many more walks random search runs after its first
// failure, to find a shorter one to shrink (unless Options.Exhaust, which
// runs them all).
const ExtraWalks = 64

// failure is a failing walk: its actions and what it violates.
type failure struct {
	walk  int
	path  []string
	prop  string // a safety property, or
	lasso *Trace // a liveness lasso
}

// walkWeights biases the choice of action in one walk.
type walkWeights struct {
	kind [model.ActHeal + 1]float64 // per action kind
	node []float64                  // per acting node
}

// weights returns the bias of walk k: uniform for random search; for
// swarm search, drawn from the walk's own stream, so that walks differ in
// how often faults strike, whether deliveries or inputs are favoured, and
// which nodes act first (swarm verification: many diverse, cheap searches
// instead of one uniform one).
func weights(n int, swarm bool, rng *rand.Rand) walkWeights {
	var w walkWeights
	w.node = make([]float64, n)
	for i := range w.kind {
		w.kind[i] = 1
	}
	for i := range w.node {
		w.node[i] = 1
	}
	if !swarm {
		return w
	}
	levels := [...]float64{0, 0.05, 0.3, 1, 3}
	fault := levels[rng.IntN(len(levels))]
	for k := model.ActDrop; k <= model.ActHeal; k++ {
		w.kind[k] = fault
		if rng.IntN(4) == 0 {
			w.kind[k] = 0 // this walk never injects this fault
		}
	}
	w.kind[model.ActDeliver] = [...]float64{0.3, 1, 3}[rng.IntN(3)]
	w.kind[model.ActInput] = [...]float64{0.3, 1, 3}[rng.IntN(3)]
	w.kind[model.ActFire] = [...]float64{0.1, 1, 3}[rng.IntN(3)]
	for i := range w.node {
		w.node[i] = 0.1 + rng.Float64()
	}
	return w
}

// pick chooses one of acts by weight; -1 when every weight is zero.
// scratch holds the running sums.
func (w *walkWeights) pick(acts []model.Action, rng *rand.Rand, scratch *[]float64) int {
	total := 0.0
	sums := (*scratch)[:0]
	for _, a := range acts {
		x := w.kind[a.Kind]
		if a.Kind != model.ActPartition && a.Kind != model.ActHeal {
			x *= w.node[a.Node]
		}
		total += x
		sums = append(sums, total)
	}
	*scratch = sums
	if total == 0 {
		return -1
	}
	r := rng.Float64() * total
	for i, c := range sums {
		if r < c {
			return i
		}
	}
	return len(acts) - 1
}

// walkRNG is the stream of walk k of seed.
func walkRNG(seed uint64, k int) *rand.Rand {
	return rand.New(rand.NewPCG(seed, uint64(k)^0x9e3779b97f4a7c15))
}

// walk runs random or swarm search. Walks run on several workers in
// batches of walkBatch; their results are taken in walk order, as one
// worker would have produced them, so the report is the same for any
// number of workers.
func (sp *Spec[S, M]) walk(opts Options) *Report {
	start := time.Now()
	rep := &Report{Properties: sp.PropertyNames(), Seed: opts.Seed}
	depth := opts.MaxDepth
	if depth == 0 {
		depth = DefaultWalkDepth
	}
	walks := opts.Walks
	if walks == 0 {
		walks = DefaultWalks
	}
	// first and last are positions among the walks this run makes: all,
	// or a shard's (shard.go).
	if opts.Walk != nil {
		opts.Shard = nil // one walk, whoever's it is
	}
	sw := newShardWalks(opts.Shard)
	first, last := 0, sw.before(walks)
	if opts.Walk != nil {
		first, last = *opts.Walk, *opts.Walk+1
	}
	if opts.Shard != nil {
		rep.Shard = &ShardInfo{Index: opts.Shard.Index, Count: opts.Shard.Count, Walks: walks, Depth: depth, Exhaust: opts.Exhaust}
	}
	seen := newFPSet(false)
	lastProg, every := start, opts.ProgressInterval
	if every == 0 {
		every = time.Second
	}
	cov := newKindTable()
	prem := sp.premises(rep.Properties)
	if len(prem) > 64 {
		prem = prem[:64] // a walk notes them in a mask
	}
	premSeen := make([]bool, len(prem))
	ws := make([]*walker[S, M], opts.workers())
	for i := range ws {
		ws[i] = newWalker(sp, &opts, depth)
		ws[i].prem, ws[i].premSeen = prem, premSeen
	}
	results := make([]walkResult, walkBatch)
	failing := uint64(0)
	var best *failure
	var shorter []*failure // a shard's failing walks shorter than all before
walks:
	for lo := first; lo < last; {
		hi := min(last, (lo/walkBatch+1)*walkBatch)
		var next atomic.Int64
		var wg sync.WaitGroup
		for _, w := range ws {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					k := lo + int(next.Add(1)-1)
					if k >= hi || interrupt(&opts, start) != "" {
						return
					}
					w.run(sw.walk(k), &results[k-lo])
					results[k-lo].done = true
				}
			}()
		}
		wg.Wait()
		for k := lo; k < hi; k++ {
			if k >= last {
				break walks
			}
			res := &results[k-lo]
			if !res.done { // the workers stopped: a signal or the timeout
				rep.Bound = interrupt(&opts, start)
				break walks
			}
			res.done = false
			for _, fp := range res.fps {
				seen.insert(fp, 0)
			}
			rep.Transitions += res.steps
			res.addCoverage(cov, premSeen)
			rep.Depth = max(rep.Depth, res.depth)
			if res.unknown != "" && rep.Bound == "" {
				rep.Bound = res.unknown
			}
			if f := res.fail; f != nil {
				failing++
				rep.countFailingWalk(len(f.path))
				if best == nil || len(f.path) < len(best.path) {
					best = f
					shorter = append(shorter, f)
				}
				if opts.Shard != nil {
					rep.Failures = append(rep.Failures, WalkFailure{Walk: f.walk, Steps: len(f.path), Property: f.property()})
				}
				if failing == 1 && !opts.Exhaust {
					// Look a little further for a shorter failure, then stop.
					last = min(last, sw.before(f.walk+1+ExtraWalks))
				}
			}
			rep.Walks++
			if k&63 == 63 {
				if b := sp.pollWalk(&opts, rep, seen, start, &lastProg, every, depth); b != "" {
					rep.Bound = b
					break walks
				}
			}
		}
		lo = hi
	}
	if best != nil {
		rep.FailingWalk = &best.walk
		rep.ShrunkFrom = len(best.path)
		rep.Counterexample = sp.failureTrace(best, &opts)
	}
	if opts.Shard != nil {
		// The traces MergeShards may need: every failing walk shorter
		// than the shard's earlier ones (best is the last of them).
		for _, f := range shorter {
			tr := rep.Counterexample
			if f != best {
				tr = sp.failureTrace(f, &opts)
			}
			j := slices.IndexFunc(rep.Failures, func(x WalkFailure) bool { return x.Walk == f.walk })
			rep.Failures[j].Counterexample = tr
		}
	}
	rep.States = seen.n
	rep.TableBytes = seen.bytes()
	rep.PeakBytes = max(rep.PeakBytes, rep.TableBytes)
	rep.Elapsed = time.Since(start)
	if s := rep.Elapsed.Seconds(); s > 0 {
		rep.StatesPerSecond = float64(rep.States) / s
		rep.StepsPerSecond = float64(rep.Transitions) / s
	}
	switch {
	case rep.Counterexample != nil:
		rep.Verdict = Violated
		rep.ViolationCounts = []PropertyCount{{rep.Counterexample.Property, failing}}
	default:
		// A random search that finds nothing proves nothing.
		rep.Verdict = Inconclusive
		if rep.Bound == "" {
			rep.Bound = fmt.Sprintf("walks %d of depth %d", rep.Walks, depth)
		}
	}
	sp.fillCoverage(rep, cov, prem, premSeen)
	return rep
}

// property is the property a failing walk violates.
func (f *failure) property() string {
	if f.lasso != nil {
		return f.lasso.Property
	}
	return f.prop
}

// failureTrace is the trace of a failing walk: its lasso, or its path
// shrunk (or as it is, when the search was stopped and has no time to
// shrink).
func (sp *Spec[S, M]) failureTrace(f *failure, opts *Options) *Trace {
	switch {
	case f.prop == "":
		return f.lasso
	case stopped(opts):
		rp, err := sp.Replay(f.path)
		if err != nil {
			panic("checker: a walk does not replay: " + err.Error())
		}
		return rp.Trace
	}
	return sp.shrunkTrace(f.path, f.prop)
}

// walkBatch is how many walks the workers run before their results are
// taken; a multiple of the 64 walks between polls.
const walkBatch = 256

// walkResult is what one walk found: the states it visited, its steps,
// its depth, the first inconclusive judgement, and its failure.
type walkResult struct {
	fps     []uint64
	steps   uint64
	depth   int
	unknown string
	fail    *failure
	done    bool // the walk has run (not skipped by a stop)
	// Coverage (coverage.go): the walk's steps by kind, as indices into
	// its walker's table, and the premises that held on it (bit i).
	tab      *kindTable
	kinds    []kindIdxCount
	premMask uint64
}

// walker runs walks with scratch of its own: one per worker.
type walker[S, M any] struct {
	sp        *Spec[S, M]
	opts      *Options
	depth     int
	sys       *model.System[S, M]
	init      *model.World[S, M]
	cur, next model.World[S, M]
	acts      []model.Action
	scratch   []float64
	path      []string
	visited   map[uint64]int // this walk's states -> first step
	masks     []uint64       // this walk's pending masks, per step and property
	cov       *kindTable     // this walker's kinds, and the counts of its current walk
	prem      []premise[S, M]
	premSeen  []bool // shared: the premises seen by the walks before this batch
	judges    *judgePlan[S, M]
}

func newWalker[S, M any](sp *Spec[S, M], opts *Options, depth int) *walker[S, M] {
	sys := sp.System.Clone()
	return &walker[S, M]{sp: sp, opts: opts, depth: depth, sys: sys, init: sys.Init(), visited: map[uint64]int{},
		cov: newKindTable(), judges: sp.plan()}
}

// run runs walk k into res.
func (w *walker[S, M]) run(k int, res *walkResult) {
	sp, sys := w.sp, w.sys
	*res = walkResult{fps: res.fps[:0], kinds: res.kinds[:0], tab: w.cov}
	defer w.endWalk(res)
	rng := walkRNG(w.opts.Seed, k)
	ww := weights(sys.N(), w.opts.Strategy == Swarm, rng)
	live := len(sp.Liveness) > 0 && !w.opts.SkipLiveness
	w.cur.CopyFrom(w.init)
	w.path = w.path[:0]
	clear(w.visited)
	w.masks = w.masks[:0]
	for d := 0; ; d++ {
		fp := sys.HashWorld(&w.cur)
		res.fps = append(res.fps, fp)
		w.acts = sys.Actions(&w.cur, w.acts[:0])
		prop, _, unknown := sp.judgeLoaded(w.judges, &w.cur, len(w.acts), nil)
		if unknown != "" && res.unknown == "" {
			res.unknown = unknown
		}
		w.notePremises(res)
		var lasso *Trace
		if prop == "" && live {
			lasso = sp.walkLiveness(&w.cur, w.acts, fp, w.path, w.visited, &w.masks)
		}
		if prop != "" || lasso != nil {
			res.fail = &failure{walk: k, path: append([]string(nil), w.path...), prop: prop, lasso: lasso}
			return
		}
		res.depth = max(res.depth, d)
		if d >= w.depth {
			return
		}
		i := ww.pick(w.acts, rng, &w.scratch)
		if i < 0 {
			return // terminal (or only actions this walk never takes)
		}
		w.path = append(w.path, sys.FormatAction(&w.cur, w.acts[i]))
		countAction(w.cov, sys, &w.cur, w.acts[i])
		sys.Apply(&w.cur, w.acts[i], &w.next)
		w.cur, w.next = w.next, w.cur
		res.steps++
	}
}

// walkLiveness judges liveness on a walk that has reached w (fingerprint
// fp, enabled actions acts) by the actions path: a terminal world that
// leaves a node pending ends the run with it waiting forever; a world seen
// before on this walk closes a cycle, which is a violation when some node
// stays pending all along it and the cycle is fair (ReplayLoop judges it).
// Liveness traces are not shrunk: dropping a step would break the cycle.
func (sp *Spec[S, M]) walkLiveness(w *model.World[S, M], acts []model.Action, fp uint64, path []string, visited map[uint64]int, masks *[]uint64) *Trace {
	props := len(sp.Liveness)
	for _, l := range sp.Liveness {
		var mask uint64
		for i := range w.Nodes {
			if id := model.NodeID(i); !w.IsDown(id) && l.Pending(w, id) {
				mask |= 1 << i
			}
		}
		*masks = append(*masks, mask)
	}
	d := len(path)
	here := (*masks)[d*props:]
	if len(acts) == 0 {
		for p, m := range here {
			if m != 0 {
				rp, err := sp.Replay(path)
				if err != nil {
					panic("checker: a walk does not replay: " + err.Error())
				}
				node := model.NodeID(trailingZero(m))
				rp.Trace.Property, rp.Trace.Detail = sp.Liveness[p].Name, lassoDetail(node, 0, d, false)
				return rp.Trace
			}
		}
		return nil
	}
	j, ok := visited[fp]
	if !ok {
		visited[fp] = d
		return nil
	}
	for p := range props {
		common := ^uint64(0)
		for step := j; step <= d; step++ {
			common &= (*masks)[step*props+p]
		}
		if common == 0 {
			continue
		}
		rp, err := sp.ReplayLoop(path, j)
		if err != nil {
			panic("checker: a walk does not replay: " + err.Error())
		}
		if rp.Trace.Property != "" {
			return rp.Trace
		}
	}
	return nil
}

func trailingZero(m uint64) int {
	i := 0
	for m&1 == 0 {
		m >>= 1
		i++
	}
	return i
}

// pollWalk checks the bounds every 64 walks. The memory counted is the
// visited set, as it will be once the next batch of walks is in, and the
// batch's fingerprints.
func (sp *Spec[S, M]) pollWalk(opts *Options, rep *Report, seen *fpSet, start time.Time, last *time.Time, every time.Duration, depth int) string {
	now := time.Now()
	if opts.Progress != nil && now.Sub(*last) >= every {
		*last = now
		opts.Progress(Progress{States: seen.n, Transitions: rep.Transitions, Depth: rep.Depth,
			Walks: rep.Walks, Elapsed: now.Sub(start)})
	}
	if opts.Timeout > 0 && now.Sub(start) >= opts.Timeout {
		return fmt.Sprintf("timeout %s", opts.Timeout)
	}
	if opts.MaxStates > 0 && seen.n >= opts.MaxStates {
		return fmt.Sprintf("max-states %d", opts.MaxStates)
	}
	batch := uint64(walkBatch * (depth + 1))
	rep.PeakBytes = max(rep.PeakBytes, seen.bytes()+batch*8)
	if over(opts, seen.bytesAfter(batch)+batch*8) {
		return memoryBound(opts)
	}
	if opts.Stop != nil {
		select {
		case <-opts.Stop:
			return "interrupted"
		default:
		}
	}
	return ""
}
