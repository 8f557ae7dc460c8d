package viewsync

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/coordcheck/coordcheck/internal/nodeset"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast"
)

// msgSet prints a message set: "{p0#1,p2#1}".
func msgSet(set uint64) string {
	var ids []string
	for ; set != 0; set &= set - 1 {
		ids = append(ids, idOf(bits.TrailingZeros64(set)).String())
	}
	return "{" + strings.Join(ids, ",") + "}"
}

// procSet prints a process set: "{p0,p1}".
func procSet(set uint8) string { return nodeset.Format(uint64(set)) }

// FormatMsg: "MSG(p1#1,v0)", "FLUSH-REQ(v0)", "FLUSH(v0,{p1#1})",
// "NEWVIEW(v1,{p0,p1},{p1#1})".
func (p *Protocol) FormatMsg(m Msg) string {
	switch m.Kind {
	case Data:
		return fmt.Sprintf("MSG(%s,v%d)", m.ID, m.View)
	case FlushReq:
		return fmt.Sprintf("FLUSH-REQ(v%d)", m.View)
	case Flush:
		return fmt.Sprintf("FLUSH(v%d,%s)", m.View, msgSet(m.Set))
	}
	return fmt.Sprintf("NEWVIEW(v%d,%s,%s)", m.View, procSet(m.Members), msgSet(m.Set))
}

// FormatState: "v1{p0,p1} delivered={p0#1}", then what is under way:
// "sending p0#1 to {p2}", "suspects={p2}", "FLUSHED", "early={..}",
// "collecting got={p0} union={..}".
func (p *Protocol) FormatState(_ model.NodeID, s State) string {
	str := fmt.Sprintf("v%d%s delivered=%s", s.View, procSet(s.Members), msgSet(s.Delivered))
	if s.Tx.Busy() {
		str += fmt.Sprintf(" sending #%d to %s", s.TxSeq, procSet(s.Tx.Left))
	}
	if s.Suspected != 0 {
		str += " suspects=" + procSet(s.Suspected)
	}
	if s.Flushing {
		str += " FLUSHED"
	}
	if s.Early != 0 {
		str += " early=" + msgSet(s.Early)
	}
	if s.Collecting {
		str += fmt.Sprintf(" collecting got=%s union=%s", procSet(s.Got), msgSet(s.Union))
	}
	return str
}

// Protocol implements model.TimerNamer (checked by the compiler).
var _ model.TimerNamer = (*Protocol)(nil)

// TimerName: "transmit", "suspect-p2".
func (p *Protocol) TimerName(t model.TimerID) string {
	if t == multicast.Transmit {
		return "transmit"
	}
	return "suspect-" + model.NodeID(t-Suspect).String()
}
