package linearizability

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/coordcheck/coordcheck/internal/clip"
)

// Spec names one of the specifications of Jepsen's register workloads.
type Spec string

// The specifications.
const (
	// SpecRegister is [Register]: :read and :write of one register.
	SpecRegister Spec = "register"
	// SpecCASRegister is [CASRegister]: :read, :write and :cas [old new].
	SpecCASRegister Spec = "cas-register"
	// SpecKV is [KV]: :read, :write and :cas on independent keys, each
	// value a [key value] pair (Jepsen's independent workloads).
	SpecKV Spec = "kv"
	// SpecKVAppend is [KVAppend]: :get, :put and :append of strings, the
	// key in each event's :key field ({:f :append, :key "4", :value "x"}).
	SpecKVAppend Spec = "kv-append"
)

// Specs lists the specifications.
func Specs() []Spec { return []Spec{SpecRegister, SpecCASRegister, SpecKV, SpecKVAppend} }

// ParseSpec returns the specification with the given name.
func ParseSpec(name string) (Spec, error) {
	for _, s := range Specs() {
		if string(s) == name {
			return s, nil
		}
	}
	names := make([]string, 0, 3)
	for _, s := range Specs() {
		names = append(names, string(s))
	}
	return "", fmt.Errorf("unknown model %s (valid: %s)", clip.Quote(name), strings.Join(names, ", "))
}

// Model returns the specification's model. It panics on an unknown Spec.
func (s Spec) Model() Model[Value, Input, Output] {
	switch s {
	case SpecRegister:
		return Register()
	case SpecCASRegister:
		return CASRegister()
	case SpecKV:
		return KV()
	case SpecKVAppend:
		return KVAppend()
	}
	panic(fmt.Sprintf("linearizability: unknown spec %q", string(s)))
}

// History is a history of register operations read from a Jepsen file,
// ready for [Check].
type History = HistoryOf[Input, Output]

// HistoryOf is a history read from a Jepsen file by [ParseHistory].
type HistoryOf[I, O any] struct {
	// Ops are the operations in the order of their invocations. Their
	// times are line numbers: an operation is called on the line of its
	// :invoke and returns on the line of its completion, or, if its
	// outcome is unknown, at Lines+1, after every other event.
	Ops []Operation[I, O]
	// Processes[c] is the Jepsen process of client c; they increase.
	Processes []int64
	// Lines is the number of lines read.
	Lines int
	// Failed counts the :fail operations, which did not happen and are
	// dropped.
	Failed int
	// Indeterminate counts the operations whose outcome is unknown: the
	// :info ones and the invocations that never completed.
	Indeterminate int
}

// LineError is a malformed line of a history, or an event that does not
// fit the events before it.
type LineError struct {
	// Line is the line's number, from 1.
	Line int
	// Msg says what is wrong.
	Msg string
}

// Error is "line N: what is wrong", cut to one readable line (a value
// quoted from a long line is cut, the line number stays).
func (e *LineError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, clip.Line(e.Msg)) }

// maxLine bounds the length of one line of a history.
const maxLine = 16 << 20

// Decoder reads the operations of one kind of history (one sequential
// specification) from Jepsen events, for [ParseHistory].
type Decoder[I, O any] interface {
	// Shape refuses an event that its specification does not read (an
	// unknown function, the event of another shape of history), naming
	// what would read it. It is called first for every event.
	Shape(ev Event) error
	// Input reads the input of an :invoke event.
	Input(invoke Event) (I, error)
	// Output reads the output of the :ok completion done of invocation
	// invoke, whose input was in.
	Output(in I, invoke, done Event) (O, error)
	// Unknown is the output of an operation whose outcome is unknown.
	Unknown() O
}

// ParseJepsen reads a Jepsen history of the workload of spec; it is
// [ParseHistory] with spec's decoder.
func ParseJepsen(r io.Reader, spec Spec) (*History, error) {
	if _, err := ParseSpec(string(spec)); err != nil {
		return nil, err
	}
	return ParseHistory(r, DecoderOf(spec))
}

// ParseHistory reads a Jepsen history with dec. Each line holds one
// event, as an EDN map ({:process 0, :type :invoke, :f :write, :value 3})
// or as a Jepsen log line ("0\t:invoke\t:write\t3", after any timestamp
// and logger prefix); the format is detected per line. Blank lines,
// ;-comments and the nemesis's events are skipped; other keys of a map
// (:time, :index, :error, ...) are ignored.
//
// Each :invoke is paired with the next completion of the same process:
// :ok (the operation happened, and a read returned its value), :fail (it
// did not happen: it is dropped) or :info (it may or may not have
// happened: its outcome is unknown and it returns at the end of the
// history). An invocation that is never completed is treated as :info, as
// Jepsen and Knossos do; a process that goes on after an :info under a new
// number, as Jepsen renumbers a crashed process, is another client. A
// malformed line, a completion without an invocation, a second invocation
// while one is pending, or a completion that does not match its
// invocation is a [*LineError].
func ParseHistory[I, O any](r io.Reader, dec Decoder[I, O]) (*HistoryOf[I, O], error) {
	p := &pairer[I, O]{dec: dec, pending: map[int64]openOp{}}
	var lr lineReader
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	line := 0
	for sc.Scan() {
		line++
		ev, ok, err := lr.parse(sc.Text(), line)
		if err == nil && ok {
			err = p.add(ev)
		}
		if err != nil {
			return nil, &LineError{line, err.Error()}
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &LineError{line + 1, fmt.Sprintf("longer than %d MB", maxLine>>20)}
		}
		return nil, err
	}
	if lr.opened && !lr.closed {
		return nil, &LineError{line, "the history vector [ is not closed with ]"}
	}
	return p.history(line), nil
}

// pairer pairs invocations with completions as the lines stream by. It
// keeps each operation in its compact form from its invocation on, and
// the events themselves only while the operation is open, so the parse
// holds the operations and, beyond them, memory in proportion to the
// operations open at once.
type pairer[I, O any] struct {
	dec     Decoder[I, O]
	ops     []Operation[I, O] // in invocation order; Client is set by history
	procs   []int64           // the process of each operation
	outcome []string          // "" while open, then "ok", "fail" or "info"
	pending map[int64]openOp  // process -> its open invocation
	failed  int
}

// openOp is an invocation waiting for its completion.
type openOp struct {
	op     int // index in ops
	invoke Event
}

func (p *pairer[I, O]) add(ev Event) error {
	if err := p.dec.Shape(ev); err != nil {
		return err
	}
	open, busy := p.pending[ev.Process]
	if ev.Type == "invoke" {
		if busy {
			inv := open.invoke
			return fmt.Errorf("process %d invokes :%s while its :%s from line %d is pending", ev.Process, ev.F, inv.F, inv.Line)
		}
		in, err := p.dec.Input(ev)
		if err != nil {
			return err
		}
		p.pending[ev.Process] = openOp{op: len(p.ops), invoke: ev}
		p.ops = append(p.ops, Operation[I, O]{Input: in, Call: int64(ev.Line)})
		p.procs = append(p.procs, ev.Process)
		p.outcome = append(p.outcome, "")
		return nil
	}
	if !busy {
		return fmt.Errorf(":%s :%s of process %d completes no pending :invoke", ev.Type, ev.F, ev.Process)
	}
	inv := open.invoke
	if ev.F != inv.F {
		return fmt.Errorf(":%s :%s of process %d completes its :invoke :%s from line %d", ev.Type, ev.F, ev.Process, inv.F, inv.Line)
	}
	delete(p.pending, ev.Process)
	op := &p.ops[open.op]
	p.outcome[open.op] = ev.Type
	note := fmt.Sprintf("process %d, :invoke line %d", ev.Process, inv.Line)
	switch ev.Type {
	case "ok":
		out, err := p.dec.Output(op.Input, inv, ev)
		if err != nil {
			return fmt.Errorf("%v (invoked on line %d)", err, inv.Line)
		}
		op.Output, op.Return = out, int64(ev.Line)
		note += fmt.Sprintf(", :ok line %d", ev.Line)
	case "info":
		op.Output = p.dec.Unknown()
		note += fmt.Sprintf(", :info line %d (may or may not have happened)", ev.Line)
	case "fail":
		p.failed++
	}
	op.Note = note
	return nil
}

// history builds the operations once every line is read: it drops the
// :fail ones, numbers the clients, and ends the operations whose outcome
// is unknown after every event.
func (p *pairer[I, O]) history(lines int) *HistoryOf[I, O] {
	h := &HistoryOf[I, O]{Lines: lines, Failed: p.failed}
	var procs []int64
	for i, pr := range p.procs {
		if p.outcome[i] != "fail" {
			procs = append(procs, pr)
		}
	}
	slices.Sort(procs)
	h.Processes = slices.Compact(procs)
	end := int64(lines) + 1
	h.Ops = p.ops[:0]
	for i, o := range p.ops {
		switch p.outcome[i] {
		case "fail":
			continue
		case "info":
			o.Return = end
			h.Indeterminate++
		case "":
			o.Return, o.Output = end, p.dec.Unknown()
			h.Indeterminate++
			o.Note = fmt.Sprintf("process %d, :invoke line %d, never completed (may or may not have happened)", p.procs[i], o.Call)
		}
		o.Client, _ = slices.BinarySearch(h.Processes, p.procs[i])
		h.Ops = append(h.Ops, o)
	}
	return h
}

// DecoderOf returns the decoder of spec's events, for [ParseHistory].
func DecoderOf(spec Spec) Decoder[Input, Output] { return registerDecoder{spec} }
