package ringelection

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/coordcheck/coordcheck/model"
)

// AppendState encodes s canonically. Chang-Roberts states are three bytes
// (SPIN's part, leader, done); the enhanced ring adds Next and the
// unanswered messages.
func (p *Protocol) AppendState(b []byte, s State) []byte {
	b = append(b, boolByte(s.Participant), s.Leader, boolByte(s.Done))
	if p.Variant == Enhanced {
		b = append(b, byte(s.Next), byte(len(s.Unacked)))
		for _, m := range s.Unacked {
			b = p.AppendMsg(b, m)
		}
	}
	return b
}

// ReadState decodes a state written by AppendState.
func (p *Protocol) ReadState(b []byte) (State, []byte) {
	s := State{Participant: b[0] != 0, Leader: b[1], Done: b[2] != 0}
	b = b[3:]
	if p.Variant == Enhanced {
		s.Next = model.NodeID(b[0])
		k := int(b[1])
		b = b[2:]
		if k > 0 {
			s.Unacked = make([]Msg, k)
			for i := range k {
				s.Unacked[i], b = p.ReadMsg(b)
			}
		}
	}
	return s, b
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// AppendMsg encodes m canonically: kind, id, list.
func (p *Protocol) AppendMsg(b []byte, m Msg) []byte {
	b = append(b, byte(m.Kind), m.ID)
	if p.Variant == Enhanced {
		b = model.AppendString(b, m.List)
	}
	return b
}

// ReadMsg decodes a message written by AppendMsg.
func (p *Protocol) ReadMsg(b []byte) (Msg, []byte) {
	m := Msg{Kind: Kind(b[0]), ID: b[1]}
	b = b[2:]
	if p.Variant == Enhanced {
		m.List, b = model.ReadString(b)
	}
	return m, b
}

// FormatMsg: Chang-Roberts "ELECTION(3)" and "COORD(4)"; enhanced
// "ELECTION[3,2]", "COORD(4)[3,2]" and "ACK". Numbers are ids.
func (p *Protocol) FormatMsg(m Msg) string {
	var s string
	switch m.Kind {
	case Election:
		s = "ELECTION"
		if p.Variant == ChangRoberts {
			s += "(" + strconv.Itoa(int(m.ID)) + ")"
		}
	case Coordinator:
		s = "COORD(" + strconv.Itoa(int(m.ID)) + ")"
	case Ack:
		return "ACK"
	default:
		return fmt.Sprintf("MSG%d", m.Kind)
	}
	if p.Variant == Enhanced {
		s += formatList(m.List)
	}
	return s
}

// formatList renders a list of ids: "[3,2,1]".
func formatList(list string) string {
	parts := make([]string, len(list))
	for i := range len(list) {
		parts[i] = strconv.Itoa(int(list[i]))
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// FormatState: "id=3 participant leader=4 done"; the enhanced ring adds
// "next=p2" when the process skips a successor and the unanswered
// messages, "unacked=ELECTION[3]".
func (p *Protocol) FormatState(self model.NodeID, s State) string {
	parts := []string{"id=" + strconv.Itoa(p.ID(self))}
	if s.Participant {
		parts = append(parts, "participant")
	}
	if s.Leader != 0 {
		parts = append(parts, "leader="+strconv.Itoa(int(s.Leader)))
	} else {
		parts = append(parts, "undecided")
	}
	if s.Done {
		parts = append(parts, "done")
	}
	if p.Variant == Enhanced {
		if s.Next != p.succ(self) {
			parts = append(parts, "next="+s.Next.String())
		}
		if len(s.Unacked) > 0 {
			ms := make([]string, len(s.Unacked))
			for i, m := range s.Unacked {
				ms[i] = p.FormatMsg(m)
			}
			parts = append(parts, "unacked="+strings.Join(ms, ","))
		}
	}
	return strings.Join(parts, " ")
}
