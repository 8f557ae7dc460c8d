package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/coordcheck/coordcheck/internal/clip"
	"github.com/coordcheck/coordcheck/protocols"
)

// costsJSON is one protocol's table in `costs -json`.
type costsJSON struct {
	Protocol string              `json:"protocol"`
	N        int                 `json:"n"`
	Rows     []protocols.CostRow `json:"rows"`
}

const costsHelp = `usage: coordcheck costs FAMILY [-n N] [-protocol NAME] [-json]

Measures each protocol's message counts and delays by running it, beside the notes' formulas.

flags:
  -n N           number of processes, 2 to 16 (default 5)
  -protocol P    only this protocol of the family
  -json          print JSON
`

func cmdCosts(args []string, stdout io.Writer) (int, error) {
	families := map[string]bool{}
	for _, e := range protocols.All() {
		if e.Costs != nil {
			families[e.Family] = true
		}
	}
	var names []string
	for _, e := range protocols.All() {
		if e.Costs != nil && !contains(names, e.Family) {
			names = append(names, e.Family)
		}
	}
	if len(args) > 0 && hasHelp(args[:1]) {
		fmt.Fprintf(stdout, "%s\nfamilies: %s\n", costsHelp, strings.Join(names, ", "))
		return 0, nil
	}
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return 0, usageError("costs needs a family (valid: %s)", strings.Join(names, ", "))
	}
	family := args[0]
	if !families[family] {
		return 0, usageError("unknown family %s (valid: %s)", clip.Quote(family), strings.Join(names, ", "))
	}
	fs := flag.NewFlagSet("costs", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	n := fs.Int("n", 5, "number of processes")
	asJSON := fs.Bool("json", false, "print JSON")
	only := fs.String("protocol", "", "only this protocol")
	if err := fs.Parse(args[1:]); err != nil {
		if err == flag.ErrHelp {
			fmt.Fprintf(stdout, "%s\nfamilies: %s\n", costsHelp, strings.Join(names, ", "))
			return 0, nil
		}
		return 0, usageError("costs: %s", flagErr(err))
	}
	if *n < 2 || *n > 16 {
		return 0, usageError("costs: -n %d: want 2 to 16", *n)
	}
	var tables []costsJSON
	for _, e := range protocols.All() {
		if e.Family != family || e.Costs == nil || (*only != "" && e.Name != *only) {
			continue
		}
		rows, err := e.Costs(*n)
		if err != nil {
			return 0, usageError("costs %s -n %d: %v", e.Name, *n, err)
		}
		tables = append(tables, costsJSON{e.Name, *n, rows})
	}
	if len(tables) == 0 {
		return 0, usageError("costs: no protocol %s in family %s", clip.Quote(*only), family)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return 0, enc.Encode(tables)
	}
	fmt.Fprintf(stdout, "costs of %s algorithms, N=%d: measured by running each protocol in synchronous rounds\n", family, *n)
	fmt.Fprintln(stdout, "(one round delivers every message in flight: one message latency)")
	// Columns as wide as their widest cell (at least the mutex tables' widths).
	wm, wv, wf := 46, 9, 42
	for _, t := range tables {
		for _, r := range t.Rows {
			wm, wv, wf = max(wm, len(r.Metric)), max(wv, len(r.Measured)), max(wf, len(r.Formula))
		}
	}
	for _, t := range tables {
		fmt.Fprintf(stdout, "\n%s\n", t.Protocol)
		fmt.Fprintf(stdout, "  %-*s %-*s %-*s %s\n", wm, "metric", wv, "measured", wf, "notes", "")
		for _, r := range t.Rows {
			mark := "ok"
			if !r.Matches {
				mark = "differs: " + r.Note
			}
			fmt.Fprintf(stdout, "  %-*s %-*s %-*s %s\n", wm, r.Metric, wv, r.Measured, wf, r.Formula, mark)
		}
	}
	return 0, nil
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
