package ringelection

import (
	"slices"
	"strings"

	"github.com/coordcheck/coordcheck/model"
)

// TimerPoll is the enhanced ring's poll timeout: the successor Next has
// not answered the messages sent to it, so the sender polls the one after
// it ("sequentially poll successors until one responds").
const TimerPoll model.TimerID = 0

// Protocol implements model.TimerNamer (checked by the compiler).
var _ model.TimerNamer = (*Protocol)(nil)

// TimerName names the timer in traces.
func (p *Protocol) TimerName(model.TimerID) string { return "poll-timeout" }

// stepEnhanced is the enhanced ring algorithm of seed 001:
//
//	a) P sends an ELECTION message (with its id) to its closest alive
//	   successor, polling successors until one responds;
//	b) at each step along the way, each process adds its id to the list;
//	c) when the message gets back to the initiator (the first process that
//	   detects its id in the message), it elects as coordinator the
//	   process with the highest id and sends a COORD message with this id;
//	d) again, each process adds its id to the message;
//	e) once the COORD message gets back to the initiator, the election is
//	   over if the elected process is in the list; otherwise the election
//	   is re-initiated.
//
// Redundant election messages are not killed off. "Responds" is an ACK
// that the receiver sends as it takes the message (and forwards it, in
// the same step); the poll timeout is a perfect failure detector, like
// the bully algorithm's (see TimerReady).
func (p *Protocol) stepEnhanced(self model.NodeID, s State, ev model.Event[Msg], out *model.Out[Msg]) State {
	id := byte(p.ID(self))
	switch ev.Kind {
	case model.Environment:
		// a) P starts an election with its own id in the list.
		s.Participant = true
		s = p.send(s, Msg{Kind: Election, List: string(id)}, out)
	case model.Timeout:
		// a) Next did not respond: poll the successor after it, and send
		// it again whatever Next did not answer.
		if len(s.Unacked) > 0 {
			s.Next = p.succ(s.Next)
			for _, m := range s.Unacked {
				out.Send(s.Next, m)
			}
			out.SetTimer(TimerPoll)
		}
	case model.Receive:
		m := ev.Msg
		if m.Kind != Ack {
			out.Send(ev.From, Msg{Kind: Ack}) // respond to the poll
		}
		switch m.Kind {
		case Election:
			if strings.IndexByte(m.List, id) >= 0 {
				// c) Back at the first process that finds its id in the
				// list: elect the highest id, announce it.
				s.Leader = maxID(m.List)
				s = p.send(s, Msg{Kind: Coordinator, ID: s.Leader, List: string(id)}, out)
			} else {
				// b) Add P's id and pass the message on.
				s.Participant = true
				s = p.send(s, Msg{Kind: Election, List: m.List + string(id)}, out)
			}
		case Coordinator:
			if strings.IndexByte(m.List, id) >= 0 {
				// e) Back at the initiator: over if the elected process
				// passed it on, otherwise re-initiate.
				if strings.IndexByte(m.List, m.ID) < 0 {
					s.Leader = 0
					s = p.send(s, Msg{Kind: Election, List: string(id)}, out)
				}
			} else {
				// d) Learn the coordinator, add P's id, pass it on.
				s.Leader = m.ID
				s = p.send(s, Msg{Kind: Coordinator, ID: m.ID, List: m.List + string(id)}, out)
			}
		case Ack:
			// Next has the oldest message: it is no longer P's concern.
			if ev.From == s.Next && len(s.Unacked) > 0 {
				s.Unacked = s.Unacked[1:len(s.Unacked):len(s.Unacked)]
				if len(s.Unacked) == 0 {
					s.Unacked = nil
					out.CancelTimer(TimerPoll)
				}
			}
		}
	}
	return s
}

// send sends m to Next and keeps it until Next answers.
func (p *Protocol) send(s State, m Msg, out *model.Out[Msg]) State {
	out.Send(s.Next, m)
	s.Unacked = append(slices.Clip(s.Unacked), m)
	out.SetTimer(TimerPoll)
	return s
}

// maxID is the highest id in a list.
func maxID(list string) uint8 {
	var best uint8
	for i := range len(list) {
		best = max(best, list[i])
	}
	return best
}

// Protocol implements model.TimerGuard (checked by the compiler).
var _ model.TimerGuard[State, Msg] = (*Protocol)(nil)

// TimerReady makes the poll timeout a perfect failure detector: it fires
// only when Next is down and no answer from Next is still on its way; then
// every message still unanswered was lost with Next. Chang-Roberts has no
// timers.
func (p *Protocol) TimerReady(w *model.World[State, Msg], self model.NodeID, _ model.TimerID) bool {
	next := w.Nodes[self].Next
	if !w.IsDown(next) {
		return false
	}
	for _, e := range w.Net {
		if e.From == next && e.To == self && e.Msg.Kind == Ack {
			return false
		}
	}
	return true
}
