package isis

import (
	"fmt"
	"strings"

	"github.com/coordcheck/coordcheck/model"
)

func appendID(b []byte, id ID) []byte { return append(b, byte(id.Sender), id.Seq) }

func readID(b []byte) (ID, []byte) { return ID{Sender: model.NodeID(b[0]), Seq: b[1]}, b[2:] }

func appendTag(b []byte, t Tag) []byte {
	return append(model.AppendUvarint(b, uint64(t.Num)), byte(t.By))
}

func readTag(b []byte) (Tag, []byte) {
	v, b := model.ReadUvarint(b)
	return Tag{uint16(v), model.NodeID(b[0])}, b[1:]
}

// appendVC encodes the first N entries of a clock, only when the layer
// uses clocks (they stay zero otherwise).
func (p *Protocol) appendVC(b []byte, vc VC) []byte {
	if p.Order == Total {
		return b
	}
	return append(b, vc[:p.N]...)
}

func (p *Protocol) readVC(b []byte) (VC, []byte) {
	var vc VC
	if p.Order == Total {
		return vc, b
	}
	copy(vc[:], b[:p.N])
	return vc, b[p.N:]
}

// AppendState encodes s canonically.
func (p *Protocol) AppendState(b []byte, s State) []byte {
	b = model.AppendUvarint(b, uint64(s.A))
	b = model.AppendUvarint(b, uint64(s.P))
	b = append(model.AppendBool(b, s.Heard), s.Sent, byte(len(s.Queue)), byte(len(s.Own)), byte(len(s.Early)))
	for _, e := range s.Queue {
		b = model.AppendBool(appendTag(appendID(b, e.ID), e.Tag), e.Agreed)
	}
	for _, o := range s.Own {
		b = append(appendTag(append(b, o.Seq), o.Best), o.Got)
	}
	for _, e := range s.Early {
		b = p.appendVC(appendID(b, e.ID), e.VC)
	}
	return p.appendVC(b, s.VC)
}

// ReadState decodes a state written by AppendState.
func (p *Protocol) ReadState(b []byte) (State, []byte) {
	var s State
	var v uint64
	v, b = model.ReadUvarint(b)
	s.A = uint16(v)
	v, b = model.ReadUvarint(b)
	s.P = uint16(v)
	s.Heard, s.Sent = b[0] != 0, b[1]
	nq, no, ne := int(b[2]), int(b[3]), int(b[4])
	b = b[5:]
	for range nq {
		var e Entry
		e.ID, b = readID(b)
		e.Tag, b = readTag(b)
		e.Agreed, b = model.ReadBool(b)
		s.Queue = append(s.Queue, e)
	}
	for range no {
		o := Pending{Seq: b[0]}
		o.Best, b = readTag(b[1:])
		o.Got, b = b[0], b[1:]
		s.Own = append(s.Own, o)
	}
	for range ne {
		var e Early
		e.ID, b = readID(b)
		e.VC, b = p.readVC(b)
		s.Early = append(s.Early, e)
	}
	s.VC, b = p.readVC(b)
	return s, b
}

// AppendMsg encodes m canonically.
func (p *Protocol) AppendMsg(b []byte, m Msg) []byte {
	b = appendTag(appendID(append(b, byte(m.Kind)), m.ID), m.Tag)
	if p.Order == CausalTotal {
		b = p.appendVC(b, m.VC)
	}
	return b
}

// ReadMsg decodes a message written by AppendMsg.
func (p *Protocol) ReadMsg(b []byte) (Msg, []byte) {
	m := Msg{Kind: Kind(b[0])}
	m.ID, b = readID(b[1:])
	m.Tag, b = readTag(b)
	if p.Order == CausalTotal {
		m.VC, b = p.readVC(b)
	}
	return m, b
}

// tag prints a tag as the notes write a proposal: "3/p1" (number/proposer),
// or "3" without tie-break.
func (p *Protocol) tag(t Tag) string {
	if !p.TieBreak {
		return fmt.Sprint(t.Num)
	}
	return fmt.Sprintf("%d/%s", t.Num, t.By)
}

func (p *Protocol) vc(vc VC) string {
	parts := make([]string, p.N)
	for i := range p.N {
		parts[i] = fmt.Sprint(vc[i])
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// FormatMsg: "MSG(p1.1)", "MSG(p1.1,[0,1,0])" under the causal layer,
// "PROPOSE(#1,2/p2)", "AGREED(p1.1,3/p0)".
func (p *Protocol) FormatMsg(m Msg) string {
	switch m.Kind {
	case Message:
		if p.Order == CausalTotal {
			return fmt.Sprintf("MSG(%s,%s)", m.ID, p.vc(m.VC))
		}
		return fmt.Sprintf("MSG(%s)", m.ID)
	case Propose:
		return fmt.Sprintf("PROPOSE(#%d,%s)", m.ID.Seq, p.tag(m.Tag))
	}
	return fmt.Sprintf("AGREED(%s,%s)", m.ID, p.tag(m.Tag))
}

// FormatState: "A=1 P=2 queue=[p0.1:2/p1! p1.1:2/p2]" ("!" marks an agreed
// number), then own messages awaiting proposals "own=[#1:2/p1 got=2]", the
// layer's clock and held-back messages.
func (p *Protocol) FormatState(_ model.NodeID, s State) string {
	str := fmt.Sprintf("A=%d P=%d", s.A, s.P)
	if len(s.Queue) > 0 {
		var qs []string
		for _, e := range s.Queue {
			q := fmt.Sprintf("%s:%s", e.ID, p.tag(e.Tag))
			if e.Agreed {
				q += "!"
			}
			qs = append(qs, q)
		}
		str += " queue=[" + strings.Join(qs, " ") + "]"
	}
	if len(s.Own) > 0 {
		var os []string
		for _, o := range s.Own {
			os = append(os, fmt.Sprintf("#%d:%s got=%d", o.Seq, p.tag(o.Best), o.Got))
		}
		str += " own=[" + strings.Join(os, " ") + "]"
	}
	if p.Order != Total {
		str += " vc=" + p.vc(s.VC)
	}
	if len(s.Early) > 0 {
		var es []string
		for _, e := range s.Early {
			es = append(es, e.ID.String())
		}
		str += " early=[" + strings.Join(es, " ") + "]"
	}
	return str
}
