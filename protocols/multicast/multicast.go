// Package multicast is the vocabulary every multicast protocol of
// coordcheck shares (seed 001, "Multicast communication"): message ids,
// the workload (how many multicasts each process makes, and whether a
// process waits for a delivery before it multicasts), the transmission of
// one multicast one destination per step, the receiver's L_Q(P) and
// hold-back queue, a derived codec, and the cost measurement. The
// protocols themselves live in the sub-packages; the properties they are
// checked against in invariants/multicast.go, which says how a protocol
// plugs in.
package multicast

import (
	"strconv"
	"strings"

	"github.com/coordcheck/coordcheck/internal/nodeset"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
)

// MsgID names one multicast: its sender and the sender's sequence number
// S_P, from 1.
type MsgID = invariants.MsgID

// Bounds of the family: processes and multicasts per process (the
// properties keep message sets in 64-bit words).
const (
	MaxNodes = invariants.MaxMcastNodes
	MaxMsgs  = invariants.MaxMcastSeq
)

// Input is the workload's only input: the application asks its process
// to multicast its next message.
const Input model.Input = "multicast"

// Workload is what the environment asks of the processes.
type Workload struct {
	// Msgs is how many multicasts each process may make (K, -msgs).
	Msgs int
	// Senders is how many processes multicast: p0 .. p(Senders-1); the
	// others only receive. It keeps exhaustive checks small while several
	// multicasts are in flight.
	Senders int
	// Causal: p0 multicasts at will, every other process only once it has
	// delivered a message of another process, so that multicasts are
	// related by happened-before (the notes' causal example: C3 after
	// delivering C1).
	Causal bool
}

// ParseWorkload reads the workload parameter: free or causal.
func ParseWorkload(s string) (causal bool, ok bool) {
	switch s {
	case "free":
		return false, true
	case "causal":
		return true, true
	}
	return false, false
}

// Inputs appends Input when process self, which has made `made`
// multicasts, may make another: it is a sender, has some left, is not transmitting
// one (busy), and, under the causal workload, has heard from another
// process (delivered one of its messages) unless it is p0.
func (wl Workload) Inputs(self model.NodeID, made uint8, busy, heard bool, dst []model.Input) []model.Input {
	if int(made) >= wl.Msgs || busy || int(self) >= wl.Senders {
		return dst
	}
	if wl.Causal && self != 0 && !heard {
		return dst
	}
	return append(dst, Input)
}

// Transmit is the timer by which a sender transmits a multicast, one
// destination per firing. Protocols number their other timers from 1.
const Transmit model.TimerID = 0

// Transmission is a multicast under way: the destinations it has still to
// reach (bit i for process i). A model step sends all its messages at
// once, so a multicast sent in one step could never be cut short by a
// crash; the notes ask what happens "if the sender crashes half-way
// sending the multicast". So a sender transmits to one destination per
// step (its Transmit timer, always ready and weakly fair), in ring order
// from itself (self+1, self+2, ...), and a crash may strike between two
// of them.
type Transmission struct {
	Left uint8
}

// Start is a transmission to every process but self among n.
func Start(self model.NodeID, n int) Transmission {
	return Transmission{Left: uint8((1<<n - 1) &^ (1 << self))}
}

// Begin starts the sender's next multicast among n processes (seed 001:
// "a message is multicast ... using sequence numbers per sender"): it
// numbers it after the made ones, records the multicast and the sender's
// own delivery of it, which is at once, and starts its transmission to
// the others, one destination per firing of the Transmit timer. It
// returns the message's id.
func Begin[M any](self model.NodeID, n int, made *uint8, sending *Transmission, out *model.Out[M]) MsgID {
	*made++
	m := MsgID{Sender: self, Seq: *made}
	out.Output(invariants.McastRecord(m))
	out.Output(invariants.DeliverRecord(m))
	*sending = Start(self, n)
	out.SetTimer(Transmit)
	return m
}

// To is a transmission to the processes of set (bit i for process i).
func To(set uint8) Transmission { return Transmission{Left: set} }

// Busy reports whether destinations are left.
func (t Transmission) Busy() bool { return t.Left != 0 }

// Next returns the next destination in ring order from self, and the
// transmission without it.
func (t Transmission) Next(self model.NodeID, n int) (model.NodeID, Transmission) {
	for k := 1; k <= n; k++ {
		to := model.NodeID((int(self) + k) % n)
		if t.Left&(1<<to) != 0 {
			return to, Transmission{Left: t.Left &^ (1 << to)}
		}
	}
	panic("multicast: Next on a finished transmission")
}

// Arrival classifies a message received from P against L_Q(P) (seed 001,
// "Basic reliable multicasting": "when process Q receives a message from
// P").
type Arrival uint8

// The three cases of the notes.
const (
	// InOrder: S_P = L_Q(P) + 1, deliver it.
	InOrder Arrival = iota
	// Ahead: S_P > L_Q(P) + 1, keep it in the hold-back queue.
	Ahead
	// Old: S_P <= L_Q(P), already delivered: discard it.
	Old
)

// Receiver is what a process Q knows of the messages of every sender P:
// L_Q(P), "the number of the last message it has delivered coming from"
// P, and the hold-back queue of messages that came too early.
type Receiver struct {
	Last [MaxNodes]uint8 // L_Q(P)
	Held [MaxNodes]uint8 // bit s-1: P's message s waits in the hold-back queue
}

// Classify says which case of the notes m is.
func (r *Receiver) Classify(m MsgID) Arrival {
	switch l := r.Last[m.Sender]; {
	case m.Seq == l+1:
		return InOrder
	case m.Seq > l+1:
		return Ahead
	}
	return Old
}

// Delivered records the delivery of m, which must be in order.
func (r *Receiver) Delivered(m MsgID) { r.Last[m.Sender] = m.Seq }

// Hold puts m in the hold-back queue; holding a message twice holds it
// once.
func (r *Receiver) Hold(m MsgID) { r.Held[m.Sender] |= 1 << (m.Seq - 1) }

// IsHeld reports whether m waits in the hold-back queue.
func (r *Receiver) IsHeld(m MsgID) bool { return r.Held[m.Sender]&(1<<(m.Seq-1)) != 0 }

// TakeNext removes from the hold-back queue P's next expected message,
// if it is there.
func (r *Receiver) TakeNext(p model.NodeID) (MsgID, bool) {
	m := MsgID{Sender: p, Seq: r.Last[p] + 1}
	if m.Seq > MaxMsgs || !r.IsHeld(m) {
		return MsgID{}, false
	}
	r.Held[p] &^= 1 << (m.Seq - 1)
	return m, true
}

// Missing is P's messages Q lacks below seq: numbers L_Q(P)+1 .. seq-1
// not in the hold-back queue, as bits (bit s-1 for number s).
func (r *Receiver) Missing(p model.NodeID, seq uint8) uint8 {
	var set uint8
	for s := r.Last[p] + 1; s < seq; s++ {
		if r.Held[p]&(1<<(s-1)) == 0 {
			set |= 1 << (s - 1)
		}
	}
	return set
}

// Heard reports whether Q delivered a message of a process other than
// self (the causal workload's condition).
func (r *Receiver) Heard(self model.NodeID) bool {
	for p, l := range r.Last {
		if model.NodeID(p) != self && l > 0 {
			return true
		}
	}
	return false
}

// FormatSending is " sending={p1,p2}" for a transmission under way, ""
// otherwise.
func FormatSending(t Transmission) string {
	if !t.Busy() {
		return ""
	}
	return " sending=" + nodeset.Format(uint64(t.Left))
}

// TimerName names the shared timer, for protocols that have no other:
// "transmit".
func TimerName(t model.TimerID) string {
	if t == Transmit {
		return "transmit"
	}
	return "t" + string(rune('0'+t))
}

// Format is " L=(1,0,0) held={p1#2,p1#3}" for n processes; the held
// part only when the hold-back queue is not empty.
func (r *Receiver) Format(n int) string {
	s := " L=("
	var held []string
	for p := range n {
		if p > 0 {
			s += ","
		}
		s += strconv.Itoa(int(r.Last[p]))
		for q := 1; q <= MaxMsgs; q++ {
			if r.Held[p]&(1<<(q-1)) != 0 {
				held = append(held, MsgID{Sender: model.NodeID(p), Seq: uint8(q)}.String())
			}
		}
	}
	s += ")"
	if len(held) > 0 {
		s += " held={" + strings.Join(held, ",") + "}"
	}
	return s
}

// MaxHeld is the capacity of a HoldBack queue.
const MaxHeld = 8

// Keyed is a message that names the multicast it carries.
type Keyed interface {
	Key() MsgID
}

// HoldBack is a hold-back queue of whole messages (when a message carries
// more than its number, as a vector timestamp does): at most MaxHeld, kept
// in the order of their ids, so that equal queues encode equally. A plain
// value: copying it copies the queue. The slots from Len on stay zero, and
// only the first Len are encoded (the tag: model's derived codec).
type HoldBack[M Keyed] struct {
	Len   uint8
	Slots [MaxHeld]M `coordcheck:"len=Len"`
}

// Add puts m in the queue, unless a message with its id is there; it
// panics when the queue is full (a protocol bounds its configurations by
// MaxHeld).
func (q *HoldBack[M]) Add(m M) {
	k := m.Key()
	i := 0
	for ; i < int(q.Len); i++ {
		ki := q.Slots[i].Key()
		if ki == k {
			return
		}
		if ki.Sender > k.Sender || ki.Sender == k.Sender && ki.Seq > k.Seq {
			break
		}
	}
	if int(q.Len) == MaxHeld {
		panic("multicast: hold-back queue full")
	}
	copy(q.Slots[i+1:q.Len+1], q.Slots[i:q.Len])
	q.Slots[i] = m
	q.Len++
}

// Take removes and returns the first message (in id order) for which ok
// holds.
func (q *HoldBack[M]) Take(ok func(M) bool) (M, bool) {
	for i := 0; i < int(q.Len); i++ {
		if m := q.Slots[i]; ok(m) {
			copy(q.Slots[i:], q.Slots[i+1:q.Len])
			var zero M
			q.Len--
			q.Slots[q.Len] = zero
			return m, true
		}
	}
	var zero M
	return zero, false
}

// Keys lists the ids of the messages held, in order.
func (q *HoldBack[M]) Keys() []MsgID {
	var ks []MsgID
	for i := 0; i < int(q.Len); i++ {
		ks = append(ks, q.Slots[i].Key())
	}
	return ks
}
