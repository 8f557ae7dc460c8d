package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/coordcheck/coordcheck/checker"
)

// printTrace renders a counterexample (see checker.Trace.String).
func printTrace(w io.Writer, tr *checker.Trace) { fmt.Fprint(w, tr.String()) }

func printSummary(w io.Writer, rep *checker.Report, exhaust bool) {
	if rep.Walks > 0 {
		fmt.Fprintf(w, "walks %s  steps %s  %s steps/s  distinct states seen %s  max depth %d  time %.3fs  seed %d\n",
			group(rep.Walks), group(rep.Transitions), group(uint64(rep.StepsPerSecond)), group(rep.States),
			rep.Depth, rep.Elapsed.Seconds(), rep.Seed)
	} else {
		fmt.Fprintf(w, "states %s  transitions %s  depth %d  time %.3fs  %s states/s  memory %.1f MB (%.1f B/state)\n",
			group(rep.States), group(rep.Transitions), rep.Depth, rep.Elapsed.Seconds(),
			group(uint64(rep.StatesPerSecond)), float64(max(rep.PeakBytes, rep.TableBytes+rep.FrontierBytes))/(1<<20), rep.BytesPerState())
	}
	if rep.SpilledBytes > 0 {
		fmt.Fprintf(w, "frontier spilled to disk: %.1f MB written and read back (-spill)\n", float64(rep.SpilledBytes)/(1<<20))
	}
	if rep.Slept > 0 {
		fmt.Fprintf(w, "sleep sets: %s more transitions left out, each into a state already generated (-sleep=false takes them)\n", group(rep.Slept))
	}
	if rep.POR {
		fmt.Fprintln(w, "partial-order reduction: one persistent set of actions expanded per state (every terminal state kept, at its shortest depth)")
	}
	if rep.Symmetry > 0 {
		fmt.Fprintf(w, "symmetry: %d interchangeable nodes (one state stored per renaming of them)\n", rep.Symmetry)
	}
	switch rep.Liveness {
	case "acyclic":
		fmt.Fprintln(w, "liveness: the state graph has no cycle, so only a terminal state can leave a process waiting; none was kept")
	case "graph":
		fmt.Fprintln(w, "liveness: fair cycles sought in the state graph, kept in memory")
	}
	printCoverage(w, rep)
	for _, c := range rep.ViolationCounts {
		switch {
		case exhaust && rep.Walks > 0:
			fmt.Fprintf(w, "failing walks: %s %s\n", group(c.States), c.Property)
		case exhaust:
			fmt.Fprintf(w, "violating states: %s %s\n", group(c.States), c.Property)
		}
	}
	switch rep.Verdict {
	case checker.Pass:
		warned := ""
		if len(rep.Warnings) > 0 {
			warned = fmt.Sprintf(", with %d warning(s) above (-strict makes that inconclusive)", len(rep.Warnings))
		}
		fmt.Fprintf(w, "verdict: pass: %s hold in all %s reachable states%s\n", strings.Join(rep.Properties, ", "), group(rep.States), warned)
	case checker.Violated:
		fmt.Fprintf(w, "verdict: violated: %s\n", rep.Counterexample.Property)
	case checker.Inconclusive:
		if strings.HasPrefix(rep.Bound, strictBound) {
			fmt.Fprintf(w, "verdict: inconclusive (-strict): no violation in all %s reachable states, but the pass may be vacuous (warnings above)\n", group(rep.States))
			break
		}
		if rep.Walks > 0 || rep.Seed != 0 {
			if !strings.HasPrefix(rep.Bound, "walks ") {
				fmt.Fprintf(w, "verdict: inconclusive: bound reached (%s) after %s walks; no violation found so far (random search proves nothing)\n", rep.Bound, group(rep.Walks))
				break
			}
			fmt.Fprintf(w, "verdict: inconclusive: no violation in %s (random search proves nothing)\n", rep.Bound)
			break
		}
		fmt.Fprintf(w, "verdict: inconclusive: bound reached (%s) after %s states; no violation found so far\n", rep.Bound, group(rep.States))
	}
}

// group writes n with thousands separators: 1,470,924.
func group(n uint64) string {
	s := strconv.FormatUint(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
