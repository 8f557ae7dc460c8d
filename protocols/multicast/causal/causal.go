// Package causal is causally-ordered multicast with vector clocks (seed
// 001, "Implementing causal ordering"): "a message is delivered only if
// all causally preceding messages have already been delivered". Like
// package fifo it assumes reliable channels, FIFO or not.
package causal

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast"
)

// Protocol is causal multicast among N processes.
type Protocol struct{ multicast.Base[State, Msg] }

// New returns causal multicast for n processes under wl; (n-1) * msgs
// must not exceed multicast.MaxHeld.
func New(n int, wl multicast.Workload) (*Protocol, error) {
	if (n-1)*wl.Msgs > multicast.MaxHeld {
		return nil, fmt.Errorf("causal multicast holds back at most %d messages: (n-1)*msgs = %d", multicast.MaxHeld, (n-1)*wl.Msgs)
	}
	return &Protocol{multicast.NewBase[State, Msg](n, wl)}, nil
}

// VC is a vector clock: entry k counts the messages of P_k delivered.
type VC [multicast.MaxNodes]uint8

// State is one process's state.
type State struct {
	VC      VC                     // VC_j
	Sending multicast.Transmission // destinations of the latest multicast still to reach
	Stamp   VC                     // VC(m) of the latest multicast
	Held    multicast.HoldBack[Msg]
}

// Msg is a multicast message with its vector timestamp VC(m).
type Msg struct {
	ID multicast.MsgID
	VC VC
}

// Key names the multicast m carries.
func (m Msg) Key() multicast.MsgID { return m.ID }

var _ model.Protocol[State, Msg] = (*Protocol)(nil)

// Inputs: the workload's multicasts.
func (p *Protocol) Inputs(self model.NodeID, s State, dst []model.Input) []model.Input {
	heard := false
	for k := range p.N {
		heard = heard || model.NodeID(k) != self && s.VC[k] > 0
	}
	return p.Workload.Inputs(self, s.VC[self], s.Sending.Busy(), heard, dst)
}

// Step applies the rules.
func (p *Protocol) Step(self model.NodeID, s State, ev model.Event[Msg], out *model.Out[Msg]) State {
	switch ev.Kind {
	case model.Environment:
		// Rule 1: "P_i increases VC_i[i] only when sending a message";
		// the message carries VC_i. The sender delivers it at once.
		multicast.Begin(self, p.N, &s.VC[self], &s.Sending, out)
		s.Stamp = s.VC
	case model.Timeout:
		// One more destination (multicast.Transmission).
		multicast.SendNext(self, p.N, &s.Sending, Msg{ID: multicast.MsgID{Sender: self, Seq: s.Stamp[self]}, VC: s.Stamp}, out)
	case model.Receive:
		m := ev.Msg
		if m.VC[m.ID.Sender] <= s.VC[m.ID.Sender] {
			break // delivered already (a duplicate): discarded
		}
		// Rule 2: "P_j postpones its delivery until" conditions a. and
		// b. hold: m waits in the hold-back queue, and every delivery
		// may let a held message through.
		s.Held.Add(m)
		for {
			next, ok := s.Held.Take(func(h Msg) bool { return p.deliverable(&s, h) })
			if !ok {
				break
			}
			out.Output(invariants.DeliverRecord(next.ID))
			// Rule 3: "P_j increases VC_j[i] after delivering m".
			s.VC[next.ID.Sender]++
		}
	}
	return s
}

// deliverable is the notes' condition for P_j = s to deliver m from P_i:
// a. VC(m)[i] = VC_j[i] + 1 (m is the next message expected from P_i),
// b. VC(m)[k] <= VC_j[k] for every k != i (P_j has seen every message
// P_i had seen before m).
func (p *Protocol) deliverable(s *State, m Msg) bool {
	i := m.ID.Sender
	if m.VC[i] != s.VC[i]+1 {
		return false
	}
	for k := range p.N {
		if model.NodeID(k) != i && m.VC[k] > s.VC[k] {
			return false
		}
	}
	return true
}

// FormatState is "VC=(1,0,0) held={p1#1}".
func (p *Protocol) FormatState(_ model.NodeID, s State) string {
	t := "VC=" + p.formatVC(s.VC)
	if s.Held.Len > 0 {
		var ks []string
		for _, k := range s.Held.Keys() {
			ks = append(ks, k.String())
		}
		t += " held={" + strings.Join(ks, ",") + "}"
	}
	return t + multicast.FormatSending(s.Sending)
}

func (p *Protocol) formatVC(vc VC) string {
	parts := make([]string, p.N)
	for k := range p.N {
		parts[k] = strconv.Itoa(int(vc[k]))
	}
	return "(" + strings.Join(parts, ",") + ")"
}

// FormatMsg is "DATA(p0#1,VC=(1,0,0))".
func (p *Protocol) FormatMsg(m Msg) string {
	return "DATA(" + m.ID.String() + ",VC=" + p.formatVC(m.VC) + ")"
}

// Protocol implements model.TimerNamer (checked by the compiler).
var _ model.TimerNamer = (*Protocol)(nil)

// TimerName names the transmit timer.
func (p *Protocol) TimerName(t model.TimerID) string { return multicast.TimerName(t) }

// Kind is a message's kind in the cost tables.
func Kind(Msg) string { return "DATA" }
