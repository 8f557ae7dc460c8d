package tokenring

import "github.com/coordcheck/coordcheck/model"

// Misra's ping-pong algorithm (seed 000's extra slides; J. Misra,
// "Detecting termination of distributed computations using markers",
// PODC 1983). It needs neither delays nor process identities:
//
//	Two tokens, 'ping' and 'pong', circulate in the same direction; the
//	order of messages on a connection is preserved and the tokens do not
//	overtake each other. Only one token (ping) grants the exclusion.
//	Each token detects the possible loss of the other: loss is detected
//	at P_i if, in a complete passage around the ring, neither P_i nor the
//	token found the other token. The tokens carry nbping and nbpong, of
//	equal absolute value and opposite sign, which record the number of
//	times the tokens have met: each time they meet, nbping++ and
//	nbpong--. Invariant: nbping + nbpong = 0. Initially nbping = 1,
//	nbpong = -1.
//
// and the slides' pseudocode, where token is what P_i records (Misra's m,
// State.Seen here):
//
//	BEGIN token := 0; ...
//	ping-pong.IN(t) =>
//	  IF t > 0 THEN                          {PING or PONG? PING!}
//	    pinghere := true; nbping := t;
//	    IF ponghere THEN                     {do the tokens meet?}
//	      nbping := nbping+1; nbpong := nbpong-1
//	    ELSE IF token <> nbping THEN         {was PONG found?}
//	      token := nbping
//	    ELSE                                 {ping went round, no pong}
//	      nbping := nbping+1; nbpong := -nbping
//	  ELSE                                   {PONG!}
//	    as above with pings and pongs swapped
//	  ...
//	  token := nbping (or nbpong); pinghere := false (or ponghere);
//	  SEND(nbping) (or nbpong)
//
// Modelling choices:
//
//   - Only ping waits at a process (while it is WANTED or HELD): the "..."
//     of the pseudocode is the critical section. A pong is forwarded in
//     the step that receives it, so ponghere is never true when a ping
//     arrives; the tokens meet when a pong arrives where the ping is.
//   - The last branch regenerates the lost token with the new number: the
//     ping sends PONG(-nbping) on, and the pong makes a new ping, which
//     the process keeps if it wants the critical section. The regenerated
//     token is sent first, then the arriving one.
//   - Misra's counts are unbounded; here they run modulo K (1, 2, .., K, 1,
//     ..), which keeps the state space finite. That is sound while fewer
//     than K increments happen between two visits of a token to a
//     process; with one loss, a regeneration and a meeting may. The
//     checker finds K = 2 too few: after a regeneration (ping 2, pong
//     -2) the tokens meet and the pong comes round as -1, the number a
//     process saw before the loss, so that process makes a second ping.
//     K = 3 passes (see the tests).
//   - p0 starts with both tokens and sends ping, then pong, to p1.
//
// What the checker finds (pingpong_test.go): on FIFO links, with one lost
// message, exactly one ping and one pong remain or are regenerated, mutual
// exclusion holds and so does starvation freedom (the drop budget ends the
// losses, and the regenerated token circulates under weak fairness). On an
// unordered network a pong overtakes the ping and a second ping is made
// (counterexamples/tokenring/pingpong-overtaking.cex); with both tokens
// lost nothing is left to regenerate them.

// initPingPong: p0 sends PING(1) and PONG(-1) to its successor; its
// token variable is then -1, the last token sent.
func (p *Protocol) initPingPong(self model.NodeID, out *model.Out[Msg]) State {
	if self != 0 {
		return State{}
	}
	out.Send(p.Successor(self), Msg{Kind: Ping, V: 1})
	out.Send(p.Successor(self), Msg{Kind: Pong, V: -1})
	return State{Seen: -1}
}

// next is n+1 in the counting modulo K: 1, 2, .., K, 1.
func (p *Protocol) next(n int8) int8 { return n%int8(p.K) + 1 }

// ping is "ping-pong.IN(t), t > 0": a ping numbered t arrives.
func (p *Protocol) ping(self model.NodeID, s State, t int8, out *model.Out[Msg]) State {
	nbping := t
	switch {
	// IF ponghere: never, a pong does not wait at a process (see above).
	case s.Seen != nbping:
		// ELSE IF token <> nbping THEN token := nbping: since the ping
		// last left, the pong passed here or the tokens met.
		s.Seen = nbping
	default:
		// ELSE: the ping went round and found no pong: the pong is lost.
		// nbping := nbping+1; nbpong := -nbping; regenerate the pong.
		nbping = p.next(nbping)
		s.Seen = -nbping
		out.Send(p.Successor(self), Msg{Kind: Pong, V: -nbping})
	}
	// pinghere := true; keep the ping for the critical section, or pass
	// it on.
	return p.receive(self, s, nbping, out)
}

// pong is "ping-pong.IN(t), t < 0": "as above with pings and pongs
// swapped"; the pong always goes on at once.
func (p *Protocol) pong(self model.NodeID, s State, t int8, out *model.Out[Msg]) State {
	nbpong := -t // its absolute value, in 1..K
	switch {
	case s.Token:
		// IF pinghere THEN nbpong := nbpong-1; nbping := nbping+1: the
		// tokens meet, both counts move away from zero.
		nbpong = p.next(nbpong)
		s.Held = p.next(s.Held)
	case s.Seen != -nbpong:
		// ELSE IF token <> nbpong THEN token := nbpong.
		s.Seen = -nbpong
	default:
		// ELSE: the pong went round and found no ping: the ping is lost.
		// nbpong := nbpong-1; nbping := -nbpong; regenerate the ping.
		nbpong = p.next(nbpong)
		s = p.receive(self, s, nbpong, out)
	}
	// token := nbpong; ponghere := false; SEND(nbpong).
	s.Seen = -nbpong
	out.Send(p.Successor(self), Msg{Kind: Pong, V: -nbpong})
	return s
}
