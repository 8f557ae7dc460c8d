package centralized

import (
	"strings"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

// Protocol implements model.DeadlockExplainer (checked by the compiler).
var _ model.DeadlockExplainer[State, Msg] = (*Protocol)(nil)

// ExplainDeadlock says why the deadlocked world w is stuck. Without
// faults the algorithm never deadlocks; with them, the token or a request
// can be lost, or the coordinator can be down.
func (p *Protocol) ExplainDeadlock(w *model.World[State, Msg]) string {
	var waiting []string
	for i := range p.N {
		if id := model.NodeID(i); p.Waiting(id, w.Nodes[i]) && !w.IsDown(id) {
			waiting = append(waiting, id.String())
		}
	}
	if len(waiting) == 0 {
		return "no client waits"
	}
	who := waiting[0] + " waits for the token: "
	if k := len(waiting) - 1; k > 0 {
		who = strings.Join(waiting[:k], ", ") + " and " + waiting[k] + " wait for the token: "
	}
	coord := p.Coordinator()
	if w.IsDown(coord) {
		return who + "the coordinator " + coord.String() + " is down"
	}
	switch h := w.Nodes[coord].Holder; {
	case h == Nobody:
		return who + "the coordinator holds it and knows of no request"
	case w.IsDown(h):
		return who + "the coordinator gave it to " + h.String() + ", which is down"
	case w.Nodes[h].Phase == mutex.Wanted:
		return who + "the coordinator gave it to " + h.String() + ", and the GRANT was lost"
	default:
		return who + "the coordinator gave it to " + h.String() + ", and its REL was lost"
	}
}
