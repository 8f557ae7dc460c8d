package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/coordcheck/coordcheck/invariants/linearizability"
)

// lincheckJSON is the one object `lincheck -json` prints.
type lincheckJSON struct {
	File string `json:"file"`
	*linearizability.Result
	Processes     int    `json:"processes"`
	Failed        int    `json:"failed_dropped"`
	Indeterminate int    `json:"indeterminate"`
	TimeoutNS     int64  `json:"timeout_ns"`
	HTML          string `json:"html,omitempty"`
	HTMLError     string `json:"html_error,omitempty"`
	Interrupted   bool   `json:"interrupted,omitempty"`
	ExitCode      int    `json:"exit_code"`
}

const lincheckHelp = `usage: coordcheck lincheck [flags] FILE

Checks a history recorded elsewhere for linearizability with porcupine.
FILE holds Jepsen events, one per line: EDN maps such as
  {:type :invoke, :f :write, :value 3, :process 0}
or Jepsen log lines such as
  INFO  jepsen.util - 0	:invoke	:write	3
:fail operations did not happen and are dropped; :info operations (and
invocations never completed) may or may not have happened.

flags:
  -model register|cas-register|kv
                 the sequential specification (default cas-register, which
                 also reads register histories); kv values are [key value]
  -timeout D     give up after D, e.g. 30s; 0: no limit (default 10s)
  -html FILE     write porcupine's HTML visualization to FILE (default: to
                 HISTORY.html when the history is not linearizable; none: never)
  -json          print one JSON object (verdict, counts, timing, partitions)

exit codes: 0 linearizable, 1 not linearizable, 2 bad usage or malformed
history, 3 unknown (the check timed out: not a pass)
`

// cmdLincheck checks a Jepsen history for linearizability: exit 0
// linearizable, 1 not, 2 bad usage or a malformed history, 3 timed out.
func cmdLincheck(args []string, stdout io.Writer) (int, error) {
	fs := flag.NewFlagSet("lincheck", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	modelName := fs.String("model", string(linearizability.SpecCASRegister), "register, cas-register or kv")
	timeout := fs.Duration("timeout", 10*time.Second, "give up after this long (0: no limit)")
	html := fs.String("html", "", "write the visualization to this file (none: never)")
	asJSON := fs.Bool("json", false, "print one JSON object instead of text")
	path, err := parseFileAndFlags(fs, args)
	if err == flag.ErrHelp {
		fmt.Fprint(stdout, lincheckHelp)
		return 0, nil
	}
	if err != nil {
		var valid []string
		fs.VisitAll(func(f *flag.Flag) { valid = append(valid, "-"+f.Name) })
		return 0, usageError("lincheck: %v (valid flags: %s)", err, strings.Join(valid, " "))
	}
	if path == "" {
		return 0, usageError("lincheck needs one history file")
	}
	spec, err := linearizability.ParseSpec(*modelName)
	if err != nil {
		return 0, usageError("lincheck: %v", err)
	}
	if *timeout < 0 {
		return 0, usageError("lincheck: -timeout %v: want 0 (no limit) or more", *timeout)
	}

	fh, err := os.Open(path)
	if err != nil {
		return 0, usageError("%v", err)
	}
	h, err := linearizability.ParseJepsen(fh, spec)
	fh.Close()
	if err != nil {
		return 0, usageError("%s: %v", path, err)
	}
	if len(h.Ops) == 0 && h.Failed == 0 {
		return 0, usageError("%s: no client operations in %d lines (an empty history is not evidence)", path, h.Lines)
	}
	res, interrupted := checkInterruptibly(spec, h.Ops, *timeout)
	code := res.Verdict.ExitCode()

	out := lincheckJSON{File: path, Result: res, Processes: len(h.Processes), Failed: h.Failed,
		Indeterminate: h.Indeterminate, TimeoutNS: int64(*timeout), Interrupted: interrupted, ExitCode: code}
	switch {
	case *html == "none":
	case *html != "":
		if err := res.WriteVisualizationFile(*html); err != nil {
			return 0, usageError("writing %s: %v", *html, err)
		}
		out.HTML = *html
	case res.Verdict == linearizability.NotLinearizable:
		if err := res.WriteVisualizationFile(path + ".html"); err != nil {
			out.HTMLError = err.Error()
		} else {
			out.HTML = path + ".html"
		}
	}

	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return code, enc.Encode(out)
	}
	printLincheck(stdout, out, *timeout)
	return code, nil
}

// checkInterruptibly runs the check until it decides, times out, or a
// SIGINT or SIGTERM arrives: then the verdict is unknown (exit 3) at once,
// and the check, which porcupine cannot cancel, is left to end with the
// process.
func checkInterruptibly(spec linearizability.Spec, ops []linearizability.Operation[linearizability.Input, linearizability.Output], timeout time.Duration) (*linearizability.Result, bool) {
	stop, unlisten := stopOnSignal()
	defer unlisten()
	searchStarted()
	start := time.Now()
	done := make(chan *linearizability.Result, 1)
	go func() { done <- linearizability.Check(spec.Model(), ops, timeout) }()
	select {
	case res := <-done:
		return res, false
	case <-stop:
		return &linearizability.Result{Verdict: linearizability.Unknown, Model: spec.Model().Name, Operations: len(ops),
			Elapsed: time.Since(start)}, true
	}
}

// parseFileAndFlags parses flags before and after the one file argument.
func parseFileAndFlags(fs *flag.FlagSet, args []string) (string, error) {
	if err := fs.Parse(args); err != nil {
		return "", err
	}
	if fs.NArg() == 0 {
		return "", nil
	}
	path := fs.Arg(0)
	if err := fs.Parse(fs.Args()[1:]); err != nil {
		return "", err
	}
	if fs.NArg() > 0 {
		return "", fmt.Errorf("unexpected argument %q (one history file only)", fs.Arg(0))
	}
	return path, nil
}

func printLincheck(w io.Writer, o lincheckJSON, timeout time.Duration) {
	r := o.Result
	fmt.Fprintf(w, "lincheck %s: model %s, %d operations from %d processes", o.File, r.Model, r.Operations, o.Processes)
	if r.Model == string(linearizability.SpecKV) {
		fmt.Fprintf(w, " on %d keys", len(r.Partitions))
	}
	if o.Indeterminate > 0 || o.Failed > 0 {
		fmt.Fprintf(w, "; %d indeterminate (:info or never completed), %d :fail dropped", o.Indeterminate, o.Failed)
	}
	fmt.Fprintln(w)
	switch r.Verdict {
	case linearizability.Linearizable:
		fmt.Fprintf(w, "verdict: linearizable: the operations have a linearization (%.3fs)\n", r.Elapsed.Seconds())
	case linearizability.NotLinearizable:
		fmt.Fprintf(w, "verdict: not linearizable: no order of the operations is a legal run of %s (%.3fs)\n", r.Model, r.Elapsed.Seconds())
		for _, p := range r.Partitions {
			what := "the register"
			if p.Key != "" {
				what = "key " + p.Key
			}
			switch {
			case p.Linearized < 0:
				fmt.Fprintf(w, "  %s: unknown (the search for details timed out)\n", what)
			case !p.Linearizable():
				fmt.Fprintf(w, "  %s: at most %d of its %d operations linearize\n", what, p.Linearized, p.Operations)
			}
		}
	case linearizability.Unknown:
		if o.Interrupted {
			fmt.Fprintf(w, "verdict: unknown: interrupted after %.3fs before deciding; this is not a pass\n", r.Elapsed.Seconds())
			break
		}
		fmt.Fprintf(w, "verdict: unknown: the check timed out after %v before deciding; this is not a pass (raise -timeout)\n", timeout)
	}
	switch {
	case o.HTML != "":
		fmt.Fprintf(w, "visualization written to %s\n", o.HTML)
	case o.HTMLError != "":
		fmt.Fprintf(w, "visualization not written: %s\n", o.HTMLError)
	}
}
