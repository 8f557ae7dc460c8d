// Package tokenring is the token ring algorithm for mutual exclusion (seed
// 000, "Token ring algorithm"; seed 001, "Token ring algorithm"; seed 002,
// "Ring-based mutual exclusion"): the N processes form a unidirectional
// logical ring, p_i's successor is p_(i+1) mod N, and a token circulates on
// it. Only the process that holds the token may enter the critical
// section.
//
// Seed 000's pseudocode for process P_i:
//
//	receive token from P_(n+i-1) mod n
//	<critical section>          (not necessarily: if P_i does not want it,
//	send token to P_(i+1) mod n  it just forwards the token)
//
// and seed 002's enter() and exit(): "enter(): wait until you get token;
// exit(): pass on token to ring successor; if receive token, and not
// currently in enter(), just pass on token to ring successor".
//
// The token is an ordinary message, so it circulates for ever, also when
// nobody wants the critical section (seed 001: bandwidth "1 (all enter) to
// ∞ (none enter)"). Forwarding is part of receiving the token, so it is a
// message delivery: under weak fairness of delivery the token keeps moving,
// which is what starvation freedom ("every request is granted") relies on.
// The state space stays finite because each process enters at most Rounds
// times; once every process is done, the token's tour repeats states.
//
// Node p0 starts with the token. It does not want the critical section at
// the start, so Init applies the receive rule to it at once: the initial
// world has the token in flight from p0 to p1.
//
// Seed 000's assumptions include "possible loss of message", and its
// extra slides ask "what happens if the token is lost?": "a new one must
// be generated; a possible problem: multiple token generation". Variant
// chooses the algorithm:
//
//   - Plain is the ring above. On a lossy network (-faults drop=1) a lost
//     token is never replaced: every later request waits for ever.
//   - Timeout is the extra slides' "timeout-based algorithm" (timeout.go):
//     the token carries a value v in 0..k-1 that p0 advances every tour, a
//     process that has not seen the token back within a timeout asks its
//     predecessor and regenerates the token if the predecessor has already
//     passed it on. The slides rely on the timeout being longer than any
//     tour ("timeout > sum(exclusion time + protocol time)"). The checker
//     finds that on FIFO links the question to the predecessor is enough
//     even with timers that fire early, as the token travels ahead of the
//     answer; on an unordered network the answer can overtake a token
//     that is only slow, and the regenerated token is a second one.
//   - PingPong is Misra's algorithm (pingpong.go): two tokens, ping (the
//     privilege) and pong, each detecting the loss of the other by the
//     numbers of their meetings; it needs neither delays nor identities.
package tokenring

import (
	"fmt"

	"github.com/coordcheck/coordcheck/internal/clip"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

// Variant is the algorithm of the ring: the reliable ring, or one of the
// notes' two ways of detecting and regenerating a lost token.
type Variant uint8

// The variants.
const (
	// Plain is the token ring of the notes' main slides; it assumes that
	// the token is never lost.
	Plain Variant = iota
	// Timeout is the timeout-based detection and regeneration of seed
	// 000's extra slides.
	Timeout
	// PingPong is Misra's ping-pong algorithm (seed 000's extra slides;
	// Misra, PODC 1983).
	PingPong
)

var variantNames = [...]string{Plain: "plain", Timeout: "timeout", PingPong: "pingpong"}

// String is the variant's name on the command line.
func (v Variant) String() string { return variantNames[v] }

// ParseVariant reads a variant name: plain, timeout or pingpong.
func ParseVariant(s string) (Variant, error) {
	for i, n := range variantNames {
		if n == s {
			return Variant(i), nil
		}
	}
	return 0, fmt.Errorf("parameter variant=%s: want plain, timeout or pingpong", clip.Quote(s))
}

// Protocol is the token ring among N processes, each entering the critical
// section at most Rounds times.
type Protocol struct {
	N      int
	Rounds int
	// Variant is the algorithm; Plain by default.
	Variant Variant
	// K bounds the numbers the tokens carry: under Timeout the notes' token
	// value v in 0..K-1 ("k > 2"); under PingPong the counts nbping and
	// nbpong, which Misra keeps unbounded, are taken modulo K (1..K), which
	// keeps the state space finite. Plain ignores it.
	K int

	mutex.Site[State] // FairInput and Waiting
}

// DefaultK is the notes' smallest admissible k ("k > 2").
const DefaultK = 3

// New returns the plain token ring for n processes and the given rounds.
func New(n, rounds int) *Protocol { return &Protocol{N: n, Rounds: rounds, K: DefaultK} }

// Protocol implements, through mutex.Site, the model's hooks of a
// mutual-exclusion protocol (checked by the compiler).
var (
	_ model.FairInputs    = (*Protocol)(nil)
	_ model.Waiter[State] = (*Protocol)(nil)
)

// NewVariant returns variant v of the token ring for n processes, the
// given rounds, and token numbers bounded by k (see Protocol.K).
func NewVariant(n, rounds int, v Variant, k int) *Protocol {
	return &Protocol{N: n, Rounds: rounds, Variant: v, K: k}
}

// Successor is p_i's successor on the ring, p_(i+1) mod N: the only node
// p_i sends the token to.
func (p *Protocol) Successor(i model.NodeID) model.NodeID {
	return model.NodeID((int(i) + 1) % p.N)
}

// Predecessor is p_i's predecessor on the ring, p_(n+i-1) mod n, from
// which it receives the token (and which the timeout variant asks).
func (p *Protocol) Predecessor(i model.NodeID) model.NodeID {
	return model.NodeID((int(i) + p.N - 1) % p.N)
}

// State is one process's state.
type State struct {
	Phase  mutex.Phase
	Rounds uint8 // critical sections completed
	// Token: the process holds the token that grants the critical section
	// (under PingPong, the ping: the notes' pinghere). It keeps it only
	// while WANTED (waiting to enter) or HELD; a process that does not
	// want the critical section passes the token on as it receives it.
	Token bool
	// Held is the number of the token held: its value v (Timeout) or
	// nbping (PingPong); 0 when no token is held and under Plain.
	Held int8
	// Seen is what the process records of the tokens: under Timeout the
	// notes' "state", the value of the last token it transmitted; under
	// PingPong the notes' "token" (Misra's m), the number of the last
	// token it saw, positive for ping and negative for pong, 0 at first.
	Seen int8
	// Asking: under Timeout, the process has asked its predecessor about
	// the token and awaits the answer.
	Asking bool
}

// MutexPhase is the process's phase (mutex.Phased).
func (s State) MutexPhase() mutex.Phase { return s.Phase }

// InCS: the process holds the critical section.
func (p *Protocol) InCS(_ model.NodeID, s State) bool { return s.Phase == mutex.Held }

// Kind is a message type.
type Kind uint8

// The messages.
const (
	Token  Kind = iota // TOKEN(v): the privilege, sent to the ring successor
	Ask                // ASK: Timeout, "ask the previous P_j"
	Answer             // STATE(v): Timeout, P_j's answer: its state variable
	Ping               // PING(nbping): PingPong, the token that grants the CS
	Pong               // PONG(nbpong): PingPong, the other token
)

// Msg is a message. V is the number it carries: the token value v
// (TOKEN, STATE), nbping (PING) or nbpong (PONG, negative).
type Msg struct {
	Kind Kind
	V    int8
}

// Nodes is N.
func (p *Protocol) Nodes() int { return p.N }

// Init: every process is RELEASED, and p0 starts with the token. Not
// wanting the critical section, it passes the token to its successor
// (seed 002: "if receive token, and not currently in enter(), just pass
// on token"). The variants add their own start: see initTimeout and
// initPingPong.
func (p *Protocol) Init(self model.NodeID, out *model.Out[Msg]) State {
	switch p.Variant {
	case Timeout:
		return p.initTimeout(self, out)
	case PingPong:
		return p.initPingPong(self, out)
	}
	if self == 0 {
		out.Send(p.Successor(self), Msg{Kind: Token})
	}
	return State{}
}

// Inputs offers request when released with rounds left, enter when
// WANTED and holding the token, and exit when in the critical section.
func (p *Protocol) Inputs(_ model.NodeID, s State, dst []model.Input) []model.Input {
	switch {
	case s.Phase == mutex.Released && int(s.Rounds) < p.Rounds:
		dst = append(dst, mutex.Request)
	case s.Phase == mutex.Wanted && s.Token:
		dst = append(dst, mutex.Enter)
	case s.Phase == mutex.Held:
		dst = append(dst, mutex.Exit)
	}
	return dst
}

// Step is the pseudocode of seeds 000 and 002, and of the extra slides
// for the variants.
func (p *Protocol) Step(self model.NodeID, s State, ev model.Event[Msg], out *model.Out[Msg]) State {
	switch ev.Kind {
	case model.Environment:
		switch ev.Input {
		case mutex.Request:
			// enter(): wait until you get the token.
			s.Phase = mutex.Wanted
		case mutex.Enter:
			// Holding the token: <critical section>.
			s.Phase = mutex.Held
		case mutex.Exit:
			// exit(): send token to P_(i+1) mod n.
			s.Phase = mutex.Released
			s.Rounds++
			s.Token = false
			v := s.Held
			s.Held = 0
			s = p.pass(self, s, v, out)
		}
	case model.Receive:
		switch ev.Msg.Kind {
		case Token:
			if p.Variant == Timeout {
				s = p.tokenBack(s, out)
			}
			s = p.receive(self, s, ev.Msg.V, out)
		case Ask:
			s = p.ask(self, s, ev.From, out)
		case Answer:
			s = p.answer(self, s, ev.Msg.V, out)
		case Ping:
			s = p.ping(self, s, ev.Msg.V, out)
		case Pong:
			s = p.pong(self, s, ev.Msg.V, out)
		}
	case model.Timeout:
		s = p.timeout(self, s, out)
	}
	return s
}

// receive is the rule for the token that grants the critical section,
// numbered v: "receive token from P_(n+i-1) mod n": keep it to enter the
// critical section if currently in enter(); otherwise just pass it on to
// the ring successor.
func (p *Protocol) receive(self model.NodeID, s State, v int8, out *model.Out[Msg]) State {
	if s.Phase == mutex.Wanted {
		s.Token, s.Held = true, v
		return s
	}
	return p.pass(self, s, v, out)
}

// pass sends the token numbered v to the successor: "send token to
// P_(i+1) mod n", with what each variant does on transmission.
func (p *Protocol) pass(self model.NodeID, s State, v int8, out *model.Out[Msg]) State {
	switch p.Variant {
	case Timeout:
		return p.transmit(self, s, v, out)
	case PingPong:
		// token := nbping; pinghere := false; SEND(nbping).
		s.Seen = v
		out.Send(p.Successor(self), Msg{Kind: Ping, V: v})
		return s
	}
	out.Send(p.Successor(self), Msg{Kind: Token})
	return s
}
