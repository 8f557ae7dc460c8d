// Package isis is totally ordered multicast by agreed sequence numbers, the
// ISIS algorithm (seed 001, "Implementing total ordering", b: "processes
// jointly agree on sequence numbers"):
//
//  1. The sender multicasts message m.
//  2. Each receiver j replies with a proposed sequence number for m,
//     including its process id, P_j = max(A_j, P_j) + 1, and places m in
//     an ordered hold-back queue according to P_j (A_j: the largest agreed
//     number j has seen; P_j: its own largest proposal).
//  3. The sender selects the largest of all proposals, N, as the agreed
//     number for m and multicasts it.
//  4. Each receiver j updates A_j = max(A_j, N), tags m with N, and
//     reorders the hold-back queue if needed.
//  5. A message is delivered when it is at the front of the hold-back
//     queue and its number is agreed.
//
// The sender is a receiver of its own message: it proposes to itself
// without a message, so one multicast costs N-1 messages, N-1 proposals
// and N-1 agreed numbers: 3(N-1).
//
// Two deliberately broken variants show why the notes insist on the
// details: without the proposer's id (TieBreak false) two messages can
// agree on the same number and the processes order them as they arrived;
// choosing a proposal other than the largest (ChooseSmallest) lets a
// message be agreed below a number some process already delivered past.
// Both violate total order, and the checker finds the shortest runs.
//
// The hybrids of the notes ("FIFO+total ordering and causal+total
// ordering are also possible") put a FIFO or a causal layer under step 2:
// a receiver accepts m, and proposes for it, only when m is the next
// message from its sender (FIFO, as in basic reliable multicasting) or
// when, moreover, it has accepted every message the sender had seen before
// m (causal, the notes' vector-clock conditions a. and b.). A process then
// proposes for m before m', whenever m precedes m', so the largest
// proposal for m' exceeds that for m, at every process.
//
// What the notes do not say, and the checker confirms: ISIS alone is
// causal whenever it is FIFO. A process that delivered m has A >= m's
// agreed number, so it proposes above it for what it multicasts next; on
// FIFO links plain ISIS is FIFO+total and causal+total, and on an
// unordered network the FIFO layer alone makes it causal+total. The causal
// layer changes no verdict; it costs a vector clock per message.
package isis

import (
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast"
)

// MaxN is the largest group: vector clocks have one byte per process.
const MaxN = 8

// Choice is the sender's rule for the agreed number.
type Choice uint8

// The choices.
const (
	ChooseLargest  Choice = iota // the notes: the largest of all proposals
	ChooseSmallest               // broken: the smallest
)

// Order is the ordering layer under the agreement.
type Order uint8

// The orders.
const (
	Total       Order = iota // total order only
	FIFOTotal                // FIFO+total: accept a sender's messages in its order
	CausalTotal              // causal+total: accept in causal order (vector clocks)
)

// Protocol is ISIS total order among N processes under a workload.
type Protocol struct {
	multicast.Group
	TieBreak bool // a proposal carries its proposer's id (the notes)
	Choose   Choice
	Order    Order
}

// New returns the notes' ISIS for n processes under wl.
func New(n int, wl multicast.Workload) *Protocol {
	return &Protocol{Group: multicast.Group{N: n, Workload: wl}, TieBreak: true}
}

// ID names a message: its sender and the sender's own number, from 1.
type ID = multicast.MsgID

// Tag is a sequence number with the id of the process that proposed it
// (By is 0 when proposals carry no id).
type Tag struct {
	Num uint16
	By  model.NodeID
}

// VC is a vector clock: entry k counts the messages of process k accepted.
type VC [MaxN]uint8

// Entry is a message in the hold-back queue.
type Entry struct {
	ID     ID
	Tag    Tag  // proposed by this process, or agreed
	Agreed bool // Tag is the agreed number
}

// Pending is a message of this process waiting for proposals.
type Pending struct {
	Seq  uint8
	Best Tag   // the proposal chosen so far
	Got  uint8 // proposals received, this process's own included
}

// Early is a message the FIFO or causal layer holds back.
type Early struct {
	ID ID
	VC VC
}

// State is one process's state.
type State struct {
	A, P  uint16 // largest agreed number seen, largest own proposal
	Sent  uint8
	Heard bool      // delivered a message of another process (causal workload)
	Queue []Entry   // the hold-back queue, in tag order
	Own   []Pending // own messages awaiting proposals, by Seq
	VC    VC        // the layer's clock (zero under Total)
	Early []Early   // held back by the layer, by ID
}

// Kind is a message type.
type Kind uint8

// The messages.
const (
	Message Kind = iota // MSG(id, vc): the multicast message itself
	Propose             // PROPOSE(seq, tag): a receiver's proposal, to the sender
	Agreed              // AGREED(id, tag): the agreed number, to all
)

// Msg is a message.
type Msg struct {
	Kind Kind
	ID   ID  // for Propose only Seq is used: the sender is the receiver
	Tag  Tag // for Propose and Agreed
	VC   VC  // for Message under CausalTotal
}

var _ model.Protocol[State, Msg] = (*Protocol)(nil)

// Init: A = P = 0, nothing queued.
func (p *Protocol) Init(model.NodeID, *model.Out[Msg]) State { return State{} }

// Inputs: the workload's multicasts.
func (p *Protocol) Inputs(self model.NodeID, s State, dst []model.Input) []model.Input {
	return p.Workload.Inputs(self, s.Sent, false, s.Heard, dst)
}

// Step is the rule set of seed 001, "Implementing total ordering" (b).
func (p *Protocol) Step(self model.NodeID, s State, ev model.Event[Msg], out *model.Out[Msg]) State {
	s = s.clone()
	switch ev.Kind {
	case model.Environment: // multicast.Input
		// 1. The sender multicasts message m (stamped with its clock
		// under the causal layer, rule 1 of causal ordering: increase
		// VC[i] only when sending).
		s.Sent++
		id := ID{Sender: self, Seq: s.Sent}
		out.Output(invariants.McastRecord(id))
		m := Msg{Kind: Message, ID: id}
		if p.Order != Total {
			s.VC[self]++
		}
		if p.Order == CausalTotal {
			m.VC = s.VC
		}
		for j := range p.N {
			if model.NodeID(j) != self {
				out.Send(model.NodeID(j), m)
			}
		}
		// The sender is a receiver too: it proposes to itself.
		var t Tag
		s, t = p.propose(self, s, id)
		s.Own = append(s.Own, Pending{Seq: id.Seq, Best: t, Got: 1})
	case model.Receive:
		switch m := ev.Msg; m.Kind {
		case Message:
			// 2. under a FIFO or causal layer: hold m back until it is
			// the sender's next and (causal) its predecessors are in.
			s.Early = insertEarly(s.Early, Early{m.ID, m.VC})
			s = p.accept(self, s, out)
		case Propose:
			// 3. The sender collects the proposals and, once all are in,
			// selects the largest as the agreed number and multicasts it.
			s = p.collect(self, s, m.ID.Seq, m.Tag, out)
		case Agreed:
			// 4. A = max(A, N); tag m with N and reorder the queue.
			s = p.agree(s, m.ID, m.Tag)
		}
	}
	// 5. Deliver from the front while the front's number is agreed.
	for len(s.Queue) > 0 && s.Queue[0].Agreed {
		out.Output(invariants.DeliverRecord(s.Queue[0].ID))
		s.Heard = s.Heard || s.Queue[0].ID.Sender != self
		s.Queue = s.Queue[1:]
	}
	return s
}

// accept passes every held-back message the layer allows to step 2, in
// ID order, until none is left that it allows: each receiver replies with
// a proposal.
func (p *Protocol) accept(self model.NodeID, s State, out *model.Out[Msg]) State {
	for i := 0; i < len(s.Early); {
		e := s.Early[i]
		if !p.ready(s, e) {
			i++
			continue
		}
		s.Early = append(s.Early[:i:i], s.Early[i+1:]...)
		if p.Order != Total {
			// Rule 3 of causal ordering (and FIFO's L_Q(P)++): count it.
			s.VC[e.ID.Sender]++
		}
		var t Tag
		s, t = p.propose(self, s, e.ID)
		out.Send(e.ID.Sender, Msg{Kind: Propose, ID: ID{Seq: e.ID.Seq}, Tag: t})
		i = 0 // an acceptance may free an earlier held message
	}
	return s
}

// ready is the layer's condition for e.
func (p *Protocol) ready(s State, e Early) bool {
	i := e.ID.Sender
	switch p.Order {
	case FIFOTotal:
		// S_P = L_Q(P) + 1 (basic reliable multicasting).
		return e.ID.Seq == s.VC[i]+1
	case CausalTotal:
		// a. VC(m)[i] = VC_j[i] + 1; b. VC(m)[k] <= VC_j[k] for k != i.
		if e.VC[i] != s.VC[i]+1 {
			return false
		}
		for k := range p.N {
			if k != int(i) && e.VC[k] > s.VC[k] {
				return false
			}
		}
	}
	return true
}

// propose is step 2 at process self: P = max(A, P) + 1, with self's id,
// and m placed in the queue by that proposal.
func (p *Protocol) propose(self model.NodeID, s State, id ID) (State, Tag) {
	s.P = max(s.A, s.P) + 1
	t := Tag{Num: s.P}
	if p.TieBreak {
		t.By = self
	}
	s.Queue = p.enqueue(s.Queue, Entry{ID: id, Tag: t})
	return s, t
}

// collect is step 3 at the sender of message seq: one more proposal t.
func (p *Protocol) collect(self model.NodeID, s State, seq uint8, t Tag, out *model.Out[Msg]) State {
	k := 0
	for k < len(s.Own) && s.Own[k].Seq != seq {
		k++
	}
	if k == len(s.Own) {
		return s // a proposal for a message already agreed (a duplicate)
	}
	o := &s.Own[k]
	o.Got++
	if p.better(t, o.Best) {
		o.Best = t
	}
	if int(o.Got) < p.N {
		return s
	}
	id, agreed := ID{Sender: self, Seq: seq}, o.Best
	s.Own = append(s.Own[:k:k], s.Own[k+1:]...)
	for j := range p.N {
		if model.NodeID(j) != self {
			out.Send(model.NodeID(j), Msg{Kind: Agreed, ID: id, Tag: agreed})
		}
	}
	return p.agree(s, id, agreed)
}

// better reports whether proposal t is preferred to the chosen one.
func (p *Protocol) better(t, chosen Tag) bool {
	if p.Choose == ChooseSmallest {
		return p.less(t, chosen)
	}
	return p.less(chosen, t)
}

// agree is step 4: A = max(A, N), m tagged with N, the queue reordered.
func (p *Protocol) agree(s State, id ID, t Tag) State {
	s.A = max(s.A, t.Num)
	for i, e := range s.Queue {
		if e.ID == id {
			s.Queue = append(s.Queue[:i:i], s.Queue[i+1:]...)
			s.Queue = p.enqueue(s.Queue, Entry{ID: id, Tag: t, Agreed: true})
			break
		}
	}
	return s
}

// enqueue places e in the ordered hold-back queue: behind every entry
// whose tag is not above e's. Without tie-break, equal numbers keep the
// order in which they were placed.
func (p *Protocol) enqueue(q []Entry, e Entry) []Entry {
	i := len(q)
	for i > 0 && p.less(e.Tag, q[i-1].Tag) {
		i--
	}
	q = append(q, Entry{})
	copy(q[i+1:], q[i:])
	q[i] = e
	return q
}

// less orders tags: by number, then by proposer id when the protocol
// breaks ties by id.
func (p *Protocol) less(a, b Tag) bool {
	if a.Num != b.Num || !p.TieBreak {
		return a.Num < b.Num
	}
	return a.By < b.By
}

// insertEarly adds e to the held-back messages, kept in ID order.
func insertEarly(es []Early, e Early) []Early {
	i := len(es)
	for i > 0 && (es[i-1].ID.Sender > e.ID.Sender || es[i-1].ID.Sender == e.ID.Sender && es[i-1].ID.Seq > e.ID.Seq) {
		i--
	}
	es = append(es, Early{})
	copy(es[i+1:], es[i:])
	es[i] = e
	return es
}

// clone copies s's slices, so that Step never mutates its input.
func (s State) clone() State {
	s.Queue = append([]Entry(nil), s.Queue...)
	s.Own = append([]Pending(nil), s.Own...)
	s.Early = append([]Early(nil), s.Early...)
	return s
}

// KindName names m's type in cost counts: "MSG", "PROPOSE" or "AGREED".
func KindName(m Msg) string { return [...]string{"MSG", "PROPOSE", "AGREED"}[m.Kind] }
