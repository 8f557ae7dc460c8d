// Package centralized is the centralized mutual exclusion algorithm (seed
// 000, "Centralized algorithm"; seed 001): one process, the coordinator,
// holds the token. A client that wants the critical section sends it a
// REQUEST; the coordinator sends the token (GRANT) at once if it has it, and
// otherwise queues the request in FIFO order. A client that leaves the
// critical section sends the token back (RELEASE), and the coordinator
// passes it to the head of its queue, or keeps it.
//
// Nodes: the N clients are p0..p(N-1) and the coordinator is pN, the last
// node, as in the SPIN anchor model (bench/spin/models/central.pml, where
// the coordinator is process N). The parameter N counts clients.
//
// Receiving the GRANT is entering the critical section: there is no
// separate "enter" input, as in the SPIN model, where one atomic step takes
// the GRANT and enters. A client requests and exits through the inputs of
// package mutex, Rounds times at most.
package centralized

import (
	"strings"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

// Protocol is the centralized algorithm with N clients, each entering the
// critical section at most Rounds times, and one coordinator.
type Protocol struct {
	N      int
	Rounds int
}

// New returns the centralized algorithm for n clients and the given rounds.
func New(n, rounds int) *Protocol { return &Protocol{N: n, Rounds: rounds} }

// Coordinator is the id of the coordinator: the node after the clients.
func (p *Protocol) Coordinator() model.NodeID { return model.NodeID(p.N) }

// Nobody is the coordinator's Holder while it keeps the token itself.
const Nobody model.NodeID = model.MaxNodes

// State is one node's state. Clients use Phase and Rounds, the coordinator
// Holder and Queue; the other fields keep their initial values.
type State struct {
	Phase  mutex.Phase  // client: RELEASED, WANTED or HELD
	Rounds uint8        // client: critical sections completed
	Holder model.NodeID // coordinator: the client granted the token, or Nobody
	Queue  Queue        // coordinator: the waiting clients, FIFO
}

// Kind is a message type.
type Kind uint8

// The messages.
const (
	Request Kind = iota // REQ: client to coordinator, asks for the token
	Grant               // GRANT: coordinator to client, the token
	Release             // REL: client to coordinator, gives the token back
)

// Msg is a message; it carries nothing but its kind.
type Msg struct {
	Kind Kind
}

// Nodes is N+1: the clients and the coordinator.
func (p *Protocol) Nodes() int { return p.N + 1 }

// Init: clients are RELEASED; the coordinator holds the token, with an
// empty queue.
func (p *Protocol) Init(self model.NodeID, _ *model.Out[Msg]) State {
	if self == p.Coordinator() {
		return State{Holder: Nobody}
	}
	return State{}
}

// Inputs offers a client request when released with rounds left, and exit
// when in the critical section. The coordinator has no inputs.
func (p *Protocol) Inputs(self model.NodeID, s State, dst []model.Input) []model.Input {
	if self == p.Coordinator() {
		return dst
	}
	switch {
	case s.Phase == mutex.Released && int(s.Rounds) < p.Rounds:
		dst = append(dst, mutex.Request)
	case s.Phase == mutex.Held:
		dst = append(dst, mutex.Exit)
	}
	return dst
}

// Step is the pseudocode of seed 000: the client's three steps, then the
// coordinator's actions.
func (p *Protocol) Step(self model.NodeID, s State, ev model.Event[Msg], out *model.Out[Msg]) State {
	if self == p.Coordinator() {
		return p.coordinator(s, ev, out)
	}
	switch ev.Kind {
	case model.Environment:
		switch ev.Input {
		case mutex.Request:
			// Request resource; wait for response.
			s.Phase = mutex.Wanted
			out.Send(p.Coordinator(), Msg{Request})
		case mutex.Exit:
			// Release resource: the token goes back to the coordinator.
			s.Phase = mutex.Released
			s.Rounds++
			out.Send(p.Coordinator(), Msg{Release})
		}
	case model.Receive:
		if ev.Msg.Kind == Grant {
			// Receive grant; access resource.
			s.Phase = mutex.Held
		}
	}
	return s
}

// coordinator is the coordinator's step.
func (p *Protocol) coordinator(s State, ev model.Event[Msg], out *model.Out[Msg]) State {
	if ev.Kind != model.Receive {
		return s
	}
	switch ev.Msg.Kind {
	case Request:
		// On receiving a request from P_i: if the master has the token,
		// send the token to P_i; else add P_i to the queue.
		if s.Holder == Nobody {
			s.Holder = ev.From
			out.Send(ev.From, Msg{Grant})
		} else {
			s.Queue = s.Queue.Push(ev.From)
		}
	case Release:
		// On receiving the token from P_i: if the queue is not empty,
		// dequeue its head P_j and send P_j the token; else retain it.
		// (ReleaseFromHolder checks that P_i is the holder.)
		if s.Queue.Len() > 0 {
			s.Holder, s.Queue = s.Queue.Pop()
			out.Send(s.Holder, Msg{Grant})
		} else {
			s.Holder = Nobody
		}
	}
	return s
}

// Protocol implements model.FairInputs (checked by the compiler).
var _ model.FairInputs = (*Protocol)(nil)

// FairInput: a client in the critical section eventually leaves it;
// requesting is up to the environment.
func (p *Protocol) FairInput(_ model.NodeID, in model.Input) bool { return in == mutex.Exit }

// InCS: the client holds the critical section.
func (p *Protocol) InCS(self model.NodeID, s State) bool {
	return self != p.Coordinator() && s.Phase == mutex.Held
}

// Protocol implements model.Waiter (checked by the compiler).
var _ model.Waiter[State] = (*Protocol)(nil)

// Waiting: the client wants the critical section.
func (p *Protocol) Waiting(self model.NodeID, s State) bool {
	return self != p.Coordinator() && s.Phase == mutex.Wanted
}

// Queue is the coordinator's FIFO queue of client ids, head first. It is an
// immutable value (one byte per id): Push and Pop return a new queue, so
// copying a State never shares mutable memory.
type Queue string

// Push returns q with id appended at the tail.
func (q Queue) Push(id model.NodeID) Queue { return Queue(append([]byte(q), byte(id))) }

// Pop returns the head of q and the rest; q must not be empty.
func (q Queue) Pop() (model.NodeID, Queue) { return model.NodeID(q[0]), q[1:] }

// Len is the number of queued clients.
func (q Queue) Len() int { return len(q) }

// String renders q as "[p2 p0]".
func (q Queue) String() string {
	ids := make([]string, len(q))
	for i := range len(q) {
		ids[i] = model.NodeID(q[i]).String()
	}
	return "[" + strings.Join(ids, " ") + "]"
}
