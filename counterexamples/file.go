// Package counterexamples is the counterexample file format (write, parse,
// replay) and, in its subdirectories, the stored corpus of counterexamples
// that `go test ./counterexamples/...` replays as a regression suite.
//
// A file is text, one item per line:
//
//	# coordcheck counterexample v1
//	protocol  maekawa
//	params    n=3 rounds=1 sets=all
//	network   fifo
//	property  no-deadlock
//	steps     15
//	input     p2 request
//	deliver   p2->p2 REQ(ts=1)
//	...
//	----
//	p0  WANTED ...
//	net  (empty)
//	violated: no-deadlock: circular wait: ...
//
// The header names the protocol and every parameter, the network, the
// faults and the property; then come the actions by value, one per line
// (for a liveness violation, a line "loop" marks where the cycle that
// repeats forever starts); after "----" the
// final world and the violation, as recorded. Lines starting with "#" after
// the first are comments.
package counterexamples

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/internal/clip"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols"
)

// Magic is the first line of every file of this version.
const Magic = "# coordcheck counterexample v1"

// File is a parsed counterexample. Its header is the check's Setting
// (protocol, parameters, network, faults, timers, causality options and
// skipped properties), parsed by the same code as the command line's
// flags.
type File struct {
	protocols.Setting
	Property string
	// Actions are the action lines, and ActionLines their 1-based line
	// numbers in the file (zero for a File not read from text).
	Actions     []string
	ActionLines []int
	// Loop, for a liveness violation, is the index in Actions where the
	// cycle starts (a line "loop" stands before it); nil otherwise.
	Loop *int
	// Final is the recorded final world, and Detail the recorded reason of
	// the violation.
	Final  []string
	Detail string
}

// FromTrace makes the file of a counterexample found by a check of
// protocol with params under cfg.
func FromTrace(protocol string, params map[string]string, cfg model.Config, tr *checker.Trace) *File {
	f := &File{Setting: protocols.Setting{Protocol: protocol, Params: params, Network: cfg.Network.String(),
		Faults: cfg.Faults.String(), Timers: cfg.Timers.String(), Ordering: cfg.Ordering, AppMsgs: cfg.AppMsgs},
		Property: tr.Property, Final: tr.Final, Detail: tr.Detail}
	for _, s := range tr.Steps {
		f.Actions = append(f.Actions, s.Action)
	}
	if tr.Loop != nil {
		loop := *tr.Loop
		f.Loop = &loop
	}
	return f
}

// Write writes f in the text format.
func (f *File) Write(w io.Writer) error {
	var b strings.Builder
	b.WriteString(Magic + "\n")
	fmt.Fprintf(&b, "%-9s %s\n", "protocol", f.Protocol)
	fmt.Fprintf(&b, "%-9s %s\n", "params", FormatParams(f.Params))
	fmt.Fprintf(&b, "%-9s %s\n", "network", f.Network)
	if f.Faults != "" && f.Faults != "none" {
		fmt.Fprintf(&b, "%-9s %s\n", "faults", f.Faults)
	}
	if f.Timers != "" && f.Timers != "default" {
		fmt.Fprintf(&b, "%-9s %s\n", "timers", f.Timers)
	}
	if f.Ordering {
		fmt.Fprintf(&b, "%-9s %s\n", "ordering", "on")
	}
	if f.AppMsgs > 0 {
		fmt.Fprintf(&b, "%-9s %d\n", "app-msgs", f.AppMsgs)
	}
	if len(f.Skip) > 0 {
		fmt.Fprintf(&b, "%-9s %s\n", "skip", strings.Join(f.Skip, ","))
	}
	fmt.Fprintf(&b, "%-9s %s\n", "property", f.Property)
	fmt.Fprintf(&b, "%-9s %d\n", "steps", len(f.Actions))
	for i, a := range f.Actions {
		if f.Loop != nil && *f.Loop == i {
			b.WriteString("loop\n")
		}
		word, rest, _ := strings.Cut(a, " ")
		fmt.Fprintf(&b, "%-9s %s\n", word, rest)
	}
	b.WriteString("----\n")
	for _, l := range f.Final {
		b.WriteString(l + "\n")
	}
	if f.Detail == "" {
		fmt.Fprintf(&b, "violated: %s\n", f.Property)
	} else {
		fmt.Fprintf(&b, "violated: %s: %s\n", f.Property, f.Detail)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// FormatParams renders params as "k=v" words sorted by name.
func FormatParams(params map[string]string) string {
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + params[k]
	}
	return strings.Join(parts, " ")
}

// SyntaxError is a malformed file: it names the line.
type SyntaxError struct {
	Line int
	Text string
	Msg  string
}

// Error names the line and what is wrong with it.
func (e *SyntaxError) Error() string {
	if e.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("line %d: %s: %s", e.Line, e.Msg, clip.Quote(e.Text))
}

// Parse reads a file in the text format.
func Parse(r io.Reader) (*File, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	f := &File{Setting: protocols.Setting{Params: map[string]string{}}}
	n := 0
	seen := map[string]bool{}
	steps := -1
	inFinal := false
	for sc.Scan() {
		n++
		line := strings.TrimRight(sc.Text(), " \t\r")
		if n == 1 {
			if line != Magic {
				return nil, &SyntaxError{1, line, "not a coordcheck counterexample (want first line " + strconv.Quote(Magic) + ")"}
			}
			continue
		}
		if inFinal {
			if rest, ok := strings.CutPrefix(line, "violated: "); ok {
				prop, detail, _ := strings.Cut(rest, ": ")
				prop = strings.TrimSuffix(prop, ":")
				if prop != f.Property {
					return nil, &SyntaxError{n, line, "violation names property " + clip.Quote(prop) + " but the header says " + clip.Quote(f.Property)}
				}
				f.Detail = detail
				continue
			}
			f.Final = append(f.Final, line)
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if line == "----" {
			inFinal = true
			continue
		}
		if line == "loop" {
			if f.Loop != nil {
				return nil, &SyntaxError{n, line, "a second loop marker"}
			}
			loop := len(f.Actions)
			f.Loop = &loop
			continue
		}
		word, rest, _ := strings.Cut(line, " ")
		rest = strings.TrimSpace(rest)
		switch {
		case model.IsActionWord(word):
			if rest == "" {
				return nil, &SyntaxError{n, line, "action without arguments"}
			}
			f.Actions = append(f.Actions, word+" "+rest)
			f.ActionLines = append(f.ActionLines, n)
			continue
		case len(f.Actions) > 0:
			return nil, &SyntaxError{n, line, "expected an action (" + strings.Join(model.ActionWords(), ", ") + ") or ----"}
		}
		if seen[word] {
			return nil, &SyntaxError{n, line, "duplicate header " + clip.Quote(word)}
		}
		seen[word] = true
		switch word {
		case "protocol":
			f.Protocol = rest
		case "params":
			for _, kv := range strings.Fields(rest) {
				k, v, ok := strings.Cut(kv, "=")
				if !ok || k == "" {
					return nil, &SyntaxError{n, line, "parameter " + clip.Quote(kv) + " is not name=value"}
				}
				f.Params[k] = v
			}
		case "network":
			f.Network = rest
		case "faults":
			f.Faults = rest
		case "timers":
			f.Timers = rest
		case "ordering":
			if rest != "on" {
				return nil, &SyntaxError{n, line, "ordering takes the word on"}
			}
			f.Ordering = true
		case "skip":
			f.Skip = strings.Split(rest, ",")
		case "app-msgs":
			v, err := strconv.Atoi(rest)
			if err != nil || v < 0 || v > 255 {
				return nil, &SyntaxError{n, line, "app-msgs is not a count"}
			}
			f.AppMsgs = v
		case "property":
			if strings.Contains(rest, ":") { // it would not survive the line "violated: P: detail"
				return nil, &SyntaxError{n, line, "a property name has no ':'"}
			}
			f.Property = rest
		case "steps":
			v, err := strconv.Atoi(rest)
			if err != nil || v < 0 {
				return nil, &SyntaxError{n, line, "steps is not a count"}
			}
			steps = v
		default:
			return nil, &SyntaxError{n, line, "unknown header " + clip.Quote(word) + " (valid: protocol, params, network, faults, timers, ordering, app-msgs, skip, property, steps)"}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	switch {
	case n == 0:
		return nil, &SyntaxError{0, "", "empty file"}
	case f.Protocol == "":
		return nil, &SyntaxError{0, "", "no protocol header"}
	case f.Property == "":
		return nil, &SyntaxError{0, "", "no property header"}
	case f.Loop != nil && *f.Loop == len(f.Actions):
		return nil, &SyntaxError{0, "", "a loop marker after the last action (a cycle needs at least one)"}
	case steps >= 0 && steps != len(f.Actions):
		return nil, &SyntaxError{0, "", fmt.Sprintf("header says %d steps but the file has %d actions", steps, len(f.Actions))}
	}
	return f, nil
}
