package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/coordcheck/coordcheck/internal/clip"
	"github.com/coordcheck/coordcheck/invariants/linearizability"
	"github.com/coordcheck/coordcheck/protocols/coordination"
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
	// Interrupted: a signal stopped the check (verdict unknown) or the
	// search for the smallest failing sub-history (none given).
	Interrupted bool `json:"interrupted,omitempty"`
	// FailingKeys names the keys whose operations do not linearize.
	FailingKeys []string `json:"failing_keys,omitempty"`
	// Minimal is the smallest failing sub-history, when the history is
	// not linearizable.
	Minimal  *minimalJSON `json:"minimal,omitempty"`
	ExitCode int          `json:"exit_code"`
}

// minimalJSON is the smallest failing sub-history in `lincheck -json`.
type minimalJSON struct {
	Key        string      `json:"key"`
	Of         int         `json:"of"`
	Minimal    bool        `json:"minimal"`
	Checks     int         `json:"checks"`
	HTML       string      `json:"html,omitempty"`
	Operations []minimalOp `json:"operations"`
}

// minimalOp is one operation of the smallest failing sub-history: its
// process, the lines of its invocation and completion (0: never
// completed, or its outcome is unknown) and what it did.
type minimalOp struct {
	Process   int64  `json:"process"`
	Invoke    int64  `json:"invoke_line"`
	Complete  int64  `json:"complete_line"`
	Operation string `json:"operation"`
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
  -model register|cas-register|kv|kv-append
                 the sequential specification (default cas-register, which
                 also reads register histories); kv values are [key value]
                 tuples with :read/:write/:cas; kv-append events carry a
                 :key and are :get/:put/:append of strings
  -model znode   the coordination service's API (create with ephemeral and
                 sequential flags, delete, setData and getData with
                 versions, exists, getChildren, closeSession), judged with
                 the tree the checker's replicas apply; see
                 protocols/coordination/znode.go for the event shapes
  -znodes P,Q    with -model znode: the znodes the tree starts with (besides
                 the root), e.g. /lock,/x
  -minimize D    when the history is not linearizable, spend at most D
                 cutting it down to a smallest failing sub-history
                 (default 10s; 0: do not)
  -timeout D     give up after D, e.g. 30s; 0: no limit (default 10s)
  -html FILE     write porcupine's HTML visualization to FILE (default: to
                 HISTORY.html when the history is not linearizable; none: never),
                 and that of the smallest failing sub-history beside it
                 (FILE with .min.html for .html)
  -json          print one JSON object (verdict, counts, timing, partitions)

exit codes: 0 linearizable, 1 not linearizable, 2 bad usage or malformed
history, 3 unknown (the check timed out: not a pass)
`

// cmdLincheck checks a Jepsen history for linearizability: exit 0
// linearizable, 1 not, 2 bad usage or a malformed history, 3 timed out.
func cmdLincheck(args []string, stdout io.Writer) (int, error) {
	fs := flag.NewFlagSet("lincheck", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	modelName := fs.String("model", string(linearizability.SpecCASRegister), "register, cas-register, kv, kv-append or znode")
	znodes := fs.String("znodes", "", "with -model znode: the znodes the tree starts with, besides the root")
	minimize := fs.Duration("minimize", 10*time.Second, "time to spend on the smallest failing sub-history (0: none)")
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
		return 0, usageError("lincheck: %s (valid flags: %s)", flagErr(err), strings.Join(valid, " "))
	}
	if path == "" {
		return 0, usageError("lincheck needs one history file")
	}
	if *timeout < 0 {
		return 0, usageError("lincheck: -timeout %v: want 0 (no limit) or more", *timeout)
	}
	if *minimize < 0 {
		return 0, usageError("lincheck: -minimize %v: want 0 (do not) or more", *minimize)
	}
	if *html != "" && *html != "none" {
		if err := checkWritable("html", *html); err != nil {
			return 0, err
		}
	}
	lc := lincheck{path: path, timeout: *timeout, minimize: *minimize, html: *html, json: *asJSON, stdout: stdout}
	if *modelName == "znode" {
		var initial []string
		if *znodes != "" {
			initial = strings.Split(*znodes, ",")
			for _, z := range initial {
				if !strings.HasPrefix(z, "/") || z == "/" {
					return 0, usageError("lincheck: -znodes %q: want paths such as /lock,/x", *znodes)
				}
			}
		}
		return judgeHistory(lc, coordination.ZnodeModel(initial), coordination.ZnodeDecoder{})
	}
	if *znodes != "" {
		return 0, usageError("lincheck: -znodes goes with -model znode")
	}
	spec, err := linearizability.ParseSpec(*modelName)
	if err != nil {
		var names []string
		for _, s := range linearizability.Specs() {
			names = append(names, string(s))
		}
		return 0, usageError("lincheck: unknown model %s (valid: %s, znode)", clip.Quote(*modelName), strings.Join(names, ", "))
	}
	return judgeHistory(lc, spec.Model(), linearizability.DecoderOf(spec))
}

// lincheck is what cmdLincheck was asked.
type lincheck struct {
	path              string
	timeout, minimize time.Duration
	html              string
	json              bool
	stdout            io.Writer
}

// judgeHistory reads the history with dec, checks it against m, cuts a
// failing one down, writes the visualizations and reports.
func judgeHistory[S, I, O any](lc lincheck, m linearizability.Model[S, I, O], dec linearizability.Decoder[I, O]) (int, error) {
	path := lc.path
	stop, unlisten := stopOnSignal()
	defer unlisten()
	searchStarted()
	fh, err := os.Open(path)
	if err != nil {
		return 0, usageError("%v", err)
	}
	var size int64
	if st, err := fh.Stat(); err == nil {
		size = st.Size()
	}
	prog := startLinProgress(os.Stderr, size)
	h, err := linearizability.ParseHistory(prog.reader(fh), dec)
	fh.Close()
	if err != nil {
		prog.stop()
		return 0, usageError("%s: %v", path, err)
	}
	if len(h.Ops) == 0 && h.Failed == 0 {
		prog.stop()
		return 0, usageError("%s: no client operations in %d lines (an empty history is not evidence)", path, h.Lines)
	}
	prog.say(fmt.Sprintf("checking %s operations", group(uint64(len(h.Ops)))))
	start := time.Now()
	res, finished := interruptibly(stop, func() *linearizability.Result { return linearizability.Check(m, h.Ops, lc.timeout) })
	if !finished {
		res = &linearizability.Result{Verdict: linearizability.Unknown, Model: m.Name, Operations: len(h.Ops), Elapsed: time.Since(start)}
	}
	code := res.Verdict.ExitCode()
	res.NameClients(linearizability.ProcessNames(h.Processes))

	out := lincheckJSON{File: path, Result: res, Processes: len(h.Processes), Failed: h.Failed,
		Indeterminate: h.Indeterminate, TimeoutNS: int64(lc.timeout), Interrupted: !finished, ExitCode: code}
	var minRes *linearizability.Result
	if res.Verdict == linearizability.NotLinearizable {
		for _, p := range res.Partitions {
			if !p.Linearizable() && p.Linearized >= 0 {
				out.FailingKeys = append(out.FailingKeys, p.Key)
			}
		}
		if lc.minimize > 0 {
			prog.say("cutting it down to a smallest failing sub-history")
			type minimal struct {
				j *minimalJSON
				r *linearizability.Result
			}
			mn, finished := interruptibly(stop, func() minimal {
				j, r := minimalOf(m, h, lc.timeout, lc.minimize)
				return minimal{j, r}
			})
			out.Minimal, minRes, out.Interrupted = mn.j, mn.r, !finished
			if minRes != nil {
				minRes.NameClients(linearizability.ProcessNames(h.Processes))
			}
		}
	}
	prog.stop()
	htmlPath := lc.html
	if htmlPath == "" && res.Verdict == linearizability.NotLinearizable {
		htmlPath = path + ".html"
	}
	if htmlPath != "none" && htmlPath != "" {
		if err := res.WriteVisualizationFile(htmlPath); err != nil {
			if lc.html != "" {
				return 0, usageError("writing %s: %v", htmlPath, err)
			}
			out.HTMLError = err.Error()
		} else {
			out.HTML = htmlPath
			if minRes != nil {
				minPath := strings.TrimSuffix(htmlPath, ".html") + ".min.html"
				if err := minRes.WriteVisualizationFile(minPath); err == nil {
					out.Minimal.HTML = minPath
				}
			}
		}
	}

	if lc.json {
		enc := json.NewEncoder(lc.stdout)
		enc.SetIndent("", "  ")
		return code, enc.Encode(out)
	}
	printLincheck(lc.stdout, out, lc.timeout)
	return code, nil
}

// minimalOf cuts the history h, which is not linearizable, down to its
// smallest failing sub-history within budget, and checks that part again
// for its visualization.
func minimalOf[S, I, O any](m linearizability.Model[S, I, O], h *linearizability.HistoryOf[I, O], timeout, budget time.Duration) (*minimalJSON, *linearizability.Result) {
	sub, ok := linearizability.Minimize(m, h.Ops, timeout, budget)
	if !ok {
		return nil, nil
	}
	mj := &minimalJSON{Key: sub.Key, Of: sub.Of, Minimal: sub.Minimal, Checks: sub.Checks}
	end := int64(h.Lines) + 1
	for _, op := range sub.Ops {
		o := minimalOp{Process: h.Processes[op.Client], Invoke: op.Call,
			Operation: m.DescribeOperation(op.Input, op.Output)}
		if op.Return != end {
			o.Complete = op.Return
		}
		mj.Operations = append(mj.Operations, o)
	}
	return mj, linearizability.Check(m, sub.Ops, timeout)
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
		return "", fmt.Errorf("unexpected argument %s (one history file only)", clip.Quote(fs.Arg(0)))
	}
	return path, nil
}

func printLincheck(w io.Writer, o lincheckJSON, timeout time.Duration) {
	r := o.Result
	fmt.Fprintf(w, "lincheck %s: model %s, %d operations from %d processes", o.File, r.Model, r.Operations, o.Processes)
	if r.Model == string(linearizability.SpecKV) || r.Model == string(linearizability.SpecKVAppend) {
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
			what := whole(r.Model)
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
	if m := o.Minimal; m != nil {
		what := whole(r.Model)
		if m.Key != "" {
			what = "key " + m.Key
		}
		fmt.Fprintf(w, "smallest failing sub-history: %d of the %d operations of %s", len(m.Operations), m.Of, what)
		if m.Minimal {
			fmt.Fprintln(w, "; not linearizable, and linearizable without any one of them (and the reads only it explains):")
		} else {
			fmt.Fprintln(w, " (the search ran out of time: it fails, but may not be the smallest):")
		}
		fmt.Fprintf(w, "  %-8s %-10s %-10s %s\n", "process", "invoke", "complete", "operation")
		for _, op := range m.Operations {
			done := "-"
			if op.Complete > 0 {
				done = fmt.Sprintf("line %d", op.Complete)
			}
			fmt.Fprintf(w, "  %-8d %-10s %-10s %s\n", op.Process, fmt.Sprintf("line %d", op.Invoke), done, op.Operation)
		}
		if m.HTML != "" {
			fmt.Fprintf(w, "its visualization written to %s\n", m.HTML)
		}
	}
	switch {
	case o.HTML != "":
		fmt.Fprintf(w, "visualization written to %s\n", o.HTML)
	case o.HTMLError != "":
		fmt.Fprintf(w, "visualization not written: %s\n", o.HTMLError)
	}
}

// whole names what a model's unpartitioned history is about.
func whole(model string) string {
	if model == "znode" {
		return "the tree"
	}
	return "the register"
}
