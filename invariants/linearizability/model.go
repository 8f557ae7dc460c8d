package linearizability

import (
	"slices"

	"github.com/anishathalye/porcupine"
)

// Model is a sequential specification with state S, inputs I and outputs
// O: a typed view of porcupine.Model. Init, Step and (for states that ==
// cannot compare) Equal are required; the rest improve speed or output.
type Model[S, I, O any] struct {
	// Name names the specification in reports.
	Name string
	// Init returns the initial state.
	Init func() S
	// Step says whether the operation (input, output) is legal in state
	// s, and returns the next state. It must be a pure function: it may
	// not mutate s, and it must return the same answer for the same
	// arguments.
	Step func(s S, input I, output O) (bool, S)
	// Equal says whether two states are equal. If nil, states are
	// compared with ==, which panics if S is not comparable.
	Equal func(a, b S) bool
	// Hash, if not nil, hashes a state; equal states must hash equally.
	// It lets the checker skip most Equal calls.
	Hash func(s S) uint64
	// Key, if not nil, partitions a history: operations with different
	// keys must be independent (a history is linearizable if and only if
	// the operations of each key are), and Init and Step then describe one
	// key. Each key is checked on its own, which is much faster.
	Key func(input I) string
	// Observes and Supplies, if not nil, say which operations depend on
	// the state they find (a read, a compare-and-set) and whether another
	// operation w could have put in place what the observer o, with its
	// output, found. [Minimize] uses them to keep the writes an observer
	// needs: it never cuts a history down to a read of a value that
	// nothing in it wrote.
	Observes func(input I) bool
	Supplies func(w, o I, out O) bool
	// DescribeOperation and DescribeState, if not nil, write an operation
	// and a state for the visualization.
	DescribeOperation func(input I, output O) string
	DescribeState     func(s S) string
	_                 struct{} // keyed literals only, so fields can be added
}

// Operation is one operation of a history: issued by a client, called at
// Call and returned at Return (closed interval: operations that touch
// are concurrent), with its input and output.
type Operation[I, O any] struct {
	// Client is the zero-based index of the client (a row of the
	// visualization); a client has at most one operation pending at a time.
	Client int
	// Call and Return are the times of the invocation and the
	// completion, in any unit, Call <= Return. An operation whose outcome
	// is unknown returns at the end of the history (after every other
	// event).
	Call, Return int64
	// Input is what the client asked, Output what it got back.
	Input  I
	Output O
	// Note, if not empty, is shown with the operation in the
	// visualization ("process 3, lines 5-9").
	Note string
}

// porcupine converts m to porcupine's untyped model.
func (m Model[S, I, O]) porcupine() porcupine.Model {
	pm := porcupine.Model{
		Init: func() any { return m.Init() },
		Step: func(s, in, out any) (bool, any) {
			ok, next := m.Step(s.(S), in.(I), out.(O))
			return ok, next
		},
		DescribeOperationMetadata: func(note any) string {
			s, _ := note.(string)
			return s
		},
	}
	if m.Equal != nil {
		pm.Equal = func(a, b any) bool { return m.Equal(a.(S), b.(S)) }
	}
	if m.Hash != nil {
		pm.Hash = func(s any) uint64 { return m.Hash(s.(S)) }
	}
	if m.Key != nil {
		pm.Partition = func(ops []porcupine.Operation) [][]porcupine.Operation {
			_, parts := partition(ops, func(op porcupine.Operation) string { return m.Key(op.Input.(I)) })
			return parts
		}
	}
	if m.DescribeOperation != nil {
		pm.DescribeOperation = func(in, out any) string { return m.DescribeOperation(in.(I), out.(O)) }
	}
	if m.DescribeState != nil {
		pm.DescribeState = func(s any) string { return m.DescribeState(s.(S)) }
	}
	return pm
}

// partition groups ops by key, keys in sorted order, each group in the
// order of ops.
func partition[T any](ops []T, key func(T) string) ([]string, [][]T) {
	index := map[string]int{}
	var keys []string
	for _, op := range ops {
		k := key(op)
		if _, ok := index[k]; !ok {
			index[k] = len(keys)
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for i, k := range keys {
		index[k] = i
	}
	parts := make([][]T, len(keys))
	for _, op := range ops {
		i := index[key(op)]
		parts[i] = append(parts[i], op)
	}
	return keys, parts
}

func toPorcupine[I, O any](ops []Operation[I, O]) []porcupine.Operation {
	out := make([]porcupine.Operation, len(ops))
	for i, op := range ops {
		out[i] = porcupine.Operation{ClientId: op.Client, Call: op.Call, Return: op.Return,
			Input: op.Input, Output: op.Output}
		if op.Note != "" {
			out[i].Metadata = op.Note
		}
	}
	return out
}
