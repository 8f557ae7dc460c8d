package linearizability

import (
	"fmt"
	"strconv"
	"strings"
)

// Value is the content of a register: nil (never written, or written nil),
// a 64-bit integer, or, in the [KVAppend] model, a string. The zero Value
// is nil, which is the initial value of every register in this package, as
// in Jepsen, where a register that was never written reads nil.
type Value struct {
	n   int64
	s   string
	set bool
	str bool
}

// Nil is the nil value.
var Nil = Value{}

// Int is the integer value n.
func Int(n int64) Value { return Value{n: n, set: true} }

// Str is the string value s.
func Str(s string) Value { return Value{s: s, set: true, str: true} }

// IsNil says whether v is nil.
func (v Value) IsNil() bool { return !v.set }

// Int returns v's integer, and false when v is nil.
func (v Value) Int() (int64, bool) { return v.n, v.set }

// Text returns v's string, and false when v is not a string.
func (v Value) Text() (string, bool) { return v.s, v.str }

// String writes v as Jepsen does: "nil", the integer, or the quoted string.
func (v Value) String() string {
	switch {
	case !v.set:
		return "nil"
	case v.str:
		return strconv.Quote(v.s)
	}
	return strconv.FormatInt(v.n, 10)
}

// Op is the function of a register operation (Jepsen's :f).
type Op uint8

// The register operations.
const (
	// Read returns the register's value.
	Read Op = iota + 1
	// Write sets the register to Input.Arg.
	Write
	// CAS sets the register to Input.New if it holds Input.Arg, and
	// otherwise fails. Failed compare-and-sets are not operations of a
	// history: Jepsen records them as :fail, and they are dropped.
	CAS
	// Get returns the whole string under Input.Key ([KVAppend]).
	Get
	// Put replaces the string under Input.Key with Input.Arg.
	Put
	// Append appends Input.Arg to the string under Input.Key.
	Append
)

// String is the operation's Jepsen name: "read", "write", "cas".
func (o Op) String() string {
	switch o {
	case Read:
		return "read"
	case Write:
		return "write"
	case CAS:
		return "cas"
	case Get:
		return "get"
	case Put:
		return "put"
	case Append:
		return "append"
	}
	return fmt.Sprintf("op(%d)", uint8(o))
}

// Input is the invocation of a register operation.
type Input struct {
	// Op is the operation.
	Op Op
	// Key names the register in a [KV] history (its EDN form: ":x", "1",
	// "\"a\""); it is empty for a single register.
	Key string
	// Arg is the value written, or the value a CAS expects.
	Arg Value
	// New is the value a CAS sets.
	New Value
}

// Output is the completion of a register operation.
type Output struct {
	// Value is the value a read returned.
	Value Value
	// Unknown marks an operation whose outcome is unknown (Jepsen's
	// :info, or an invocation that never completed): a read that returns
	// anything, a write or CAS that may or may not have taken effect.
	Unknown bool
}

// Register is the sequential specification of a read/write register that
// starts nil.
func Register() Model[Value, Input, Output] {
	return Model[Value, Input, Output]{
		Name:              "register",
		Init:              func() Value { return Nil },
		Step:              stepRegister,
		Hash:              hashValue,
		Observes:          observes,
		Supplies:          supplies,
		DescribeOperation: describeOperation,
		DescribeState:     Value.String,
	}
}

// CASRegister is the sequential specification of a register with read,
// write and compare-and-set that starts nil.
func CASRegister() Model[Value, Input, Output] {
	m := Register()
	m.Name = "cas-register"
	m.Step = stepCASRegister
	return m
}

// KV is the sequential specification of a map from keys to independent
// compare-and-set registers that all start nil. Its state is the value of
// one key: the model partitions a history by Input.Key (sound because the
// keys are independent), and each partition is one [CASRegister].
func KV() Model[Value, Input, Output] {
	m := CASRegister()
	m.Name = "kv"
	m.Key = func(in Input) string { return in.Key }
	return m
}

// KVAppend is the sequential specification of a key-value store with
// get, put and append on string values, each key independent (the shape
// of course labs' key-value services and many Jepsen-style harnesses: one
// map per event with a :key). A missing key reads as the empty string;
// get returns the whole value, put replaces it, append concatenates. Like
// [KV], the model partitions a history by key, and its state is the
// value of one key.
func KVAppend() Model[Value, Input, Output] {
	return Model[Value, Input, Output]{
		Name:              "kv-append",
		Init:              func() Value { return Str("") },
		Step:              stepKVAppend,
		Hash:              hashValue,
		Observes:          observes,
		Supplies:          supplies,
		Key:               func(in Input) string { return in.Key },
		DescribeOperation: describeOperation,
		DescribeState:     Value.String,
	}
}

// stepKVAppend needs no case for an operation whose outcome is unknown
// beyond the get's: an indeterminate put or append returns at the end of
// the history, where "it did not happen" is the same as "it happened
// last".
func stepKVAppend(s Value, in Input, out Output) (bool, Value) {
	switch in.Op {
	case Get:
		return out.Unknown || out.Value == s, s
	case Put:
		return true, in.Arg
	case Append:
		return true, Str(s.s + in.Arg.s)
	}
	return false, s
}

// observes says whether in depends on the value it finds: a read, a get,
// a compare-and-set.
func observes(in Input) bool { return in.Op == Read || in.Op == Get || in.Op == CAS }

// supplies says whether w could have put in place what the observer o
// found: the value a read returned or a compare-and-set expected, or, for
// strings, a part of it.
func supplies(w, o Input, out Output) bool {
	found := out.Value
	if o.Op == CAS {
		found = o.Arg
	}
	switch w.Op {
	case Write:
		return found == w.Arg
	case CAS:
		return found == w.New
	case Put:
		return strings.HasPrefix(found.s, w.Arg.s)
	case Append:
		return strings.Contains(found.s, w.Arg.s)
	}
	return false
}

func stepRegister(s Value, in Input, out Output) (bool, Value) {
	switch in.Op {
	case Read:
		return out.Unknown || out.Value == s, s
	case Write:
		return true, in.Arg
	}
	return false, s
}

// stepCASRegister is deterministic although an indeterminate CAS may or
// may not have happened: such an operation returns at the end of the
// history, so "it did not happen" is the same as "it happened last", when
// nothing observes it.
func stepCASRegister(s Value, in Input, out Output) (bool, Value) {
	if in.Op != CAS {
		return stepRegister(s, in, out)
	}
	if s == in.Arg {
		return true, in.New
	}
	return out.Unknown, s
}

func hashValue(v Value) uint64 {
	switch {
	case !v.set:
		return 0
	case v.str:
		h := uint64(14695981039346656037) // FNV-1a
		for i := 0; i < len(v.s); i++ {
			h = (h ^ uint64(v.s[i])) * 1099511628211
		}
		return h | 2
	}
	return uint64(v.n)*0x9e3779b97f4a7c15 | 1
}

// describeOperation writes an operation for the visualization:
// "read(:x) -> 3", "write(3)", "cas(1, 2)"; an operation whose outcome is
// unknown ends in "?".
func describeOperation(in Input, out Output) string {
	var args []string
	if in.Key != "" {
		args = append(args, in.Key)
	}
	switch in.Op {
	case Write, Put, Append:
		args = append(args, in.Arg.String())
	case CAS:
		args = append(args, in.Arg.String(), in.New.String())
	}
	d := in.Op.String() + "(" + strings.Join(args, ", ") + ")"
	switch {
	case (in.Op == Read || in.Op == Get) && out.Unknown:
		return d + " -> ?"
	case in.Op == Read || in.Op == Get:
		return d + " -> " + out.Value.String()
	case out.Unknown:
		return d + " ?"
	}
	return d
}
