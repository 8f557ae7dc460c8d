// Package ricartagrawala is Ricart and Agrawala's mutual exclusion (seed
// 000, "Ricart-Agrawala algorithm"; seed 002): a process multicasts a
// timestamped request to all others and enters the critical section once
// all N-1 have replied; a process defers its reply while it holds the CS,
// or while it wants the CS and its own request is older ((T, id) pairs
// ordered lexicographically, ties broken by the lower id).
//
// Clocks: a request takes clock+1, and a receipt sets clock to max(clock,
// T) (the paper's "highest sequence number"; only requests need distinct
// times, so the notes' extra +1 on receipt changes no order). With
// Clocks=Notes (the default) every message carries its sender's clock, as
// the notes say ("a reply sent by p_i has <T_i, p_i>"; "update its clock
// after receiving any message"), so that a request that happened before
// another has a smaller timestamp. With Clocks=SPIN replies carry nothing,
// as in the SPIN anchor model, whose state counts it reproduces exactly;
// that variant is still safe, but grants requests out of happened-before
// order (coordcheck check ricartagrawala -clock spin -ordering -app-msgs 0
// -rounds 2 finds it).
package ricartagrawala

import (
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

// Protocol is Ricart-Agrawala among N processes, each entering the
// critical section at most Rounds times.
type Protocol struct {
	N      int
	Rounds int
	Clocks Clocks

	mutex.Site[State]       // FairInput and Waiting
	mutex.KindTSCodec[Kind] // AppendMsg and ReadMsg
}

// Clocks says which messages carry the sender's clock.
type Clocks uint8

// The clock variants.
const (
	Notes Clocks = iota // every message carries the clock (the notes)
	SPIN                // only requests carry a time (the SPIN anchor model)
)

// Protocol implements, through mutex.Site and InCS, the hooks of a
// mutual-exclusion protocol (checked by the compiler).
var (
	_ model.FairInputs                  = (*Protocol)(nil)
	_ model.Waiter[State]               = (*Protocol)(nil)
	_ invariants.CriticalSection[State] = (*Protocol)(nil)
)

// New returns Ricart-Agrawala for n processes and the given rounds, with
// the notes' clocks.
func New(n, rounds int) *Protocol { return &Protocol{N: n, Rounds: rounds} }

// State is one process's state.
type State struct {
	Phase    mutex.Phase
	Clock    uint32 // highest timestamp seen
	TS       uint32 // timestamp of the pending request (0 when none)
	Replies  uint8  // replies received for it
	Deferred uint64 // bit j: the reply to p_j's request is deferred
	Rounds   uint8  // critical sections completed
}

// MutexPhase is the process's phase (mutex.Phased).
func (s State) MutexPhase() mutex.Phase { return s.Phase }

// InCS: the process holds the critical section.
func (p *Protocol) InCS(_ model.NodeID, s State) bool { return s.Phase == mutex.Held }

// Kind is a message type.
type Kind uint8

// The messages.
const (
	Request Kind = iota // REQ(T): a request with timestamp T
	Reply               // REP: permission
	App                 // the clock an application message carries
)

// Msg is a message.
// Its encoding is the kind's byte, then the timestamp as a varint
// (mutex.KindTSCodec, which Protocol embeds).
type Msg = mutex.KindTS[Kind]

// Protocol implements model.MsgCodec through mutex.KindTSCodec (checked
// by the compiler).
var _ model.MsgCodec[Msg] = (*Protocol)(nil)

// Nodes is N.
func (p *Protocol) Nodes() int { return p.N }

// Init: state := RELEASED.
func (p *Protocol) Init(model.NodeID, *model.Out[Msg]) State { return State{} }

// Inputs offers request when released with rounds left, enter once all
// N-1 replies are in, and exit when in the critical section.
func (p *Protocol) Inputs(_ model.NodeID, s State, dst []model.Input) []model.Input {
	return mutex.Inputs(s.Phase, int(s.Rounds), p.Rounds, int(s.Replies) == p.N-1, dst)
}

// Step is the pseudocode of seed 000.
func (p *Protocol) Step(self model.NodeID, s State, ev model.Event[Msg], out *model.Out[Msg]) State {
	switch ev.Kind {
	case model.Environment:
		switch ev.Input {
		case mutex.Request:
			// To enter: state := WANTED; multicast request to all others;
			// T := request's timestamp.
			s.TS = mutex.Want(&s.Phase, &s.Clock)
			for j := range p.N {
				if model.NodeID(j) != self {
					out.Send(model.NodeID(j), Msg{Kind: Request, TS: s.TS})
				}
			}
		case mutex.Enter:
			// Wait until replies = N-1; state := HELD.
			s.Phase = mutex.Held
		case mutex.Exit:
			// To exit: state := RELEASED; reply to any queued requests.
			s.Phase = mutex.Released
			for j := range p.N {
				if s.Deferred&(1<<j) != 0 {
					out.Send(model.NodeID(j), p.reply(s))
				}
			}
			s.TS, s.Replies, s.Deferred = 0, 0, 0
			s.Rounds++
		}
	case model.Receive:
		switch ev.Msg.Kind {
		case Request:
			// On receipt of <T_i, p_i>: queue it if HELD, or if WANTED and
			// (T, p_j) < (T_i, p_i); otherwise reply at once.
			s.Clock = max(s.Clock, ev.Msg.TS)
			mine := s.TS < ev.Msg.TS || (s.TS == ev.Msg.TS && self < ev.From)
			if s.Phase == mutex.Held || (s.Phase == mutex.Wanted && mine) {
				s.Deferred |= 1 << ev.From
			} else {
				out.Send(ev.From, p.reply(s))
			}
		case Reply:
			s.Clock = max(s.Clock, ev.Msg.TS)
			s.Replies++
		}
	}
	return s
}

// reply is a reply from a process in state s.
func (p *Protocol) reply(s State) Msg {
	if p.Clocks == SPIN {
		return Msg{Kind: Reply}
	}
	return Msg{Kind: Reply, TS: s.Clock}
}

// Protocol implements model.AppCarrier (checked by the compiler).
var _ model.AppCarrier[State, Msg] = (*Protocol)(nil)

// SendApp stamps an application message with the clock: the notes' RA
// orders requests by Lamport time, which every message must carry.
func (p *Protocol) SendApp(_ model.NodeID, s State) (State, Msg) {
	return s, Msg{Kind: App, TS: s.Clock}
}

// ReceiveApp: clock := max(clock, T), as for a request.
func (p *Protocol) ReceiveApp(_ model.NodeID, s State, m Msg) State {
	s.Clock = max(s.Clock, m.TS)
	return s
}
