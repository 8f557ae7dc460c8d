package maekawadf

import (
	"fmt"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/maekawa"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

// AppendState encodes s canonically.
func (p *Protocol) AppendState(b []byte, s State) []byte {
	b = append(b, byte(s.Phase), s.Rounds, byte(s.Voted))
	for _, v := range [...]uint64{uint64(s.Clock), uint64(s.TS), uint64(s.Votes), uint64(s.Failed),
		uint64(s.Deferred), uint64(s.VotedTS)} {
		b = model.AppendUvarint(b, v)
	}
	return s.Queued.Append(b, p.N)
}

// ReadState decodes a state written by AppendState.
func (p *Protocol) ReadState(b []byte) (State, []byte) {
	s := State{Phase: mutex.Phase(b[0]), Rounds: b[1], Voted: model.NodeID(b[2])}
	b = b[3:]
	var v [6]uint64
	for i := range v {
		v[i], b = model.ReadUvarint(b)
	}
	s.Clock, s.TS = uint32(v[0]), uint32(v[1])
	s.Votes, s.Failed, s.Deferred = maekawa.Set(v[2]), maekawa.Set(v[3]), maekawa.Set(v[4])
	s.VotedTS = uint32(v[5])
	return s, s.Queued.Read(b, p.N)
}

var kindNames = [...]string{Request: "REQ", Grant: "GRANT", Release: "REL", Fail: "FAILED", Inquire: "INQUIRE", Yield: "YIELD"}

// FormatMsg: "REQ(ts=3)", "GRANT", "REL", "FAILED", "INQUIRE" or "YIELD".
func (p *Protocol) FormatMsg(m Msg) string {
	switch {
	case m.Kind == Request:
		return fmt.Sprintf("REQ(ts=%d)", m.TS)
	case int(m.Kind) < len(kindNames) && m.TS == 0:
		return kindNames[m.Kind]
	}
	return fmt.Sprintf("MSG(%d,%d)", m.Kind, m.TS)
}

// FormatState: "WANTED clock=2 ts=2 votes={0,1}/3 failed={2} deferred={1}
// rounds=0 voted=p1(ts=1) queue=[(1,p0) (2,p2)]": the votes held (of
// |V_i|), the voters it knows it has failed at, the INQUIREs it keeps,
// then the request it voted for and its queue in the order it will be
// served. Empty sets are left out.
func (p *Protocol) FormatState(self model.NodeID, s State) string {
	str := fmt.Sprintf("%s clock=%d", s.Phase, s.Clock)
	if s.Phase != mutex.Released {
		str += fmt.Sprintf(" ts=%d votes=%s/%d", s.TS, s.Votes, p.Sets[self].Len())
	}
	if s.Failed != 0 {
		str += " failed=" + s.Failed.String()
	}
	if s.Deferred != 0 {
		str += " deferred=" + s.Deferred.String()
	}
	str += fmt.Sprintf(" rounds=%d voted=%s", s.Rounds, formatVote(s.Voted, s.VotedTS))
	if q := s.Queued.Format(p.N); q != "" {
		str += " queue=" + q
	}
	return str
}

func formatVote(v model.NodeID, ts uint32) string {
	if v == Nobody {
		return "none"
	}
	return fmt.Sprintf("%s(ts=%d)", v, ts)
}
