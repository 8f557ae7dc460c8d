package voting

import (
	"fmt"
	"strings"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

// AppendState encodes s canonically (only the first C view entries and the
// first N requests, the rest being constant).
func (p *Protocol) AppendState(b []byte, s State) []byte {
	b = append(b, byte(s.Phase), s.Rounds)
	b = model.AppendBool(b, s.Backoff)
	b = model.AppendUvarint(b, uint64(s.Clock))
	b = model.AppendUvarint(b, uint64(s.TS))
	for k := range p.C {
		b = append(b, byte(s.View[k]))
	}
	b = append(b, byte(s.Vote))
	for j := range p.N {
		b = model.AppendUvarint(b, uint64(s.Req[j]))
	}
	return b
}

// ReadState decodes a state written by AppendState.
func (p *Protocol) ReadState(b []byte) (State, []byte) {
	s := blank()
	s.Phase, s.Rounds = mutex.Phase(b[0]), b[1]
	s.Backoff, b = model.ReadBool(b[2:])
	var v uint64
	v, b = model.ReadUvarint(b)
	s.Clock = uint32(v)
	v, b = model.ReadUvarint(b)
	s.TS = uint32(v)
	for k := range p.C {
		s.View[k] = model.NodeID(b[k])
	}
	b = b[p.C:]
	s.Vote, b = model.NodeID(b[0]), b[1:]
	for j := range p.N {
		v, b = model.ReadUvarint(b)
		s.Req[j] = uint32(v)
	}
	return s, b
}

// AppendMsg encodes m canonically.
func (p *Protocol) AppendMsg(b []byte, m Msg) []byte {
	b = append(b, byte(m.Kind), byte(m.Vote))
	return model.AppendUvarint(b, uint64(m.TS))
}

// ReadMsg decodes a message written by AppendMsg.
func (p *Protocol) ReadMsg(b []byte) (Msg, []byte) {
	m := Msg{Kind: Kind(b[0]), Vote: model.NodeID(b[1])}
	v, b := model.ReadUvarint(b[2:])
	m.TS = uint32(v)
	return m, b
}

// FormatMsg: "REQ(ts=1)", "RESP(vote=1:p0)", "YIELD(ts=1)" or "REL".
func (p *Protocol) FormatMsg(m Msg) string {
	switch m.Kind {
	case Request:
		return fmt.Sprintf("REQ(ts=%d)", m.TS)
	case Response:
		return fmt.Sprintf("RESP(vote=%d:%s)", m.TS, m.Vote)
	case Yield:
		return fmt.Sprintf("YIELD(ts=%d)", m.TS)
	case Release:
		return "REL"
	case App:
		return fmt.Sprintf("clock=%d", m.TS)
	}
	return fmt.Sprintf("MSG(%d,ts=%d,vote=%d)", m.Kind, m.TS, m.Vote)
}

// FormatState: "WANTED clock=1 ts=1 view={p3:p0 p4:? p5:p1} rounds=0" for a
// process ("backoff" when backing off), "COORD vote=1:p0 queue=[1:p1 2:p2]"
// for a coordinator; requests are shown as timestamp:process.
func (p *Protocol) FormatState(self model.NodeID, s State) string {
	if p.IsCoordinator(self) {
		return fmt.Sprintf("COORD vote=%s queue=%s", p.formatVote(s), p.formatQueue(s))
	}
	str := fmt.Sprintf("%s clock=%d", s.Phase, s.Clock)
	if s.Phase != mutex.Released {
		parts := make([]string, p.C)
		for k := range p.C {
			v := "?"
			if s.View[k] != None {
				v = s.View[k].String()
			}
			parts[k] = p.Coordinator(k).String() + ":" + v
		}
		str += fmt.Sprintf(" ts=%d view={%s}", s.TS, strings.Join(parts, " "))
	}
	if s.Backoff {
		str += " backoff"
	}
	return str + fmt.Sprintf(" rounds=%d", s.Rounds)
}

func (p *Protocol) formatVote(s State) string {
	if s.Vote == None {
		return "none"
	}
	return fmt.Sprintf("%d:%s", s.Req[s.Vote], s.Vote)
}

// formatQueue renders a coordinator's queue, head first: "[1:p1 2:p2]".
func (p *Protocol) formatQueue(s State) string {
	var parts []string
	for {
		h := p.head(s)
		if h == None {
			break
		}
		if h != s.Vote {
			parts = append(parts, fmt.Sprintf("%d:%s", s.Req[h], h))
		}
		s.Req[h] = 0
	}
	return "[" + strings.Join(parts, " ") + "]"
}
