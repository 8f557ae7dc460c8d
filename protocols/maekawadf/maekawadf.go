// Package maekawadf is Maekawa's quorum-based mutual exclusion with the
// deadlock handling of seed 002 ("Handling Deadlocks"): requests carry
// timestamps and are ordered by priority (ts, id), smaller first, and three
// more messages break the circular waits of the original algorithm
// (package maekawa, seed 000's deadlock example):
//
//   - FAILED from S_j to S_i: S_j cannot grant S_i's request because it has
//     granted its vote to a request of higher priority;
//   - INQUIRE from S_j to S_k: S_j asks S_k, whom it voted for, whether it
//     has locked all of its request set;
//   - YIELD from S_k to S_j: S_k returns S_j's vote, to let a request of
//     higher priority through.
//
// The seed's rules, as this package numbers them in comments:
//
//	Case I   When a REQUEST(ts, i) from S_i blocks at S_j because S_j has
//	         granted S_k, S_j sends FAILED(j) to S_i if S_i's request has
//	         lower priority; otherwise S_j sends INQUIRE(j) to S_k.
//	Case II  In response to INQUIRE(j), S_k sends YIELD(k) to S_j provided
//	         S_k has received a FAILED from a site in its request set, or it
//	         sent a YIELD to any of these sites but has not received a new
//	         REPLY from it.
//	Case III In response to YIELD(k), S_j assumes as if it has been released
//	         by S_k, places S_k's request at its place in the request queue,
//	         and sends a REPLY(j) to the site at the top of the queue.
//
// and from the original algorithm (seed 002 steps a-e, seed 000's
// pseudocode): REQUEST to every member of the request set, enter after a
// REPLY from every member, RELEASE to every member on exit, and on a
// RELEASE the vote goes to the head of the queue.
//
// Everything else is as in package maekawa, so that the two are
// comparable: every process is a requester and a voter; a request goes to
// every member of V_i, itself included, through its own self link; a
// request takes timestamp clock+1 and receiving one sets clock to
// max(clock, T); a voter keeps its queue as one timestamp per process;
// entering is an input of its own. REPLY is called GRANT, as there.
//
// The rules as the notes write them leave four gaps, which the model
// checker finds (see Fixes and counterexamples/maekawa-df): three
// deadlocks (a request behind a queued one, or pushed back from the head of
// the queue, is never told it failed; an INQUIRE that comes before the
// FAILED is dropped) and a vote given twice, which breaks mutual exclusion
// (a YIELD of a vote no longer held). Each has a standard fix, in
// the spirit of Maekawa's paper (1985); Fixes chooses them, and all are on
// by default. Like the notes, the algorithm assumes FIFO links: on an
// unordered network an INQUIRE can overtake the GRANT it is about.
//
// With all fixes, exhaustive BFS finds mutual exclusion, one vote per
// voter, freedom from deadlock and starvation freedom in every reachable
// state of: all sets with n=3 (538,143 states in one round, 53,239,177 in
// two), the 2×2 grid (n=4, one round: 40,997,266 states), seed 001's three
// sets of two (one and two rounds), and the projective plane (n=7) with
// the workload of three or four requesters (Requesters; 0,1,2: 252,373
// states; 0,1,2,3: 42,006,029). The tests pin those under a million
// states. The state graph has no cycle, which Rank shows (every delivery
// lowers a weighted count of the messages in flight, and inputs only move
// a process forward), so starvation can only be a terminal state and the
// checker keeps no state graph. Each requester multiplies the plane's
// space by about 150; with all seven it is out of reach of exhaustive
// search (as the original algorithm's is for SPIN), and swarm search finds
// no violation there, while it finds each gap of the notes' rules within a
// hundred walks.
package maekawadf

import (
	"fmt"
	"strings"

	"github.com/coordcheck/coordcheck/internal/clip"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/maekawa"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

// Fixes is a set of corrections to the rules as seed 002 writes them.
type Fixes uint8

// The fixes. Without any, the protocol follows Cases I-III to the letter.
const (
	// FixQueue: a request is told FAILED when any request of higher
	// priority is ahead of it at the voter, the vote's or a queued one,
	// and a voter sends one INQUIRE per vote, for the first request that
	// outranks the vote. Case I compares with the vote's request only: a
	// request that outranks the vote but not a queued request makes
	// another INQUIRE, hears nothing itself, never learns it has failed,
	// and so never yields (Case II).
	FixQueue Fixes = 1 << iota
	// FixDisplaced: a queued request that outranks the vote (it made the
	// voter INQUIRE and was told nothing) is told FAILED when a request of
	// higher still priority arrives and pushes it back. Comparing with the
	// queue (FixQueue) does not cover this request, which arrived first.
	FixDisplaced
	// FixDefer: a process that is inquired before it knows the outcome
	// (no FAILED yet, not all votes) keeps the INQUIRE and yields as soon
	// as a FAILED arrives. Case II does not say what happens to such an
	// INQUIRE: read to the letter, it is dropped, and the inquiring voter
	// waits for an answer that never comes.
	FixDefer
	// FixHeld: a process yields only a vote it holds; an INQUIRE for a vote
	// it has already yielded, or released, is stale and is ignored. Case
	// II's condition holds as long as a YIELD is unanswered, so to the
	// letter a second INQUIRE from the same voter gets a second YIELD, and
	// Case III then gives away a vote that someone else holds. With FIFO
	// links a stale INQUIRE always arrives before the voter's next GRANT.
	FixHeld

	// NoFixes is the notes' rules to the letter; AllFixes the default.
	NoFixes  Fixes = 0
	AllFixes       = FixQueue | FixDisplaced | FixDefer | FixHeld
)

var fixNames = []struct {
	fix  Fixes
	name string
}{{FixQueue, "queue"}, {FixDisplaced, "displaced"}, {FixDefer, "defer"}, {FixHeld, "held"}}

// String renders the set as the fixes parameter: "all", "none", or the
// names in a fixed order, "queue,held".
func (f Fixes) String() string {
	switch f {
	case AllFixes:
		return "all"
	case NoFixes:
		return "none"
	}
	var names []string
	for _, fn := range fixNames {
		if f&fn.fix != 0 {
			names = append(names, fn.name)
		}
	}
	return strings.Join(names, ",")
}

// ParseFixes reads the fixes parameter: "all", "none", or a comma list of
// queue, displaced, defer and held.
func ParseFixes(s string) (Fixes, error) {
	switch s {
	case "all":
		return AllFixes, nil
	case "none", "":
		return NoFixes, nil
	}
	var f Fixes
next:
	for _, word := range strings.Split(s, ",") {
		for _, fn := range fixNames {
			if strings.TrimSpace(word) == fn.name {
				f |= fn.fix
				continue next
			}
		}
		return 0, fmt.Errorf("fixes=%s: %s is not a fix (valid: all, none, or a comma list of queue, displaced, defer, held)", clip.Quote(s), clip.Quote(word))
	}
	return f, nil
}

// Protocol is deadlock-free Maekawa among N processes with voting sets
// Sets (Sets[i] is V_i), each process entering the critical section at
// most Rounds times, with the given fixes to the notes' rules.
type Protocol struct {
	N      int
	Rounds int
	Sets   []maekawa.Set
	Fixes  Fixes
	// Requesters are the processes that request the critical section (the
	// workload); the others only vote. New makes it everyone.
	Requesters maekawa.Set

	mutex.Site[State]       // FairInput and Waiting
	mutex.KindTSCodec[Kind] // AppendMsg and ReadMsg
}

// New returns the protocol for n processes, the given rounds, voting sets
// and fixes; sets that break maekawa.CheckSets' rules are refused.
func New(n, rounds int, sets []maekawa.Set, fixes Fixes) (*Protocol, error) {
	if err := maekawa.CheckSets(n, sets); err != nil {
		return nil, err
	}
	return &Protocol{N: n, Rounds: rounds, Sets: sets, Fixes: fixes, Requesters: maekawa.Set(1<<n - 1)}, nil
}

// Protocol implements, through mutex.Site and InCS, the hooks of a
// mutual-exclusion protocol (checked by the compiler).
var (
	_ model.FairInputs                  = (*Protocol)(nil)
	_ model.Waiter[State]               = (*Protocol)(nil)
	_ invariants.CriticalSection[State] = (*Protocol)(nil)
)

// Nobody is a voter's Voted while it has not voted.
const Nobody = maekawa.Nobody

// State is one process's state: its requester part, then its voter part.
// Sets of voters are bit sets over process ids, so that the state has one
// encoding whatever the order in which messages arrived.
type State struct {
	Phase  mutex.Phase // RELEASED, WANTED or HELD
	Clock  uint32      // highest timestamp seen
	TS     uint32      // timestamp of the pending request (0 when none)
	Rounds uint8       // critical sections completed

	// Votes: the members of V_i whose vote (GRANT) it holds.
	Votes maekawa.Set
	// Failed: the members that sent FAILED, or to which it yielded, and
	// that have not sent a new GRANT since: Case II's condition is that
	// Failed is not empty.
	Failed maekawa.Set
	// Deferred: the members whose INQUIRE waits for the outcome (FixDefer).
	Deferred maekawa.Set

	Voted   model.NodeID // the process this voter voted for, or Nobody
	VotedTS uint32       // the timestamp of the request it voted for
	// Queued[j] is the timestamp of p_j's queued request, 0 when p_j has
	// none queued here. Entries from N on stay 0.
	Queued maekawa.Queue
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
	Grant               // GRANT: a vote (the notes' REPLY)
	Release             // REL: the vote comes back after the critical section
	Fail                // FAILED: the vote went to a request of higher priority
	Inquire             // INQUIRE: the voter asks for its vote back
	Yield               // YIELD: the vote comes back before the critical section
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
	return mutex.Inputs(s.Phase, int(s.Rounds), p.Requesters.Rounds(self, p.Rounds), s.Votes == p.Sets[self], dst)
}

// Step is seed 002's algorithm: steps a-e and Cases I-III.
func (p *Protocol) Step(self model.NodeID, s State, ev model.Event[Msg], out *model.Out[Msg]) State {
	switch ev.Kind {
	case model.Environment:
		switch ev.Input {
		case mutex.Request:
			// (a) S_i sends REQUEST(ts, i) to all sites in R_i (itself
			// included).
			s.TS = mutex.Want(&s.Phase, &s.Clock)
			maekawa.Multicast(out, p.Sets[self], Msg{Kind: Request, TS: s.TS})
		case mutex.Enter:
			// (c) S_i executes the CS only after it has received a REPLY
			// from every site in R_i.
			s.Phase = mutex.Held
		case mutex.Exit:
			// (d) After the CS, S_i sends RELEASE(i) to every site in R_i.
			s.Phase = mutex.Released
			s.TS, s.Votes, s.Failed, s.Deferred = 0, 0, 0, 0
			s.Rounds++
			maekawa.Multicast(out, p.Sets[self], Msg{Kind: Release})
		}
	case model.Receive:
		from := ev.From
		switch ev.Msg.Kind {
		case Request:
			s.Clock = max(s.Clock, ev.Msg.TS)
			s = p.request(s, from, ev.Msg.TS, out)
		case Release:
			// (e) On RELEASE(i), S_j sends a REPLY to the next site waiting
			// in the queue and deletes that entry from the queue; with the
			// queue empty, it has not voted.
			s = p.voteNext(s, out)
		case Yield:
			// Case III: S_j assumes as if it has been released by S_k,
			// places S_k's request in the queue, and sends a REPLY to the
			// top request's site. (To the letter, a YIELD from a process
			// it did not vote for also gives the vote away: FixHeld sees
			// that none is sent.)
			if s.Voted == from {
				s.Queued[from] = s.VotedTS
			}
			s = p.voteNext(s, out)
		case Grant:
			// A REPLY: one more vote, and from this voter no longer a
			// failure (Case II: "has not received a new REPLY from it").
			s.Votes |= 1 << from
			s.Failed &^= 1 << from
			if s.Votes == p.Sets[self] {
				// It has locked its whole request set, which is what an
				// INQUIRE asks (seed 002): the RELEASE after the CS
				// answers it.
				s.Deferred = 0
			}
		case Fail:
			s.Failed |= 1 << from
			if p.Fixes&FixDefer != 0 {
				// FixDefer: now it knows it has failed; answer the
				// INQUIREs it kept (Case II).
				for _, j := range s.Deferred.Members() {
					s = p.yield(s, j, out)
				}
			}
		case Inquire:
			s = p.inquire(s, self, from, out)
		}
	}
	return s
}

// request is voter j's reaction to a REQUEST(ts) from i.
func (p *Protocol) request(s State, i model.NodeID, ts uint32, out *model.Out[Msg]) State {
	if s.Voted == Nobody {
		// (b) A site that has not voted since the last RELEASE sends a
		// REPLY and is locked by the request.
		s.Voted, s.VotedTS = i, ts
		out.Send(i, Msg{Kind: Grant})
		return s
	}
	// The request blocks: it waits in the queue.
	head, queued := s.Queued.Head(p.N)
	outranks := before(ts, i, s.VotedTS, s.Voted) // i's request outranks the vote's
	if p.Fixes&FixDisplaced != 0 && outranks {
		// FixDisplaced: queued requests that outrank the vote have been
		// told nothing; those that i outranks are told FAILED now.
		for k := range p.N {
			t := s.Queued[k]
			if t != 0 && before(t, model.NodeID(k), s.VotedTS, s.Voted) && before(ts, i, t, model.NodeID(k)) {
				out.Send(model.NodeID(k), Msg{Kind: Fail})
			}
		}
	}
	s.Queued[i] = ts
	if p.Fixes&FixQueue == 0 {
		// Case I: FAILED to S_i if its request has lower priority than
		// the one S_j voted for, otherwise INQUIRE to S_k.
		if outranks {
			out.Send(s.Voted, Msg{Kind: Inquire})
		} else {
			out.Send(i, Msg{Kind: Fail})
		}
		return s
	}
	// FixQueue: FAILED to S_i unless its request outranks the vote's and
	// every queued one; one INQUIRE per vote, which serves whichever
	// request heads the queue when the YIELD comes.
	switch {
	case !outranks || queued && before(s.Queued[head], head, ts, i):
		out.Send(i, Msg{Kind: Fail})
	case queued && before(s.Queued[head], head, s.VotedTS, s.Voted):
		// The INQUIRE is on its way already.
	default:
		out.Send(s.Voted, Msg{Kind: Inquire})
	}
	return s
}

// inquire is requester k's reaction to an INQUIRE from voter j.
func (p *Protocol) inquire(s State, k, j model.NodeID, out *model.Out[Msg]) State {
	if p.Fixes&FixHeld != 0 && s.Votes&(1<<j) == 0 {
		return s // FixHeld: a stale INQUIRE, for a vote it no longer holds
	}
	switch {
	case s.Failed != 0:
		// Case II: it has received a FAILED, or yielded and has no new
		// REPLY, so it cannot lock all of R_k now: YIELD.
		s = p.yield(s, j, out)
	case p.Fixes&FixDefer != 0 && s.Phase == mutex.Wanted && s.Votes != p.Sets[k]:
		// FixDefer: the outcome is open; answer when a FAILED arrives, or
		// with the RELEASE once it has all votes.
		s.Deferred |= 1 << j
	}
	// Otherwise it has all votes (it answers with the RELEASE), or, to the
	// letter of Case II, the INQUIRE is dropped.
	return s
}

// yield returns voter j's vote (Case II).
func (p *Protocol) yield(s State, j model.NodeID, out *model.Out[Msg]) State {
	s.Votes &^= 1 << j
	s.Failed |= 1 << j
	s.Deferred &^= 1 << j
	out.Send(j, Msg{Kind: Yield})
	return s
}

// voteNext gives the vote to the head of the queue, or to nobody.
func (p *Protocol) voteNext(s State, out *model.Out[Msg]) State {
	k, ok := s.Queued.Head(p.N)
	if !ok {
		s.Voted, s.VotedTS = Nobody, 0
		return s
	}
	s.Voted, s.VotedTS = k, s.Queued[k]
	s.Queued[k] = 0
	out.Send(k, Msg{Kind: Grant})
	return s
}

// before reports whether request (ts, i) has priority over (ts2, j): the
// smaller timestamp, then the smaller id.
func before(ts uint32, i model.NodeID, ts2 uint32, j model.NodeID) bool {
	return ts < ts2 || ts == ts2 && i < j
}
