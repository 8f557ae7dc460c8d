package cli

import (
	"errors"
	"fmt"
	"io"
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
		fmt.Fprintf(w, "%s restarted at %.3fs and took %d steps after\n", r.Node, r.At.Seconds(), r.StepsAfter)
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

// reproduce replays the run's trace, up to the step after which the
// violation v was seen, in the checker (the protocol's target under the
// faults that struck) and, when the replay ends in a violation of the
// same property, shrinks it and writes it to path as a counterexample
// file. It says on w what it found: the file, or why the run could not
// be mapped to a schedule of the checker.
func reproduce(w io.Writer, e protocols.Entry, values protocols.Values, rep *live.Report, v *live.Verdict, path string) error {
	cannot := func(why string) error {
		fmt.Fprintf(w, "\nno checker schedule found for this violation: %s\n", why)
		return nil
	}
	k := v.Step
	switch {
	case k == 0:
		return cannot("the observer does not know the step at which it happened")
	case rep.TraceCut && k > len(rep.Trace):
		return cannot(fmt.Sprintf("the trace kept only the first %d of the run's steps", len(rep.Trace)))
	case k > len(rep.Trace):
		k = len(rep.Trace)
	}
	lines := rep.Trace[:k]
	cfg := model.Config{Faults: usedFaults(lines)}
	target, params, err := replayTarget(e, values, cfg)
	if err != nil {
		return cannot(err.Error())
	}
	replayed, err := target.Replay(lines)
	if err != nil {
		var se *checker.StepError
		if errors.As(err, &se) {
			return cannot(fmt.Sprintf("step %d of the run (%s) is not a step the checker can take there", se.Step, se.Line))
		}
		return cannot(err.Error())
	}
	if got := replayed.Trace.Property; got != v.Property {
		if got == "" {
			got = "nothing"
		}
		return cannot(fmt.Sprintf("the run's %d steps replay in the checker, but violate %s there", len(lines), got))
	}
	short := lines
	if len(lines) <= maxShrink {
		short = target.Shrink(lines, v.Property)
		if replayed, err = target.Replay(short); err != nil || replayed.Trace.Property != v.Property {
			short, replayed = lines, mustReplay(target, lines)
		}
	}
	f := counterexamples.FromTrace(e.Name, params, cfg, replayed.Trace)
	if err := writeFileAtomic(path, f.Write); err != nil {
		return fmt.Errorf("writing %s: %v", path, err)
	}
	how := fmt.Sprintf("shrunk to %d steps", len(short))
	if len(lines) > maxShrink {
		how = fmt.Sprintf("too long to shrink here (over %d steps): 'coordcheck check' finds a shortest one", maxShrink)
	}
	fmt.Fprintf(w, "\nthe checker reproduces it: the run's first %d steps replay to the same violation, %s;\ncounterexample written to %s (replay: coordcheck replay %s)\n",
		len(lines), how, path, path)
	return nil
}

func mustReplay(t checker.Target, lines []string) *checker.Replayed {
	r, err := t.Replay(lines)
	if err != nil {
		panic("coordcheck: a replayed trace does not replay again: " + err.Error())
	}
	return r
}

// replayTarget is the entry's target under cfg; a mutual-exclusion
// protocol's rounds are lifted to the most the checker takes, as a live
// run requests for its duration.
func replayTarget(e protocols.Entry, values protocols.Values, cfg model.Config) (checker.Target, map[string]string, error) {
	given := values.Map()
	if e.Family == "mutex" {
		if _, ok := given["rounds"]; ok {
			given["rounds"] = "100"
		}
	}
	t, _, err := e.BuildWith(given, cfg)
	return t, given, err
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
		if err := writeFileAtomic(htmlPath, func(out io.Writer) error { return linearizability.VisualizeRecords(out, recs, htmlTimeout) }); err != nil {
			return fmt.Errorf("writing %s: %v", htmlPath, err)
		}
		fmt.Fprintf(w, "visualization of the history written to %s\n", htmlPath)
	}
	return nil
}
