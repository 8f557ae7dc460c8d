package linearizability

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
)

// WriteEDN writes the history h of a key-value workload (what FromRecords
// reads from a protocol's client records) as Jepsen EDN, one event a line,
// in the tuple shape that `coordcheck lincheck -model kv` reads back: each
// value is [key value], each key a string. An invocation comes at its
// call, its completion at its return; an operation whose outcome is
// unknown completes as :info at the end. Judged again, the file gives the
// verdict the history has.
func WriteEDN(w io.Writer, h *History) error {
	type event struct {
		at  int64
		op  int
		end bool
	}
	var evs []event
	for i, op := range h.Ops {
		evs = append(evs, event{op.Call, i, false}, event{op.Return, i, true})
	}
	slices.SortStableFunc(evs, func(a, b event) int { return cmp.Compare(a.at, b.at) })
	bw := bufio.NewWriter(w)
	for _, ev := range evs {
		op := h.Ops[ev.op]
		typ, val := "invoke", op.Input.Arg
		switch {
		case !ev.end && op.Input.Op == Read:
			val = Nil
		case ev.end && op.Output.Unknown:
			typ = "info"
		case ev.end && op.Input.Op == Read:
			typ, val = "ok", op.Output.Value
		case ev.end:
			typ = "ok"
		}
		key := EDN{kind: ednString, s: op.Input.Key}
		fmt.Fprintf(bw, "{:process %d, :type :%s, :f :%s, :value [%s %s]}\n",
			h.Processes[op.Client], typ, op.Input.Op, key, val)
	}
	return bw.Flush()
}
