// Package live runs a protocol for real: one goroutine per node (or one
// OS process, Proc), messages over links (in memory, or TCP connections
// on 127.0.0.1), timers on the wall clock, inputs from the caller. It runs
// the very Init and Step functions the checker explored, so that the code
// that was checked is the code that runs.
//
// There is one runtime and three link layers. Every message is encoded
// with the protocol's canonical codec (model.CodecOf) and travels as a
// frame on the link from its sender to its receiver, where ReadMsg decodes
// it; a link is FIFO, and reliable unless faults are injected on it
// (Faults).
// Each node has one unbounded inbox and handles one event at a time. An
// Observer records what the nodes did, on its own monotonic clock.
//
// The runtime keeps what the checker's World holds: every message in
// flight (on a link or in an inbox, in link order), the armed timers, the
// down nodes and the partition. So a Snapshot of a running cluster is a
// world of the model, the checker's properties judge it as they are, and
// the run's steps, kept in one order consistent with what each node saw
// (Trace), are the checker's action lines.
package live

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coordcheck/coordcheck/model"
)

// Options tune a Cluster.
type Options struct {
	// TimerDelay is how long an armed timer waits before it fires
	// (default 10ms).
	TimerDelay time.Duration
	// Transport carries the frames between nodes: Mem (the default), TCP
	// or Proc.
	Transport Transport
	// Faults are injected on the links (drop, dup, delay); crashes,
	// restarts and partitions are the caller's (Crash, Restart,
	// Partition) or the chaos loop's (Run).
	Faults Faults
	// Seed seeds the fault injector's one random stream.
	Seed uint64
	// PerfectTimers makes the timers of a protocol with a
	// model.TimerGuard fire as model.TimersPerfect says: an expired timer
	// waits until its guard holds on a snapshot of the cluster, as the
	// checker's perfect failure detector does.
	PerfectTimers bool
	// MaxTrace bounds the steps kept as action lines (Trace); 0 keeps
	// none.
	MaxTrace int
	// Node, for Transport Proc, starts the process of one node (see
	// NodeProcess); required then.
	Node NodeCommand
}

// Cluster is a running protocol.
type Cluster[S, M any] struct {
	p     model.Protocol[S, M]
	sys   *model.System[S, M] // the checker's system of p: its codec, its texts
	codec model.Codec[S, M]
	opts  Options
	nodes []*node[S, M]
	links [][]*link // links[from][to]
	net   transport
	inj   *injector
	obs   *Observer
	inCS  func(model.NodeID, S) bool // nil unless p has critical sections
	guard model.TimerGuard[S, M]     // nil unless timers are perfect
	procs *procs[S, M]               // nil unless Transport is Proc
	sent  atomic.Int64               // protocol messages sent
	// onStep, when set, sees every node's state after each of its steps
	// (n.mu held).
	onStep func(model.NodeID, S)

	// fmu guards flight and cut: the messages sent and not yet in their
	// receiver's inbox, per link in sending order, and the partition.
	fmu    sync.Mutex
	flight [][][]inflight[M] // [from][to]
	cut    uint64

	tmu      sync.Mutex
	trace    []string
	traceCut bool // MaxTrace was reached
	steps    atomic.Int64

	due  atomic.Int64 // expired timers waiting for their guard
	wg   sync.WaitGroup
	once sync.Once
	stop chan struct{}
}

// inflight is a message on its way; lost when a crash of its receiver or
// a partition took it out of the world, to be discarded on arrival.
type inflight[M any] struct {
	msg  M
	lost bool
}

// node is one process. mu guards its state, its timers and whether it is
// up; qmu guards its inbox, so that a node holding its own lock can still
// send to itself and to others.
type node[S, M any] struct {
	id      model.NodeID
	mu      sync.Mutex
	changed *sync.Cond // broadcast after every step, crash and restart
	state   S
	down    bool
	isDown  atomic.Bool // down, readable without mu (under fmu for senders)
	epoch   uint64      // bumped by every crash: timers of an older life do not fire
	inCS    bool
	timers  map[model.TimerID]*time.Timer
	due     uint64 // expired timers waiting for their guard

	qmu   sync.Mutex
	inbox []model.Event[M]
	wake  chan struct{}
}

// ErrStopped is returned for inputs to a stopped cluster; ErrTimeout when
// an awaited input does not become enabled in time.
var (
	ErrStopped = errors.New("live: cluster stopped")
	ErrTimeout = errors.New("live: timed out")
)

// Start runs p: it opens the links, initialises every node and starts its
// goroutine. It fails only when the transport cannot be set up.
func Start[S, M any](p model.Protocol[S, M], opts Options) (*Cluster[S, M], error) {
	if opts.TimerDelay == 0 {
		opts.TimerDelay = 10 * time.Millisecond
	}
	n := p.Nodes()
	sys, err := model.NewSystem(p, model.Config{})
	if err != nil {
		return nil, err
	}
	c := &Cluster[S, M]{p: p, sys: sys, codec: sys.Codec(), opts: opts, stop: make(chan struct{}), obs: newObserver(n)}
	if cs, ok := p.(interface{ InCS(model.NodeID, S) bool }); ok {
		c.inCS = cs.InCS
	}
	if g, ok := p.(model.TimerGuard[S, M]); ok && opts.PerfectTimers {
		c.guard = g
	}
	c.flight = make([][][]inflight[M], n)
	for i := range n {
		c.flight[i] = make([][]inflight[M], n)
		nd := &node[S, M]{id: model.NodeID(i), wake: make(chan struct{}, 1), timers: map[model.TimerID]*time.Timer{}}
		nd.changed = sync.NewCond(&nd.mu)
		c.nodes = append(c.nodes, nd)
	}
	switch opts.Transport {
	case Mem:
		c.net = memTransport{c.receive}
	case TCP:
		c.net, err = openTCP(n, c.receive)
	case Proc:
		if opts.Node == nil {
			return nil, errors.New("transport proc needs a node command")
		}
		if c.procs, err = startProcs(p, c.codec, opts.Node, c.receive); err == nil {
			c.net = c.procs
		}
	default:
		err = fmt.Errorf("unknown transport %d", opts.Transport)
	}
	if err != nil {
		return nil, err
	}
	c.inj = newInjector(opts.Faults, opts.Seed)
	c.links = make([][]*link, n)
	for from := range n {
		for to := range n {
			l := &link{from: model.NodeID(from), to: model.NodeID(to), wake: make(chan struct{}, 1)}
			c.links[from] = append(c.links[from], l)
			c.wg.Add(1)
			go c.pump(l)
		}
	}
	for _, nd := range c.nodes {
		nd.mu.Lock()
		out, err := c.exec(nd, execInit, model.Event[M]{})
		if err != nil {
			nd.mu.Unlock()
			c.Stop()
			return nil, err
		}
		c.effects(nd, out)
		nd.mu.Unlock()
	}
	for _, nd := range c.nodes {
		c.wg.Add(1)
		go c.run(nd)
	}
	if c.guard != nil {
		c.wg.Add(1)
		go c.guardLoop()
	}
	return c, nil
}

// MustStart is Start for the in-memory transport, which cannot fail.
func MustStart[S, M any](p model.Protocol[S, M], opts Options) *Cluster[S, M] {
	c, err := Start(p, opts)
	if err != nil {
		panic("live: " + err.Error())
	}
	return c
}

// Stop ends every node's goroutine, link and timer (and process) and
// waits for them. The observer's record ends at the moment Stop is called.
func (c *Cluster[S, M]) Stop() {
	c.once.Do(func() {
		c.obs.end()
		close(c.stop)
		if c.net != nil {
			c.net.close()
		}
		c.wg.Wait()
		for _, n := range c.nodes {
			n.mu.Lock()
			for _, t := range n.timers {
				t.Stop()
			}
			n.changed.Broadcast()
			n.mu.Unlock()
		}
	})
}

// Observer returns the record of what the cluster did.
func (c *Cluster[S, M]) Observer() *Observer { return c.obs }

// Faults returns the faults that struck so far.
func (c *Cluster[S, M]) Faults() FaultCounts { return c.inj.snapshot() }

// Sent is the number of protocol messages the nodes have sent while the
// observer recorded (a duplicate made by a fault is not one of them).
func (c *Cluster[S, M]) Sent() int64 { return c.sent.Load() }

// Trace returns the steps taken so far as the checker's action lines
// (model.System.FormatAction), in an order consistent with every node's:
// a message is delivered after the step that sent it, a node's steps in
// their order. complete is false when Options.MaxTrace cut it short.
func (c *Cluster[S, M]) Trace() (lines []string, complete bool) {
	c.tmu.Lock()
	defer c.tmu.Unlock()
	return slices.Clone(c.trace), !c.traceCut
}

// Steps is the number of steps taken so far (the length of the whole
// trace).
func (c *Cluster[S, M]) Steps() int { return int(c.steps.Load()) }

// log appends one action line to the trace (with the lock of the node
// that acts held, before the step's effects leave).
func (c *Cluster[S, M]) log(line func() string) {
	c.steps.Add(1)
	if c.opts.MaxTrace == 0 {
		return
	}
	c.tmu.Lock()
	defer c.tmu.Unlock()
	if len(c.trace) >= c.opts.MaxTrace {
		c.traceCut = true
		return
	}
	c.trace = append(c.trace, line())
}

// run is a node's event loop.
func (c *Cluster[S, M]) run(n *node[S, M]) {
	defer c.wg.Done()
	for {
		select {
		case <-c.stop:
			return
		case <-n.wake:
		}
		// An event leaves the inbox under n.mu, so that whoever holds
		// n.mu sees it either queued or handled (Quiescent).
		for {
			n.mu.Lock()
			n.qmu.Lock()
			if len(n.inbox) == 0 {
				n.qmu.Unlock()
				n.mu.Unlock()
				break
			}
			ev := n.inbox[0]
			n.inbox = n.inbox[1:]
			n.qmu.Unlock()
			if !n.down {
				c.step(n, ev)
			}
			n.mu.Unlock()
		}
	}
}

// step applies one event to n (n.mu held) and carries out its effects.
func (c *Cluster[S, M]) step(n *node[S, M], ev model.Event[M]) {
	c.log(func() string { return c.actionLine(n.id, ev) })
	out, err := c.exec(n, execStep, ev)
	if err != nil {
		// The node's process is gone: it is down until restarted.
		c.crashLocked(n, "process: "+err.Error())
		return
	}
	if ev.Kind == model.Environment {
		c.obs.record(Record{Node: n.id, Kind: RecInput, Text: string(ev.Input), Step: c.Steps()})
	}
	c.effects(n, out)
	n.changed.Broadcast()
}

// actionLine is ev at node id as the checker's action line.
func (c *Cluster[S, M]) actionLine(id model.NodeID, ev model.Event[M]) string {
	switch ev.Kind {
	case model.Receive:
		return fmt.Sprintf("deliver %s->%s %s", ev.From, id, c.sys.FormatMsg(ev.Msg))
	case model.Timeout:
		return fmt.Sprintf("fire %s %s", id, timerName(c.p, ev.Timer))
	default:
		return fmt.Sprintf("input %s %s", id, ev.Input)
	}
}

// timerName is the name the checker gives timer t (model.TimerNamer).
func timerName(p any, t model.TimerID) string {
	if tn, ok := p.(model.TimerNamer); ok {
		return tn.TimerName(t)
	}
	return fmt.Sprintf("t%d", t)
}

// effects observes n's new state and outputs, then performs the sends and
// timer operations of one step (n.mu held). The observer sees a change of
// the critical section before any message the step sends leaves, so an
// exit is always recorded before the entry it enables. The sends are
// queued in order on their links, so each link stays FIFO.
func (c *Cluster[S, M]) effects(n *node[S, M], out *model.Out[M]) {
	step := c.Steps()
	if c.inCS != nil {
		if in := c.inCS(n.id, n.state); in != n.inCS {
			n.inCS = in
			kind := RecExit
			if in {
				kind = RecEnter
			}
			c.obs.record(Record{Node: n.id, Kind: kind, Step: step})
		}
	}
	if c.onStep != nil {
		c.onStep(n.id, n.state)
	}
	for _, o := range out.Outputs() {
		c.obs.record(Record{Node: n.id, Kind: RecOutput, Text: o, Step: step})
	}
	out.Sends(func(to model.NodeID, msg M) {
		// Counted while the record runs, as the entries are: the nodes
		// step on until Stop has them all, and their sends then, uncounted
		// entries beside them, made a run's messages an entry read high.
		if !c.obs.ended.Load() {
			c.sent.Add(1)
		}
		c.send(n.id, to, msg)
	})
	epoch := n.epoch
	out.TimerOps(func(id model.TimerID, set bool) {
		if old, ok := n.timers[id]; ok {
			old.Stop()
			delete(n.timers, id)
		}
		if n.due&(1<<id) != 0 {
			n.due &^= 1 << id
			c.due.Add(-1)
		}
		if !set {
			return
		}
		var t *time.Timer
		t = time.AfterFunc(c.opts.TimerDelay, func() {
			// Under n.mu, so that the timeout is always either armed
			// or queued (Quiescent).
			n.mu.Lock()
			defer n.mu.Unlock()
			if n.timers[id] != t || n.epoch != epoch {
				return
			}
			if c.guard != nil {
				// Armed still, for the model; it fires when its guard
				// holds (guardLoop).
				n.due |= 1 << id
				c.due.Add(1)
				return
			}
			delete(n.timers, id)
			c.enqueue(n, model.Event[M]{Kind: model.Timeout, Timer: id})
		})
		n.timers[id] = t
	})
}

// send puts msg on the link from -> to, as the model's network would: lost
// at once when the receiver is down or a partition separates the two;
// else struck by the injector (dropped, duplicated, delayed), and what
// leaves is in flight until its receiver takes it.
func (c *Cluster[S, M]) send(from, to model.NodeID, msg M) {
	c.fmu.Lock()
	if c.nodes[to].isDown.Load() || separated(c.cut, from, to) {
		c.fmu.Unlock()
		if !c.nodes[to].isDown.Load() {
			c.inj.count(&c.inj.counts.Cut)
		}
		return
	}
	copies, delay := c.inj.strike(to)
	for range copies {
		c.flight[from][to] = append(c.flight[from][to], inflight[M]{msg: msg})
	}
	c.fmu.Unlock()
	switch copies {
	case 0:
		c.log(func() string { return fmt.Sprintf("drop %s->%s %s", from, to, c.sys.FormatMsg(msg)) })
	case 2:
		c.log(func() string { return fmt.Sprintf("dup %s->%s %s", from, to, c.sys.FormatMsg(msg)) })
	}
	if copies > 0 {
		c.links[from][to].push(c.codec.AppendMsg(nil, msg), copies, delay)
	}
}

func separated(cut uint64, a, b model.NodeID) bool {
	return cut != 0 && (cut>>a)&1 != (cut>>b)&1
}

// receive decodes a frame that arrived on the link from -> to and queues
// it at to, unless the model lost it on the way (its receiver crashed, or
// a partition cut the link, since it left).
func (c *Cluster[S, M]) receive(from, to model.NodeID, frame []byte) {
	msg, rest := c.codec.ReadMsg(frame)
	if len(rest) != 0 {
		panic(fmt.Sprintf("live: %d bytes left after a message from %s to %s", len(rest), from, to))
	}
	n := c.nodes[to]
	n.mu.Lock()
	defer n.mu.Unlock()
	c.fmu.Lock()
	q := c.flight[from][to]
	if len(q) == 0 {
		c.fmu.Unlock()
		panic(fmt.Sprintf("live: a frame from %s to %s that was never sent", from, to))
	}
	lost := q[0].lost
	c.flight[from][to] = q[1:]
	c.fmu.Unlock()
	if lost {
		c.inj.count(&c.inj.counts.Lost)
		return
	}
	c.enqueue(n, model.Event[M]{Kind: model.Receive, From: from, Msg: msg})
}

func (c *Cluster[S, M]) enqueue(n *node[S, M], ev model.Event[M]) {
	n.qmu.Lock()
	n.inbox = append(n.inbox, ev)
	n.qmu.Unlock()
	select {
	case n.wake <- struct{}{}:
	default:
	}
}

// State returns a copy of node id's current state.
func (c *Cluster[S, M]) State(id model.NodeID) S {
	n := c.nodes[id]
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.state
}

// Enabled returns the inputs enabled at node id now (none while it is
// down).
func (c *Cluster[S, M]) Enabled(id model.NodeID) []model.Input {
	n := c.nodes[id]
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.down {
		return nil
	}
	return c.p.Inputs(id, n.state, nil)
}

// Input waits until input in is enabled at node id (model.Protocol.Inputs),
// then applies it, as the environment would. It gives up after timeout.
func (c *Cluster[S, M]) Input(id model.NodeID, in model.Input, timeout time.Duration) error {
	n := c.nodes[id]
	return c.await(n, time.Now().Add(timeout), func() bool {
		if n.down || !slices.Contains(c.p.Inputs(id, n.state, nil), in) {
			return false
		}
		c.step(n, model.Event[M]{Kind: model.Environment, Input: in})
		return true
	})
}

// WaitChange waits until node id takes a step, crashes or restarts, or
// until deadline; it returns ErrTimeout at the deadline.
func (c *Cluster[S, M]) WaitChange(id model.NodeID, deadline time.Time) error {
	n := c.nodes[id]
	first := true
	return c.await(n, deadline, func() bool {
		done := !first
		first = false
		return done
	})
}

// await calls try with n.mu held until it returns true, after every change
// of n, until deadline.
func (c *Cluster[S, M]) await(n *node[S, M], deadline time.Time, try func() bool) error {
	timer := time.AfterFunc(time.Until(deadline), func() {
		n.mu.Lock()
		n.changed.Broadcast()
		n.mu.Unlock()
	})
	defer timer.Stop()
	n.mu.Lock()
	defer n.mu.Unlock()
	for {
		select {
		case <-c.stop:
			return ErrStopped
		default:
		}
		if try() {
			return nil
		}
		if !time.Now().Before(deadline) {
			return ErrTimeout
		}
		n.changed.Wait()
	}
}

// Crash stops node id as model.Crash says: it takes no step until it
// restarts, its timers are cancelled, and what it was sent (its inbox and
// every message in flight to it) is lost. A node in its critical section
// leaves it by crashing. With Transport Proc its process is killed.
func (c *Cluster[S, M]) Crash(id model.NodeID) {
	n := c.nodes[id]
	n.mu.Lock()
	defer n.mu.Unlock()
	c.crashLocked(n, "")
}

// crashLocked is Crash with n.mu held; why, when set, is a crash the
// run did not inject (a node process that died).
func (c *Cluster[S, M]) crashLocked(n *node[S, M], why string) {
	if n.down {
		return
	}
	c.log(func() string { return "crash " + n.id.String() })
	n.down = true
	n.epoch++
	for tid, t := range n.timers {
		t.Stop()
		delete(n.timers, tid)
	}
	if n.due != 0 {
		c.due.Add(-int64(popcount(n.due)))
		n.due = 0
	}
	n.qmu.Lock()
	n.inbox = nil
	n.qmu.Unlock()
	c.fmu.Lock()
	n.isDown.Store(true)
	for from := range c.flight {
		for k := range c.flight[from][n.id] {
			c.flight[from][n.id][k].lost = true
		}
	}
	c.fmu.Unlock()
	if c.procs != nil {
		c.procs.crash(n.id)
	}
	c.inj.count(&c.inj.counts.Crashes)
	c.obs.record(Record{Node: n.id, Kind: RecCrash, Text: why, Step: c.Steps()})
	if n.inCS {
		n.inCS = false
		c.obs.record(Record{Node: n.id, Kind: RecExit, Text: "crash", Step: c.Steps()})
	}
	n.changed.Broadcast()
}

func popcount(x uint64) int {
	k := 0
	for ; x != 0; x &= x - 1 {
		k++
	}
	return k
}

// Restart brings node id back as model.Restart says: in the state
// model.Restarter.Recover gives from the state it crashed in, or else in
// its initial state, with the effects of either. With Transport Proc a
// new process is started, and given the state its predecessor last
// reported, as stable storage.
func (c *Cluster[S, M]) Restart(id model.NodeID) error {
	n := c.nodes[id]
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.down {
		return nil
	}
	if c.procs != nil {
		if err := c.procs.start(id); err != nil {
			return err
		}
	}
	c.log(func() string { return "restart " + id.String() })
	n.down = false
	c.fmu.Lock()
	n.isDown.Store(false)
	c.fmu.Unlock()
	op := execInit
	if _, ok := c.p.(model.Restarter[S, M]); ok {
		op = execRecover
	}
	out, err := c.exec(n, op, model.Event[M]{})
	if err != nil {
		c.crashLocked(n, "process: "+err.Error())
		return err
	}
	c.inj.count(&c.inj.counts.Restarts)
	c.obs.record(Record{Node: id, Kind: RecRestart, Step: c.Steps()})
	c.effects(n, out)
	n.changed.Broadcast()
	return nil
}

// execOp is what exec runs at a node.
type execOp uint8

const (
	execInit    execOp = iota // Init
	execStep                  // Step of an event
	execRecover               // model.Restarter.Recover of the crashed state
)

// exec runs op at n (n.mu held), in this process or in n's own, and
// leaves n's new state in n.state; it returns the effects.
func (c *Cluster[S, M]) exec(n *node[S, M], op execOp, ev model.Event[M]) (*model.Out[M], error) {
	if c.procs != nil {
		s, out, err := c.procs.exec(n.id, op, n.state, ev)
		if err == nil {
			n.state = s
		}
		return out, err
	}
	var out model.Out[M]
	switch op {
	case execInit:
		n.state = c.p.Init(n.id, &out)
	case execStep:
		n.state = c.p.Step(n.id, n.state, ev, &out)
	case execRecover:
		n.state = c.p.(model.Restarter[S, M]).Recover(n.id, n.state, &out)
	}
	return &out, nil
}
