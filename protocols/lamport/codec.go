package lamport

import (
	"fmt"
	"slices"
	"strings"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

// AppendState encodes s canonically: the slots past N are always zero and
// are not written.
func (p *Protocol) AppendState(b []byte, s State) []byte {
	b = append(b, byte(s.Phase), s.Rounds)
	b = model.AppendUvarint(b, uint64(s.Clock))
	b = model.AppendUvarint(b, uint64(s.Heard))
	for j := range p.N {
		b = model.AppendUvarint(b, uint64(s.Queue[j]))
	}
	return b
}

// ReadState decodes a state written by AppendState.
func (p *Protocol) ReadState(b []byte) (State, []byte) {
	s := State{Phase: mutex.Phase(b[0]), Rounds: b[1]}
	var v uint64
	v, b = model.ReadUvarint(b[2:])
	s.Clock = uint32(v)
	v, b = model.ReadUvarint(b)
	s.Heard = uint16(v)
	for j := range p.N {
		v, b = model.ReadUvarint(b)
		s.Queue[j] = uint32(v)
	}
	return s, b
}

// FormatMsg: "REQ(ts=1)", "REP(ts=3)" or "REL(ts=5)".
func (p *Protocol) FormatMsg(m Msg) string {
	switch m.Kind {
	case Request:
		return fmt.Sprintf("REQ(ts=%d)", m.TS)
	case Reply:
		return fmt.Sprintf("REP(ts=%d)", m.TS)
	case Release:
		return fmt.Sprintf("REL(ts=%d)", m.TS)
	case App:
		return fmt.Sprintf("ts=%d", m.TS)
	}
	return fmt.Sprintf("MSG(%d,ts=%d)", m.Kind, m.TS)
}

// FormatState: "WANTED clock=3 queue=[1:p2 2:p0] heard={p2} rounds=0"; the
// queue is shown in its order, head first, as timestamp:site.
func (p *Protocol) FormatState(_ model.NodeID, s State) string {
	str := fmt.Sprintf("%s clock=%d queue=%s", s.Phase, s.Clock, p.formatQueue(s))
	if s.Heard != 0 {
		str += " heard=" + mutex.FormatSet(uint64(s.Heard))
	}
	return str + fmt.Sprintf(" rounds=%d", s.Rounds)
}

// formatQueue renders the request queue in (ts, id) order: "[1:p2 2:p0]".
func (p *Protocol) formatQueue(s State) string {
	var ids []model.NodeID
	for j := range p.N {
		if s.Queue[j] != 0 {
			ids = append(ids, model.NodeID(j))
		}
	}
	slices.SortFunc(ids, func(a, b model.NodeID) int {
		if before(s.Queue[a], a, s.Queue[b], b) {
			return -1
		}
		return 1
	})
	parts := make([]string, len(ids))
	for k, id := range ids {
		parts[k] = fmt.Sprintf("%d:%s", s.Queue[id], id)
	}
	return "[" + strings.Join(parts, " ") + "]"
}
