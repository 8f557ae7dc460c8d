package centralized

import (
	"fmt"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

// AppendState encodes s canonically.
func (p *Protocol) AppendState(b []byte, s State) []byte {
	b = append(b, byte(s.Phase), s.Rounds, byte(s.Holder))
	return model.AppendString(b, string(s.Queue))
}

// ReadState decodes a state written by AppendState.
func (p *Protocol) ReadState(b []byte) (State, []byte) {
	s := State{Phase: mutex.Phase(b[0]), Rounds: b[1], Holder: model.NodeID(b[2])}
	var q string
	q, b = model.ReadString(b[3:])
	s.Queue = Queue(q)
	return s, b
}

// AppendMsg encodes m canonically.
func (p *Protocol) AppendMsg(b []byte, m Msg) []byte { return append(b, byte(m.Kind)) }

// ReadMsg decodes a message written by AppendMsg.
func (p *Protocol) ReadMsg(b []byte) (Msg, []byte) { return Msg{Kind(b[0])}, b[1:] }

// FormatMsg: "REQ", "GRANT" or "REL".
func (p *Protocol) FormatMsg(m Msg) string {
	switch m.Kind {
	case Request:
		return "REQ"
	case Grant:
		return "GRANT"
	case Release:
		return "REL"
	}
	return fmt.Sprintf("MSG(%d)", m.Kind)
}

// FormatState: "WANTED rounds=0" for a client, "COORD holder=p1
// queue=[p2 p0]" for the coordinator.
func (p *Protocol) FormatState(self model.NodeID, s State) string {
	if self == p.Coordinator() {
		return fmt.Sprintf("COORD holder=%s queue=%s", formatHolder(s.Holder), s.Queue)
	}
	return fmt.Sprintf("%s rounds=%d", s.Phase, s.Rounds)
}

func formatHolder(h model.NodeID) string {
	if h == Nobody {
		return "none"
	}
	return h.String()
}
