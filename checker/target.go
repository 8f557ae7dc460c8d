package checker

// Target is a Spec with its types erased, so that the registry and the
// command line can hold specs of different protocols side by side.
type Target interface {
	// Check explores the state space; see Spec.Check.
	Check(opts Options) *Report
	// Replay applies action lines by value; see Spec.Replay.
	Replay(lines []string) (*Replayed, error)
	// ReplayLoop replays a lasso; see Spec.ReplayLoop.
	ReplayLoop(lines []string, loop int) (*Replayed, error)
	// PropertyNames lists the properties checked.
	PropertyNames() []string
	// Without drops the named properties; see Spec.Without.
	Without(names []string) (Target, error)
	// Simulate starts an execution stepped from outside; see Spec.Simulate.
	Simulate() Simulation
	// Shrink shortens a violating list of actions; see Spec.Shrink.
	Shrink(path []string, prop string) []string
	// CheckpointError says why opts cannot checkpoint or resume; see
	// Spec.CheckpointError.
	CheckpointError(opts Options) error
	// SleepError says why a search under opts keeps no sleep sets; see
	// Spec.SleepError.
	SleepError(opts Options) error
}

var _ Target = (*Spec[int, int])(nil)
