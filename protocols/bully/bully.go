// Package bully is the bully election algorithm (seed 001, "Bully
// algorithm"; seed 003, 1.4), as the SPIN anchor model
// ../shared/bench/spin/models/bully.pml writes it:
//
//	a) P sends an ELECTION message to all the processes with higher ids
//	   and awaits OK messages.
//	b) A process that receives an ELECTION returns an OK and starts its
//	   own election, unless it has begun one already.
//	d) If P receives an OK, it drops out and awaits a COORD message; it
//	   reinitiates the election if none is received.
//	e) If P receives no OK before the timeout, it wins and sends a COORD
//	   message to the rest (the lower ids).
//
// Process ids are the node numbers, so p<N-1> is the highest; initially
// every process is NORMAL and believes p<N-1> is the coordinator. The
// notes assume a synchronous system: timeouts detect crashes. The timers
// of this package carry that assumption as a model.TimerGuard with exactly
// the SPIN model's guards (see guard.go); under the default perfect timer
// mode a timer fires only when no reply can still arrive, and with
// -timers free it may fire at any time (the asynchronous variant, where a
// timeout may be premature).
package bully

import (
	"github.com/coordcheck/coordcheck/model"
)

// Protocol is the bully algorithm among N processes.
type Protocol struct {
	N int
}

// New returns the bully algorithm for n processes.
func New(n int) *Protocol { return &Protocol{N: n} }

// Phase is where a process is in an election.
type Phase uint8

// The phases of seed 001's pseudocode.
const (
	// Normal: not in an election; Coord is the coordinator it believes.
	Normal Phase = iota
	// WaitOK: sent ELECTION to the higher ids, awaits an OK (rule a).
	WaitOK
	// WaitCoord: got an OK, awaits the COORD message (rule d).
	WaitCoord
)

var phaseNames = [...]string{Normal: "NORMAL", WaitOK: "WAIT_OK", WaitCoord: "WAIT_COORD"}

// String is the phase's name, as in the SPIN model.
func (p Phase) String() string { return phaseNames[p] }

// NoCoord is the coordinator of a process that knows none: a restarted
// process until its own election ends.
const NoCoord model.NodeID = 255

// State is one process's state.
type State struct {
	Phase Phase
	Coord model.NodeID // the coordinator it believes in, or NoCoord
}

// Msg is a message of the bully algorithm. The coordinator a COORD
// announces is its sender.
type Msg uint8

// The messages.
const (
	Election    Msg = iota // ELECTION: sent to every higher id
	OK                     // OK: the answer to an ELECTION
	Coordinator            // COORD: "I am the coordinator", sent to every lower id
)

// The timers. Each phase has exactly one armed timer (none for the
// coordinator itself), so the timers add no states.
const (
	// TimerDetect is the failure detector of a NORMAL process: it fires
	// when the coordinator is down ("when P notes that coordinator is not
	// responding"); the SPIN model reads alive[coord].
	TimerDetect model.TimerID = iota
	// TimerOK is the timeout of WAIT_OK: no OK came, so P wins (rule e).
	TimerOK
	// TimerCoord is the timeout of WAIT_COORD: no COORD came, so P
	// reinitiates the election (rule d).
	TimerCoord
)

// Protocol implements model.TimerNamer (checked by the compiler).
var _ model.TimerNamer = (*Protocol)(nil)

// TimerName names the timers in traces.
func (p *Protocol) TimerName(t model.TimerID) string {
	switch t {
	case TimerDetect:
		return "detect"
	case TimerOK:
		return "ok-timeout"
	case TimerCoord:
		return "coord-timeout"
	}
	return "t?"
}

// Highest is the process with the highest id, the initial coordinator.
func (p *Protocol) Highest() model.NodeID { return model.NodeID(p.N - 1) }

// Nodes is N.
func (p *Protocol) Nodes() int { return p.N }

// Init: NORMAL, and the coordinator is the highest id.
func (p *Protocol) Init(self model.NodeID, out *model.Out[Msg]) State {
	s := State{Phase: Normal, Coord: p.Highest()}
	arm(self, s, out)
	return s
}

// Inputs: none; elections start from the failure detector (TimerDetect)
// and from the receipt of an ELECTION.
func (p *Protocol) Inputs(_ model.NodeID, _ State, dst []model.Input) []model.Input { return dst }

// Step is the pseudocode of seed 001.
func (p *Protocol) Step(self model.NodeID, s State, ev model.Event[Msg], out *model.Out[Msg]) State {
	switch ev.Kind {
	case model.Timeout:
		switch {
		case ev.Timer == TimerDetect && s.Phase == Normal:
			// P notes that the coordinator is not responding: it starts
			// an election.
			s = p.startElection(self, s, out)
		case ev.Timer == TimerOK && s.Phase == WaitOK:
			// e) No OK before the timeout: P wins and sends COORD to
			// the rest.
			s = p.announce(self, s, out)
		case ev.Timer == TimerCoord && s.Phase == WaitCoord:
			// d) No COORD came: P reinitiates the election.
			s = p.startElection(self, s, out)
		}
	case model.Receive:
		switch ev.Msg {
		case Election:
			// b) Return an OK, and start an election unless one is
			// begun already.
			out.Send(ev.From, OK)
			if s.Phase == Normal {
				s = p.startElection(self, s, out)
			}
		case OK:
			// d) An OK: drop out and await the COORD message.
			if s.Phase == WaitOK {
				s.Phase = WaitCoord
			}
		case Coordinator:
			// The sender is the coordinator (the textbook algorithm: no
			// sanity check, whoever announces last wins).
			s.Coord, s.Phase = ev.From, Normal
		}
	}
	arm(self, s, out)
	return s
}

// startElection is rule a): ELECTION to every higher id, then WAIT_OK.
// The old coordinator is kept, as in the SPIN model, until a COORD
// replaces it.
func (p *Protocol) startElection(self model.NodeID, s State, out *model.Out[Msg]) State {
	s.Phase = WaitOK
	for q := int(self) + 1; q < p.N; q++ {
		out.Send(model.NodeID(q), Election)
	}
	return s
}

// announce is rule e): P is the coordinator and tells every lower id.
func (p *Protocol) announce(self model.NodeID, s State, out *model.Out[Msg]) State {
	s.Coord, s.Phase = self, Normal
	for q := range int(self) {
		out.Send(model.NodeID(q), Coordinator)
	}
	return s
}

// arm leaves armed exactly the timer of s's phase.
func arm(self model.NodeID, s State, out *model.Out[Msg]) {
	out.CancelTimer(TimerDetect)
	out.CancelTimer(TimerOK)
	out.CancelTimer(TimerCoord)
	switch s.Phase {
	case Normal:
		if s.Coord != NoCoord && s.Coord != self {
			out.SetTimer(TimerDetect)
		}
	case WaitOK:
		out.SetTimer(TimerOK)
	case WaitCoord:
		out.SetTimer(TimerCoord)
	}
}

// Protocol implements model.Restarter (checked by the compiler).
var _ model.Restarter[State, Msg] = (*Protocol)(nil)

// Recover: a process that restarts has forgotten its coordinator and
// starts an election (seed 001: "when P has just recovered from
// failure"). The highest process has nobody to ask, so its ok-timeout may
// fire at once and it announces itself.
func (p *Protocol) Recover(self model.NodeID, _ State, out *model.Out[Msg]) State {
	s := p.startElection(self, State{Phase: Normal, Coord: NoCoord}, out)
	arm(self, s, out)
	return s
}

// Protocol implements model.Waiter (checked by the compiler).
var _ model.Waiter[State] = (*Protocol)(nil)

// Waiting: the process is in an election.
func (p *Protocol) Waiting(_ model.NodeID, s State) bool { return s.Phase != Normal }

// Leader: a NORMAL process has decided on its coordinator.
func (p *Protocol) Leader(_ model.NodeID, s State) (model.NodeID, bool) {
	return s.Coord, s.Phase == Normal && s.Coord != NoCoord
}

// ID: the id of a process is its node number.
func (p *Protocol) ID(q model.NodeID) int { return int(q) }

// Electing: the process is in WAIT_OK or WAIT_COORD.
func (p *Protocol) Electing(self model.NodeID, s State) bool { return p.Waiting(self, s) }

// ElectionMsg: every message of the algorithm belongs to an election.
func (p *Protocol) ElectionMsg(Msg) bool { return true }
