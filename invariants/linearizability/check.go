package linearizability

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/anishathalye/porcupine"
)

// Verdict is the outcome of a linearizability check.
type Verdict uint8

// The three verdicts.
const (
	// Linearizable: the history has a linearization.
	Linearizable Verdict = iota
	// NotLinearizable: the history has no linearization.
	NotLinearizable
	// Unknown: the check timed out before it decided. It is never a pass.
	Unknown
)

// String is the verdict's words in reports and JSON.
func (v Verdict) String() string {
	switch v {
	case Linearizable:
		return "linearizable"
	case NotLinearizable:
		return "not linearizable"
	case Unknown:
		return "unknown"
	}
	return fmt.Sprintf("verdict(%d)", uint8(v))
}

// MarshalText writes the verdict's words, for JSON.
func (v Verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// ExitCode is the command-line exit code of the verdict (DESIGN.md): 0
// linearizable, 1 not linearizable, 3 unknown (inconclusive).
func (v Verdict) ExitCode() int {
	switch v {
	case Linearizable:
		return 0
	case NotLinearizable:
		return 1
	}
	return 3
}

// Result is the outcome of [Check].
type Result struct {
	// Verdict is the answer: Unknown when the check timed out.
	Verdict Verdict `json:"verdict"`
	// Model names the specification.
	Model string `json:"model"`
	// Operations counts the operations checked.
	Operations int `json:"operations"`
	// Partitions has one entry per key, in key order, or a single entry
	// with an empty key when the model does not partition.
	Partitions []Partition `json:"partitions"`
	// Elapsed is the time the check took.
	Elapsed time.Duration `json:"elapsed_ns"`

	model      porcupine.Model
	ops        []porcupine.Operation
	timeout    time.Duration
	once       sync.Once
	info       porcupine.LinearizationInfo
	infoResult porcupine.CheckResult
	clients    []string // the rows' names (NameClients)
}

// Partition is the outcome of the check of one key.
type Partition struct {
	// Key is the key's name, or empty when the model does not partition.
	Key string `json:"key"`
	// Operations counts the key's operations.
	Operations int `json:"operations"`
	// Linearized is the size of the largest set of this key's operations
	// that could be linearized: Operations when the history is
	// linearizable; when it is not, fewer for the keys that are not; -1
	// when it is not known (the check, or the search for these details,
	// timed out).
	Linearized int `json:"linearized"`
}

// Linearizable says whether every operation of the partition was linearized.
func (p Partition) Linearizable() bool { return p.Linearized == p.Operations }

// Check checks whether ops is linearizable with respect to m. A timeout of
// zero or less means no limit; a check that times out has the verdict
// [Unknown], never [Linearizable]. When the history is not linearizable,
// Check searches it again to find how far each key linearizes, which
// costs a few times more than the check itself.
func Check[S, I, O any](m Model[S, I, O], ops []Operation[I, O], timeout time.Duration) *Result {
	start := time.Now()
	r := &Result{Model: m.Name, Operations: len(ops), model: m.porcupine(), ops: toPorcupine(ops), timeout: max(timeout, 0)}
	switch porcupine.CheckOperationsTimeout(r.model, r.ops, r.timeout) {
	case porcupine.Ok:
		r.Verdict = Linearizable
	case porcupine.Illegal:
		r.Verdict = NotLinearizable
	default:
		r.Verdict = Unknown
	}
	keys, parts := []string{""}, [][]Operation[I, O]{ops}
	if m.Key != nil {
		keys, parts = partition(ops, func(op Operation[I, O]) string { return m.Key(op.Input) })
	}
	var partials [][][]int
	if r.Verdict == NotLinearizable {
		if info, res := r.linearization(); res == porcupine.Illegal {
			partials = info.PartialLinearizations()
		}
	}
	for i, k := range keys {
		p := Partition{Key: k, Operations: len(parts[i]), Linearized: -1}
		switch {
		case r.Verdict == Linearizable:
			p.Linearized = p.Operations
		case i < len(partials):
			p.Linearized = 0
			if len(partials[i]) > 0 {
				p.Linearized = len(partials[i][0])
			}
		}
		r.Partitions = append(r.Partitions, p)
	}
	r.Elapsed = time.Since(start)
	return r
}

// linearization searches the history again, with the same timeout, and
// keeps what porcupine's visualization needs: the largest partial
// linearizations of each partition, longest first. It returns them with
// the outcome of that search.
func (r *Result) linearization() (*porcupine.LinearizationInfo, porcupine.CheckResult) {
	r.once.Do(func() {
		r.infoResult, r.info = porcupine.CheckOperationsVerbose(r.model, r.ops, r.timeout)
		// porcupine collects these from a map: order them, so that the
		// visualization is the same on every run.
		for _, p := range r.info.PartialLinearizations() {
			slices.SortFunc(p, func(a, b []int) int {
				if c := cmp.Compare(len(b), len(a)); c != 0 {
					return c
				}
				return slices.Compare(a, b)
			})
		}
	})
	return &r.info, r.infoResult
}

// WriteVisualization writes porcupine's HTML visualization of the checked
// history: the operations of each client on a time line and a
// linearization, or the largest partial linearizations and where they
// get stuck. For a linearizable or timed-out history, it first searches
// the history again.
func (r *Result) WriteVisualization(w io.Writer) error {
	info, _ := r.linearization()
	var page bytes.Buffer
	if err := porcupine.Visualize(r.model, *info, &page); err != nil {
		return err
	}
	named, err := nameRows(page.Bytes(), r.clients)
	if err != nil {
		return err
	}
	_, err = w.Write(named)
	return err
}

// WriteVisualizationFile writes the visualization to path, atomically.
func (r *Result) WriteVisualizationFile(path string) error {
	f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	if err := r.WriteVisualization(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
