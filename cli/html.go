package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/invariants/linearizability"
)

// htmlTimeout bounds porcupine when it draws a visualization.
const htmlTimeout = 30 * time.Second

// writeVisualization writes porcupine's HTML visualization of a
// linearizability violation to path (the explicit -html path, or else
// next to the counterexample file). It does nothing for other properties.
func writeVisualization(stdout io.Writer, tr *checker.Trace, path, cexPath string) error {
	if tr == nil || tr.Property != linearizability.PropertyName {
		return nil
	}
	if path == "" && cexPath != "" {
		path = cexPath + ".html"
	}
	if path == "" {
		return nil
	}
	if err := writeFileAtomic(path, func(w io.Writer) error { return linearizability.VisualizeTrace(w, tr.History, htmlTimeout) }); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "visualization of the history written to %s\n", path)
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
