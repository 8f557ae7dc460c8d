// Package lamport is Lamport's mutual exclusion algorithm (seed 002,
// "Lamport's Algorithm"): every site keeps a request queue ordered by
// timestamp (ts, id); a site that wants the critical section broadcasts a
// REQUEST and queues it; every site queues the requests it receives and
// answers each with a timestamped REPLY; a site leaving the critical
// section removes its request and broadcasts a RELEASE, and every site that
// receives it removes that request. Site S_i enters the critical section
// when
//
//	L1: S_i has received a message with timestamp larger than (ts_i, i)
//	    from all other sites, and
//	L2: S_i's request is at the top of request_queue_i.
//
// The algorithm needs FIFO channels (seed 002: "This algorithm requires
// communication channels to deliver messages the FIFO order"), the
// system's default network.
//
// Clocks follow the notes exactly: taking up a request for the critical
// section updates the local clock and gives the request its timestamp
// (clock+1, seed 002); receiving any message sets the clock to
// 1 + max(my clock, received clock) (seed 000, "You can use Lamport idea");
// REPLY and RELEASE carry the sender's current clock. Each site enters at
// most Rounds times, so finitely many messages are ever sent and every
// clock stays bounded: the state space is finite. It is large, as exact
// clocks record how deliveries interleaved: 596,326 states for N=3 and one
// round, more than 20 million for N=3 with two rounds or N=4 with one. (The
// "highest sequence number" shortcut of package ricartagrawala, max without
// the +1, is no option here: a REPLY or RELEASE could then carry the very
// timestamp of a request, while L1 wants a larger one; with N=2 the
// checker finds a site waiting for ever.)
//
// The queue is stored canonically as one slot per site: Queue[j] is the
// timestamp of S_j's pending request, 0 when there is none. FIFO channels
// make one slot enough: S_j's RELEASE reaches S_i before S_j's next
// REQUEST. Heard records L1: the sites from which a message with a larger
// timestamp than the own request's arrived since the request was made.
package lamport

import (
	"fmt"

	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

// MaxSites is the largest number of sites a Protocol supports.
const MaxSites = 16

// Protocol is Lamport's algorithm among N sites, each entering the
// critical section at most Rounds times.
type Protocol struct {
	N      int
	Rounds int

	mutex.Site[State]       // FairInput and Waiting
	mutex.KindTSCodec[Kind] // AppendMsg and ReadMsg
}

// New returns Lamport's algorithm for n sites (1..MaxSites) and the given
// rounds.
func New(n, rounds int) *Protocol {
	if n < 1 || n > MaxSites {
		panic(fmt.Sprintf("lamport: %d sites (want 1..%d)", n, MaxSites))
	}
	return &Protocol{N: n, Rounds: rounds}
}

// Protocol implements, through mutex.Site and InCS, the hooks of a
// mutual-exclusion protocol (checked by the compiler).
var (
	_ model.FairInputs                  = (*Protocol)(nil)
	_ model.Waiter[State]               = (*Protocol)(nil)
	_ invariants.CriticalSection[State] = (*Protocol)(nil)
)

// State is one site's state.
type State struct {
	Phase  mutex.Phase
	Rounds uint8  // critical sections completed
	Clock  uint32 // Lamport clock
	// Queue is request_queue_i: Queue[j] is the timestamp of S_j's pending
	// request (Queue[self] the own one), 0 when S_j has none. Entries past
	// N stay 0.
	Queue [MaxSites]uint32
	// Heard is L1's progress: bit j is set once a message with a timestamp
	// larger than (ts_i, i) has come from S_j since the own request. Zero
	// while RELEASED.
	Heard uint16
}

// MutexPhase is the process's phase (mutex.Phased).
func (s State) MutexPhase() mutex.Phase { return s.Phase }

// InCS: the process holds the critical section.
func (p *Protocol) InCS(_ model.NodeID, s State) bool { return s.Phase == mutex.Held }

// TS is the timestamp of the site's own pending request (0 when none).
func (s State) TS(self model.NodeID) uint32 { return s.Queue[self] }

// Kind is a message type.
type Kind uint8

// The messages of seed 002; each carries a timestamp.
const (
	Request Kind = iota // REQUEST(ts_i, i): S_i asks for the critical section
	Reply               // REPLY: answer to a REQUEST, with the sender's clock
	Release             // RELEASE: S_i left the critical section
	App                 // the clock an application message carries
)

// Msg is a message with its timestamp.
// Its encoding is the kind's byte, then the timestamp as a varint
// (mutex.KindTSCodec, which Protocol embeds).
type Msg = mutex.KindTS[Kind]

// Protocol implements model.MsgCodec through mutex.KindTSCodec (checked
// by the compiler).
var _ model.MsgCodec[Msg] = (*Protocol)(nil)

// before reports whether request (t1, i1) precedes (t2, i2): timestamps
// ordered lexicographically, ties broken by the lower id.
func before(t1 uint32, i1 model.NodeID, t2 uint32, i2 model.NodeID) bool {
	return t1 < t2 || (t1 == t2 && i1 < i2)
}

// Nodes is N.
func (p *Protocol) Nodes() int { return p.N }

// Init: every site is RELEASED, with clock 0 and an empty queue.
func (p *Protocol) Init(model.NodeID, *model.Out[Msg]) State { return State{} }

// others is the set of all sites but self.
func (p *Protocol) others(self model.NodeID) uint16 {
	all := uint16(1)<<p.N - 1
	return all &^ (1 << self)
}

// L1 reports condition L1: S_i has received a message with timestamp
// larger than (ts_i, i) from all other sites.
func (p *Protocol) L1(self model.NodeID, s State) bool { return s.Heard == p.others(self) }

// L2 reports condition L2: S_i's request is at the top of request_queue_i.
func (p *Protocol) L2(self model.NodeID, s State) bool {
	ts := s.Queue[self]
	if ts == 0 {
		return false
	}
	for j := range p.N {
		if id := model.NodeID(j); id != self && s.Queue[j] != 0 && before(s.Queue[j], id, ts, self) {
			return false
		}
	}
	return true
}

// Inputs offers request when released with rounds left, enter when WANTED
// and L1 and L2 hold, and exit when in the critical section.
func (p *Protocol) Inputs(self model.NodeID, s State, dst []model.Input) []model.Input {
	return mutex.Inputs(s.Phase, int(s.Rounds), p.Rounds, p.L1(self, s) && p.L2(self, s), dst)
}

// broadcast sends m to every site but self.
func (p *Protocol) broadcast(self model.NodeID, m Msg, out *model.Out[Msg]) {
	for j := range p.N {
		if model.NodeID(j) != self {
			out.Send(model.NodeID(j), m)
		}
	}
}

// Step is the algorithm of seed 002.
func (p *Protocol) Step(self model.NodeID, s State, ev model.Event[Msg], out *model.Out[Msg]) State {
	switch ev.Kind {
	case model.Environment:
		switch ev.Input {
		case mutex.Request:
			// Requesting: S_i updates its clock and timestamps the request,
			// broadcasts REQUEST(ts_i, i) to all other sites and places the
			// request on request_queue_i.
			s.Queue[self] = mutex.Want(&s.Phase, &s.Clock)
			s.Heard = 0
			p.broadcast(self, Msg{Kind: Request, TS: s.Clock}, out)
		case mutex.Enter:
			// Executing: S_i enters when L1 and L2 hold.
			s.Phase = mutex.Held
		case mutex.Exit:
			// Releasing: S_i, upon exiting, removes its request from the top
			// of its request queue and broadcasts a timestamped RELEASE.
			s.Phase = mutex.Released
			s.Rounds++
			s.Queue[self] = 0
			s.Heard = 0
			p.broadcast(self, Msg{Kind: Release, TS: s.Clock}, out)
		}
	case model.Receive:
		// Every message updates the clock: 1 + max(my clock, received
		// clock) (seed 000). For L1, note whether it is later than the own
		// request.
		m := ev.Msg
		s.Clock = 1 + max(s.Clock, m.TS)
		if ts := s.Queue[self]; ts != 0 && before(ts, self, m.TS, ev.From) {
			s.Heard |= 1 << ev.From
		}
		switch m.Kind {
		case Request:
			// S_j receives REQUEST(ts_i, i): places S_i's request on
			// request_queue_j and returns a timestamped REPLY to S_i.
			s.Queue[ev.From] = m.TS
			out.Send(ev.From, Msg{Kind: Reply, TS: s.Clock})
		case Reply:
			// A REPLY only counts towards L1.
		case Release:
			// S_j receives RELEASE from S_i: removes S_i's request from its
			// request queue.
			s.Queue[ev.From] = 0
		}
	}
	return s
}

// Protocol implements model.AppCarrier (checked by the compiler).
var _ model.AppCarrier[State, Msg] = (*Protocol)(nil)

// SendApp stamps an application message with the clock: Lamport time
// orders requests by happened-before only if every message carries it.
func (p *Protocol) SendApp(_ model.NodeID, s State) (State, Msg) {
	return s, Msg{Kind: App, TS: s.Clock}
}

// ReceiveApp: clock := 1 + max(clock, T), as on every receipt. An
// application message is not the algorithm's: it does not count for L1.
func (p *Protocol) ReceiveApp(_ model.NodeID, s State, m Msg) State {
	s.Clock = 1 + max(s.Clock, m.TS)
	return s
}
