package maekawa

import (
	"fmt"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

// AppendState encodes s canonically.
func (p *Protocol) AppendState(b []byte, s State) []byte {
	b = append(b, byte(s.Phase), s.Grants, s.Rounds, byte(s.Voted))
	b = model.AppendUvarint(b, uint64(s.Clock))
	b = model.AppendUvarint(b, uint64(s.TS))
	return s.Queued.Append(b, p.N)
}

// ReadState decodes a state written by AppendState.
func (p *Protocol) ReadState(b []byte) (State, []byte) {
	s := State{Phase: mutex.Phase(b[0]), Grants: b[1], Rounds: b[2], Voted: model.NodeID(b[3])}
	var v uint64
	v, b = model.ReadUvarint(b[4:])
	s.Clock = uint32(v)
	v, b = model.ReadUvarint(b)
	s.TS = uint32(v)
	return s, s.Queued.Read(b, p.N)
}

// FormatMsg: "REQ(ts=3)", "GRANT" or "REL".
func (p *Protocol) FormatMsg(m Msg) string {
	switch m.Kind {
	case Request:
		return fmt.Sprintf("REQ(ts=%d)", m.TS)
	case Grant:
		return "GRANT"
	case Release:
		return "REL"
	}
	return fmt.Sprintf("MSG(%d,%d)", m.Kind, m.TS)
}

// FormatState: "WANTED clock=2 ts=2 grants=1/3 rounds=0 voted=p1
// queue=[(1,p0) (2,p2)]", the queue in the order it will be served.
func (p *Protocol) FormatState(self model.NodeID, s State) string {
	str := fmt.Sprintf("%s clock=%d", s.Phase, s.Clock)
	if s.Phase != mutex.Released {
		str += fmt.Sprintf(" ts=%d grants=%d/%d", s.TS, s.Grants, p.Sets[self].Len())
	}
	str += fmt.Sprintf(" rounds=%d voted=%s", s.Rounds, formatVoted(s.Voted))
	if q := s.Queued.Format(p.N); q != "" {
		str += " queue=" + q
	}
	return str
}

func formatVoted(v model.NodeID) string {
	if v == Nobody {
		return "none"
	}
	return v.String()
}
