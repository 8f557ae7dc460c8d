package costs

import (
	"fmt"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast"
	"github.com/coordcheck/coordcheck/protocols/multicast/besteffort"
	"github.com/coordcheck/coordcheck/protocols/multicast/causal"
	"github.com/coordcheck/coordcheck/protocols/multicast/fifo"
	"github.com/coordcheck/coordcheck/protocols/multicast/isis"
	"github.com/coordcheck/coordcheck/protocols/multicast/nack"
	"github.com/coordcheck/coordcheck/protocols/multicast/reliable"
	"github.com/coordcheck/coordcheck/protocols/multicast/sequencer"
	"github.com/coordcheck/coordcheck/protocols/multicast/viewsync"
)

// The multicast family's costs (`coordcheck costs multicast`): each
// protocol's own code is run by Multicast in synchronous rounds, and
// every figure is laid beside the formula derived from the notes. Each
// protocol's table adds its rows with mcastRow; the scenarios it runs are
// built by mcastScenario.

// mcastScenario is the run of p in which p0 multicasts once, lose (may be
// nil) loses messages, and delay says when timers fire (nil: as soon as
// the system enables them).
func mcastScenario[S, M any](p model.Protocol[S, M], kind func(M) string,
	lose func(from, to model.NodeID, m M, round int) bool,
	delay func(node model.NodeID, t model.TimerID) int, senders ...model.NodeID) McastScenario[S, M] {
	if len(senders) == 0 {
		senders = []model.NodeID{0}
	}
	return McastScenario[S, M]{
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
func mcastRow(metric string, got int, detail, text string, want int, note string) Row {
	m := fmt.Sprint(got)
	if detail != "" {
		m += " (" + detail + ")"
	}
	r := Row{Metric: metric, Measured: m, Formula: fmt.Sprintf("%s = %d", text, want), Matches: got == want}
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

// everyone is p0 .. p(n-1).
func everyone(n int) []model.NodeID {
	ids := make([]model.NodeID, n)
	for i := range ids {
		ids[i] = model.NodeID(i)
	}
	return ids
}

// BestEffortTable measures best-effort multicast among n processes: N-1
// DATA and one message delay per multicast; a loss is never repaired.
func BestEffortTable(n int) ([]Row, error) {
	p := besteffort.New(n, multicast.Workload{Msgs: 1, Senders: 1})
	ok, err := Multicast(mcastScenario(p, besteffort.Kind, nil, nil))
	if err != nil {
		return nil, err
	}
	id := func(m besteffort.Msg) multicast.MsgID { return m.ID }
	lossy, err := Multicast(mcastScenario(p, besteffort.Kind, loseFirstData(besteffort.Kind, id, 1<<(n-1)), nil))
	if err != nil {
		return nil, err
	}
	return []Row{
		mcastRow("messages per multicast", ok.Sent(), ok.Breakdown(), "N-1 DATA", n-1, ""),
		mcastRow("feedback messages", ok.Sent()-ok.Sent("DATA"), "", "0", 0, ""),
		mcastRow("delivery latency (message delays)", ok.Latency, "", "1", 1, ""),
		mcastRow("one DATA lost: deliveries missing for good", lossy.Missing, lossy.Breakdown(), "1 (nothing repairs it)", 1, ""),
	}, nil
}

// ReliableTable measures basic reliable multicast among n processes: N-1
// DATA and N-1 ACKs per multicast (the feedback implosion of the notes:
// the sender hears from every receiver); under a loss of p0's first
// message on its way to every receiver, the second message reveals the gap
// to all of them, and each requests the retransmission.
func ReliableTable(n int) ([]Row, error) {
	p := reliable.New(n, multicast.Workload{Msgs: 2, Senders: 1})
	ok, err := Multicast(mcastScenario(p, reliable.KindOf, nil, nil))
	if err != nil {
		return nil, err
	}
	id := func(m reliable.Msg) multicast.MsgID { return m.ID }
	all := uint64(1<<n-1) &^ 1
	roundTrip := func(_ model.NodeID, t model.TimerID) int {
		return map[bool]int{true: 2, false: 0}[t == reliable.Retransmit]
	}
	lossy, err := Multicast(mcastScenario(p, reliable.KindOf, loseFirstData(reliable.KindOf, id, all), roundTrip, 0, 0))
	if err != nil {
		return nil, err
	}
	return []Row{
		mcastRow("messages per multicast", ok.Sent(), ok.Breakdown(), "(N-1) DATA + (N-1) ACK = 2(N-1)", 2*(n-1), ""),
		mcastRow("ACKs per multicast (feedback implosion)", ok.Sent("ACK"), "", "N-1", n-1, ""),
		mcastRow("delivery latency (message delays)", ok.Latency, "", "1", 1, ""),
		mcastRow("2 multicasts, the 1st lost to all: retransmission requests", lossy.Sent("RETRANS-REQ"), lossy.Breakdown(),
			"N-1 (every receiver asks)", n-1, ""),
		mcastRow("2 multicasts, the 1st lost to all: all messages", lossy.Sent(), "",
			"3(N-1) DATA + (N-1) RETRANS-REQ + 2(N-1) ACK = 6(N-1)", 6*(n-1), ""),
		mcastRow("2 multicasts, the 1st lost to all: latency", lossy.Latency, "", "3 (DATA, request, retransmission)", 3, ""),
	}, nil
}

// NackTable measures scalable reliable multicast among n processes: N-1
// DATA per multicast and no feedback without loss. Under the loss of p0's
// first message on its way to every receiver, its second message reveals
// the gap to all; each receiver's random delay is its distance from p0 in
// rounds, so the first NACK, multicast to the group, reaches the others
// before their own delay is over and suppresses their NACKs: one NACK and
// one repair. When every delay is the same ("setting timers to ensure only
// one NACK is hard"), every receiver NACKs and the sender repairs each
// time.
func NackTable(n int) ([]Row, error) {
	p := nack.New(n, multicast.Workload{Msgs: 2, Senders: 1})
	ok, err := Multicast(mcastScenario(p, nack.KindOf, nil, nil))
	if err != nil {
		return nil, err
	}
	id := func(m nack.Msg) multicast.MsgID { return m.ID }
	lose := loseFirstData(nack.KindOf, id, uint64(1<<n-1)&^1)
	delay := func(spread bool) func(model.NodeID, model.TimerID) int {
		return func(node model.NodeID, t model.TimerID) int {
			switch {
			case t == nack.SessionTimer:
				return -1 // the second message reveals the gap
			case t == nack.NackTimer && spread:
				return int(node) // its distance from p0
			case t == nack.NackTimer:
				return 1
			}
			return 0
		}
	}
	spread, err := Multicast(mcastScenario(p, nack.KindOf, lose, delay(true), 0, 0))
	if err != nil {
		return nil, err
	}
	same, err := Multicast(mcastScenario(p, nack.KindOf, lose, delay(false), 0, 0))
	if err != nil {
		return nil, err
	}
	return []Row{
		mcastRow("messages per multicast", ok.Sent(), ok.Breakdown(), "N-1 DATA", n-1, ""),
		mcastRow("feedback messages without loss", ok.Sent()-ok.Sent("DATA"), "", "0 (delivery is never acknowledged)", 0, ""),
		mcastRow("delivery latency (message delays)", ok.Latency, "", "1", 1, ""),
		mcastRow("2 multicasts, the 1st lost to all: NACK messages", spread.Sent("NACK"), spread.Breakdown(),
			"N-1 (one NACK to the group, the others suppressed)", n-1, ""),
		mcastRow("2 multicasts, the 1st lost to all: all messages", spread.Sent(), "",
			"2(N-1) DATA + (N-1) NACK + (N-1) repair = 4(N-1)", 4*(n-1), ""),
		mcastRow("2 multicasts, the 1st lost to all: latency", spread.Latency, "", "4 (DATA, delay, NACK, repair)", 4, ""),
		mcastRow("same loss, equal delays: NACK messages", same.Sent("NACK"), same.Breakdown(),
			"(N-1)^2 (every receiver NACKs to the group)", (n-1)*(n-1), ""),
	}, nil
}

// FIFOTable measures FIFO-ordered multicast among n processes.
func FIFOTable(n int) ([]Row, error) {
	return orderedTable(fifo.New(n, multicast.Workload{Msgs: 1, Senders: 1}), fifo.Kind, n)
}

// CausalTable measures causally-ordered multicast among n processes.
func CausalTable(n int) ([]Row, error) {
	p, err := causal.New(n, multicast.Workload{Msgs: 1, Senders: 1})
	if err != nil {
		return nil, err
	}
	return orderedTable(p, causal.Kind, n)
}

// orderedTable measures p among n processes: an ordering protocol over
// reliable channels sends N-1 DATA per multicast, no feedback, and
// delivers after one message delay.
func orderedTable[S, M any](p model.Protocol[S, M], kind func(M) string, n int) ([]Row, error) {
	r, err := Multicast(mcastScenario(p, kind, nil, nil))
	if err != nil {
		return nil, err
	}
	return []Row{
		mcastRow("messages per multicast", r.Sent(), r.Breakdown(), "N-1 DATA", n-1, ""),
		mcastRow("feedback messages", r.Sent()-r.Sent("DATA"), "", "0", 0, ""),
		mcastRow("delivery latency (message delays)", r.Latency, "", "1", 1, ""),
	}, nil
}

// ISISTable measures ISIS's total-order multicast over the layer order
// (isis.Total alone, or a hybrid's FIFO or causal layer): p0's multicast
// to N-1 receivers, their N-1 proposals and the N-1 agreed numbers,
// 3(N-1) messages in three message delays (seed 001, steps 1, 2 and 3);
// the layer of a hybrid adds no message.
func ISISTable(order isis.Order) func(n int) ([]Row, error) {
	return func(n int) ([]Row, error) { return isisTable(n, order) }
}

// isisTable is ISISTable's table among n processes.
func isisTable(n int, order isis.Order) ([]Row, error) {
	p := isis.New(n, multicast.Workload{Msgs: 1, Senders: n})
	p.Order = order
	r, err := Multicast(mcastScenario(p, isis.KindName, nil, nil))
	if err != nil {
		return nil, err
	}
	all, err := Multicast(mcastScenario(p, isis.KindName, nil, nil, everyone(n)...))
	if err != nil {
		return nil, err
	}
	return []Row{
		mcastRow("messages per multicast", r.Sent(), r.Breakdown(), "3(N-1)", 3*(n-1), ""),
		mcastRow("proposals", r.Sent("PROPOSE"), "", "N-1 (the sender proposes to itself)", n-1, ""),
		mcastRow("agreed numbers", r.Sent("AGREED"), "", "N-1", n-1, ""),
		mcastRow("delivery latency (message delays)", r.Latency, "", "3 (message, proposals, agreed number)", 3, ""),
		mcastRow("all N multicast once: messages", all.Sent(), "", "3N(N-1)", 3*n*(n-1), ""),
		mcastRow("all N multicast once: latency (message delays)", all.Latency, "", "3", 3, ""),
	}, nil
}

// SequencerTable measures sequencer-based total-order multicast among n
// processes: a multicast takes two hops, sender to sequencer and
// sequencer to all: 1 DATA + N-1 ORDER = N messages and two message
// delays; the sequencer's own takes N-1 ORDER and one delay. When all N
// multicast at once, every message passes through p0 (the notes'
// "performance bottleneck"): N-1 DATA + N(N-1) ORDER = N²-1.
func SequencerTable(n int) ([]Row, error) {
	p := sequencer.New(n, multicast.Workload{Msgs: 1, Senders: n})
	other, err := Multicast(mcastScenario(p, sequencer.KindName, nil, nil, 1))
	if err != nil {
		return nil, err
	}
	own, err := Multicast(mcastScenario(p, sequencer.KindName, nil, nil, 0))
	if err != nil {
		return nil, err
	}
	all, err := Multicast(mcastScenario(p, sequencer.KindName, nil, nil, everyone(n)...))
	if err != nil {
		return nil, err
	}
	return []Row{
		mcastRow("messages per multicast (p1 multicasts)", other.Sent(), other.Breakdown(), "1 DATA + N-1 ORDER = N", n, ""),
		mcastRow("sequencer hops per multicast", other.Sent("DATA"), "", "1 (sender to sequencer)", 1, ""),
		mcastRow("delivery latency (message delays)", other.Latency, "", "2 (to the sequencer, then to all)", 2, ""),
		mcastRow("messages per multicast by the sequencer", own.Sent(), own.Breakdown(), "N-1 ORDER", n-1, ""),
		mcastRow("its delivery latency (message delays)", own.Latency, "", "1", 1, ""),
		mcastRow("all N multicast once: messages", all.Sent(), all.Breakdown(), "N-1 DATA + N(N-1) ORDER = N²-1", n*n-1, ""),
		mcastRow("all N multicast once: ORDER sent by the sequencer", all.Sent("ORDER"), "", "N(N-1), all of them", n*(n-1), ""),
	}, nil
}

// ViewsyncTable measures view-synchronous multicast among n processes:
// without failures a multicast is N-1 messages delivered in
// one message delay, as best-effort multicast; the price of atomicity is
// paid at a view change. After p(N-1) crashes, the coordinator p0 sends
// FLUSH-REQ to the N-2 other survivors, they answer with FLUSH, and p0
// sends them NEWVIEW: 3(N-2) messages, the view installed everywhere after
// three message delays. In the run p0 multicast m just before the crash;
// m is in p0's flush answer, and the one copy sent to the crashed process
// is lost with it.
func ViewsyncTable(n int) ([]Row, error) {
	p := viewsync.New(n, multicast.Workload{Msgs: 1, Senders: n})
	ok, err := Multicast(mcastScenario(p, viewsync.KindName, nil, nil))
	if err != nil {
		return nil, err
	}
	sc := mcastScenario(p, viewsync.KindName, nil, nil)
	sc.Crash = []model.NodeID{model.NodeID(n - 1)}
	vc, err := Multicast(sc)
	if err != nil {
		return nil, err
	}
	change := vc.Sent("FLUSH-REQ", "FLUSH", "NEWVIEW")
	return []Row{
		mcastRow("messages per multicast", ok.Sent(), ok.Breakdown(), "N-1 MSG", n-1, ""),
		mcastRow("delivery latency (message delays)", ok.Latency, "", "1", 1, ""),
		mcastRow("view change after a crash: messages", change, vc.Breakdown(), "3(N-2): FLUSH-REQ, FLUSH, NEWVIEW to each survivor", 3*(n-2), ""),
		mcastRow("view change: latency to the new view (message delays)", vc.Latency, "", "3", 3, ""),
		mcastRow("view change: deliveries missing at survivors", vc.Missing, "", "0 (all survivors deliver m, then the view)", 0, ""),
	}, nil
}
