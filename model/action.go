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
	// ActDrop: the message at Net[Slot] is lost.
	ActDrop
	// ActDup: the message at Net[Slot] is duplicated; the copy travels
	// behind the messages already on its link.
	ActDup
	// ActCrash: Node crashes.
	ActCrash
	// ActRestart: Node restarts.
	ActRestart
	// ActPartition: the network splits into Group and the other nodes.
	ActPartition
	// ActHeal: the partition heals.
	ActHeal
	// ActApp: Node sends an application message to Peer (the workload's
	// way to relate requests causally, Config.AppMsgs).
	ActApp
)

var actionWords = [...]string{ActInput: "input", ActDeliver: "deliver", ActFire: "fire",
	ActDrop: "drop", ActDup: "dup", ActCrash: "crash", ActRestart: "restart",
	ActPartition: "partition", ActHeal: "heal", ActApp: "send"}

// String is the word that starts the action's line in traces and files.
func (k ActionKind) String() string {
	if int(k) < len(actionWords) {
		return actionWords[k]
	}
	return "action" + strconv.Itoa(int(k))
}

// IsActionWord reports whether word starts an action line.
func IsActionWord(word string) bool {
	for _, w := range actionWords {
		if w == word {
			return true
		}
	}
	return false
}

// ActionWords lists the words that start action lines, in kind order.
func ActionWords() []string { return append([]string(nil), actionWords[:]...) }

// IsFault reports whether the action is an injected failure.
func (k ActionKind) IsFault() bool { return k >= ActDrop && k <= ActHeal }

// Action is one global transition, described by value: who acts and on
// what. Slot is only a handle into the World it was enumerated from; the
// identity of a delivery is its link and its message, as FormatAction shows.
//
// Its fields are ordered so that it takes 32 bytes, not 40: a search
// lists every state's actions, and the copying shows in its profile.
type Action struct {
	Kind  ActionKind
	Node  NodeID // the node that acts (the receiver, for a message)
	Peer  NodeID // the sender, for a message
	Timer TimerID
	Slot  int32
	Input Input
	Group uint64 // the partition's group, for ActPartition
}

// FormatAction renders a as one line, the form used in traces and
// counterexample files: "input p2 request", "deliver p0->p1 REQ(ts=1)",
// "fire p1 t0", "crash p2", "partition {p0,p1}|{p2}". w must be the world a
// was enumerated from.
func (sys *System[S, M]) FormatAction(w *World[S, M], a Action) string {
	var b strings.Builder
	b.WriteString(a.Kind.String())
	switch a.Kind {
	case ActInput:
		b.WriteString(" " + a.Node.String() + " " + string(a.Input))
	case ActDeliver, ActDrop, ActDup:
		b.WriteString(" " + a.Peer.String() + "->" + a.Node.String() + " ")
		b.WriteString(sys.formatEnvelope(&w.Net[a.Slot]))
	case ActApp:
		b.WriteString(" " + a.Node.String() + "->" + a.Peer.String() + " " + AppMsgText)
	case ActFire:
		b.WriteString(" " + a.Node.String() + " " + sys.timerName(a.Node, a.Timer))
	case ActCrash, ActRestart:
		b.WriteString(" " + a.Node.String())
	case ActPartition:
		all := uint64(1)<<sys.n - 1
		b.WriteString(" " + formatGroup(a.Group) + "|" + formatGroup(all&^a.Group))
	}
	return b.String()
}

// AppMsgText is how an application message prints.
const AppMsgText = "APP"

func (sys *System[S, M]) formatEnvelope(e *Envelope[M]) string {
	if e.App {
		if sys.app != nil {
			return AppMsgText + "(" + sys.FormatMsg(e.Msg) + ")"
		}
		return AppMsgText
	}
	return sys.FormatMsg(e.Msg)
}

func formatGroup(set uint64) string {
	var ids []string
	for i := range MaxNodes {
		if set&(1<<i) != 0 {
			ids = append(ids, NodeID(i).String())
		}
	}
	return "{" + strings.Join(ids, ",") + "}"
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
