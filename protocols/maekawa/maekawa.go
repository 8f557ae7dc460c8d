// Package maekawa is Maekawa's quorum-based mutual exclusion in its
// original form (seed 000, "Maekawa algorithm"; seed 001, with the 7-node
// projective-plane sets): REQUEST, GRANT (a vote) and RELEASE only, with no
// FAILED, INQUIRE or YIELD. Every process is a requester and a voter. A
// requester asks every member of its voting set V_i and enters the
// critical section once all |V_i| have voted for it; a voter gives one vote
// at a time and queues the other requests until the vote comes back.
// Safety rests on the sets intersecting pairwise (see CheckSets); liveness
// fails, since votes can be given in a cycle (seed 000's deadlock example).
//
// As in the SPIN anchor model (bench/spin/models/maekawa.pml), which this
// package mirrors state for state:
//   - a requester sends its request to every member of V_i, itself
//     included, through its own self link; the notes' "V_i - {p_i}" and
//     "K-1 replies" is the same algorithm with the self-vote short-cut;
//   - requests carry timestamps: a request takes clock+1, and receiving
//     one sets clock to max(clock, T) (the "highest sequence number" rule,
//     which keeps clocks bounded by N·rounds);
//   - a voter grants its queued requests in (timestamp, id) order, as in
//     Maekawa's paper (seed 001 says arrival order), and stores its queue
//     canonically as one timestamp per process (0: not queued), so the
//     queue's representation adds no states;
//   - entering is an input of its own, enabled once all votes are in.
package maekawa

import (
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

// Protocol is Maekawa's algorithm among N processes with voting sets Sets
// (Sets[i] is V_i), each process entering the critical section at most
// Rounds times.
type Protocol struct {
	N      int
	Rounds int
	Sets   []Set
	// Requesters are the processes that request the critical section (the
	// workload); the others only vote. New makes it everyone.
	Requesters Set

	mutex.Site[State]       // FairInput and Waiting
	mutex.KindTSCodec[Kind] // AppendMsg and ReadMsg
}

// New returns Maekawa's algorithm for n processes, the given rounds and
// voting sets; sets that break CheckSets' rules are refused.
func New(n, rounds int, sets []Set) (*Protocol, error) {
	if err := CheckSets(n, sets); err != nil {
		return nil, err
	}
	return &Protocol{N: n, Rounds: rounds, Sets: sets, Requesters: Set(1<<n - 1)}, nil
}

// Protocol implements, through mutex.Site and InCS, the hooks of a
// mutual-exclusion protocol (checked by the compiler).
var (
	_ model.FairInputs                  = (*Protocol)(nil)
	_ model.Waiter[State]               = (*Protocol)(nil)
	_ invariants.CriticalSection[State] = (*Protocol)(nil)
)

// Nobody is a voter's Voted while it has not voted.
const Nobody model.NodeID = model.MaxNodes

// State is one process's state: its requester part, then its voter part.
type State struct {
	Phase  mutex.Phase // RELEASED, WANTED or HELD
	Clock  uint32      // highest timestamp seen
	TS     uint32      // timestamp of the pending request (0 when none)
	Grants uint8       // votes received for it
	Rounds uint8       // critical sections completed

	Voted model.NodeID // the process this voter voted for, or Nobody
	// Queued[j] is the timestamp of p_j's queued request, 0 when p_j has
	// none queued here. Entries from N on stay 0.
	Queued Queue
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
	Grant               // GRANT: a vote
	Release             // REL: the vote comes back
)

// Msg is a message; only a request carries a timestamp.
// Its encoding is the kind's byte, then the timestamp as a varint
// (mutex.KindTSCodec, which Protocol embeds).
type Msg = mutex.KindTS[Kind]

// Protocol implements model.MsgCodec through mutex.KindTSCodec (checked
// by the compiler).
var _ model.MsgCodec[Msg] = (*Protocol)(nil)

// Nodes is N.
func (p *Protocol) Nodes() int { return p.N }

// Init: state := RELEASED; voted := FALSE.
func (p *Protocol) Init(model.NodeID, *model.Out[Msg]) State { return State{Voted: Nobody} }

// Inputs offers request when released with rounds left, enter once every
// member of V_i has voted, and exit when in the critical section.
func (p *Protocol) Inputs(self model.NodeID, s State, dst []model.Input) []model.Input {
	return mutex.Inputs(s.Phase, int(s.Rounds), p.Requesters.Rounds(self, p.Rounds), int(s.Grants) == p.Sets[self].Len(), dst)
}

// Step is the pseudocode of seed 000.
func (p *Protocol) Step(self model.NodeID, s State, ev model.Event[Msg], out *model.Out[Msg]) State {
	switch ev.Kind {
	case model.Environment:
		switch ev.Input {
		case mutex.Request:
			// For p_i to enter: state := WANTED; multicast request to all
			// processes in V_i (itself included).
			s.TS = mutex.Want(&s.Phase, &s.Clock)
			Multicast(out, p.Sets[self], Msg{Kind: Request, TS: s.TS})
		case mutex.Enter:
			// Wait until number of replies = |V_i|; state := HELD.
			s.Phase = mutex.Held
		case mutex.Exit:
			// For p_i to exit: state := RELEASED; multicast release to all
			// processes in V_i (itself included).
			s.Phase = mutex.Released
			s.TS, s.Grants = 0, 0
			s.Rounds++
			Multicast(out, p.Sets[self], Msg{Kind: Release})
		}
	case model.Receive:
		switch ev.Msg.Kind {
		case Request:
			// On receipt of a request from p_i at p_j: if state = HELD or
			// voted = TRUE, queue the request without replying; else send
			// a reply to p_i and voted := TRUE. (A HELD voter has voted,
			// for itself: p_j ∈ V_j.)
			s.Clock = max(s.Clock, ev.Msg.TS)
			if s.Voted == Nobody {
				s.Voted = ev.From
				out.Send(ev.From, Msg{Kind: Grant})
			} else {
				s.Queued[ev.From] = ev.Msg.TS
			}
		case Release:
			// On receipt of a release from p_i at p_j: if the queue is not
			// empty, remove its head p_k, the oldest request, send a reply
			// to p_k and voted := TRUE; else voted := FALSE.
			// (ReleaseFromHolder checks that p_i is the one voted for.)
			if k, ok := s.Queued.Head(p.N); ok {
				s.Voted = k
				s.Queued[k] = 0
				out.Send(k, Msg{Kind: Grant})
			} else {
				s.Voted = Nobody
			}
		case Grant:
			// A reply (a vote): count it towards |V_i|.
			s.Grants++
		}
	}
	return s
}
