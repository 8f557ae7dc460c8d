package ricartagrawala

import (
	"fmt"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

// AppendState encodes s canonically.
func (p *Protocol) AppendState(b []byte, s State) []byte {
	b = append(b, byte(s.Phase), s.Replies, s.Rounds)
	b = model.AppendUvarint(b, uint64(s.Clock))
	b = model.AppendUvarint(b, uint64(s.TS))
	return model.AppendUvarint(b, s.Deferred)
}

// ReadState decodes a state written by AppendState.
func (p *Protocol) ReadState(b []byte) (State, []byte) {
	s := State{Phase: mutex.Phase(b[0]), Replies: b[1], Rounds: b[2]}
	var v uint64
	v, b = model.ReadUvarint(b[3:])
	s.Clock = uint32(v)
	v, b = model.ReadUvarint(b)
	s.TS = uint32(v)
	s.Deferred, b = model.ReadUvarint(b)
	return s, b
}

// FormatMsg: "REQ(ts=3)", "REP(clock=2)" ("REP" without clocks), or
// "clock=3" for an application message.
func (p *Protocol) FormatMsg(m Msg) string {
	switch m.Kind {
	case Request:
		return fmt.Sprintf("REQ(ts=%d)", m.TS)
	case App:
		return fmt.Sprintf("clock=%d", m.TS)
	}
	if p.Clocks == SPIN {
		return "REP"
	}
	return fmt.Sprintf("REP(clock=%d)", m.TS)
}

// FormatState: "WANTED clock=2 ts=2 replies=1/2 deferred={p1} rounds=0".
func (p *Protocol) FormatState(_ model.NodeID, s State) string {
	str := fmt.Sprintf("%s clock=%d", s.Phase, s.Clock)
	if s.Phase != mutex.Released {
		str += fmt.Sprintf(" ts=%d replies=%d/%d", s.TS, s.Replies, p.N-1)
	}
	if s.Deferred != 0 {
		str += " deferred=" + mutex.FormatSet(s.Deferred)
	}
	return str + fmt.Sprintf(" rounds=%d", s.Rounds)
}
