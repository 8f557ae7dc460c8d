// Package live runs a protocol for real: one goroutine per node, messages
// over links (in memory, or TCP connections on 127.0.0.1), timers on the
// wall clock, inputs from the caller. It runs the very Init and Step
// functions the checker explored, so that the code that was checked is the
// code that runs.
//
// There is one runtime and two link layers. Every message is encoded with
// the protocol's canonical codec (model.CodecOf) and travels as a frame on the
// link from its sender to its receiver, where ReadMsg decodes it; a link
// is FIFO, and reliable unless faults are injected on it (Faults). Each
// node has one unbounded inbox and handles one event at a time. An
// Observer records what the nodes did, on its own monotonic clock.
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
	// Transport carries the frames between nodes: Mem (the default) or
	// TCP.
	Transport Transport
	// Faults are injected on the links (drop, dup, delay); crashes and
	// restarts are the caller's (Cluster.Crash, Cluster.Restart).
	Faults Faults
	// Seed seeds the fault injector's one random stream.
	Seed uint64
}

// Cluster is a running protocol.
type Cluster[S, M any] struct {
	p     model.Protocol[S, M]
	codec model.Codec[S, M] // frames the messages
	opts  Options
	nodes []*node[S, M]
	links [][]*link // links[from][to]
	net   transport
	inj   *injector
	obs   *Observer
	inCS  func(model.NodeID, S) bool // nil unless p has critical sections
	sent  atomic.Int64               // protocol messages sent
	// inflight counts frames pushed on a link (each copy a duplicate
	// makes) and not yet in their receiver's inbox or lost there.
	inflight atomic.Int64
	wg       sync.WaitGroup
	once     sync.Once
	stop     chan struct{}
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
	epoch   uint64 // bumped by every crash: timers of an older life do not fire
	inCS    bool
	timers  map[model.TimerID]*time.Timer

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
// goroutine. It fails only when the transport cannot be set up, or when
// p's messages cannot be encoded (model.CodecOf).
func Start[S, M any](p model.Protocol[S, M], opts Options) (*Cluster[S, M], error) {
	if opts.TimerDelay == 0 {
		opts.TimerDelay = 10 * time.Millisecond
	}
	codec, err := model.CodecOf(p)
	if err != nil {
		return nil, err
	}
	c := &Cluster[S, M]{p: p, codec: codec, opts: opts, stop: make(chan struct{}), obs: newObserver(p.Nodes())}
	if cs, ok := p.(interface{ InCS(model.NodeID, S) bool }); ok {
		c.inCS = cs.InCS
	}
	n := p.Nodes()
	for i := range n {
		nd := &node[S, M]{id: model.NodeID(i), wake: make(chan struct{}, 1), timers: map[model.TimerID]*time.Timer{}}
		nd.changed = sync.NewCond(&nd.mu)
		c.nodes = append(c.nodes, nd)
	}
	switch opts.Transport {
	case Mem:
		c.net = memTransport{c.receive}
	case TCP:
		c.net, err = openTCP(n, c.receive)
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
		var out model.Out[M]
		nd.mu.Lock()
		nd.state = p.Init(nd.id, &out)
		c.effects(nd, &out)
		nd.mu.Unlock()
	}
	for _, nd := range c.nodes {
		c.wg.Add(1)
		go c.run(nd)
	}
	return c, nil
}

// MustStart is Start for the in-memory transport, which cannot fail for
// a protocol whose messages can be encoded.
func MustStart[S, M any](p model.Protocol[S, M], opts Options) *Cluster[S, M] {
	c, err := Start(p, opts)
	if err != nil {
		panic("live: " + err.Error())
	}
	return c
}

// Stop ends every node's goroutine, link and timer and waits for them.
// The observer's record ends at the moment Stop is called.
func (c *Cluster[S, M]) Stop() {
	c.once.Do(func() {
		c.obs.end()
		close(c.stop)
		c.net.close()
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

// Sent is the number of protocol messages the nodes have sent (a
// duplicate made by a fault is not one of them).
func (c *Cluster[S, M]) Sent() int64 { return c.sent.Load() }

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
	var out model.Out[M]
	n.state = c.p.Step(n.id, n.state, ev, &out)
	if ev.Kind == model.Environment {
		c.obs.record(Record{Node: n.id, Kind: RecInput, Text: string(ev.Input)})
	}
	c.effects(n, &out)
	n.changed.Broadcast()
}

// effects observes n's new state and outputs, then performs the sends and
// timer operations of one step (n.mu held). The observer sees a change of
// the critical section before any message the step sends leaves, so an
// exit is always recorded before the entry it enables. The sends are
// queued in order on their links, so each link stays FIFO.
func (c *Cluster[S, M]) effects(n *node[S, M], out *model.Out[M]) {
	if c.inCS != nil {
		if in := c.inCS(n.id, n.state); in != n.inCS {
			n.inCS = in
			kind := RecExit
			if in {
				kind = RecEnter
			}
			c.obs.record(Record{Node: n.id, Kind: kind})
		}
	}
	for _, o := range out.Outputs() {
		c.obs.record(Record{Node: n.id, Kind: RecOutput, Text: o})
	}
	out.Sends(func(to model.NodeID, msg M) {
		c.sent.Add(1)
		c.links[n.id][to].push(c.codec.AppendMsg(nil, msg), c.inj, &c.inflight)
	})
	epoch := n.epoch
	out.TimerOps(func(id model.TimerID, set bool) {
		if old, ok := n.timers[id]; ok {
			old.Stop()
			delete(n.timers, id)
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
			if n.timers[id] == t && n.epoch == epoch {
				delete(n.timers, id)
				c.enqueue(n, model.Event[M]{Kind: model.Timeout, Timer: id})
			}
		})
		n.timers[id] = t
	})
}

// receive decodes a frame that arrived on the link from -> to and queues
// it at to; a frame for a node that is down is lost (model.Crash).
func (c *Cluster[S, M]) receive(from, to model.NodeID, frame []byte) {
	msg, rest := c.codec.ReadMsg(frame)
	if len(rest) != 0 {
		panic(fmt.Sprintf("live: %d bytes left after a message from %s to %s", len(rest), from, to))
	}
	n := c.nodes[to]
	n.mu.Lock()
	down := n.down
	n.mu.Unlock()
	if down {
		c.inj.count(&c.inj.counts.Lost)
	} else {
		c.enqueue(n, model.Event[M]{Kind: model.Receive, From: from, Msg: msg})
	}
	c.inflight.Add(-1)
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
// every frame that arrives while it is down) is lost. A node in its
// critical section leaves it by crashing.
func (c *Cluster[S, M]) Crash(id model.NodeID) {
	n := c.nodes[id]
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.down {
		return
	}
	n.down = true
	n.epoch++
	for tid, t := range n.timers {
		t.Stop()
		delete(n.timers, tid)
	}
	n.qmu.Lock()
	n.inbox = nil
	n.qmu.Unlock()
	c.inj.count(&c.inj.counts.Crashes)
	c.obs.record(Record{Node: id, Kind: RecCrash})
	if n.inCS {
		n.inCS = false
		c.obs.record(Record{Node: id, Kind: RecExit, Text: "crash"})
	}
	n.changed.Broadcast()
}

// Restart brings node id back as model.Restart says: in the state
// model.Restarter.Recover gives from the state it crashed in, or else in
// its initial state, with the effects of either.
func (c *Cluster[S, M]) Restart(id model.NodeID) {
	n := c.nodes[id]
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.down {
		return
	}
	n.down = false
	var out model.Out[M]
	if r, ok := c.p.(model.Restarter[S, M]); ok {
		n.state = r.Recover(id, n.state, &out)
	} else {
		n.state = c.p.Init(id, &out)
	}
	c.inj.count(&c.inj.counts.Restarts)
	c.obs.record(Record{Node: id, Kind: RecRestart})
	c.effects(n, &out)
	n.changed.Broadcast()
}

// Quiescent reports whether nothing can happen any more: no frame on any
// link, no event queued, no timer armed and no input enabled at a live
// node. Then, if some live node waits (model.Waiter), the cluster is in
// the checker's deadlock, and it returns the world (node states and the
// down set; nothing in flight) for the protocol to explain it, and true.
// It locks every node, in id order.
func (c *Cluster[S, M]) Quiescent() (*model.World[S, M], bool) {
	w, ok := c.p.(model.Waiter[S])
	if !ok {
		return nil, false
	}
	for _, n := range c.nodes {
		n.mu.Lock()
		defer n.mu.Unlock()
	}
	// With every node locked nothing is pushed; a frame counted in flight
	// is in an inbox before it is uncounted, so reading the count first
	// and the inboxes after misses none.
	if c.inflight.Load() != 0 {
		return nil, false
	}
	world := &model.World[S, M]{Timers: make([]uint64, len(c.nodes))}
	waits := false
	for _, n := range c.nodes {
		n.qmu.Lock()
		queued := len(n.inbox)
		n.qmu.Unlock()
		if queued > 0 || len(n.timers) > 0 {
			return nil, false
		}
		world.Nodes = append(world.Nodes, n.state)
		if n.down {
			world.Down |= 1 << n.id
			continue
		}
		if len(c.p.Inputs(n.id, n.state, nil)) > 0 {
			return nil, false
		}
		waits = waits || w.Waiting(n.id, n.state)
	}
	return world, waits
}
