// Package mutex holds what the mutual-exclusion protocols share: the
// three states of a process (seed 000: RELEASED, WANTED, HELD), the
// workload inputs, and the bounded number of rounds that keeps the state
// space finite.
package mutex

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
