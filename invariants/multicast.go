package invariants

// Multicast properties (seed 001, "Multicast communication"), written once
// for every multicast protocol.
//
// How a protocol plugs in. A process reports its application-level events
// with Out.Output, one record each, made by these functions:
//
//	out.Output(McastRecord(id))    // the application multicasts id (once, when it asks)
//	out.Output(DeliverRecord(id))  // the process delivers id to its application
//	out.Output(ViewRecord(v, set)) // view-synchronous protocols: view v is installed
//
// and its property set (McastProperties) asks for model.Config.History
// kept per node (property.Set.HistoryByNode; checker.NewSpec turns it on). The engine keeps the records per
// node, each node's in the order it output them, and keeps a crashed
// node's records (its deliveries happened). The properties below read
// nothing else: not the protocol's state, not its clocks, not the engine's
// request vectors. So a protocol cannot pass by what it believes, only by
// what its processes did.
//
// A protocol's package exports Claims, the properties the notes claim for
// it, and Properties(p, props...), McastProperties over its claims. In the
// registry (protocols/multicastspec.go), an entry takes its parameters
// with mcastParams and mcastWorkload and builds its spec with mcastSpec(p,
// cfg, v, views, pkg.Properties): views says that it outputs ViewRecords
// (only then may -props ask view-synchrony).
// Its costs (protocols/multicastcosts.go) run it with costs.Multicast on
// an mcastScenario and lay each figure beside a formula with mcastRow.
// protocols/multicast holds the shared pieces: MsgID, the Workload, the
// Transmission of a multicast one destination per step, the Receiver
// (L_Q(P) and hold-back queue), HoldBack for messages with payloads, the
// derived Codec.
//
// Conventions. A message is named by its sender and the sender's own
// sequence number, from 1 (MsgID). A sender records its multicasts in
// the order 1, 2, 3, .... The initial view is view 0 with every process;
// a ViewRecord installs the next view. At most 8 processes and 8
// multicasts per sender (MaxMcastNodes, MaxMcastSeq).

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/property"
)

// The bounds of the multicast properties' bit sets.
const (
	MaxMcastNodes = 8
	MaxMcastSeq   = 8
)

// Names of the multicast properties.
const (
	IntegrityName      = "integrity"
	ValidityName       = "validity"
	McastAgreementName = "agreement"
	AllOrNoneName      = "all-or-none"
	FIFOOrderName      = "fifo-order"
	CausalOrderName    = "causal-order"
	TotalOrderName     = "total-order"
	ViewSynchronyName  = "view-synchrony"
)

// MsgID names one multicast: its sender and the sender's sequence number,
// from 1.
type MsgID struct {
	Sender model.NodeID
	Seq    uint8
}

// String is "p0#1".
func (m MsgID) String() string { return m.Sender.String() + "#" + strconv.Itoa(int(m.Seq)) }

// bit is m's place in a message set (a uint64).
func (m MsgID) bit() uint64 { return 1 << m.index() }

// index is m's place in a message set: bit reads 1 << index.
func (m MsgID) index() uint { return uint(m.Sender)*MaxMcastSeq + uint(m.Seq) - 1 }

// ParseMsgID reads "p0#1".
func ParseMsgID(s string) (MsgID, error) {
	p, q, ok := strings.Cut(s, "#")
	if !ok {
		return MsgID{}, fmt.Errorf("message id %q is not pN#SEQ", s)
	}
	id, err := model.ParseNodeID(p)
	if err != nil {
		return MsgID{}, err
	}
	seq, err := strconv.Atoi(q)
	if err != nil || seq < 1 || seq > MaxMcastSeq || int(id) >= MaxMcastNodes {
		return MsgID{}, fmt.Errorf("message id %q out of range (p0..p%d, #1..#%d)", s, MaxMcastNodes-1, MaxMcastSeq)
	}
	return MsgID{id, uint8(seq)}, nil
}

// McastKind says what a multicast record reports.
type McastKind uint8

// The multicast records.
const (
	McastSend    McastKind = iota // the application multicast a message
	McastDeliver                  // the process delivered a message
	McastView                     // the process installed a view
)

// McastEvent is one parsed multicast record.
type McastEvent struct {
	Kind    McastKind
	Msg     MsgID  // McastSend, McastDeliver
	View    uint8  // McastView: the view's number
	Members uint64 // McastView: bit i for process i
}

// McastRecord is the record of the application's multicast of m.
func McastRecord(m MsgID) string { return "mcast " + m.String() }

// DeliverRecord is the record of the delivery of m.
func DeliverRecord(m MsgID) string { return "deliver " + m.String() }

// ViewRecord is the record of the installation of view v, whose members
// are the set bits of members: "view 1 {p0,p2}".
func ViewRecord(v uint8, members uint64) string {
	var ids []string
	for i := range MaxMcastNodes {
		if members&(1<<i) != 0 {
			ids = append(ids, model.NodeID(i).String())
		}
	}
	return "view " + strconv.Itoa(int(v)) + " {" + strings.Join(ids, ",") + "}"
}

// ParseMcastRecord reads a record made by McastRecord, DeliverRecord or
// ViewRecord.
func ParseMcastRecord(s string) (McastEvent, error) {
	if ev, ok := quickMcastRecord(s); ok {
		return ev, nil
	}
	return parseMcastRecord(s)
}

// parseMcastRecord is ParseMcastRecord for any text.
func parseMcastRecord(s string) (McastEvent, error) {
	word, rest, _ := strings.Cut(s, " ")
	switch word {
	case "mcast", "deliver":
		m, err := ParseMsgID(rest)
		k := McastSend
		if word == "deliver" {
			k = McastDeliver
		}
		return McastEvent{Kind: k, Msg: m}, err
	case "view":
		num, set, _ := strings.Cut(rest, " ")
		v, err := strconv.Atoi(num)
		if err != nil || v < 0 || v > 255 || len(set) < 2 || set[0] != '{' || set[len(set)-1] != '}' {
			return McastEvent{}, fmt.Errorf("view record %q is not view N {pI,...}", s)
		}
		ev := McastEvent{Kind: McastView, View: uint8(v)}
		if inner := set[1 : len(set)-1]; inner != "" {
			for _, p := range strings.Split(inner, ",") {
				id, err := model.ParseNodeID(p)
				if err != nil {
					return McastEvent{}, err
				}
				ev.Members |= 1 << id
			}
		}
		return ev, nil
	}
	return McastEvent{}, fmt.Errorf("record %q is not a multicast record", s)
}

// quickMcastRecord reads the records McastRecord and DeliverRecord
// write, "mcast p0#1" and "deliver p2#3", without the general parser
// (every property of every state reads the whole history); it reports
// false for any other text, which ParseMcastRecord then reads.
func quickMcastRecord(s string) (McastEvent, bool) {
	var ev McastEvent
	switch {
	case len(s) == 10 && s[:6] == "mcast ":
		ev.Kind = McastSend
	case len(s) == 12 && s[:8] == "deliver ":
		ev.Kind = McastDeliver
	default:
		return ev, false
	}
	id := s[len(s)-4:] // pN#S, one digit each within the bounds
	if id[0] != 'p' || id[1] < '0' || id[1] >= '0'+MaxMcastNodes || id[2] != '#' || id[3] < '1' || id[3] > '0'+MaxMcastSeq {
		return ev, false
	}
	ev.Msg = MsgID{model.NodeID(id[1] - '0'), id[3] - '0'}
	return ev, true
}

// McastLogs splits w's history into the multicast events of each of its n
// processes. A record that does not parse is an error: a protocol that
// reports what the properties cannot read must not pass.
func McastLogs[S, M any](w *model.World[S, M]) ([][]McastEvent, error) {
	var p logParse
	return p.split(w.History, len(w.Nodes))
}

// logParse is a history split into logs (McastLogs), its memory reused by
// the next split.
type logParse struct {
	history []model.Record // the records split, when valid
	valid   bool
	logs    [][]McastEvent
	all     []McastEvent // the logs' events, one after the other
	err     error
}

// split splits history, of n processes, into p's logs.
func (p *logParse) split(history []model.Record, n int) ([][]McastEvent, error) {
	// The logs share one array, each process's part as long as its
	// records.
	var counts [model.MaxNodes]int
	for _, r := range history {
		counts[r.Node]++
	}
	// (Grown from empty: the memory of the last split, when it has room.)
	p.logs, p.all = slices.Grow(p.logs[:0], n)[:n], slices.Grow(p.all[:0], len(history))[:len(history)]
	at := 0
	for i := range p.logs {
		p.logs[i], at = p.all[at:at:at+counts[i]], at+counts[i]
	}
	p.err = nil
	for _, r := range history {
		ev, err := ParseMcastRecord(r.Text)
		if err != nil {
			p.logs, p.err = nil, fmt.Errorf("%s: %v", r.Node, err)
			break
		}
		p.logs[r.Node] = append(p.logs[r.Node], ev)
	}
	return p.logs, p.err
}

// logParses keeps splits for sharedLogs, one per goroutine at a time.
var logParses = sync.Pool{New: func() any { return new(logParse) }}

// sharedLogs returns w's logs (McastLogs) and the split that holds them,
// to be put back in logParses once they are read (they are its memory):
// a multicast protocol's properties read one state's logs one after the
// other, so the split is kept, and a history equal to the one split last
// (records compared, not where they are in memory) is not split again.
// It took three splits a state, and six allocations, on causal-mcast.
func sharedLogs[S, M any](w *model.World[S, M]) (*logParse, [][]McastEvent, error) {
	p := logParses.Get().(*logParse)
	if p.valid && len(p.logs) == len(w.Nodes) && slices.Equal(p.history, w.History) {
		return p, p.logs, p.err
	}
	p.valid = false
	logs, err := p.split(w.History, len(w.Nodes))
	p.history, p.valid = append(p.history[:0], w.History...), true
	return p, logs, err
}

// delivered is the set of messages in log that were delivered.
func delivered(log []McastEvent) uint64 {
	var set uint64
	for _, ev := range log {
		if ev.Kind == McastDeliver {
			set |= ev.Msg.bit()
		}
	}
	return set
}

// sent is the set of messages in log that were multicast.
func sent(log []McastEvent) uint64 {
	var set uint64
	for _, ev := range log {
		if ev.Kind == McastSend {
			set |= ev.Msg.bit()
		}
	}
	return set
}

// firstMsg names the first message of a non-empty set.
func firstMsg(set uint64) MsgID {
	b := bits.TrailingZeros64(set)
	return MsgID{model.NodeID(b / MaxMcastSeq), uint8(b%MaxMcastSeq) + 1}
}

// mcastInvariant makes an invariant of a check on the logs.
func mcastInvariant[S, M any](name string, terminal bool, check func(w *model.World[S, M], logs [][]McastEvent) string) property.Invariant[S, M] {
	return property.Invariant[S, M]{
		Name:     name,
		Terminal: terminal,
		Holds: func(w *model.World[S, M]) (bool, string) {
			p, logs, err := sharedLogs(w)
			defer logParses.Put(p)
			if err != nil {
				return false, err.Error()
			}
			why := check(w, logs)
			return why == "", why
		},
	}
}

// Integrity (seed 001: "a correct process delivers every message at most
// once"; and, as the notes' "deliver messages to all processes in a group"
// presumes, only a message that was multicast): no process delivers a
// message twice, every delivered message was multicast by its sender, and
// a sender numbers its multicasts 1, 2, 3, ....
func Integrity[S, M any]() property.Invariant[S, M] {
	return mcastInvariant(IntegrityName, false, func(w *model.World[S, M], logs [][]McastEvent) string {
		var sends [model.MaxNodes]uint64 // each process's multicasts, once
		for p, log := range logs {
			sends[p] = sent(log)
		}
		for p, log := range logs {
			var seen uint64
			next := uint8(1)
			for _, ev := range log {
				switch ev.Kind {
				case McastSend:
					if ev.Msg.Sender != model.NodeID(p) || ev.Msg.Seq != next {
						return fmt.Sprintf("p%d multicast %s, but its next multicast is p%d#%d", p, ev.Msg, p, next)
					}
					next++
				case McastDeliver:
					if seen&ev.Msg.bit() != 0 {
						return fmt.Sprintf("p%d delivered %s twice", p, ev.Msg)
					}
					seen |= ev.Msg.bit()
					if int(ev.Msg.Sender) >= len(logs) || sends[ev.Msg.Sender]&ev.Msg.bit() == 0 {
						return fmt.Sprintf("p%d delivered %s, which was never multicast", p, ev.Msg)
					}
				}
			}
		}
		return ""
	})
}

// pendingLiveness makes a liveness property of a per-process obligation:
// the set of messages process i still owes itself.
func pendingLiveness[S, M any](name string, owed func(w *model.World[S, M], logs [][]McastEvent, i model.NodeID) uint64) property.Liveness[S, M] {
	return property.Liveness[S, M]{
		Name: name,
		Pending: func(w *model.World[S, M], i model.NodeID) bool {
			p, logs, err := sharedLogs(w)
			defer logParses.Put(p)
			if err != nil {
				return false // Integrity reports it
			}
			return owed(w, logs, i) != 0
		},
	}
}

// Validity (seed 001: "if a correct process multicasts message m, then it
// will eventually deliver m"): under weak fairness and the run's fault
// budget, no live process stays forever without delivering a message it
// multicast. A process that crashes is no longer bound.
func Validity[S, M any]() property.Liveness[S, M] {
	return pendingLiveness(ValidityName, func(_ *model.World[S, M], logs [][]McastEvent, i model.NodeID) uint64 {
		return sent(logs[i]) &^ delivered(logs[i])
	})
}

// McastAgreement (seed 001: "if a correct process delivers message m,
// then all other correct processes in the group will eventually deliver
// m"): no live process stays forever without a message that another
// process delivered and that process is live ("correct" = not crashed).
func McastAgreement[S, M any]() property.Liveness[S, M] {
	return pendingLiveness(McastAgreementName, func(w *model.World[S, M], logs [][]McastEvent, i model.NodeID) uint64 {
		return deliveredByLive(w, logs) &^ delivered(logs[i])
	})
}

// deliveredByLive is the set of messages some live process delivered.
func deliveredByLive[S, M any](w *model.World[S, M], logs [][]McastEvent) uint64 {
	var set uint64
	for j, log := range logs {
		if !w.IsDown(model.NodeID(j)) {
			set |= delivered(log)
		}
	}
	return set
}

// AllOrNone is reliable multicast's promise in the notes' words (seed
// 001: "deliver messages to all processes in a group or to none at all",
// also when the sender crashes half-way), judged when a run has ended (a
// terminal world): every message some surviving process delivered, every
// surviving process delivered. Agreement says the same as a liveness
// property; this form is the one view-synchronous multicast keeps across
// a crash (the notes' figure: "both q and r deliver first m").
func AllOrNone[S, M any]() property.Invariant[S, M] {
	return mcastInvariant(AllOrNoneName, true, func(w *model.World[S, M], logs [][]McastEvent) string {
		all := deliveredByLive(w, logs)
		for i, log := range logs {
			if w.IsDown(model.NodeID(i)) {
				continue
			}
			if miss := all &^ delivered(log); miss != 0 {
				m := firstMsg(miss)
				who := ""
				for j, l := range logs {
					if !w.IsDown(model.NodeID(j)) && delivered(l)&m.bit() != 0 {
						who = fmt.Sprintf("p%d", j)
						break
					}
				}
				return fmt.Sprintf("the run is over: %s delivered %s, but p%d, also alive, never will", who, m, i)
			}
		}
		return ""
	})
}

// FIFOOrder (seed 001, "FIFO ordering: messages from the same process
// delivered in the sent order by all processes"): a process delivers p#k
// only after p#1 .. p#k-1.
func FIFOOrder[S, M any]() property.Invariant[S, M] {
	return mcastInvariant(FIFOOrderName, false, func(_ *model.World[S, M], logs [][]McastEvent) string {
		for q, log := range logs {
			var got uint64
			for _, ev := range log {
				if ev.Kind != McastDeliver {
					continue
				}
				for s := uint8(1); s < ev.Msg.Seq; s++ {
					if m := (MsgID{ev.Msg.Sender, s}); got&m.bit() == 0 {
						return fmt.Sprintf("p%d delivered %s before %s, which its sender multicast first", q, ev.Msg, m)
					}
				}
				got |= ev.Msg.bit()
			}
		}
		return ""
	})
}

// CausalPast returns, for every message multicast in logs, the set of
// messages whose multicast happened before its multicast, in Lamport's
// sense, over the application events alone: a process's events in its
// order, and the multicast of m before every delivery of m. A message
// received by the network but held back is no cause: only its delivery
// is an event. ok is false when some delivery has no multicast to come
// after (Integrity reports that).
func CausalPast(logs [][]McastEvent) (past Pasts, ok bool) {
	// The next event of each process, and the messages multicast before
	// it (on the stack for the processes a message id can name).
	var posA [MaxMcastNodes]int
	var curA [MaxMcastNodes]uint64
	pos, cur := posA[:], curA[:]
	if len(logs) > MaxMcastNodes {
		pos, cur = make([]int, len(logs)), make([]uint64, len(logs))
	}
	for progress := true; progress; {
		progress = false
		for p, log := range logs {
			for ; pos[p] < len(log); pos[p]++ {
				ev := log[pos[p]]
				if ev.Kind == McastSend {
					past.set(ev.Msg, cur[p])
					cur[p] |= ev.Msg.bit()
				} else if ev.Kind == McastDeliver {
					pm, known := past.Of(ev.Msg)
					if !known {
						break // its multicast is not placed yet
					}
					cur[p] |= pm | ev.Msg.bit()
				}
				progress = true
			}
		}
	}
	for p := range logs {
		if pos[p] < len(logs[p]) {
			return past, false
		}
	}
	return past, true
}

// Pasts is, for each message whose multicast CausalPast placed, the set
// of messages whose multicast happened before it: an array indexed by
// message, since ids are bounded (MaxMcastNodes, MaxMcastSeq).
type Pasts struct {
	placed uint64 // the messages placed (MsgID.bit)
	of     [MaxMcastNodes * MaxMcastSeq]uint64
}

// Of returns m's past, and whether m's multicast was placed (its past is
// empty when not).
func (p *Pasts) Of(m MsgID) (uint64, bool) {
	return p.of[m.index()], p.placed&m.bit() != 0
}

// set places m's multicast, with past before it.
func (p *Pasts) set(m MsgID, past uint64) {
	p.of[m.index()], p.placed = past, p.placed|m.bit()
}

// CausalOrder (seed 001, "Causal ordering: happened-before-related
// messages delivered in that order by all processes"): when the multicast
// of m happened before the multicast of m' (CausalPast, computed from the
// recorded events, never from the protocol's clocks), no process delivers
// m' before m.
func CausalOrder[S, M any]() property.Invariant[S, M] {
	return mcastInvariant(CausalOrderName, false, func(_ *model.World[S, M], logs [][]McastEvent) string {
		past, _ := CausalPast(logs)
		for q, log := range logs {
			var got uint64
			for _, ev := range log {
				if ev.Kind != McastDeliver {
					continue
				}
				pm, _ := past.Of(ev.Msg)
				if miss := pm &^ got; miss != 0 {
					return fmt.Sprintf("p%d delivered %s before %s, whose multicast happened before %s's", q, ev.Msg, firstMsg(miss), ev.Msg)
				}
				got |= ev.Msg.bit()
			}
		}
		return ""
	})
}

// TotalOrder (seed 001, "Total ordering: all messages delivered in the
// same order by all processes"): any two processes that both deliver m
// and m' deliver them in the same order. Crashed processes count too:
// what they delivered before crashing was delivered (the uniform form).
func TotalOrder[S, M any]() property.Invariant[S, M] {
	return mcastInvariant(TotalOrderName, false, func(_ *model.World[S, M], logs [][]McastEvent) string {
		order := make([][]MsgID, len(logs))
		for p, log := range logs {
			for _, ev := range log {
				if ev.Kind == McastDeliver {
					order[p] = append(order[p], ev.Msg)
				}
			}
		}
		for p := range order {
			for q := p + 1; q < len(order); q++ {
				if why := sameOrder(p, q, order[p], order[q]); why != "" {
					return why
				}
			}
		}
		return ""
	})
}

// sameOrder compares the deliveries a of p and b of q on the messages
// both delivered.
func sameOrder(p, q int, a, b []MsgID) string {
	var inB uint64
	for _, m := range b {
		inB |= m.bit()
	}
	var inA uint64
	for _, m := range a {
		inA |= m.bit()
	}
	var ca, cb []MsgID // the common messages in p's and in q's order
	for _, m := range a {
		if inB&m.bit() != 0 {
			ca = append(ca, m)
		}
	}
	for _, m := range b {
		if inA&m.bit() != 0 {
			cb = append(cb, m)
		}
	}
	for k := range ca {
		if ca[k] != cb[k] {
			return fmt.Sprintf("p%d delivered %s before %s, p%d the other way round", p, ca[k], cb[k], q)
		}
	}
	return ""
}

// ViewSynchrony (seed 001, "Atomic multicast"): views are installed in
// the same order with the same members by everyone ("view messages ...
// delivered to members in total order"); a process installs only views
// it belongs to; a message is delivered in the view its sender had when
// it multicast it ("each message is associated with a group view";
// "multicasts cannot pass across view changes"); and two processes that
// both survive view v into the next view delivered the same messages in
// v. The initial view is view 0 with every process; ViewRecord installs
// the next.
func ViewSynchrony[S, M any]() property.Invariant[S, M] {
	return mcastInvariant(ViewSynchronyName, false, func(w *model.World[S, M], logs [][]McastEvent) string {
		n := len(logs)
		members := map[uint8]uint64{0: 1<<n - 1}
		sentIn := map[MsgID]uint8{}
		inView := make([]map[uint8]uint64, n) // process -> view -> messages delivered in it
		for p, log := range logs {
			v := uint8(0)
			inView[p] = map[uint8]uint64{}
			for _, ev := range log {
				switch ev.Kind {
				case McastView:
					if ev.View != v+1 {
						return fmt.Sprintf("p%d installed view %d after view %d", p, ev.View, v)
					}
					if ev.Members&(1<<p) == 0 {
						return fmt.Sprintf("p%d installed view %d, which does not include it", p, ev.View)
					}
					if m, ok := members[ev.View]; ok && m != ev.Members {
						return fmt.Sprintf("view %d has members %s at p%d but %s elsewhere", ev.View,
							ViewRecord(ev.View, ev.Members)[len("view 0 "):], p, ViewRecord(ev.View, m)[len("view 0 "):])
					}
					members[ev.View] = ev.Members
					v = ev.View
				case McastSend:
					sentIn[ev.Msg] = v
				case McastDeliver:
					inView[p][v] |= ev.Msg.bit()
				}
			}
		}
		for p := range logs {
			for v, set := range inView[p] {
				for s := set; s != 0; s &= s - 1 {
					m := firstMsg(s)
					if sv, ok := sentIn[m]; ok && sv != v {
						return fmt.Sprintf("p%d delivered %s in view %d, but it was multicast in view %d", p, m, v, sv)
					}
				}
			}
		}
		for p := range logs {
			for q := p + 1; q < n; q++ {
				for v := uint8(0); installed(logs[p], v+1) && installed(logs[q], v+1); v++ {
					if a, b := inView[p][v], inView[q][v]; a != b {
						d := a ^ b
						return fmt.Sprintf("p%d and p%d both moved from view %d to %d, but only one of them delivered %s in view %d",
							p, q, v, v+1, firstMsg(d), v)
					}
				}
			}
		}
		return ""
	})
}

// installed reports whether log installs view v (view 0 is installed
// from the start).
func installed(log []McastEvent, v uint8) bool {
	if v == 0 {
		return true
	}
	for _, ev := range log {
		if ev.Kind == McastView && ev.View == v {
			return true
		}
	}
	return false
}
