package live

import (
	"sync"
	"time"

	"github.com/coordcheck/coordcheck/model"
)

// link is the one-way channel from one node to another (or to itself): a
// FIFO queue of encoded messages and the goroutine that pumps them onto
// the transport. It is the proxy where faults strike: a frame may be lost,
// sent twice, or held back (holding one back holds back those behind it,
// so the link stays FIFO, as the model's links are).
type link struct {
	from, to model.NodeID
	mu       sync.Mutex
	queue    []frame
	lastDue  time.Time
	wake     chan struct{}
}

// frame is one encoded message, how many copies of it leave (0 when it is
// lost) and the earliest time they may leave.
type frame struct {
	b      []byte
	copies int
	due    time.Time
}

// push queues b to leave copies times (the injector's decision), after
// delay, but never before the frame ahead of it.
func (l *link) push(b []byte, copies int, delay time.Duration) {
	l.mu.Lock()
	f := frame{b: b, copies: copies}
	if delay > 0 {
		f.due = time.Now().Add(delay)
		if f.due.Before(l.lastDue) {
			f.due = l.lastDue
		}
		l.lastDue = f.due
	}
	l.queue = append(l.queue, f)
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

func (l *link) pop() (frame, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.queue) == 0 {
		return frame{}, false
	}
	f := l.queue[0]
	l.queue = l.queue[1:]
	return f, true
}

// pump moves l's frames onto the transport, through the fault injector,
// until the cluster stops.
func (c *Cluster[S, M]) pump(l *link) {
	defer c.wg.Done()
	for {
		select {
		case <-c.stop:
			return
		case <-l.wake:
		}
		for {
			f, ok := l.pop()
			if !ok {
				break
			}
			if wait := time.Until(f.due); wait > 0 {
				t := time.NewTimer(wait)
				select {
				case <-c.stop:
					t.Stop()
					return
				case <-t.C:
				}
			}
			for range f.copies {
				if err := c.net.send(l.from, l.to, f.b); err != nil {
					return // the transport is closing
				}
			}
		}
	}
}

// transport carries frames between nodes. send must keep each link
// (ordered pair of nodes) FIFO; only the link's pump calls it.
type transport interface {
	send(from, to model.NodeID, b []byte) error
	close()
}

// Transport names a link layer.
type Transport uint8

// The link layers.
const (
	// Mem hands a frame to its receiver in memory.
	Mem Transport = iota
	// TCP sends it on a TCP connection from sender to receiver, both on
	// 127.0.0.1, framed by its length.
	TCP
	// Proc runs every node in its own OS process (NodeProcess), each
	// connected to this one by TCP on 127.0.0.1: the links and their
	// faults stay here, as a proxy between the processes.
	Proc
)

// ParseTransport reads a transport's name.
func ParseTransport(s string) (Transport, bool) {
	for t := Mem; t <= Proc; t++ {
		if t.String() == s {
			return t, true
		}
	}
	return 0, false
}

// String is the transport's name on the command line.
func (t Transport) String() string {
	switch t {
	case Mem:
		return "mem"
	case TCP:
		return "tcp"
	case Proc:
		return "proc"
	}
	return "transport?"
}

// memTransport delivers in memory.
type memTransport struct {
	deliver func(from, to model.NodeID, b []byte)
}

func (m memTransport) send(from, to model.NodeID, b []byte) error {
	m.deliver(from, to, b)
	return nil
}

func (memTransport) close() {}
