package model

import (
	"strconv"
	"strings"
)

// ActionKind says which global transition an Action is.
type ActionKind uint8

// The global actions.
const (
	// ActInput: the environment gives Input to Node.
	ActInput ActionKind = iota
	// ActDeliver: the message from Peer to Node at Net[Slot] is delivered.
	ActDeliver
	// ActFire: Node's timer Timer fires.
	ActFire
)

var actionWords = [...]string{ActInput: "input", ActDeliver: "deliver", ActFire: "fire"}

// String is the word that starts the action's line in traces and files.
func (k ActionKind) String() string {
	if int(k) < len(actionWords) {
		return actionWords[k]
	}
	return "action" + strconv.Itoa(int(k))
}

// Action is one global transition, described by value: who acts and on
// what. Slot is only a handle into the World it was enumerated from; the
// identity of a delivery is its link and its message, as FormatAction shows.
type Action struct {
	Kind  ActionKind
	Node  NodeID // the node that acts (the receiver, for a delivery)
	Peer  NodeID // the sender, for a delivery
	Timer TimerID
	Input Input
	Slot  int32
}

// FormatAction renders a as one line, the form used in traces and
// counterexample files: "input p2 request", "deliver p0->p1 REQ(ts=1)",
// "fire p1 t0". w must be the world a was enumerated from.
func (sys *System[S, M]) FormatAction(w *World[S, M], a Action) string {
	var b strings.Builder
	b.WriteString(a.Kind.String())
	b.WriteByte(' ')
	switch a.Kind {
	case ActInput:
		b.WriteString(a.Node.String())
		b.WriteByte(' ')
		b.WriteString(string(a.Input))
	case ActDeliver:
		b.WriteString(a.Peer.String())
		b.WriteString("->")
		b.WriteString(a.Node.String())
		b.WriteByte(' ')
		b.WriteString(sys.P.FormatMsg(w.Net[a.Slot].Msg))
	case ActFire:
		b.WriteString(a.Node.String())
		b.WriteByte(' ')
		b.WriteString(sys.timerName(a.Node, a.Timer))
	}
	return b.String()
}

// TimerNamer is implemented by protocols that name their timers in traces.
type TimerNamer interface {
	TimerName(id TimerID) string
}

func (sys *System[S, M]) timerName(_ NodeID, t TimerID) string {
	if tn, ok := sys.P.(TimerNamer); ok {
		return tn.TimerName(t)
	}
	return "t" + strconv.Itoa(int(t))
}

// NormalizeAction folds runs of blanks in an action line, so that aligned
// columns in files compare equal to FormatAction's single spaces.
func NormalizeAction(line string) string { return strings.Join(strings.Fields(line), " ") }
