package cli

import (
	"fmt"
	"io"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/invariants/linearizability"
	"github.com/coordcheck/coordcheck/viz"
)

// writeVisualization writes the sequence diagram of counterexample tr
// (package viz) to path: the explicit -html path or, for a
// linearizability violation, next to the counterexample file cexPath, as
// before the diagrams existed. A linearizability violation's diagram
// carries porcupine's view of the history. Nothing is written without a
// counterexample.
func writeVisualization(stdout io.Writer, diagram func() (*viz.Diagram, error), tr *checker.Trace, path, cexPath string) error {
	if path == "" && cexPath != "" && tr != nil && tr.Property == linearizability.PropertyName {
		path = cexPath + ".html"
	}
	if path == "" {
		return nil
	}
	if tr == nil { // the report instead (check)
		return nil
	}
	d, err := diagram()
	if err != nil {
		return err
	}
	if err := writeFileAtomic(path, d.WriteHTML); err != nil {
		return err
	}
	if d.History != "" {
		fmt.Fprintf(stdout, "sequence diagram and visualization of the history written to %s\n", path)
	} else {
		fmt.Fprintf(stdout, "sequence diagram written to %s\n", path)
	}
	return nil
}

// writeHistory writes the client history of a linearizability violation
// tr to path as Jepsen EDN (nothing when path is empty or tr is not such
// a violation: a pass has as many histories as runs).
func writeHistory(stdout io.Writer, tr *checker.Trace, path string) error {
	if path == "" {
		return nil
	}
	if tr == nil || tr.Property != linearizability.PropertyName {
		fmt.Fprintf(stdout, "no linearizability violation, so no history written to %s\n", path)
		return nil
	}
	h, err := linearizability.FromRecords(tr.History)
	if err != nil {
		return err
	}
	if err := writeFileAtomic(path, func(w io.Writer) error { return linearizability.WriteEDN(w, h) }); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "history written to %s (judge it again: coordcheck lincheck -model kv %s)\n", path, path)
	return nil
}
