package linearizability

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
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

	model porcupine.Model
	info  porcupine.LinearizationInfo
}

// Partition is the outcome of the check of one key.
type Partition struct {
	Key        string `json:"key"`
	Operations int    `json:"operations"`
	// Linearized is the size of the largest set of this key's operations
	// that the checker could linearize: Operations when the key is
	// linearizable, fewer when it is not, and a lower bound on either when
	// the check timed out.
	Linearized int `json:"linearized"`
}

// Linearizable says whether every operation of the partition was linearized.
func (p Partition) Linearizable() bool { return p.Linearized == p.Operations }

// Check checks whether ops is linearizable with respect to m. A timeout of
// zero or less means no limit; a check that times out has the verdict
// [Unknown]. The result carries what [Result.WriteVisualization] draws.
func Check[S, I, O any](m Model[S, I, O], ops []Operation[I, O], timeout time.Duration) *Result {
	pm := m.porcupine()
	keys, parts := []string{""}, [][]Operation[I, O]{ops}
	if m.Key != nil {
		keys, parts = partition(ops, func(op Operation[I, O]) string { return m.Key(op.Input) })
	}
	start := time.Now()
	res, info := porcupine.CheckOperationsVerbose(pm, toPorcupine(ops), max(timeout, 0))
	r := &Result{Model: m.Name, Operations: len(ops), Elapsed: time.Since(start), model: pm, info: info}
	switch res {
	case porcupine.Ok:
		r.Verdict = Linearizable
	case porcupine.Illegal:
		r.Verdict = NotLinearizable
	default:
		r.Verdict = Unknown
	}
	partials := info.PartialLinearizations()
	for i, k := range keys {
		p := Partition{Key: k, Operations: len(parts[i])}
		if i < len(partials) {
			// porcupine collects these from a map: order them, so that
			// the visualization is the same on every run.
			slices.SortFunc(partials[i], func(a, b []int) int {
				if c := cmp.Compare(len(b), len(a)); c != 0 {
					return c
				}
				return slices.Compare(a, b)
			})
			if len(partials[i]) > 0 {
				p.Linearized = len(partials[i][0])
			}
		}
		if r.Verdict == Linearizable {
			p.Linearized = p.Operations
		}
		r.Partitions = append(r.Partitions, p)
	}
	return r
}

// WriteVisualization writes porcupine's HTML visualization of the checked
// history: the operations of each client on a time line and a
// linearization, or the largest partial linearizations and where they
// get stuck.
func (r *Result) WriteVisualization(w io.Writer) error {
	return porcupine.Visualize(r.model, r.info, w)
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
