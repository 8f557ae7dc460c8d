package linearizability

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/property"
)

// Histories recorded by protocols. A client of a protocol records what it
// does with model.Out.Output, in Jepsen's words, one event per record:
//
//	invoke write KEY VALUE     the client asks to write VALUE to KEY
//	invoke read KEY            the client asks to read KEY
//	ok write KEY VALUE         the write happened
//	ok read KEY VALUE          the read happened and returned VALUE ("nil": none)
//	fail F KEY [VALUE]         the operation did not happen
//	info F KEY [VALUE]         the outcome is unknown
//
// With model.Config.History on, the world keeps these records in
// World.History, and [RecordsInvariant] checks them like any property.
// Records of other words ("enter", "elected p2") are not events and are
// skipped.

// PropertyName is the name of the linearizability property of recorded
// histories.
const PropertyName = "linearizability"

// FromRecords reads the operations of a recorded history, for [KV]: each
// invocation is paired with the next completion of the same node, as
// ParseJepsen pairs a process's events: an "ok" happened, a "fail" did not
// (it is dropped), an "info" or an invocation never completed may or may
// not have happened (its output is unknown and it returns after every
// event). Times are positions in the history, from 1. As Jepsen gives a
// crashed process's successor a new number, a node that goes on after an
// unknown outcome becomes a new process: node i's k-th such incarnation
// is process i + k*model.MaxNodes. A completion that does not match its
// invocation, or an invocation while one is pending, is an error.
func FromRecords(recs []model.Record) (*History, error) {
	type pending struct {
		op   int // index in ops
		text string
	}
	h := &History{Lines: len(recs)}
	var ops []Operation[Input, Output]
	var procs []int64
	open := map[model.NodeID]pending{}
	incarnation := map[model.NodeID]int64{}
	outcome := map[int]string{} // op index -> "ok", "fail", "info"
	for i, r := range recs {
		typ, f, key, val, ok := splitRecord(r.Text)
		if !ok {
			continue
		}
		at := int64(i + 1)
		proc := int64(r.Node) + incarnation[r.Node]*model.MaxNodes
		p, busy := open[r.Node]
		if typ == "invoke" {
			if busy {
				return nil, fmt.Errorf("record %d: %s invokes %q while %q is pending", i+1, r.Node, r.Text, p.text)
			}
			in := Input{Key: key}
			switch f {
			case "read":
				in.Op = Read
			case "write":
				in.Op = Write
				v, err := parseValue(val)
				if err != nil {
					return nil, fmt.Errorf("record %d: %q: %v", i+1, r.Text, err)
				}
				in.Arg = v
			default:
				return nil, fmt.Errorf("record %d: %q: unknown function %q (valid: read, write)", i+1, r.Text, f)
			}
			open[r.Node] = pending{len(ops), r.Text}
			ops = append(ops, Operation[Input, Output]{Client: int(proc), Call: at, Input: in,
				Note: fmt.Sprintf("%s: %s, record %d", r.Node, r.Text, i+1)})
			continue
		}
		if !busy {
			return nil, fmt.Errorf("record %d: %s completes %q with nothing pending", i+1, r.Node, r.Text)
		}
		op := &ops[p.op]
		if op.Input.Key != key || f != op.Input.Op.String() || (f == "write" && val != op.Input.Arg.String()) {
			return nil, fmt.Errorf("record %d: %s completes %q with %q", i+1, r.Node, p.text, r.Text)
		}
		delete(open, r.Node)
		outcome[p.op] = typ
		op.Note += fmt.Sprintf(", %s record %d", typ, i+1)
		switch typ {
		case "ok":
			op.Return = at
			if f == "read" {
				v, err := parseValue(val)
				if err != nil {
					return nil, fmt.Errorf("record %d: %q: %v", i+1, r.Text, err)
				}
				op.Output.Value = v
			}
		case "info":
			incarnation[r.Node]++
		}
	}
	end := int64(len(recs) + 1)
	for i := range ops {
		op := ops[i]
		switch outcome[i] {
		case "fail":
			h.Failed++
			continue
		case "ok":
		default: // info, or never completed
			op.Return, op.Output = end, Output{Unknown: true}
			h.Indeterminate++
		}
		procs = append(procs, int64(op.Client))
		h.Ops = append(h.Ops, op)
	}
	slices.Sort(procs)
	h.Processes = slices.Compact(procs)
	for i := range h.Ops {
		h.Ops[i].Client, _ = slices.BinarySearch(h.Processes, int64(h.Ops[i].Client))
	}
	return h, nil
}

// splitRecord splits "ok read /x 3" into its words; ok is false when the
// record is not an event.
func splitRecord(text string) (typ, f, key, val string, ok bool) {
	w := strings.Fields(text)
	if len(w) < 3 || len(w) > 4 {
		return "", "", "", "", false
	}
	switch w[0] {
	case "invoke", "ok", "fail", "info":
	default:
		return "", "", "", "", false
	}
	if len(w) == 4 {
		val = w[3]
	}
	return w[0], w[1], w[2], val, true
}

// parseValue reads "nil" or an integer.
func parseValue(s string) (Value, error) {
	if s == "nil" {
		return Nil, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return Nil, fmt.Errorf("value %q: want an integer or nil", s)
	}
	return Int(n), nil
}

// CheckRecords checks a recorded history against [KV], whose keys are
// checked apart.
func CheckRecords(recs []model.Record, timeout time.Duration) (*Result, *History, error) {
	h, err := FromRecords(recs)
	if err != nil {
		return nil, nil, err
	}
	return Check(KV(), h.Ops, timeout), h, nil
}

// RecordsInvariant is the linearizability of the recorded history, judged
// when a run has ended (Terminal): the operations are checked against
// [KV], one key at a time, with the given porcupine timeout per history.
// A history that times out is inconclusive, never a pass: the check's
// verdict becomes Inconclusive. Verdicts are cached by history, so that
// the many ends of runs that share a history are checked once; the
// invariant is safe for concurrent use.
func RecordsInvariant[S, M any](timeout time.Duration) property.Invariant[S, M] {
	var mu sync.Mutex
	cache := map[string]string{} // history -> "" (linearizable) or why not
	return property.Invariant[S, M]{
		Name:     PropertyName,
		Terminal: true,
		Judge: func(w *model.World[S, M]) (property.Verdict, string) {
			var key []byte
			for _, r := range w.History {
				key = model.AppendString(append(key, byte(r.Node)), r.Text)
			}
			mu.Lock()
			why, seen := cache[string(key)]
			mu.Unlock()
			if !seen {
				why = judge(w.History, timeout)
				if strings.HasPrefix(why, inconclusive) {
					return property.Inconclusive, why // not cached: a later try may finish
				}
				mu.Lock()
				cache[string(key)] = why
				mu.Unlock()
			}
			if why != "" {
				return property.Violated, why
			}
			return property.Pass, ""
		},
		PremiseDoc: "a completed client operation",
		Premise: func(w *model.World[S, M]) bool {
			for _, r := range w.History {
				if strings.HasPrefix(r.Text, "ok ") {
					return true
				}
			}
			return false
		},
	}
}

const inconclusive = "inconclusive"

// judge returns "" when recs is linearizable, and otherwise why not.
func judge(recs []model.Record, timeout time.Duration) string {
	r, h, err := CheckRecords(recs, timeout)
	switch {
	case err != nil:
		return "malformed history: " + err.Error()
	case r.Verdict == Linearizable:
		return ""
	case r.Verdict == Unknown:
		return fmt.Sprintf("%s: porcupine timed out after %s on %d operations; this is not a pass (raise the timeout)",
			inconclusive, timeout, len(h.Ops))
	}
	var bad []string
	for _, p := range r.Partitions {
		if !p.Linearizable() {
			s := "key " + p.Key
			if p.Linearized >= 0 {
				s += fmt.Sprintf(" (at most %d of its %d operations linearize)", p.Linearized, p.Operations)
			}
			bad = append(bad, s)
		}
	}
	return "the history is not linearizable: " + strings.Join(bad, ", ")
}

// VisualizeRecords checks recs and writes porcupine's HTML visualization
// of the result to w.
func VisualizeRecords(w io.Writer, recs []model.Record, timeout time.Duration) error {
	r, h, err := CheckRecords(recs, timeout)
	if err != nil {
		return err
	}
	r.NameClients(RecordClientNames(h))
	return r.WriteVisualization(w)
}

// VisualizeTrace writes the HTML visualization of history, the recorded
// history a counterexample's final world holds (checker.Trace.History):
// what the command line's -html writes for a violation of the
// linearizability property. An empty history is an error.
func VisualizeTrace(w io.Writer, history []model.Record, timeout time.Duration) error {
	if len(history) == 0 {
		return fmt.Errorf("the trace's final world records no history")
	}
	return VisualizeRecords(w, history, timeout)
}
