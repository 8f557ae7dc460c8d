package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/coordcheck/coordcheck/internal/clip"
	"github.com/coordcheck/coordcheck/protocols"
	"github.com/coordcheck/coordcheck/viz"
)

// costsJSON is one protocol's table in `costs -json`.
type costsJSON struct {
	Protocol string              `json:"protocol"`
	N        int                 `json:"n"`
	Rows     []protocols.CostRow `json:"rows"`
}

const costsHelp = `usage: coordcheck costs FAMILY [-n N] [-protocol NAME] [-json] [-html FILE]

Measures each protocol's message counts and delays by running it, beside the notes' formulas.

flags:
  -n N           number of processes, 2 to 16 (default 5)
  -protocol P    only this protocol of the family
  -json          print JSON
  -html FILE     also draw every figure against N, from 3 to -n (at least 8),
                 beside the formula's curve: one self-contained HTML file
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
	html := fs.String("html", "", "draw the figures against N into this HTML file")
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
	if *html != "" {
		if err := checkWritable("html", *html); err != nil {
			return 0, err
		}
		samples, err := costSamples(family, *only, max(*n, 8))
		if err != nil {
			return 0, err
		}
		if err := writeFileAtomic(*html, func(w io.Writer) error { return viz.WriteCostsHTML(w, family, samples) }); err != nil {
			return 0, usageError("writing %s: %v", *html, err)
		}
		defer fmt.Fprintf(stdout, "plots of the %s costs against N written to %s\n", family, *html)
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

// costSamples measures the family's protocols (or only one) for N = 3 to
// top, keeping the figures that have a number and a formula's value.
func costSamples(family, only string, top int) ([]viz.CostSample, error) {
	var samples []viz.CostSample
	for _, e := range protocols.All() {
		if e.Family != family || e.Costs == nil || (only != "" && e.Name != only) {
			continue
		}
		for n := 3; n <= top; n++ {
			rows, err := e.Costs(n)
			if err != nil {
				return nil, usageError("costs %s -n %d: %v", e.Name, n, err)
			}
			sm := viz.CostSample{Protocol: e.Name, N: n}
			for _, r := range rows {
				if m, f, ok := viz.ParseCost(r.Measured, r.Formula); ok {
					sm.Rows = append(sm.Rows, viz.CostRow{Metric: r.Metric, Measured: m, Formula: f})
				}
			}
			samples = append(samples, sm)
		}
	}
	return samples, nil
}
