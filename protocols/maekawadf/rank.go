package maekawadf

import (
	"math/bits"

	"github.com/coordcheck/coordcheck/model"
)

// stepWeight outweighs every message one input can send: K requests of
// weight at most 4+N each, K releases, and the INQUIREs it stops deferring.
const stepWeight = 1 << 16

// Protocol implements model.Ranked (checked by the compiler).
var _ model.Ranked[State, Msg] = (*Protocol)(nil)

// Rank and Weight are the variant that shows every run ends (model.Ranked),
// so that the checker need not keep the state graph to check starvation
// freedom. An input moves its process forward (RELEASED, WANTED, HELD, and
// round after round), which lowers Rank by stepWeight. A delivery lowers
// the weight in flight: each message weighs more than what its receiver
// sends in reply (a REQUEST at most N FAILEDs to displaced requests and an
// INQUIRE; a RELEASE or YIELD one GRANT; an INQUIRE one YIELD, or a kept
// INQUIRE, which weighs as much; a FAILED turns kept INQUIREs into YIELDs).
func (p *Protocol) Rank(self model.NodeID, s State) uint64 {
	left := 3*p.Requesters.Rounds(self, p.Rounds) - 3*int(s.Rounds) - int(s.Phase)
	return uint64(left)*stepWeight + 2*uint64(bits.OnesCount64(uint64(s.Deferred)))
}

// Weight is a message's part of the variant (see Rank).
func (p *Protocol) Weight(m Msg) uint64 {
	switch m.Kind {
	case Request:
		return uint64(p.N) + 4
	case Inquire:
		return 3
	case Yield, Release:
		return 2
	}
	return 1 // GRANT, FAILED
}
