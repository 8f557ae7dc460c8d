// Package mutex holds what the mutual-exclusion protocols share: the
// three states of a process (seed 000: RELEASED, WANTED, HELD), the
// workload inputs, and the bounded number of rounds that keeps the state
// space finite.
package mutex

import "github.com/coordcheck/coordcheck/model"

// Phase is a process's state with respect to the critical section.
type Phase uint8

// The phases of the notes' pseudocode.
const (
	Released Phase = iota // outside the CS, not wanting it
	Wanted                // requested the CS, waiting for permission
	Held                  // in the CS
)

// String is the notes' name of the phase.
func (p Phase) String() string {
	switch p {
	case Released:
		return "RELEASED"
	case Wanted:
		return "WANTED"
	case Held:
		return "HELD"
	}
	return "?"
}

// The workload: the environment asks a process to request the CS, lets it
// enter once the protocol allows it, and has it exit again. Entering is an
// action of its own, as in the SPIN models, so that a process that has
// permission but has not yet entered is a state of its own.
const (
	Request = "request"
	Enter   = "enter"
	Exit    = "exit"
)

// Endless is a bound on rounds that a process's count of completed
// critical sections, a uint8 in every protocol of this repository, never
// reaches: the count wraps at 256, so with Endless request stays enabled
// for ever, as a live run's workload (package live) wants.
const Endless = 256

// Inputs appends the workload's inputs for a process in phase ph that has
// completed rounds of at most max critical sections: request when released
// with rounds left, enter when it wants the CS and mayEnter (the
// algorithm's condition to enter), exit when it holds the CS.
func Inputs(ph Phase, rounds, max int, mayEnter bool, dst []model.Input) []model.Input {
	switch {
	case ph == Released && rounds < max:
		dst = append(dst, Request)
	case ph == Wanted && mayEnter:
		dst = append(dst, Enter)
	case ph == Held:
		dst = append(dst, Exit)
	}
	return dst
}

// FairInput reports whether in is weakly fair in the workload: a process
// allowed to enter eventually does, and one in the CS eventually leaves;
// requesting is up to the environment.
func FairInput(in model.Input) bool { return in == Enter || in == Exit }

// InputKinds are the workload's inputs as the checker's coverage names
// them (see model.KindLister).
func InputKinds() []string {
	return []string{"input " + Request, "input " + Enter, "input " + Exit}
}

// Phased is the state of a process of a mutual-exclusion protocol: it
// says the process's phase (RELEASED, WANTED or HELD).
type Phased interface {
	MutexPhase() Phase
}

// Site gives a protocol whose every node is a process of the workload,
// with states S, the hooks the mutual-exclusion properties read:
// FairInput (model.FairInputs), InCS (invariants.CriticalSection) and
// Waiting (model.Waiter), from the process's phase. A protocol embeds it
// and states the hooks it thereby implements with compile-time
// assertions.
type Site[S Phased] struct{}

// FairInput: a process that may enter eventually does, and one in the
// critical section eventually leaves; requesting is up to the
// environment.
func (Site[S]) FairInput(_ model.NodeID, in model.Input) bool { return FairInput(in) }

// InCS: the process holds the critical section.
func (Site[S]) InCS(_ model.NodeID, s S) bool { return s.MutexPhase() == Held }

// Waiting: the process wants the critical section.
func (Site[S]) Waiting(_ model.NodeID, s S) bool { return s.MutexPhase() == Wanted }

// Want is the first step of asking for the critical section in the
// algorithms that timestamp requests with a Lamport clock (seed 000,
// Ricart-Agrawala and Maekawa; seed 001, the voting algorithm's rule a;
// seed 002, Lamport's algorithm and Maekawa's step a): state := WANTED,
// and the request takes the timestamp clock+1, to which the clock
// advances; Want returns it.
func Want(phase *Phase, clock *uint32) (ts uint32) {
	*phase = Wanted
	*clock++
	return *clock
}
