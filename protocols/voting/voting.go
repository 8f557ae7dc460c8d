// Package voting is the decentralized voting algorithm for mutual exclusion
// with Yield (seed 001, "Voting algorithms (Lin's and Maekawa's)": the
// decentralized algorithm with N coordinators). A process needs the votes of
// a majority, M > N/2, of the coordinators to enter the critical section:
//
//	a) To enter, a process sends Request messages to all coordinators,
//	   including its current Lamport clock and its process id.
//	b) A coordinator grants its vote if it has not voted yet; otherwise it
//	   queues the request (ordered by logical time). In any case it sends a
//	   Response to the requester including its current vote.
//	c) The requester analyzes the votes in the responses:
//	   1. with a majority vote it can enter the critical section;
//	   2. if someone else gets a majority, it does nothing (it is already
//	      waiting in the coordinators' queues);
//	   3. if nobody gets a majority, then
//	      OPTION A: it releases its votes (to avoid deadlocks), backs off
//	      and retries after a random period ("this might cause starvation");
//	      OPTION B: it sends a Yield (release+request) to all the
//	      coordinators that voted for it ("ensures liveness").
//	d) On a Yield, a coordinator removes its vote, queues the request
//	   (keeping the same time), votes for the head of its queue, sends a
//	   Response to the voted process and, if the vote has changed, notifies
//	   the former one.
//	e) To exit, the requester sends a Release to all coordinators. Each
//	   coordinator that voted for it removes its vote, votes for the head
//	   of its queue (if any) and sends a Response to the new voted process;
//	   the rest simply dequeue the process.
//
// Nodes: as in the notes, processes and coordinators are different nodes.
// The N processes are p0..p(N-1) and the C coordinators pN..p(N+C-1) (the
// notes' N is our C: M = C/2+1). Parameter Option chooses rule c.3.
//
// Modelling choices where the notes leave a gap, each needed for a finite
// or a sound model:
//
//   - "Later" is nondeterministic: under option A a backing-off process
//     has the input "retry", which the checker may take at any time. A
//     retry sends the request again, with the time it was first made, to
//     the coordinators it released (it is still queued at the others). A
//     fresh time per retry would make the state space infinite, and the
//     Yield of option B keeps the time too.
//   - A Response names the voted request, process and timestamp. A
//     requester ignores a Response that votes for itself with another
//     timestamp: a vote for an earlier request of its own, sent before the
//     coordinator received its Release. Counted, such a stale vote would
//     let two processes hold a "majority" at once.
//   - Lamport clocks use the "highest sequence number" rule, as in package
//     ricartagrawala: a request takes clock+1, and a Response sets the
//     clock to max(clock, the timestamp it carries). Coordinators never
//     issue timestamps, so they keep no clock. With 1+max on every receipt
//     the endless Yield exchanges of option B would make clocks unbounded.
//   - The requester analyzes (rule c) when a Response completes its view:
//     it knows the current vote of every coordinator.
//
// What the checker finds agrees with the notes' table: both options are
// safe and free of deadlock; option A starves (the processes release,
// back off and retry in turn, for ever, a fair cycle), option B does not;
// and happened-before ordering is not guaranteed (an idle coordinator votes
// for the first request to arrive).
package voting

import (
	"fmt"
	"slices"

	"github.com/coordcheck/coordcheck/internal/clip"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

// Limits of the fixed-size arrays in State.
const (
	MaxProcesses    = 16
	MaxCoordinators = 16
)

// None is a vote for nobody, and an unknown vote in a process's view.
const None model.NodeID = model.MaxNodes

// Option is what a requester does when nobody gets a majority (rule c.3).
type Option uint8

// The options of seed 001.
const (
	// OptionYield is option B: Yield (release+request) to the
	// coordinators that voted for the requester.
	OptionYield Option = iota
	// OptionBackoff is option A: release the votes, back off, retry later.
	OptionBackoff
)

// String is the option's name as a parameter value.
func (o Option) String() string {
	if o == OptionBackoff {
		return "backoff"
	}
	return "yield"
}

// ParseOption reads "yield" (option B) or "backoff" (option A).
func ParseOption(s string) (Option, error) {
	switch s {
	case "yield", "B", "b":
		return OptionYield, nil
	case "backoff", "A", "a":
		return OptionBackoff, nil
	}
	return 0, fmt.Errorf("unknown option %s (valid: yield, backoff)", clip.Quote(s))
}

// Retry is option A's input: a backing-off process retries.
const Retry = "retry"

// Protocol is the voting algorithm with N processes, each entering the
// critical section at most Rounds times, and C coordinators.
type Protocol struct {
	N, C   int
	Rounds int
	Option Option
}

// New returns the voting algorithm for n processes (1..MaxProcesses), c
// coordinators (1..MaxCoordinators), the given rounds and option.
func New(n, c, rounds int, opt Option) *Protocol {
	if n < 1 || n > MaxProcesses || c < 1 || c > MaxCoordinators {
		panic(fmt.Sprintf("voting: %d processes and %d coordinators (want 1..%d and 1..%d)",
			n, c, MaxProcesses, MaxCoordinators))
	}
	return &Protocol{N: n, C: c, Rounds: rounds, Option: opt}
}

// Majority is M, the smallest number of votes that is more than half of
// the coordinators.
func (p *Protocol) Majority() int { return p.C/2 + 1 }

// Coordinator is the node id of coordinator k, 0 ≤ k < C.
func (p *Protocol) Coordinator(k int) model.NodeID { return model.NodeID(p.N + k) }

// IsCoordinator reports whether node id is a coordinator.
func (p *Protocol) IsCoordinator(id model.NodeID) bool { return int(id) >= p.N }

// State is one node's state. Processes use the fields up to View,
// coordinators Vote and Req; the other fields keep their initial values.
type State struct {
	Phase   mutex.Phase // process: RELEASED, WANTED or HELD
	Backoff bool        // process, option A: WANTED, backing off before a retry
	Rounds  uint8       // process: critical sections completed
	Clock   uint32      // process: Lamport clock
	TS      uint32      // process: timestamp of the pending request, 0 when none
	// View is what the process knows of the votes: View[k] is the vote
	// coordinator k last reported for the current request, None while
	// unknown (not yet answered, or yielded or released since).
	View [MaxCoordinators]model.NodeID

	// Vote is the process the coordinator votes for, None when it has not
	// voted.
	Vote model.NodeID
	// Req holds the coordinator's requests: Req[j] is the timestamp of
	// p_j's request, 0 when it holds none. The voted request is Req[Vote];
	// the others form the queue, ordered by (timestamp, id).
	Req [MaxProcesses]uint32
}

// Kind is a message type.
type Kind uint8

// The messages of seed 001.
const (
	Request  Kind = iota // REQ(ts): process to coordinator, rule a
	Response             // RESP(vote): coordinator to process, its current vote
	Yield                // YIELD(ts): release+request, rule d (option B)
	Release              // REL: process to coordinator, rule e (and option A)
	App                  // the clock an application message carries
)

// Msg is a message. Request and Yield carry the request's timestamp TS;
// a Response carries the voted request: process Vote, timestamp TS.
type Msg struct {
	Kind Kind
	TS   uint32
	Vote model.NodeID
}

// Nodes is N+C: the processes, then the coordinators.
func (p *Protocol) Nodes() int { return p.N + p.C }

// blank is the initial state of every node: released, no vote known, no
// vote given, no request held.
func blank() State {
	s := State{Vote: None}
	for k := range s.View {
		s.View[k] = None
	}
	return s
}

// Init: processes are RELEASED; coordinators have not voted.
func (p *Protocol) Init(model.NodeID, *model.Out[Msg]) State { return blank() }

// votes counts the votes for process id in the view of s.
func (p *Protocol) votes(s State, id model.NodeID) int {
	n := 0
	for k := range p.C {
		if s.View[k] == id {
			n++
		}
	}
	return n
}

// Inputs offers a process request when released with rounds left, enter
// when WANTED with a majority of votes, retry when backing off (option A),
// and exit when in the critical section. Coordinators have no inputs.
func (p *Protocol) Inputs(self model.NodeID, s State, dst []model.Input) []model.Input {
	if p.IsCoordinator(self) {
		return dst
	}
	switch s.Phase {
	case mutex.Released:
		if int(s.Rounds) < p.Rounds {
			dst = append(dst, mutex.Request)
		}
	case mutex.Wanted:
		if p.votes(s, self) >= p.Majority() {
			dst = append(dst, mutex.Enter)
		}
		if s.Backoff {
			dst = append(dst, Retry)
		}
	case mutex.Held:
		dst = append(dst, mutex.Exit)
	}
	return dst
}

// Step is the pseudocode of seed 001: the process's rules a, c and e, then
// the coordinator's b, d and e.
func (p *Protocol) Step(self model.NodeID, s State, ev model.Event[Msg], out *model.Out[Msg]) State {
	if p.IsCoordinator(self) {
		return p.coordinator(s, ev, out)
	}
	switch ev.Kind {
	case model.Environment:
		switch ev.Input {
		case mutex.Request:
			// a) Send Request to all coordinators, with the current Lamport
			// clock (and, as the sender, the process id).
			s.TS = mutex.Want(&s.Phase, &s.Clock)
			for k := range p.C {
				out.Send(p.Coordinator(k), Msg{Kind: Request, TS: s.TS})
			}
		case mutex.Enter:
			// c.1) With a majority vote, the requester can enter.
			s.Phase = mutex.Held
			s.Backoff = false
		case Retry:
			// c.3, option A: retry after the back-off: request again from
			// the coordinators whose votes were released.
			s.Backoff = false
			for k := range p.C {
				if s.View[k] == None {
					out.Send(p.Coordinator(k), Msg{Kind: Request, TS: s.TS})
				}
			}
		case mutex.Exit:
			// e) To exit, send a Release to all the coordinators.
			s.Phase = mutex.Released
			s.Rounds++
			s.TS = 0
			for k := range p.C {
				s.View[k] = None
				out.Send(p.Coordinator(k), Msg{Kind: Release})
			}
		}
	case model.Receive:
		m := ev.Msg
		if m.Kind != Response {
			break
		}
		s.Clock = max(s.Clock, m.TS)
		if s.Phase != mutex.Wanted || (m.Vote == self && m.TS != s.TS) {
			break // an answer to an earlier request: stale
		}
		s.View[int(ev.From)-p.N] = m.Vote
		s = p.analyze(self, s, out)
	}
	return s
}

// analyze is rule c, once the view is complete.
func (p *Protocol) analyze(self model.NodeID, s State, out *model.Out[Msg]) State {
	var count [MaxProcesses]int
	for k := range p.C {
		if s.View[k] == None {
			return s // some coordinator's vote is still unknown
		}
		count[s.View[k]]++
	}
	if count[self] >= p.Majority() {
		return s // c.1: majority; the process may enter
	}
	if slices.ContainsFunc(count[:p.N], func(c int) bool { return c >= p.Majority() }) {
		return s // c.2: someone else has a majority; wait in the queues
	}
	if count[self] == 0 {
		return s // c.3, but there are no votes to release or yield
	}
	// c.3: nobody has a majority.
	for k := range p.C {
		if s.View[k] != self {
			continue
		}
		s.View[k] = None
		if p.Option == OptionYield {
			// Option B: Yield (release+request) to the coordinators that
			// voted for it.
			out.Send(p.Coordinator(k), Msg{Kind: Yield, TS: s.TS})
		} else {
			// Option A: release its votes and back off.
			out.Send(p.Coordinator(k), Msg{Kind: Release})
		}
	}
	s.Backoff = p.Option == OptionBackoff
	return s
}

// coordinator is a coordinator's step: rules b, d and e.
func (p *Protocol) coordinator(s State, ev model.Event[Msg], out *model.Out[Msg]) State {
	if ev.Kind != model.Receive {
		return s
	}
	from, m := ev.From, ev.Msg
	switch m.Kind {
	case Request:
		// b) Grant the vote if not voted yet; otherwise queue the request.
		// In any case, send a Response with the current vote.
		s.Req[from] = m.TS
		if s.Vote == None {
			s.Vote = from
		}
		out.Send(from, p.response(s))
	case Yield:
		// d) Remove the vote; queue the request, keeping the same time;
		// vote for the head of the queue and send it a Response; if the
		// vote has changed, notify the former process too.
		former := s.Vote
		s.Req[from] = m.TS
		s.Vote = p.head(s)
		out.Send(s.Vote, p.response(s))
		if former != s.Vote && former != None {
			out.Send(former, p.response(s))
		}
	case Release:
		// e) If it voted for the process: remove the vote, vote for the head
		// of the queue (if any) and send it a Response. Otherwise simply
		// dequeue the process.
		s.Req[from] = 0
		if s.Vote == from {
			s.Vote = p.head(s)
			if s.Vote != None {
				out.Send(s.Vote, p.response(s))
			}
		}
	}
	return s
}

// response is a coordinator's Response: its current vote.
func (p *Protocol) response(s State) Msg {
	return Msg{Kind: Response, Vote: s.Vote, TS: s.Req[s.Vote]}
}

// head is the request a coordinator holds with the smallest (timestamp,
// id), or None.
func (p *Protocol) head(s State) model.NodeID {
	h := None
	for j := range p.N {
		if s.Req[j] != 0 && (h == None || s.Req[j] < s.Req[h]) {
			h = model.NodeID(j)
		}
	}
	return h
}

// Protocol implements model.FairInputs (checked by the compiler).
var _ model.FairInputs = (*Protocol)(nil)

// FairInput: a process that may enter eventually does, one in the critical
// section eventually leaves, and one that backs off eventually retries (the
// random period ends); requesting is up to the environment.
func (p *Protocol) FairInput(_ model.NodeID, in model.Input) bool {
	return mutex.FairInput(in) || in == Retry
}

// InCS: the process holds the critical section.
func (p *Protocol) InCS(self model.NodeID, s State) bool {
	return !p.IsCoordinator(self) && s.Phase == mutex.Held
}

// Protocol implements model.Waiter (checked by the compiler).
var _ model.Waiter[State] = (*Protocol)(nil)

// Waiting: the process wants the critical section (backing off included).
func (p *Protocol) Waiting(self model.NodeID, s State) bool {
	return !p.IsCoordinator(self) && s.Phase == mutex.Wanted
}

// Protocol implements model.AppCarrier (checked by the compiler).
var _ model.AppCarrier[State, Msg] = (*Protocol)(nil)

// SendApp stamps an application message with the process's clock, so that
// requests can carry Lamport time across the application's messages too.
func (p *Protocol) SendApp(_ model.NodeID, s State) (State, Msg) {
	return s, Msg{Kind: App, TS: s.Clock}
}

// ReceiveApp: clock := max(clock, T), the clock rule of this package.
func (p *Protocol) ReceiveApp(_ model.NodeID, s State, m Msg) State {
	s.Clock = max(s.Clock, m.TS)
	return s
}
