// Package live runs a protocol for real: one goroutine per node, messages
// over in-memory links, timers on the wall clock, inputs from the caller.
// It runs the very Init and Step functions the checker explored, so that
// the code that was checked is the code that runs.
//
// Links are FIFO and reliable (the notes' system model): each node has one
// unbounded inbox, and a node handles one event at a time.
package live

import (
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/coordcheck/coordcheck/model"
)

// Options tune a Cluster.
type Options struct {
	// TimerDelay is how long an armed timer waits before it fires
	// (default 10ms).
	TimerDelay time.Duration
}

// Cluster is a running protocol.
type Cluster[S, M any] struct {
	p     model.Protocol[S, M]
	opts  Options
	nodes []*node[S, M]
	wg    sync.WaitGroup
	once  sync.Once
	stop  chan struct{}
}

// node is one process. mu guards its state (and its timers); qmu guards
// its inbox, so that a node holding its own lock can still send to itself
// and to others.
type node[S, M any] struct {
	id      model.NodeID
	mu      sync.Mutex
	changed *sync.Cond // broadcast after every step
	state   S
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

// Start runs p: it initialises every node and starts its goroutine.
func Start[S, M any](p model.Protocol[S, M], opts Options) *Cluster[S, M] {
	if opts.TimerDelay == 0 {
		opts.TimerDelay = 10 * time.Millisecond
	}
	c := &Cluster[S, M]{p: p, opts: opts, stop: make(chan struct{})}
	for i := range p.Nodes() {
		n := &node[S, M]{id: model.NodeID(i), wake: make(chan struct{}, 1), timers: map[model.TimerID]*time.Timer{}}
		n.changed = sync.NewCond(&n.mu)
		c.nodes = append(c.nodes, n)
	}
	for _, n := range c.nodes {
		var out model.Out[M]
		n.mu.Lock()
		n.state = p.Init(n.id, &out)
		c.perform(n, &out)
		n.mu.Unlock()
	}
	for _, n := range c.nodes {
		c.wg.Add(1)
		go c.run(n)
	}
	return c
}

// Stop ends every node's goroutine and timer and waits for them.
func (c *Cluster[S, M]) Stop() {
	c.once.Do(func() {
		close(c.stop)
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

// run is a node's event loop.
func (c *Cluster[S, M]) run(n *node[S, M]) {
	defer c.wg.Done()
	for {
		select {
		case <-c.stop:
			return
		case <-n.wake:
		}
		for {
			n.qmu.Lock()
			if len(n.inbox) == 0 {
				n.qmu.Unlock()
				break
			}
			ev := n.inbox[0]
			n.inbox = n.inbox[1:]
			n.qmu.Unlock()
			c.step(n, ev)
		}
	}
}

// step applies one event to n and carries out its effects.
func (c *Cluster[S, M]) step(n *node[S, M], ev model.Event[M]) {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out model.Out[M]
	n.state = c.p.Step(n.id, n.state, ev, &out)
	c.perform(n, &out)
	n.changed.Broadcast()
}

// perform carries out the effects of one step of n (n.mu held). The sends
// are queued in order, so each link stays FIFO.
func (c *Cluster[S, M]) perform(n *node[S, M], out *model.Out[M]) {
	out.Sends(func(to model.NodeID, msg M) {
		c.enqueue(c.nodes[to], model.Event[M]{Kind: model.Receive, From: n.id, Msg: msg})
	})
	out.TimerOps(func(id model.TimerID, set bool) {
		if old, ok := n.timers[id]; ok {
			old.Stop()
			delete(n.timers, id)
		}
		if set {
			n.timers[id] = time.AfterFunc(c.opts.TimerDelay, func() {
				n.mu.Lock()
				_, armed := n.timers[id]
				delete(n.timers, id)
				n.mu.Unlock()
				if armed {
					c.enqueue(n, model.Event[M]{Kind: model.Timeout, Timer: id})
				}
			})
		}
	})
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

// Input waits until input in is enabled at node id (model.Protocol.Inputs),
// then applies it, as the environment would. It gives up after timeout.
func (c *Cluster[S, M]) Input(id model.NodeID, in model.Input, timeout time.Duration) error {
	n := c.nodes[id]
	deadline := time.Now().Add(timeout)
	timer := time.AfterFunc(timeout, func() {
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
		if slices.Contains(c.p.Inputs(id, n.state, nil), in) {
			var out model.Out[M]
			n.state = c.p.Step(id, n.state, model.Event[M]{Kind: model.Environment, Input: in}, &out)
			c.perform(n, &out)
			n.changed.Broadcast()
			return nil
		}
		if !time.Now().Before(deadline) {
			return ErrTimeout
		}
		n.changed.Wait()
	}
}
