package model

// Protocol is the per-node contract every algorithm implements. S is a
// node's state and M a message; both are plain values (copying one must not
// share mutable memory), so Step can return a changed copy without touching
// its input.
//
// Init and Step must be pure: same arguments, same result and same effects,
// no I/O, no clock, no randomness, no mutation of s. A search relies on it:
// it takes a step once per node state and event and reuses the result in
// every world where they meet (Cursor.Step), and the codec self-check
// before a search refuses a Step that gives another result when taken again.
type Protocol[S, M any] interface {
	// Nodes is the number of nodes, N.
	Nodes() int
	// Init returns the initial state of node self and its first effects.
	Init(self NodeID, out *Out[M]) S
	// Step returns the state after ev and appends the effects to out.
	Step(self NodeID, s S, ev Event[M], out *Out[M]) S
	// Inputs appends to dst the environment inputs enabled at node self in
	// state s, in a fixed order, and returns the extended slice.
	Inputs(self NodeID, s S, dst []Input) []Input
}

// The canonical encoding and the text of states and messages are derived
// from the types S and M (see CodecOf); a protocol may write its own, for
// speed or for shorter traces, by implementing the interfaces below.

// Codec is the canonical encoding of a protocol's states and messages.
// A protocol may implement it, or either half of it (StateCodec,
// MsgCodec), by hand; CodecOf derives what it does not.
type Codec[S, M any] interface {
	StateCodec[S]
	MsgCodec[M]
}

// StateCodec is a hand-written canonical encoding of states. Equal states
// must encode to equal bytes, and different states to different bytes;
// ReadState must invert AppendState exactly and return the rest of b.
type StateCodec[S any] interface {
	AppendState(b []byte, s S) []byte
	ReadState(b []byte) (S, []byte)
}

// MsgCodec is a hand-written canonical encoding of messages, with the
// contract of StateCodec.
type MsgCodec[M any] interface {
	AppendMsg(b []byte, m M) []byte
	ReadMsg(b []byte) (M, []byte)
}

// StateFormatter is implemented by protocols that print their states
// themselves; the default is the state's %+v.
type StateFormatter[S any] interface {
	// FormatState is the short text of node self's state in traces.
	FormatState(self NodeID, s S) string
}

// MsgFormatter is implemented by protocols that print their messages
// themselves; the default is the message's %+v.
type MsgFormatter[M any] interface {
	// FormatMsg is the text of a message in traces and counterexample
	// files. Two different messages on one link must format differently.
	FormatMsg(m M) string
}

// Waiter is implemented by protocols whose nodes can wait for something
// (the critical section, an election result). A state with no enabled
// action in which some node waits is a deadlock.
type Waiter[S any] interface {
	Waiting(self NodeID, s S) bool
}

// DeadlockExplainer is implemented by protocols that can say why a
// deadlocked world is stuck, for example the cycle of who holds whose vote.
type DeadlockExplainer[S, M any] interface {
	ExplainDeadlock(w *World[S, M]) string
}

// Restarter is implemented by protocols whose nodes keep state across a
// crash (what the notes call stable storage) or act on recovery. Recover
// returns the state node self restarts in, given the state it had when it
// crashed, and may emit effects (start an election, say). Without it, a
// node restarts from Init and its state while down is its initial state.
type Restarter[S, M any] interface {
	Recover(self NodeID, crashed S, out *Out[M]) S
}

// TimerGuard is implemented by protocols that assume a synchronous system,
// in which a timeout means that no reply can still arrive (a perfect
// failure detector). Under TimersPerfect, timer t of node self may fire in
// w only when TimerReady holds.
type TimerGuard[S, M any] interface {
	TimerReady(w *World[S, M], self NodeID, t TimerID) bool
}

// TimersGuard is implemented, beside TimerGuard, by protocols whose guards
// share one look at the world (a scan of the messages in flight, say):
// ReadyTimers sets ready[i], for every node i of w, to the set of its
// timers (bit t for timer t) whose guards hold (of a node that is down,
// to anything: it is not read); the system keeps of them those armed in
// w.Timers[i]. A search then asks once a world, not once an
// armed timer. TimerReady must agree with it: write it as a look at
// ReadyTimers' answer, so that each rule is written once (protocols/bully).
type TimersGuard[S, M any] interface {
	ReadyTimers(w *World[S, M], ready []uint64)
}

// FairInputs is implemented by protocols some of whose inputs are weakly
// fair: an input that stays enabled is eventually taken (a process in its
// critical section eventually leaves it). Inputs are not fair otherwise: the
// environment need never request anything.
type FairInputs interface {
	FairInput(self NodeID, in Input) bool
}

// Ranked is implemented by protocols whose runs all end, with a variant
// (a ranking function) that shows it: the measure of a world, the sum of
// Rank over its nodes and of Weight over its protocol messages in flight,
// falls with every step. Then the state graph has no cycle, and a liveness
// property can only fail in a terminal state, which spares the checker the
// graph. The checker does not take the claim on trust: it measures the
// world before and after every step it explores, and at the first step
// that does not lower the measure it starts again keeping the graph. A
// wrong variant costs time, never a verdict.
type Ranked[S, M any] interface {
	Rank(self NodeID, s S) uint64
	Weight(m M) uint64
}

// AppCarrier is implemented by protocols whose processes stamp the
// application's own messages (Config.AppMsgs) with protocol data, as a
// Lamport clock must be carried by every message for timestamps to respect
// happened-before. Without it, application messages carry causality only.
type AppCarrier[S, M any] interface {
	// SendApp returns node self's state after it sends an application
	// message, and the message.
	SendApp(self NodeID, s S) (S, M)
	// ReceiveApp returns node self's state after it receives m.
	ReceiveApp(self NodeID, s S, m M) S
}
