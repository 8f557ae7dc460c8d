package model

// Input is an input from the environment to one node: the workload. Mutual
// exclusion uses "request", "enter" and "release"; elections use "start".
// Inputs are plain words so that traces and counterexample files show them
// as they are.
type Input string

// TimerID names one of a node's timers. A node has at most one pending
// instance of each timer.
type TimerID uint8

// EventKind says what happened to a node.
type EventKind uint8

// The events a node reacts to.
const (
	// Receive: a message from Event.From was delivered.
	Receive EventKind = iota
	// Timeout: the timer Event.Timer fired.
	Timeout
	// Environment: the environment gave Event.Input.
	Environment
	// Recover: the node restarts after a crash; Step receives the
	// persistent part of its state (see Restarter).
	Recover
)

// Event is what Step reacts to.
type Event[M any] struct {
	Kind  EventKind
	From  NodeID  // sender, for Receive
	Msg   M       // the message, for Receive
	Input Input   // for Environment
	Timer TimerID // for Timeout
}

// Out collects the effects of one Init or Step call: messages to send,
// timers to set or cancel. Effects are data; the caller (the checker, or a
// runtime) carries them out. A protocol only appends to Out.
type Out[M any] struct {
	sends   []send[M]
	timers  []timerOp
	outputs []string
}

type send[M any] struct {
	to  NodeID
	msg M
}

type timerOp struct {
	id  TimerID
	set bool
}

// Send sends msg to node to (which may be the sender itself).
func (o *Out[M]) Send(to NodeID, msg M) { o.sends = append(o.sends, send[M]{to, msg}) }

// SetTimer arms timer id (re-arming an armed timer keeps one instance).
func (o *Out[M]) SetTimer(id TimerID) { o.timers = append(o.timers, timerOp{id, true}) }

// CancelTimer disarms timer id if it is armed.
func (o *Out[M]) CancelTimer(id TimerID) { o.timers = append(o.timers, timerOp{id, false}) }

// Output records an observable outcome ("elected p3", "deliver m1") for a
// runtime or a history. It does not change the global state.
func (o *Out[M]) Output(s string) { o.outputs = append(o.outputs, s) }

// Reset empties o for reuse.
func (o *Out[M]) Reset() {
	o.sends = o.sends[:0]
	o.timers = o.timers[:0]
	o.outputs = o.outputs[:0]
}

// Sends calls f for every message sent, in order.
func (o *Out[M]) Sends(f func(to NodeID, msg M)) {
	for _, s := range o.sends {
		f(s.to, s.msg)
	}
}

// Outputs returns the outcomes recorded, in order.
func (o *Out[M]) Outputs() []string { return o.outputs }

// TimerOps calls f for every timer set (set true) or cancelled, in order.
func (o *Out[M]) TimerOps(f func(id TimerID, set bool)) {
	for _, t := range o.timers {
		f(t.id, t.set)
	}
}
