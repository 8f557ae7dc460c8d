package tokenring

import "github.com/coordcheck/coordcheck/model"

// The timeout-based algorithm of seed 000's extra slides ("Token loss
// detection and regeneration: timeout-based algorithm"), rule by rule:
//
//	Set the value v of the token between 0 and k-1 (k > 2). Each site P_i
//	keeps state information recording the token value: VAR state: 0..k-1.
//	Before token transmission P_i must: IF i=0 THEN v := v+1 mod k
//	(only P_0 updates the token); state := v. The value of v is the same
//	for each complete cycle around the ring.
//	Detection of token loss by P_i: every time a token is transmitted,
//	P_i starts a timer. If the timeout period expires before return of
//	the token, then ask the previous P_j, j = neighbor[left, i]. The
//	token is considered lost if P_j already had the token, but it was not
//	received by P_i: check the state variable!
//	Token regeneration by P_i: regenerate the token with the correct
//	value v (state of P_j).
//
// "P_j already had the token but P_i did not receive it" reads, in the
// state variables: P_j's state is the value of the token P_i is due to
// receive next. For i > 0 that is P_i's own state plus one (the next
// tour's value, which P_0 has set); for P_0 it is its own state (P_0
// transmitted the current tour's token and awaits it back with the same
// value).
//
// Modelling choices where the slides leave a gap:
//
//   - The question is an ASK message to the predecessor, the answer a
//     STATE(v) message carrying its state variable. A process has one
//     question out at a time, and starts its timer again when the answer
//     says the token is not lost (it has not reached P_j yet, or has come
//     back meanwhile). The answer is judged against the asker's state
//     when it arrives.
//   - At the start every process has its timer running, as if each had
//     passed the token of tour 0: P_1 must be able to detect the loss of
//     the very first token.
//   - The slides' condition for the timeout, "timeout > sum(exclusion
//     time + protocol time)", is a synchronous system. TimerReady makes it
//     the default timer semantics: the timer fires only when no token
//     exists (none is held or in flight). Under -timers free the timer may
//     fire at any time: the slides' "what happens if one process begins a
//     token detection and it is not lost yet?".
//
// What the checker finds (timeout_test.go): on FIFO links the algorithm
// keeps at most one token and starvation freedom with one lost message,
// under both timer semantics. A premature timeout is harmless there: the
// token P_j passed on is on the link to P_i ahead of P_j's answer, so it
// arrives first. On an unordered network the answer can overtake it, and
// P_i makes a second token (counterexamples/tokenring/timeout-*.cex);
// there even perfect timers fail once the token is lost, as the answer to
// another process's question can overtake the regenerated token. With two
// messages lost, the token and the one question that would have found it,
// processes starve: the slides assume the inquiry arrives.

// TimerToken is the timer a process starts when it transmits the token.
const TimerToken model.TimerID = 0

// Protocol implements model.TimerNamer (checked by the compiler).
var _ model.TimerNamer = (*Protocol)(nil)

// TimerName names the timer in traces: "token-timeout".
func (p *Protocol) TimerName(t model.TimerID) string {
	if t == TimerToken {
		return "token-timeout"
	}
	return "t?"
}

// initTimeout: p0 holds the token of tour 0 and transmits it at once (so
// it carries v = 1); every process starts its timer.
func (p *Protocol) initTimeout(self model.NodeID, out *model.Out[Msg]) State {
	out.SetTimer(TimerToken)
	if self == 0 {
		return p.transmit(self, State{}, 0, out)
	}
	return State{}
}

// transmit is "before token transmission P_i must: IF i=0 THEN v := v+1
// mod k; state := v", then the transmission, and "every time a token is
// transmitted, P_i starts a timer".
func (p *Protocol) transmit(self model.NodeID, s State, v int8, out *model.Out[Msg]) State {
	if self == 0 {
		v = (v + 1) % int8(p.K)
	}
	s.Seen = v
	out.Send(p.Successor(self), Msg{Kind: Token, V: v})
	out.SetTimer(TimerToken)
	return s
}

// tokenBack: the token has returned before the timeout: the timer stops.
func (p *Protocol) tokenBack(s State, out *model.Out[Msg]) State {
	out.CancelTimer(TimerToken)
	return s
}

// timeout: "if timeout period expires before return of the token, then
// ask the previous P_j". A process asks one question at a time: while an
// answer is due, the timeout waits for it.
func (p *Protocol) timeout(self model.NodeID, s State, out *model.Out[Msg]) State {
	if p.Variant != Timeout || s.Token || s.Asking {
		return s
	}
	s.Asking = true
	out.Send(p.Predecessor(self), Msg{Kind: Ask})
	return s
}

// ask: P_j answers its successor's question with its state variable.
func (p *Protocol) ask(self model.NodeID, s State, from model.NodeID, out *model.Out[Msg]) State {
	out.Send(from, Msg{Kind: Answer, V: s.Seen})
	return s
}

// answer: P_i checks P_j's state. "The token is considered lost if P_j
// already had the token, but it was not received by P_i": then "regenerate
// the token with the correct value v (state of P_j)", and treat it as
// received from P_j. Otherwise the token has not reached P_j yet, or has
// come back meanwhile: start the timer again. A process that holds the
// token ignores the answer.
func (p *Protocol) answer(self model.NodeID, s State, v int8, out *model.Out[Msg]) State {
	s.Asking = false
	switch {
	case s.Token:
		return s
	case v != p.due(self, s):
		out.SetTimer(TimerToken)
		return s
	}
	return p.receive(self, s, v, out)
}

// due is the value of the token P_i is to receive next: its state plus one
// (P_0 has advanced it), or, at P_0, its own state.
func (p *Protocol) due(self model.NodeID, s State) int8 {
	if self == 0 {
		return s.Seen
	}
	return (s.Seen + 1) % int8(p.K)
}

// Protocol implements model.TimerGuard (checked by the compiler).
var _ model.TimerGuard[State, Msg] = (*Protocol)(nil)

// TimerReady is the slides' "timeout > sum(exclusion time + protocol
// time)" under the default (perfect) timer semantics: the timeout expires
// only when the token will not return, because no process holds it and
// none is in flight. It applies to the Timeout variant, the only one with
// a timer.
func (p *Protocol) TimerReady(w *model.World[State, Msg], self model.NodeID, t model.TimerID) bool {
	held, flying, _ := p.count(w)
	return t == TimerToken && held+flying == 0 && !w.Nodes[self].Asking
}
