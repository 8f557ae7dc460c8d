package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/counterexamples"
	"github.com/coordcheck/coordcheck/invariants/linearizability"
	"github.com/coordcheck/coordcheck/live"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols"
)

func printRunReport(w io.Writer, e protocols.Entry, values protocols.Values, rep *live.Report) {
	secs := rep.Elapsed.Seconds()
	end := fmt.Sprintf("ran %.2fs", secs)
	if rep.Settled {
		end = fmt.Sprintf("settled after %.3fs (nothing could happen any more)", rep.SettledAt.Seconds())
	}
	fmt.Fprintf(w, "\n%s: %d steps, %d messages sent\n", end, rep.Steps, rep.Sent)
	work := rep.Work
	type column struct {
		title  string
		counts []int
	}
	var cols []column
	if total := rep.TotalEntries(); total > 0 || e.Family == "mutex" {
		cols = append(cols, column{"entries", rep.Entries})
	}
	if work.Multicasts > 0 {
		cols = append(cols, column{"deliveries", work.Deliveries})
	}
	if work.TotalOps() > 0 {
		cols = append(cols, column{"operations", work.Ops})
	}
	if len(cols) > 0 {
		fmt.Fprintf(w, "\n%-6s", "node")
		for _, c := range cols {
			fmt.Fprintf(w, " %11s %13s", c.title, c.title+"/s")
		}
		fmt.Fprintln(w)
		for i := range rep.Nodes {
			fmt.Fprintf(w, "p%-5d", i)
			for _, c := range cols {
				fmt.Fprintf(w, " %11d %13.1f", c.counts[i], float64(c.counts[i])/secs)
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%-6s", "all")
		for _, c := range cols {
			t := 0
			for _, k := range c.counts {
				t += k
			}
			fmt.Fprintf(w, " %11d %13.1f", t, float64(t)/secs)
		}
		fmt.Fprintf(w, "   (over %.2fs)\n", secs)
	}
	latency := func(what string, l []time.Duration) {
		if len(l) > 0 {
			fmt.Fprintf(w, "%s: p50 %s  p90 %s  p99 %s  max %s  (%d)\n", what,
				roundDur(live.Percentile(l, 50)), roundDur(live.Percentile(l, 90)), roundDur(live.Percentile(l, 99)),
				roundDur(l[len(l)-1]), len(l))
		}
	}
	fmt.Fprintln(w)
	latency("request -> enter latency", rep.Latencies)
	latency("multicast -> delivery latency", work.DeliveryLatencies)
	latency("invoke -> return latency", work.OpLatencies)
	latency("election length", work.ElectionTimes)

	fmt.Fprintf(w, "messages: %d sent", rep.Sent)
	per := func(k int, what string) {
		if k > 0 {
			fmt.Fprintf(w, ", %.2f per %s (%d)", float64(rep.Sent)/float64(k), what, k)
		}
	}
	per(rep.TotalEntries(), "critical-section entry")
	per(work.Multicasts, "multicast")
	per(work.Elections, "election")
	per(work.TotalOps(), "client operation")
	fmt.Fprintln(w)
	if e.Costs != nil {
		printCostsBeside(w, e, values)
	}
	if f := rep.Faults; f != (live.FaultCounts{}) {
		fmt.Fprintf(w, "faults: %s\n", f)
	}
	if p := rep.Processes; p.Started > 0 {
		fmt.Fprintf(w, "node processes: %d started (%d nodes, %d restart), %d killed\n", p.Started, rep.Nodes, p.Started-rep.Nodes, p.Killed)
	}
	for _, r := range rep.Rejoins {
		fmt.Fprintf(w, "%s crashed at %.3fs, restarted at %.3fs and took %d steps after\n", r.Node, r.Crashed.Seconds(), r.At.Seconds(), r.StepsAfter)
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
	if len(stuck) > 0 && !rep.Settled {
		fmt.Fprintf(w, "waiting for over %s when the run ended: %s\n", stuckAfter, strings.Join(stuck, ", "))
	}
	fmt.Fprintln(w)
	for _, v := range rep.Verdicts {
		switch {
		case !v.Holds:
			fmt.Fprintf(w, "%s: VIOLATED on the observed run (%d of %d %s); first: %s\n", v.Property, v.Violations, v.Judged, v.Of, v.First)
		case v.Judged == 0 && v.Optional:
			fmt.Fprintf(w, "%s: not judged: %s\n", v.Property, v.Skipped)
		case v.Judged == 0:
			fmt.Fprintf(w, "%s: not judged (inconclusive): %s\n", v.Property, v.Skipped)
		case v.Skipped != "":
			fmt.Fprintf(w, "%s: inconclusive: %s\n", v.Property, v.Skipped)
		case v.Property == checker.DeadlockProperty:
			fmt.Fprintf(w, "%s: none observed (looked %d times, every %s, for nothing in flight, no timer, no input and a waiting node)\n",
				v.Property, v.Judged, live.MonitorEvery)
		default:
			fmt.Fprintf(w, "%s: holds on %d %s\n", v.Property, v.Judged, v.Of)
		}
	}
}

// stuckAfter is how long a request must have been pending at the end of a
// run to be reported.
const stuckAfter = 500 * time.Millisecond

// printCostsBeside prints the message counts `coordcheck costs` gives for
// the protocol at this size. For mutual exclusion: an entry's and an
// uncontended exit's messages, together a critical section's.
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
		if e.Family == "mutex" {
			if r.Metric != "messages per entry" && r.Metric != "messages per exit, no contention" {
				continue
			}
			var m int
			if _, err := fmt.Sscanf(r.Measured, "%d", &m); err != nil || strings.Contains(r.Measured, "..") {
				sum = -1
			} else if sum >= 0 {
				sum += m
			}
		} else if !strings.Contains(r.Metric, "messages") || strings.Contains(r.Metric, "lost") {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s: %s (measured %s)", r.Metric, r.Formula, r.Measured))
	}
	if len(parts) == 0 {
		return
	}
	fmt.Fprintf(w, "costs (coordcheck costs %s -n %d -protocol %s):\n  %s", e.Family, n, e.Name, strings.Join(parts, "\n  "))
	if e.Family == "mutex" && sum >= 0 {
		fmt.Fprintf(w, "\n  together %d per critical section", sum)
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
		if p.Name == "rounds" && e.Family == "mutex" {
			continue
		}
		fmt.Fprintf(w, "  -%-12s %s (default %s)\n", p.Name, p.Doc, p.Default)
	}
}

// maxShrink bounds the trace the checker's shrinker is given: longer ones
// are written as they replayed.
const maxShrink = 200

// runReplay is a run's trace replayed in the checker.
type runReplay struct {
	steps    int    // steps replayed
	unmapped string // why the checker could not follow the run, if it could not
	prop     string // the first property a world of the run violates ("" none)
	why      string
}

// replayRun replays lines, the run's steps, in t's simulation, judging
// every world the run passed through by t's properties, until the first
// violation or a step the checker cannot take.
func replayRun(t checker.Target, lines []string) runReplay {
	sim := t.Simulate()
	var r runReplay
	if r.prop, r.why = sim.Violation(); r.prop != "" {
		return r
	}
	for i, l := range lines {
		want := model.NormalizeAction(l)
		k := -1
		for j, name := range sim.Enabled() {
			if model.NormalizeAction(name) == want {
				k = j
				break
			}
		}
		if k < 0 {
			r.unmapped = fmt.Sprintf("step %d of the run (%s) is not a step the checker can take there", i+1, l)
			return r
		}
		sim.Take(k)
		r.steps = i + 1
		if r.prop, r.why = sim.Violation(); r.prop != "" {
			return r
		}
	}
	return r
}

// judgeRun replays the run's trace in the checker (the protocol's target
// under the faults that struck), so that every world the run passed
// through is judged, not only the snapshots the observer took; says what
// it found, and, when the checker sees a violation (the observer's, or
// one that fell between its snapshots), writes the run's steps up to it,
// shrunk, as a counterexample file at path. It returns 1 when the checker
// finds a violation, 0 otherwise.
func judgeRun(w io.Writer, e protocols.Entry, values protocols.Values, rep *live.Report, path string) (int, error) {
	observed := rep.Violated()
	cfg := model.Config{Faults: usedFaults(rep.Trace)}
	target, params, err := replayTarget(e, values, cfg)
	if err != nil {
		fmt.Fprintf(w, "\nthe checker cannot take this run's configuration (%v)\n", err)
		return 0, nil
	}
	rr := replayRun(target, rep.Trace)
	of := fmt.Sprintf("the run's %d steps", len(rep.Trace))
	if rep.TraceCut {
		of = fmt.Sprintf("the first %d of the run's %d steps (the trace kept no more)", len(rep.Trace), rep.Steps)
	}
	switch {
	case rr.unmapped != "":
		fmt.Fprintf(w, "\nthe checker could not follow the run: %s", rr.unmapped)
		if observed != nil {
			fmt.Fprint(w, "; no checker schedule found for this violation")
		}
		fmt.Fprintln(w)
		return 0, nil
	case rr.prop == "":
		fmt.Fprintf(w, "\nthe checker replayed %s: every world the run passed through satisfies the invariants\n", of)
		if observed != nil {
			fmt.Fprintf(w, "no checker schedule found for the observed violation of %s\n", observed.Property)
		}
		return 0, nil
	}
	fmt.Fprintf(w, "\nthe checker, replaying the run, finds %s violated after step %d: %s\n", rr.prop, rr.steps, rr.why)
	lines := rep.Trace[:rr.steps]
	if _, ok := params["rounds"]; ok && e.LiveTarget != nil {
		// The checker's own target (Build) bounds the rounds: as many
		// as the run's steps take.
		params["rounds"] = strconv.Itoa(roundsOf(lines))
		if target, _, err = e.BuildWith(params, cfg); err != nil {
			return 1, fmt.Errorf("the checker's target for the counterexample: %v", err)
		}
	}
	short := lines
	if len(lines) <= maxShrink {
		short = target.Shrink(lines, rr.prop)
	}
	replayed, err := target.Replay(short)
	if err != nil || replayed.Trace.Property != rr.prop {
		short = lines
		if replayed, err = target.Replay(lines); err != nil {
			return 1, fmt.Errorf("the run's steps do not replay again: %v", err)
		}
	}
	f := counterexamples.FromTrace(e.Name, params, cfg, replayed.Trace)
	if err := writeFileAtomic(path, f.Write); err != nil {
		return 1, fmt.Errorf("writing %s: %v", path, err)
	}
	how := fmt.Sprintf("shrunk to %d steps", len(short))
	if len(lines) > maxShrink {
		how = fmt.Sprintf("too long to shrink here (over %d steps; 'coordcheck check' finds a shortest one)", maxShrink)
	}
	fmt.Fprintf(w, "the run's first %d steps, %s, are a counterexample: written to %s (replay: coordcheck replay %s)\n",
		len(lines), how, path, path)
	return 1, nil
}

// replayTarget is the target the run is judged by (protocols.Entry.LiveBuild)
// under cfg, and the parameters under which its counterexamples replay.
func replayTarget(e protocols.Entry, values protocols.Values, cfg model.Config) (checker.Target, map[string]string, error) {
	t, err := e.LiveBuild(values, cfg)
	return t, values.Map(), err
}

// roundsOf is the most requests one node makes in lines: the rounds under
// which a mutual-exclusion protocol's checker takes those steps.
func roundsOf(lines []string) int {
	reqs := map[string]int{}
	most := 1
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) == 3 && f[0] == "input" && f[2] == "request" {
			reqs[f[1]]++
			most = max(most, reqs[f[1]])
		}
	}
	return most
}

// usedFaults is the fault budget a trace spends: each kind as many times
// as it struck.
func usedFaults(lines []string) model.Faults {
	var f model.Faults
	kinds := map[string]model.FaultKind{"crash": model.Crash, "restart": model.Restart, "drop": model.Drop,
		"dup": model.Dup, "partition": model.Partition}
	for _, l := range lines {
		word, _, _ := strings.Cut(l, " ")
		if k, ok := kinds[word]; ok && f.Budget[k] < 255 {
			f.Budget[k]++
		}
	}
	return f
}

// writeRunHistory writes the observed client history as Jepsen EDN and
// as porcupine's view, as asked.
func writeRunHistory(w io.Writer, rep *live.Report, ednPath, htmlPath string) error {
	if ednPath == "" && htmlPath == "" {
		return nil
	}
	var recs []model.Record
	for _, r := range rep.Outputs {
		recs = append(recs, model.Record{Node: r.Node, Text: r.Text})
	}
	h, err := linearizability.FromRecords(recs)
	if err != nil {
		return fmt.Errorf("the observed history: %v", err)
	}
	if len(h.Ops) == 0 {
		fmt.Fprintln(w, "no client operation was observed, so no history written")
		return nil
	}
	if ednPath != "" {
		if err := writeFileAtomic(ednPath, func(out io.Writer) error { return linearizability.WriteEDN(out, h) }); err != nil {
			return fmt.Errorf("writing %s: %v", ednPath, err)
		}
		fmt.Fprintf(w, "history of %d operations written to %s (judge it again: coordcheck lincheck -model kv %s)\n", len(h.Ops), ednPath, ednPath)
	}
	if htmlPath != "" {
		if err := writeFileAtomic(htmlPath, func(out io.Writer) error { return linearizability.VisualizeRecords(out, recs, runHTMLTimeout) }); err != nil {
			return fmt.Errorf("writing %s: %v", htmlPath, err)
		}
		fmt.Fprintf(w, "visualization of the history written to %s\n", htmlPath)
	}
	return nil
}

// runHTMLTimeout bounds porcupine when it draws the observed history.
const runHTMLTimeout = 30 * time.Second
