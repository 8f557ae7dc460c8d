package checker

import (
	"fmt"
	"slices"
	"sort"
	"time"
	"unsafe"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/property"
)

// Liveness is a property checked on the cycles of the state graph under
// weak fairness (property.Liveness).
type Liveness[S, M any] = property.Liveness[S, M]

// graph is the explored state graph, kept when the spec has liveness
// properties: states are numbered in the order they are found.
type graph struct {
	fps        []uint64 // state -> key(fingerprint)
	start, end []uint32 // state -> its edges, once expanded
	to         []uint32 // edge -> target state
	cls        []uint32 // edge -> index in classes of its fairness class
	classes    []uint64 // the fairness classes met, 0 (not fair) first
	classIdx   map[uint64]uint32
	// classCache holds the index of the classes met lately, before the
	// map: a class's slot by its hash; the zero slot, class 0 at index
	// 0, is right as it is. Looked up in the map, one lookup an edge,
	// the classes took 4.3% of ring N=10's check with liveness.
	classCache [1 << classCacheBits]classSlot
	pending    [][]uint64 // property -> state -> bit i when node i is pending
	// The memory behind fps, start, end, to, cls and each of pending,
	// which grow in place once large (spanned).
	fpsMem, startMem, endMem, toMem, clsMem spanned
	pendingMem                              []spanned
}

func newGraph(props int) *graph {
	return &graph{pending: make([][]uint64, props), pendingMem: make([]spanned, props),
		classes: []uint64{0}, classIdx: map[uint64]uint32{0: 0}}
}

// release gives the graph's spans back; it must not be read again.
func (g *graph) release() {
	for _, sp := range []*spanned{&g.fpsMem, &g.startMem, &g.endMem, &g.toMem, &g.clsMem} {
		sp.release()
	}
	for p := range g.pendingMem {
		g.pendingMem[p].release()
	}
	*g = graph{}
}

// addEdge adds an edge to state v, taken by an action of fairness class c
// (0 when not fair). Classes are few, so an edge keeps an index into them.
func (g *graph) addEdge(v uint32, c uint64) {
	slot := &g.classCache[(c*0x9e3779b97f4a7c15)>>(64-classCacheBits)]
	if slot.c != c {
		*slot = classSlot{c, g.classIndex(c)}
	}
	g.to = push(&g.toMem, g.to, v)
	g.cls = push(&g.clsMem, g.cls, slot.i)
}

// classIndex is the index of class c in classes, where it is added when
// new.
func (g *graph) classIndex(c uint64) uint32 {
	i, ok := g.classIdx[c]
	if !ok {
		i = uint32(len(g.classes))
		g.classes = append(g.classes, c)
		g.classIdx[c] = i
	}
	return i
}

// classSlot is a class and its index (graph.classCache).
type classSlot struct {
	c uint64
	i uint32
}

// classCacheBits is log2 of the slots of graph.classCache.
const classCacheBits = 8

// class is the fairness class of edge e, 0 when not fair.
func (g *graph) class(e uint32) uint64 { return g.classes[g.cls[e]] }

// add makes room for state u (numbered by the visited set) with
// fingerprint fp.
func (g *graph) add(u uint32, fp uint64) {
	for uint32(len(g.fps)) <= u {
		g.fps = push(&g.fpsMem, g.fps, 0)
		g.start = push(&g.startMem, g.start, 0)
		g.end = push(&g.endMem, g.end, 0)
		for p := range g.pending {
			g.pending[p] = push(&g.pendingMem[p], g.pending[p], 0)
		}
	}
	g.fps[u] = key(fp)
}

// sccBytes is the memory the search for fair cycles adds to the graph's
// (sccs' index, low and on-stack arrays, the components' states,
// findLasso's cyclic states).
func (g *graph) sccBytes() uint64 { return uint64(len(g.fps)) * 26 }

// bytes is the memory the graph holds.
func (g *graph) bytes() uint64 {
	b := g.fpsMem.bytes(cap(g.fps), 8) + g.startMem.bytes(cap(g.start), 4) + g.endMem.bytes(cap(g.end), 4) +
		g.toMem.bytes(cap(g.to), 4) + g.clsMem.bytes(cap(g.cls), 4) + uint64(len(g.classes))*24
	for p := range g.pending {
		b += g.pendingMem[p].bytes(cap(g.pending[p]), 8)
	}
	return b
}

// record notes the pending nodes of state u, in world w.
func (sp *Spec[S, M]) record(g *graph, u uint32, w *model.World[S, M]) {
	for p, l := range sp.Liveness {
		g.pending[p][u] = pendingMask(l, w)
	}
}

// pendingMasks sets masks[p] to the nodes pending for property p in w.
func (sp *Spec[S, M]) pendingMasks(w *model.World[S, M], masks []uint64) {
	for p, l := range sp.Liveness {
		masks[p] = pendingMask(l, w)
	}
}

// pendingMask is the set of live nodes pending for l in w, as bits.
func pendingMask[S, M any](l Liveness[S, M], w *model.World[S, M]) uint64 {
	var mask uint64
	for i := range w.Nodes {
		if id := model.NodeID(i); !w.IsDown(id) && l.Pending(w, id) {
			mask |= 1 << i
		}
	}
	return mask
}

// lasso is a liveness violation found in the graph: node Node stays
// pending for property Prop on the fair cycle Cycle (state numbers, the
// first repeated at the end), reached from the initial state; Cycle is
// empty when the run ends in a terminal state.
type lasso struct {
	prop  int
	node  model.NodeID
	entry uint32
	cycle []uint32 // states after entry, ending with entry again
	class []uint64 // the class of each cycle step's edge
}

// findLasso looks for a fair cycle, or a terminal state, on which some
// node stays pending. It polls opts's stop and timeout as it goes, and
// returns the bound reached, if any, instead of a lasso; held is the
// memory the search holds, which the maps of a large component must fit
// beside.
//
// A fair cycle of the states where a node is pending is a cycle of the
// graph: its states lie in the graph's own non-trivial components. Those
// are found once (cyclic), and each node's components are sought among
// them alone; they are the components of all the states where the node
// is pending, in the same order. (Each node's search over every state,
// ten of them on ring N=10, was 41% of its check.)
func (sp *Spec[S, M]) findLasso(g *graph, n int, opts *Options, start time.Time, held uint64) (*lasso, string) {
	pl := &poller{opts: opts, start: start}
	sc := newSCCScratch(len(g.fps))
	defer sc.release()
	var cyclic []bool // states in a non-trivial component of the graph
	for p := range sp.Liveness {
		for i := range n {
			bit := uint64(1) << i
			for u := range g.fps {
				if g.pending[p][u]&bit != 0 && g.start[u] == g.end[u] {
					return &lasso{prop: p, node: model.NodeID(i), entry: uint32(u)}, ""
				}
				if pl.due() {
					return nil, pl.bound
				}
			}
			if cyclic == nil {
				cyclic = make([]bool, len(g.fps))
				for _, comp := range g.sccs(func(uint32) bool { return true }, pl, sc) {
					for _, u := range comp {
						cyclic[u] = true
					}
				}
				if pl.bound != "" {
					return nil, pl.bound
				}
			}
			in := func(u uint32) bool { return cyclic[u] && g.pending[p][u]&bit != 0 }
			comps := g.sccs(in, pl, sc)
			if pl.bound != "" {
				return nil, pl.bound
			}
			for _, comp := range comps {
				if over(opts, held+g.sccBytes()+uint64(len(comp))*fairCycleBytes) {
					return nil, memoryBound(opts)
				}
				if l := g.fairCycle(comp); l != nil {
					l.prop, l.node = p, model.NodeID(i)
					return l, ""
				}
				if pl.due() {
					return nil, pl.bound
				}
			}
		}
	}
	return nil, ""
}

// fairCycleBytes is about what fairCycle's maps take per state of a
// component (its members, the states a shortest path has reached).
const fairCycleBytes = 64

// poller checks a long phase's stop and timeout every so many steps.
type poller struct {
	opts  *Options
	start time.Time
	k     uint32
	bound string // the bound reached, once due has returned true
}

func (pl *poller) due() bool {
	if pl.k++; pl.k%4096 == 0 && pl.bound == "" {
		pl.bound = interrupt(pl.opts, pl.start)
	}
	return pl.bound != ""
}

// sccs returns the non-trivial strongly connected components of the
// subgraph of the states where in holds (those with an edge inside: more
// than one state, or a self-loop), each sorted, in order of their smallest
// state. It is Tarjan's algorithm with an explicit stack, on sc's memory
// (newSCCScratch), which it leaves as it found it. It gives up,
// returning nil, when pl says the search must stop.
func (g *graph) sccs(in func(uint32) bool, pl *poller, sc *sccScratch) [][]uint32 {
	index, low, onStack := sc.index, sc.low, sc.onStack // index 0: not visited
	defer sc.reset()
	var comps [][]uint32
	next := uint32(1)
	visit := func(u uint32) {
		index[u], low[u] = next, next
		next++
		sc.visited = push(&sc.visitedMem, sc.visited, u)
		sc.stack = push(&sc.stackMem, sc.stack, u)
		onStack[u] = true
		sc.call = push(&sc.callMem, sc.call, uint64(u)<<32|uint64(g.start[u]))
	}
	for root := range uint32(len(g.fps)) {
		if index[root] != 0 || !in(root) {
			continue
		}
		visit(root)
		for len(sc.call) > 0 {
			if pl.due() {
				return nil
			}
			f := &sc.call[len(sc.call)-1] // state<<32 | its next edge
			u, e := uint32(*f>>32), uint32(*f)
			if e < g.end[u] {
				v := g.to[e]
				*f++
				if !in(v) {
					continue
				}
				if index[v] == 0 {
					visit(v)
				} else if onStack[v] {
					low[u] = min(low[u], index[v])
				}
				continue
			}
			sc.call = sc.call[:len(sc.call)-1]
			if len(sc.call) > 0 {
				p := uint32(sc.call[len(sc.call)-1] >> 32)
				low[p] = min(low[p], low[u])
			}
			if low[u] == index[u] {
				k := len(sc.stack) - 1
				for sc.stack[k] != u {
					k--
				}
				comp := sc.stack[k:]
				sc.stack = sc.stack[:k]
				for _, v := range comp {
					onStack[v] = false
				}
				if len(comp) > 1 || g.selfLoop(u) { // kept: a copy of its own
					comp = slices.Clone(comp)
					slices.Sort(comp)
					comps = append(comps, comp)
				}
			}
		}
	}
	sort.Slice(comps, func(a, b int) bool { return comps[a][0] < comps[b][0] })
	return comps
}

// sccScratch is the memory of sccs, made once for the searches of one
// graph (findLasso's: one over every state, then one for each property
// and node): an index, a low number and an on-stack flag a state, in
// memory mapped apart, and the stacks, which grow in spans (spanned).
// Made anew for each search, on the heap, these arrays took most of the
// page faults of ring N=10's check with liveness (10,000 of 18,000), at
// about 12 microseconds a fault on the 2-core VM.
type sccScratch struct {
	index, low []uint32
	onStack    []bool
	raw        []byte // their mapping, nil when they are the heap's
	mapped     uintptr
	// visited is the states the last search numbered (reset clears
	// theirs); stack is Tarjan's, call the frames of the depth-first
	// search (a state and its next edge).
	visited, stack                []uint32
	call                          []uint64
	visitedMem, stackMem, callMem spanned
}

// newSCCScratch makes sccs's memory for a graph of n states.
func newSCCScratch(n int) *sccScratch {
	sc := &sccScratch{}
	bytes := uintptr(n) * 9
	if bytes >= spannedFrom {
		if raw, p := mapSlab(bytes); raw != nil {
			sc.raw, sc.mapped = raw, bytes
			outsideHeap(int64(bytes))
			sc.index = unsafe.Slice((*uint32)(p), n)
			sc.low = unsafe.Slice((*uint32)(unsafe.Add(p, 4*n)), n)
			sc.onStack = unsafe.Slice((*bool)(unsafe.Add(p, 8*n)), n)
			return sc
		}
	}
	sc.index, sc.low, sc.onStack = make([]uint32, n), make([]uint32, n), make([]bool, n)
	return sc
}

// reset makes the scratch as new for the next search.
func (sc *sccScratch) reset() {
	for _, u := range sc.visited {
		sc.index[u], sc.low[u], sc.onStack[u] = 0, 0, false
	}
	sc.visited, sc.stack, sc.call = sc.visited[:0], sc.stack[:0], sc.call[:0]
}

// release gives the scratch's memory back.
func (sc *sccScratch) release() {
	if sc.raw != nil {
		unmapSlab(sc.raw)
		outsideHeap(-int64(sc.mapped))
	}
	for _, sp := range []*spanned{&sc.visitedMem, &sc.stackMem, &sc.callMem} {
		sp.release()
	}
	*sc = sccScratch{}
}

// fairCycle returns a lasso through comp when comp holds a fair cycle:
// it has an edge inside it, and every fair class enabled in all its states
// is taken by an edge inside it. The cycle visits, for each fair class
// enabled somewhere in comp, an edge of that class or a state where it is
// disabled, so that the cycle printed is itself fair.
func (g *graph) fairCycle(comp []uint32) *lasso {
	member := make(map[uint32]bool, len(comp))
	for _, u := range comp {
		member[u] = true
	}
	enabled := map[uint64]int{}
	taken := map[uint64]bool{}
	internal := false
	for _, u := range comp {
		for e := g.start[u]; e < g.end[u]; e++ {
			c := g.class(e)
			if member[g.to[e]] {
				internal = true
				if c != 0 {
					taken[c] = true
				}
			}
			if c != 0 {
				enabled[c]++
			}
		}
	}
	if !internal {
		return nil
	}
	var classes []uint64
	for c, k := range enabled {
		if k == len(comp) && !taken[c] {
			return nil // c stays enabled and is never taken: unfair
		}
		classes = append(classes, c)
	}
	slices.Sort(classes)

	entry := comp[0]
	l := &lasso{entry: entry}
	at := entry
	walk := func(goal func(u uint32) bool) { // shortest path inside comp
		path, cls := g.pathWithin(member, at, goal)
		l.cycle = append(l.cycle, path...)
		l.class = append(l.class, cls...)
		if len(path) > 0 {
			at = path[len(path)-1]
		}
	}
	for _, c := range classes {
		if enabled[c] == len(comp) {
			// Go to an edge of class c inside comp and take it.
			var src, dst uint32
			found := false
			for _, u := range comp {
				for e := g.start[u]; e < g.end[u] && !found; e++ {
					if g.class(e) == c && member[g.to[e]] {
						src, dst, found = u, g.to[e], true
					}
				}
				if found {
					break
				}
			}
			walk(func(u uint32) bool { return u == src })
			l.cycle = append(l.cycle, dst)
			l.class = append(l.class, c)
			at = dst
		} else {
			walk(func(u uint32) bool { return !g.hasClass(u, c) })
		}
	}
	if at == entry && len(l.cycle) == 0 {
		// Take one step inside comp, then come back.
		for e := g.start[at]; e < g.end[at]; e++ {
			if member[g.to[e]] {
				l.cycle = append(l.cycle, g.to[e])
				l.class = append(l.class, g.class(e))
				at = g.to[e]
				break
			}
		}
	}
	if at != entry {
		path, cls := g.pathWithin(member, at, func(u uint32) bool { return u == entry })
		l.cycle = append(l.cycle, path...)
		l.class = append(l.class, cls...)
	}
	return l
}

func (g *graph) selfLoop(u uint32) bool {
	for e := g.start[u]; e < g.end[u]; e++ {
		if g.to[e] == u {
			return true
		}
	}
	return false
}

func (g *graph) hasClass(u uint32, c uint64) bool {
	for e := g.start[u]; e < g.end[u]; e++ {
		if g.class(e) == c {
			return true
		}
	}
	return false
}

// pathWithin is a shortest path from `from` to a state satisfying goal,
// through member states only: the states after from, with the classes of
// the edges taken. It is empty when from satisfies goal.
func (g *graph) pathWithin(member map[uint32]bool, from uint32, goal func(uint32) bool) ([]uint32, []uint64) {
	if goal(from) {
		return nil, nil
	}
	type via struct {
		prev uint32
		c    uint64
	}
	seen := map[uint32]via{from: {from, 0}}
	queue := []uint32{from}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for e := g.start[u]; e < g.end[u]; e++ {
			v := g.to[e]
			if !member[v] {
				continue
			}
			if _, ok := seen[v]; ok {
				continue
			}
			seen[v] = via{u, g.class(e)}
			if goal(v) {
				var path []uint32
				var cls []uint64
				for x := v; x != from; x = seen[x].prev {
					path = append(path, x)
					cls = append(cls, seen[x].c)
				}
				slices.Reverse(path)
				slices.Reverse(cls)
				return path, cls
			}
			queue = append(queue, v)
		}
	}
	panic("checker: no path inside a strongly connected component")
}

// lassoTrace turns a lasso into a trace: the prefix to its entry, rebuilt
// from the parent links, then the cycle, each step matched by fingerprint
// and, for fair steps, by class.
func (sp *Spec[S, M]) lassoTrace(seen *fpSet, g *graph, l *lasso) *Trace {
	cycle := make([]uint64, len(l.cycle))
	for k, u := range l.cycle {
		cycle[k] = g.fps[u]
	}
	return sp.lassoPath(seen, l.prop, l.node, g.fps[l.entry], cycle, l.class)
}

// terminalTrace is the trace of a run that ends in the terminal state fp
// with node pending for property prop; path is the path of keys to it,
// or nil for lassoPath to find (pathTo).
func (sp *Spec[S, M]) terminalTrace(seen *fpSet, prop int, node model.NodeID, fp uint64, path []uint64) *Trace {
	return sp.lassoPathFrom(seen, prop, node, key(fp), path, nil, nil)
}

// lassoPath rebuilds a lasso's trace: the path of parents to the entry
// state (a key), then the cycle's states (keys), each step of the cycle
// taken by an action of its fairness class (0: any action).
func (sp *Spec[S, M]) lassoPath(seen *fpSet, prop int, node model.NodeID, entry uint64, cycle, classes []uint64) *Trace {
	return sp.lassoPathFrom(seen, prop, node, entry, nil, cycle, classes)
}

// lassoPathFrom is lassoPath along path, the keys from the initial state
// to the entry, when it is known (nil: found by pathTo).
func (sp *Spec[S, M]) lassoPathFrom(seen *fpSet, prop int, node model.NodeID, entry uint64, path, cycle, classes []uint64) *Trace {
	if path == nil {
		path = sp.pathTo(seen, entry)
	}
	r := newReplayer(sp)
	follow := func(want uint64, class uint64) {
		ok := r.step(func(a model.Action, next *model.World[S, M]) bool {
			if class != 0 {
				if c, fair := r.sys.FairClass(r.cur, a); !fair || c|1<<63 != class {
					return false
				}
			}
			return key(r.sys.HashWorld(next)) == want
		})
		if !ok {
			panic("checker: no action reproduces a recorded transition")
		}
	}
	for _, fp := range path[1:] {
		follow(fp, 0)
	}
	loop := len(r.steps)
	for k, fp := range cycle {
		follow(fp, classes[k])
	}
	tr := r.trace(sp.Liveness[prop].Name, lassoDetail(node, loop, len(r.steps), len(cycle) > 0))
	if len(cycle) > 0 {
		tr.Loop = &loop
	}
	return tr
}

// terminals remembers, for each liveness property and node, the first
// terminal state found, in BFS order, in which the node is pending: with no
// cycle in the state graph, these are the only liveness violations.
type terminals struct {
	n     int
	fps   []uint64 // property*n + node -> key of the state, 0 when none
	pos   []uint64 // its position in BFS order
	masks []uint64 // scratch: the pending nodes of the state being noted
}

func newTerminals(props, n int) *terminals {
	return &terminals{n: n, fps: make([]uint64, props*n), pos: make([]uint64, props*n), masks: make([]uint64, props)}
}

// note records the terminal state fp, at position pos in BFS order, whose
// pending nodes are in t.masks (see Spec.pendingMasks).
func (t *terminals) note(fp, pos uint64) {
	for p, mask := range t.masks {
		for i := range t.n {
			if k := p*t.n + i; mask&(1<<i) != 0 && (t.fps[k] == 0 || pos < t.pos[k]) {
				t.fps[k], t.pos[k] = key(fp), pos
			}
		}
	}
}

// merge keeps, of t's and u's, the states that come first.
func (t *terminals) merge(u *terminals) {
	for k, fp := range u.fps {
		if fp != 0 && (t.fps[k] == 0 || u.pos[k] < t.pos[k]) {
			t.fps[k], t.pos[k] = fp, u.pos[k]
		}
	}
}

// first returns the violation findLasso would report on the full graph:
// the first property, then the first node, with a pending terminal state.
// pos is the state's number in BFS order.
func (t *terminals) first() (prop int, node model.NodeID, fp, pos uint64, ok bool) {
	for k, fp := range t.fps {
		if fp != 0 {
			return k / t.n, model.NodeID(k % t.n), fp, t.pos[k], true
		}
	}
	return 0, 0, 0, 0, false
}

func lassoDetail(node model.NodeID, loop, steps int, cycle bool) string {
	if !cycle {
		return fmt.Sprintf("%s waits forever: the run ends with %s still pending", node, node)
	}
	return fmt.Sprintf("%s waits forever: steps %d to %d repeat forever with %s pending throughout, and every fair action that stays enabled along them is taken",
		node, loop+1, steps, node)
}

// checkLasso judges a replayed lasso: the world after the first loop
// steps must be the final world, and some node must stay pending for a
// liveness property in every world of the cycle, which must take every
// fair class that stays enabled along it. It returns the property and
// the reason, or "" when the lasso shows no violation.
func (sp *Spec[S, M]) checkLasso(r *replayer[S, M], worlds [][]byte, classes []uint64, loop int) (string, string) {
	n := len(r.steps)
	if loop >= n || string(worlds[loop]) != string(worlds[n]) {
		return "", ""
	}
	sys, w := r.sys, &model.World[S, M]{}
	enabledAll := map[uint64]bool{}
	pending := make([]uint64, len(sp.Liveness))
	for p := range pending {
		pending[p] = ^uint64(0)
	}
	for k := loop; k < n; k++ {
		sys.Decode(worlds[k], w)
		here := map[uint64]bool{}
		for _, a := range sys.Actions(w, nil) {
			if c, fair := sys.FairClass(w, a); fair {
				here[c|1<<63] = true
			}
		}
		if k == loop {
			enabledAll = here
		} else {
			for c := range enabledAll {
				if !here[c] {
					delete(enabledAll, c)
				}
			}
		}
		for p, l := range sp.Liveness {
			var mask uint64
			for i := range w.Nodes {
				if id := model.NodeID(i); !w.IsDown(id) && l.Pending(w, id) {
					mask |= 1 << i
				}
			}
			pending[p] &= mask
		}
	}
	for c := range enabledAll {
		if !slices.Contains(classes[loop:], c) {
			return "", "" // unfair: c stays enabled and the cycle never takes it
		}
	}
	for p, l := range sp.Liveness {
		for i := range len(w.Nodes) {
			if pending[p]&(1<<i) != 0 {
				return l.Name, lassoDetail(model.NodeID(i), loop, n, true)
			}
		}
	}
	return "", ""
}
