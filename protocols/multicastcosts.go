package protocols

import (
	"fmt"

	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast"
)

// The multicast family's costs (`coordcheck costs multicast`): each
// protocol's own code is run by costs.Multicast in synchronous rounds,
// and every figure is laid beside the formula derived from the notes. A
// protocol's entry adds its rows with mcastRow; the scenarios it runs are
// built by mcastScenario.

// mcastScenario is the run of p in which p0 multicasts once, lose (may be
// nil) loses messages, and delay says when timers fire (nil: as soon as
// the system enables them).
func mcastScenario[S, M any](p model.Protocol[S, M], kind func(M) string,
	lose func(from, to model.NodeID, m M, round int) bool,
	delay func(node model.NodeID, t model.TimerID) int, senders ...model.NodeID) costs.McastScenario[S, M] {
	if len(senders) == 0 {
		senders = []model.NodeID{0}
	}
	return costs.McastScenario[S, M]{
		System:  model.MustNewSystem(p, model.Config{History: true, HistoryByNode: true}),
		Senders: senders,
		Kind:    kind,
		Lose:    lose,
		Delay:   delay,
	}
}

// mcastRow lays one measured figure beside the notes' formula; detail
// (the run's breakdown) follows the figure, and note says why they
// differ, when they do.
func mcastRow(metric string, got int, detail, text string, want int, note string) CostRow {
	m := fmt.Sprint(got)
	if detail != "" {
		m += " (" + detail + ")"
	}
	r := CostRow{Metric: metric, Measured: m, Formula: fmt.Sprintf("%s = %d", text, want), Matches: got == want}
	if !r.Matches {
		r.Note = note
	}
	return r
}

// loseFirstData is a loss: the first transmission of p0's first message
// (kind DATA) is lost on its way to every receiver in set (bit i for pi),
// as a loss near the sender would.
func loseFirstData[M any](kind func(M) string, id func(M) multicast.MsgID, set uint64) func(from, to model.NodeID, m M, round int) bool {
	return func(from, to model.NodeID, m M, round int) bool {
		return round == 0 && kind(m) == "DATA" && id(m) == (multicast.MsgID{Sender: 0, Seq: 1}) && set&(1<<to) != 0
	}
}
