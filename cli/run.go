package cli

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/internal/clip"
	"github.com/coordcheck/coordcheck/live"
	"github.com/coordcheck/coordcheck/protocols"
)

const runHelp = `usage: coordcheck run PROTOCOL [protocol parameters] [flags]

Runs the protocol for real, the very code 'check' explores: one goroutine per node,
messages in the protocol's own encoding over TCP connections on 127.0.0.1 (or in
memory), timers on the wall clock, and a workload that keeps requesting the critical
section. An observer records every critical section on one monotonic clock and judges
the run by the checker's properties: mutual exclusion on the observed intervals, and
no-deadlock (nothing in flight, no timer armed, no input enabled, and a node waiting;
the run then ends early).

flags:
  -duration D       how long the workload runs (default 5s, at most 1h)
  -transport T      tcp (default) or mem
  -faults SPEC      faults on the links and nodes: drop=K, dup=K (K a count or inf),
                    delay=D (each message held up to D, links stay FIFO),
                    crash=K[@p1+p2], restart=K (node goroutines); default none
  -fault-rate P     chance that a message is dropped or duplicated while the budget
                    lasts (default 0.01)
  -hold D           how long a node stays in its critical section (default 100us:
                    one that takes no time leaves an overlap only microseconds to show)
  -seed N           seed of the fault injector (default 1)

Exit codes: 0 the observed run satisfies the properties, 1 one is violated,
2 bad usage, 3 nothing to judge (no critical section was entered).
`

func cmdRun(args []string, stdout, stderr io.Writer) (int, error) {
	var runnable []string
	for _, e := range protocols.All() {
		if e.Live != nil {
			runnable = append(runnable, e.Name)
		}
	}
	name, rest := splitProtocol(args)
	if name == "" {
		if hasHelp(args) {
			fmt.Fprintf(stdout, "%s\nprotocols that run live: %s\n", runHelp, strings.Join(runnable, ", "))
			return 0, nil
		}
		return 0, usageError("run needs a protocol (valid: %s)", strings.Join(runnable, ", "))
	}
	entry, ok := protocols.Lookup(name)
	if !ok {
		return 0, usageError("%s", (&protocols.UnknownError{Name: name}).Error())
	}
	if entry.Live == nil {
		return 0, usageError("run %s: this protocol does not run live yet (valid: %s)", name, strings.Join(runnable, ", "))
	}
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	params := map[string]*string{}
	for _, p := range entry.Params {
		params[p.Name] = fs.String(p.Name, p.Default, p.Doc)
	}
	duration := fs.Duration("duration", 5*time.Second, "how long the workload runs")
	transport := fs.String("transport", "tcp", "tcp or mem")
	faults := fs.String("faults", "none", "faults")
	rate := fs.Float64("fault-rate", live.DefaultRate, "chance a message is struck")
	hold := fs.Duration("hold", 100*time.Microsecond, "time in the critical section")
	seed := fs.Uint64("seed", 1, "fault injector seed")
	if err := fs.Parse(rest); err != nil {
		if err == flag.ErrHelp {
			printRunHelp(stdout, entry)
			return 0, nil
		}
		return 0, usageError("run %s: %s", name, flagUsageErr(fs, err))
	}
	if fs.NArg() > 0 {
		return 0, usageError("run %s: unexpected argument %s", name, clip.Quote(fs.Arg(0)))
	}
	given := map[string]string{}
	fs.Visit(func(f *flag.Flag) {
		if _, ok := params[f.Name]; ok {
			given[f.Name] = f.Value.String()
		}
	})
	if _, ok := given["rounds"]; ok {
		return 0, usageError("run %s: -rounds bounds the checker's state space; a live run requests for -duration", name)
	}
	if *duration <= 0 || *duration > time.Hour {
		return 0, usageError("run %s: -duration %s: want a duration from 1ns to 1h", name, duration)
	}
	if *hold < 0 || *hold > *duration {
		return 0, usageError("run %s: -hold %s: want a duration from 0 to the run's -duration", name, hold)
	}
	cfg := live.RunConfig{Duration: *duration, Hold: *hold, Seed: *seed}
	switch *transport {
	case "tcp":
		cfg.Transport = live.TCP
	case "mem":
		cfg.Transport = live.Mem
	default:
		return 0, usageError("run %s: -transport %s (valid: tcp, mem)", name, clip.Quote(*transport))
	}
	var err error
	if cfg.Faults, err = live.ParseFaults(*faults); err != nil {
		return 0, usageError("-faults: %v", err)
	}
	cfg.Faults.Rate = *rate
	values, err := entry.Values(given)
	if err != nil {
		return 0, usageError("%s: %v", name, err)
	}
	runner, err := entry.Live(values)
	if err != nil {
		return 0, usageError("%s: %v", name, err)
	}
	if err := cfg.Faults.Check(runner.Nodes()); err != nil {
		return 0, usageError("-faults: %v", err)
	}
	if (cfg.Faults.Drop != 0 || cfg.Faults.Dup != 0) && cfg.Faults.Rate == 0 {
		return 0, usageError("-fault-rate 0: drop and dup would never strike")
	}

	var shown []string
	for _, p := range entry.Params {
		if p.Name != "rounds" {
			shown = append(shown, p.Name+"="+values.Get(p.Name))
		}
	}
	fmt.Fprintf(stdout, "run %s %s: %d nodes, transport %s, faults %s, %s\n",
		name, strings.Join(shown, " "), runner.Nodes(), cfg.Transport, cfg.Faults, cfg.Duration)
	if isTerminal(stderr) {
		cfg.Progress = func(p live.Progress) {
			fmt.Fprintf(stderr, "\r  %5.1fs  %d critical sections  %d messages ", p.Elapsed.Seconds(), p.Entries, p.Sent)
		}
	}
	rep, err := runner.Run(cfg)
	if cfg.Progress != nil {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if err != nil {
		return 0, &exitError{2, fmt.Sprintf("run %s: %v", name, err)}
	}
	printRunReport(stdout, entry, values, rep)
	return runExitCode(rep), nil
}

// runExitCode is 1 when a verdict is a violation, 3 when nothing could be
// judged, 0 otherwise.
func runExitCode(rep *live.Report) int {
	code := 0
	for _, v := range rep.Verdicts {
		switch {
		case !v.Holds:
			return 1
		case v.Judged == 0:
			code = 3
		}
	}
	return code
}

func printRunReport(w io.Writer, e protocols.Entry, values protocols.Values, rep *live.Report) {
	secs := rep.Elapsed.Seconds()
	fmt.Fprintf(w, "\n%-6s %9s %11s\n", "node", "entries", "entries/s")
	for i, k := range rep.Entries {
		fmt.Fprintf(w, "p%-5d %9d %11.1f\n", i, k, float64(k)/secs)
	}
	total := rep.TotalEntries()
	fmt.Fprintf(w, "%-6s %9d %11.1f   (over %.2fs)\n", "all", total, float64(total)/secs, secs)
	if l := rep.Latencies; len(l) > 0 {
		fmt.Fprintf(w, "\nrequest -> enter latency: p50 %s  p90 %s  p99 %s  max %s  (%d entries)\n",
			roundDur(live.Percentile(l, 50)), roundDur(live.Percentile(l, 90)), roundDur(live.Percentile(l, 99)),
			roundDur(l[len(l)-1]), len(l))
	}
	fmt.Fprintf(w, "\nmessages: %d sent", rep.Sent)
	if total > 0 {
		fmt.Fprintf(w, ", %.2f per critical-section entry", float64(rep.Sent)/float64(total))
	}
	fmt.Fprintln(w)
	if e.Costs != nil {
		printCostsBeside(w, e, values)
	}
	if f := rep.Faults; f != (live.FaultCounts{}) {
		fmt.Fprintf(w, "faults: %s\n", f)
	}
	// A request made just before the end is not news; one pending for
	// long is (a lost message, a crash), though no verdict: a finite run
	// cannot show starvation.
	var stuck []string
	for _, p := range rep.Waiting {
		if age := rep.Elapsed - p.Since; age > stuckAfter {
			stuck = append(stuck, fmt.Sprintf("%s (for %s)", p.Node, roundDur(age)))
		}
	}
	if len(stuck) > 0 {
		fmt.Fprintf(w, "waiting for over %s when the run ended: %s\n", stuckAfter, strings.Join(stuck, ", "))
	}
	fmt.Fprintln(w)
	for _, v := range rep.Verdicts {
		switch {
		case !v.Holds:
			if v.Property == checker.DeadlockProperty {
				fmt.Fprintf(w, "%s: VIOLATED on the observed run: %s\n", v.Property, v.First)
				break
			}
			fmt.Fprintf(w, "%s: VIOLATED on the observed run, %d overlapping entries of %d; first: %s\n",
				v.Property, v.Violations, v.Judged, v.First)
		case v.Judged == 0:
			fmt.Fprintf(w, "%s: nothing to judge, no critical section was entered (inconclusive)\n", v.Property)
		case v.Property == checker.DeadlockProperty:
			fmt.Fprintf(w, "%s: none observed (looked %d times, every %s, for nothing in flight, no timer, no input and a waiting node)\n",
				v.Property, v.Judged, live.MonitorEvery)
		default:
			fmt.Fprintf(w, "%s: holds on %d observed critical sections\n", v.Property, v.Judged)
		}
	}
}

// stuckAfter is how long a request must have been pending at the end of a
// run to be reported.
const stuckAfter = 500 * time.Millisecond

// printCostsBeside prints the figures `coordcheck costs` gives for the
// protocol at this size: an entry's and an uncontended exit's messages.
func printCostsBeside(w io.Writer, e protocols.Entry, values protocols.Values) {
	n, err := values.Int("n", 1, 64)
	if err != nil {
		return
	}
	rows, err := e.Costs(n)
	if err != nil {
		fmt.Fprintf(w, "costs: %v\n", err)
		return
	}
	var sum int
	var parts []string
	for _, r := range rows {
		if r.Metric != "messages per entry" && r.Metric != "messages per exit, no contention" {
			continue
		}
		var m int
		if _, err := fmt.Sscanf(r.Measured, "%d", &m); err != nil || strings.Contains(r.Measured, "..") {
			sum = -1
		} else if sum >= 0 {
			sum += m
		}
		parts = append(parts, fmt.Sprintf("%s: %s (measured %s)", r.Metric, r.Formula, r.Measured))
	}
	fmt.Fprintf(w, "costs (coordcheck costs %s -n %d -protocol %s): %s", e.Family, n, e.Name, strings.Join(parts, "; "))
	if sum >= 0 {
		fmt.Fprintf(w, "; together %d per critical section", sum)
	}
	fmt.Fprintln(w)
}

// roundDur shows a latency to 3 significant figures or so.
func roundDur(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	default:
		return d.Round(time.Microsecond)
	}
}

func printRunHelp(w io.Writer, e protocols.Entry) {
	fmt.Fprint(w, runHelp)
	fmt.Fprintf(w, "\n%s: %s\n\nprotocol parameters:\n", e.Name, e.Doc)
	for _, p := range e.Params {
		if p.Name == "rounds" {
			continue
		}
		fmt.Fprintf(w, "  -%-12s %s (default %s)\n", p.Name, p.Doc, p.Default)
	}
}
