package ringelection

import "github.com/coordcheck/coordcheck/model"

// stepChangRoberts is Chang and Roberts' algorithm, in the words of seed
// 001 (and of the SPIN model changroberts.pml, which it mirrors exactly).
func (p *Protocol) stepChangRoberts(self model.NodeID, s State, ev model.Event[Msg], out *model.Out[Msg]) State {
	id := uint8(p.ID(self))
	next := p.succ(self)
	if s.Done {
		// A process that has passed on the COORD message takes no further
		// part (in SPIN it leaves its loop); no message reaches it then
		// unless a crash broke the ring.
		return s
	}
	switch ev.Kind {
	case model.Environment:
		// 1. P sends an ELECTION message (with its id) to its successor,
		// and becomes a participant.
		s.Participant = true
		out.Send(next, Msg{Kind: Election, ID: id})
	case model.Receive:
		t := ev.Msg.ID
		switch ev.Msg.Kind {
		case Election:
			// 2. On receiving an ELECTION, Q compares the id in the
			// message with its own.
			switch {
			case t > id:
				// a) The arrived id is greater: forward it.
				s.Participant = true
				out.Send(next, Msg{Kind: Election, ID: t})
			case t < id && !s.Participant:
				// b) Smaller, and Q is not a participant yet: replace
				// the id with its own and forward.
				s.Participant = true
				out.Send(next, Msg{Kind: Election, ID: id})
			case t < id:
				// b) Smaller, and Q is already a participant: the
				// message is not forwarded (redundant elections are
				// killed off).
			default:
				// c) Q's own id came back: Q wins, and sends a COORD
				// message to its successor.
				s.Leader = id
				out.Send(next, Msg{Kind: Coordinator, ID: id})
			}
		case Coordinator:
			// 3. On a COORD message, Q forwards it to its successor
			// (unless Q is the new coordinator) and is done.
			if t != id {
				s.Leader = t
				out.Send(next, Msg{Kind: Coordinator, ID: t})
			}
			s.Done = true
		}
	}
	return s
}
