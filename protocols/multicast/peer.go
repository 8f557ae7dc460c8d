package multicast

import (
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
)

// Group is what every multicast protocol is configured by: N processes
// under a Workload. A protocol embeds it, and with it Nodes.
type Group struct {
	N        int
	Workload Workload
}

// Nodes is N.
func (g Group) Nodes() int { return g.N }

// Base is a multicast protocol's Group and the initial state of most:
// the zero state, nothing multicast, nothing delivered. A protocol embeds
// it. Its states S and messages M are plain values, whose codec the
// model derives.
type Base[S, M any] struct {
	Group
}

// NewBase is the Base of n processes under wl.
func NewBase[S, M any](n int, wl Workload) Base[S, M] {
	return Base[S, M]{Group: Group{N: n, Workload: wl}}
}

// Init: nothing multicast, nothing delivered (the zero state).
func (Base[S, M]) Init(model.NodeID, *model.Out[M]) S {
	var s S
	return s
}

// Peer is the state the protocols built on sequence numbers per sender
// (fifo, reliable, nack: seed 001, "Basic reliable multicasting") keep
// alike: the sender's S_P and the multicast it transmits, the receiver's
// L_Q(P) and hold-back queue. A protocol's state embeds it first, so its
// encoding is the three fields in this order.
type Peer struct {
	Made    uint8        // S_P of its latest multicast
	Sending Transmission // destinations of the latest multicast still to reach
	R       Receiver     // L_Q(P) and the hold-back queue
}

// PeerOf is q itself: a state that embeds a Peer has it as a method, and
// so is a PeerState.
func (q Peer) PeerOf() Peer { return q }

// PeerState is a state that embeds a Peer.
type PeerState interface{ PeerOf() Peer }

// PeerBase is the Base of a protocol whose state embeds a Peer, with its
// inputs.
type PeerBase[S PeerState, M any] struct {
	Base[S, M]
}

// NewPeerBase is the PeerBase of n processes under wl.
func NewPeerBase[S PeerState, M any](n int, wl Workload) PeerBase[S, M] {
	return PeerBase[S, M]{NewBase[S, M](n, wl)}
}

// Inputs are the workload's multicasts for process self in state s: it
// may multicast once it has finished transmitting its last one, and,
// under the causal workload, has delivered another's message.
func (b PeerBase[S, M]) Inputs(self model.NodeID, s S, dst []model.Input) []model.Input {
	q := s.PeerOf()
	return b.Workload.Inputs(self, q.Made, q.Sending.Busy(), q.R.Heard(self), dst)
}

// BeginPeer is Begin for a Peer: the sender numbers its next multicast
// S_P, starts its transmission, and delivers it at once (L_P(P) = S_P).
func BeginPeer[M any](self model.NodeID, n int, q *Peer, out *model.Out[M]) MsgID {
	m := Begin(self, n, &q.Made, &q.Sending, out)
	q.R.Delivered(m)
	return m
}

// SendNext is one firing of the Transmit timer (see Transmission): msg
// goes to the next destination of sending among n, and the timer is set
// again while destinations are left.
func SendNext[M any](self model.NodeID, n int, sending *Transmission, msg M, out *model.Out[M]) {
	var to model.NodeID
	to, *sending = sending.Next(self, n)
	out.Send(to, msg)
	if sending.Busy() {
		out.SetTimer(Transmit)
	}
}

// DeliverFrom is the in-order case of seed 001 ("if S_P = L_Q(P) + 1: Q
// delivers the message, increases L_Q(P)"), and what it lets through:
// m is delivered, then every message of its sender that the hold-back
// queue now holds in order ("queued message will be delivered ... when its
// sequence number is the next expected number"). It returns the numbers
// delivered, bit s-1 for number s.
func DeliverFrom[M any](r *Receiver, m MsgID, out *model.Out[M]) uint8 {
	var done uint8
	for ok := true; ok; m, ok = r.TakeNext(m.Sender) {
		out.Output(invariants.DeliverRecord(m))
		r.Delivered(m)
		done |= 1 << (m.Seq - 1)
	}
	return done
}
