package linearizability

import (
	"fmt"
	"strconv"
	"strings"
)

// Value is the content of a register: nil (never written, or written nil)
// or a 64-bit integer. The zero Value is nil, which is the initial value
// of every register in this package, as in Jepsen, where a register that
// was never written reads nil.
type Value struct {
	n   int64
	set bool
}

// Nil is the nil value.
var Nil = Value{}

// Int is the integer value n.
func Int(n int64) Value { return Value{n: n, set: true} }

// IsNil says whether v is nil.
func (v Value) IsNil() bool { return !v.set }

// Int returns v's integer, and false when v is nil.
func (v Value) Int() (int64, bool) { return v.n, v.set }

// String writes v as Jepsen does: "nil" or the integer.
func (v Value) String() string {
	if !v.set {
		return "nil"
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
	if !v.set {
		return 0
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
	case Write:
		args = append(args, in.Arg.String())
	case CAS:
		args = append(args, in.Arg.String(), in.New.String())
	}
	d := in.Op.String() + "(" + strings.Join(args, ", ") + ")"
	switch {
	case in.Op == Read && out.Unknown:
		return d + " -> ?"
	case in.Op == Read:
		return d + " -> " + out.Value.String()
	case out.Unknown:
		return d + " ?"
	}
	return d
}
