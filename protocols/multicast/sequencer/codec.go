package sequencer

import (
	"fmt"
	"strings"

	"github.com/coordcheck/coordcheck/model"
)

// AppendState encodes s canonically.
func (p *Protocol) AppendState(b []byte, s State) []byte {
	b = model.AppendBool(append(b, s.Sent), s.Heard)
	b = model.AppendUvarint(b, uint64(s.Next))
	b = model.AppendUvarint(b, uint64(s.Issued))
	b = model.AppendUvarint(b, uint64(len(s.Hold)))
	for _, h := range s.Hold {
		b = model.AppendUvarint(b, uint64(h.Num))
		b = append(b, byte(h.ID.Sender), h.ID.Seq)
	}
	return b
}

// ReadState decodes a state written by AppendState.
func (p *Protocol) ReadState(b []byte) (State, []byte) {
	s := State{Sent: b[0], Heard: b[1] != 0}
	var v, n uint64
	v, b = model.ReadUvarint(b[2:])
	s.Next = uint16(v)
	v, b = model.ReadUvarint(b)
	s.Issued = uint16(v)
	n, b = model.ReadUvarint(b)
	for range n {
		v, b = model.ReadUvarint(b)
		s.Hold = append(s.Hold, Held{uint16(v), ID{Sender: model.NodeID(b[0]), Seq: b[1]}})
		b = b[2:]
	}
	return s, b
}

// AppendMsg encodes m canonically.
func (p *Protocol) AppendMsg(b []byte, m Msg) []byte {
	b = append(b, byte(m.Kind))
	b = model.AppendUvarint(b, uint64(m.Num))
	return append(b, byte(m.ID.Sender), m.ID.Seq)
}

// ReadMsg decodes a message written by AppendMsg.
func (p *Protocol) ReadMsg(b []byte) (Msg, []byte) {
	m := Msg{Kind: Kind(b[0])}
	v, b := model.ReadUvarint(b[1:])
	m.Num = uint16(v)
	m.ID = ID{Sender: model.NodeID(b[0]), Seq: b[1]}
	return m, b[2:]
}

// FormatMsg: "DATA(p1.1)", "ORDER(2,p1.1)".
func (p *Protocol) FormatMsg(m Msg) string {
	if m.Kind == Data {
		return fmt.Sprintf("DATA(%s)", m.ID)
	}
	return fmt.Sprintf("ORDER(%d,%s)", m.Num, m.ID)
}

// FormatState: "sent=1 next=2 hold=[3:p1.1]", with "issued=2" at the
// sequencer.
func (p *Protocol) FormatState(self model.NodeID, s State) string {
	str := fmt.Sprintf("sent=%d next=%d", s.Sent, s.Next)
	if len(s.Hold) > 0 {
		var hs []string
		for _, h := range s.Hold {
			hs = append(hs, fmt.Sprintf("%d:%s", h.Num, h.ID))
		}
		str += " hold=[" + strings.Join(hs, " ") + "]"
	}
	if self == Sequencer {
		str += fmt.Sprintf(" issued=%d", s.Issued)
	}
	return str
}
