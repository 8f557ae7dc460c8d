package live

import (
	"slices"
	"time"

	"github.com/coordcheck/coordcheck/model"
)

// withAll calls f with every node locked, in id order, and the network
// still: a moment at which the cluster is a world of the model.
func (c *Cluster[S, M]) withAll(f func()) {
	defer c.lockNodes()()
	c.fmu.Lock()
	defer c.fmu.Unlock()
	f()
}

// lockNodes locks every node, in id order, and returns what unlocks them.
func (c *Cluster[S, M]) lockNodes() (unlock func()) {
	for _, n := range c.nodes {
		n.mu.Lock()
	}
	return func() {
		for _, n := range c.nodes {
			n.mu.Unlock()
		}
	}
}

// world builds the model's world of the cluster now (c.withAll held): the
// node states, the down set, the armed timers, the partition, every
// message in flight (those in an inbox first on their link, then those on
// the way, each link in sending order, sorted by receiver and sender as
// model.World keeps Net) and the observed outputs as the history
// (grouped by node when byNode).
func (c *Cluster[S, M]) world(byNode bool) *model.World[S, M] {
	w := &model.World[S, M]{Timers: make([]uint64, len(c.nodes)), Cut: c.cut}
	for _, n := range c.nodes {
		w.Nodes = append(w.Nodes, n.state)
		if n.down {
			w.Down |= 1 << n.id
		}
		for t := range n.timers {
			w.Timers[n.id] |= 1 << t
		}
	}
	for _, n := range c.nodes {
		to := n.id
		n.qmu.Lock()
		inbox := slices.Clone(n.inbox)
		n.qmu.Unlock()
		for from := range c.nodes {
			for _, ev := range inbox {
				if ev.Kind == model.Receive && int(ev.From) == from {
					w.Net = append(w.Net, model.Envelope[M]{From: ev.From, To: to, Msg: ev.Msg})
				}
			}
			for _, f := range c.flight[from][to] {
				if !f.lost {
					w.Net = append(w.Net, model.Envelope[M]{From: model.NodeID(from), To: to, Msg: f.msg})
				}
			}
		}
	}
	for _, r := range c.obs.Records() {
		if r.Kind == RecOutput {
			w.History = append(w.History, model.Record{Node: r.Node, Text: r.Text})
		}
	}
	if byNode {
		slices.SortStableFunc(w.History, func(a, b model.Record) int { return int(a.Node) - int(b.Node) })
	}
	return w
}

// Snapshot returns the world of the cluster now (see world), and the
// number of steps taken to reach it.
func (c *Cluster[S, M]) Snapshot(byNode bool) (w *model.World[S, M], steps int) {
	c.withAll(func() { w, steps = c.world(byNode), c.Steps() })
	return w, steps
}

// quiet reports (c.withAll held) whether nothing can happen any more: no
// message in flight or queued, no timer that can fire (a timer waiting for
// its guard can, once the guard holds: it does not while the world stays
// as it is), and no input enabled at a live node.
func (c *Cluster[S, M]) quiet(w *model.World[S, M]) bool {
	if len(w.Net) > 0 {
		return false
	}
	for _, n := range c.nodes {
		n.qmu.Lock()
		queued := len(n.inbox)
		n.qmu.Unlock()
		if queued > 0 || len(n.timers) > popcount(n.due) {
			return false
		}
		if n.down {
			continue
		}
		for t := n.due; t != 0; t &= t - 1 {
			if c.guard.TimerReady(w, n.id, model.TimerID(trailing(t))) {
				return false
			}
		}
		if len(c.p.Inputs(n.id, n.state, nil)) > 0 {
			return false
		}
	}
	return true
}

func trailing(x uint64) int {
	k := 0
	for x&1 == 0 {
		x >>= 1
		k++
	}
	return k
}

// Quiescent reports whether nothing can happen any more (see quiet).
// Then, if some live node waits (model.Waiter), the cluster is in the
// checker's deadlock, and it returns the world for the protocol to
// explain it, and true.
func (c *Cluster[S, M]) Quiescent() (*model.World[S, M], bool) {
	w, quiet := c.Settled(false)
	if !quiet {
		return nil, false
	}
	waiter, ok := c.p.(model.Waiter[S])
	if !ok {
		return nil, false
	}
	for i := range w.Nodes {
		if !w.IsDown(model.NodeID(i)) && waiter.Waiting(model.NodeID(i), w.Nodes[i]) {
			return w, true
		}
	}
	return nil, false
}

// Settled returns the world now and whether it is quiet (nothing can
// happen any more: the checker's end of a run).
func (c *Cluster[S, M]) Settled(byNode bool) (w *model.World[S, M], quiet bool) {
	c.withAll(func() {
		w = c.world(byNode)
		quiet = c.quiet(w)
	})
	return w, quiet
}

// GuardEvery is how often expired timers are judged by their guards.
const GuardEvery = 2 * time.Millisecond

// guardLoop fires the expired timers whose guard holds on the world, one
// at a time, each on the world the previous one left, until the cluster
// stops.
func (c *Cluster[S, M]) guardLoop() {
	defer c.wg.Done()
	tick := time.NewTicker(GuardEvery)
	defer tick.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-tick.C:
		}
		for c.due.Load() > 0 && c.fireReady() {
		}
	}
}

// fireReady fires one expired timer whose guard holds, and reports
// whether there was one. The timeout is stepped with every node locked,
// so that the guard still holds when it fires.
func (c *Cluster[S, M]) fireReady() (fired bool) {
	defer c.lockNodes()()
	c.fmu.Lock()
	w := c.world(false)
	c.fmu.Unlock()
	for _, n := range c.nodes {
		for t := n.due; t != 0; t &= t - 1 {
			id := model.TimerID(trailing(t))
			if n.down || !c.guard.TimerReady(w, n.id, id) {
				continue
			}
			n.due &^= 1 << id
			c.due.Add(-1)
			delete(n.timers, id)
			c.step(n, model.Event[M]{Kind: model.Timeout, Timer: id})
			return true
		}
	}
	return false
}

// Partition splits the network into group (bit i for node i; it must
// hold p0, as the model names a split) and the others: messages in flight
// between the two are lost, and those sent across until Heal are lost at
// once. Each link is cut both ways.
func (c *Cluster[S, M]) Partition(group uint64) {
	for _, n := range c.nodes {
		n.mu.Lock()
	}
	defer func() {
		for _, n := range c.nodes {
			n.mu.Unlock()
		}
	}()
	all := uint64(1)<<len(c.nodes) - 1
	c.log(func() string { return "partition " + formatGroup(group) + "|" + formatGroup(all&^group) })
	c.fmu.Lock()
	c.cut = group
	for from := range c.flight {
		for to := range c.flight[from] {
			if separated(group, model.NodeID(from), model.NodeID(to)) {
				for k := range c.flight[from][to] {
					c.flight[from][to][k].lost = true
				}
			}
		}
	}
	c.fmu.Unlock()
	for _, n := range c.nodes {
		n.qmu.Lock()
		n.inbox = slices.DeleteFunc(n.inbox, func(ev model.Event[M]) bool {
			return ev.Kind == model.Receive && separated(group, ev.From, n.id)
		})
		n.qmu.Unlock()
	}
	c.inj.count(&c.inj.counts.Partitions)
}

// Heal ends the partition.
func (c *Cluster[S, M]) Heal() {
	c.withAll(func() {
		if c.cut == 0 {
			return
		}
		c.log(func() string { return "heal" })
		c.cut = 0
	})
}

func formatGroup(set uint64) string {
	s := "{"
	for i := range model.MaxNodes {
		if set&(1<<i) != 0 {
			if len(s) > 1 {
				s += ","
			}
			s += model.NodeID(i).String()
		}
	}
	return s + "}"
}
