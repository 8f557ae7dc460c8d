package viz

import (
	"html/template"
	"io"
	"slices"
	"strconv"
	"strings"
)

// CostRow is one measured figure beside the notes' formula for it.
type CostRow struct {
	Metric            string
	Measured, Formula float64
}

// CostSample is what one protocol measured for N processes.
type CostSample struct {
	Protocol string
	N        int
	Rows     []CostRow
}

// ParseCost reads the numbers of a costs table's row: the measured
// figure's leading number ("8 (p0 starts: ...)") and the formula's value
// after its last " = " ("N(N-1)/2 = 6"); ok is false when either is
// missing.
func ParseCost(measured, formula string) (m, f float64, ok bool) {
	lead := func(s string) (float64, bool) {
		s = strings.TrimSpace(s)
		end := 0
		for end < len(s) && (s[end] >= '0' && s[end] <= '9' || s[end] == '.') {
			end++
		}
		v, err := strconv.ParseFloat(s[:end], 64)
		return v, err == nil
	}
	m, ok1 := lead(measured)
	i := strings.LastIndex(formula, " = ")
	if i < 0 {
		return 0, 0, false
	}
	f, ok2 := lead(formula[i+3:])
	return m, f, ok1 && ok2
}

// CostCharts draws a chart per metric: for each protocol that reports
// it, the measured figure against N and the notes' formula beside it.
func CostCharts(samples []CostSample) []LineChart {
	var charts []LineChart
	index := map[string]int{}
	for _, sm := range samples {
		for _, r := range sm.Rows {
			ci, ok := index[r.Metric]
			if !ok {
				ci = len(charts)
				index[r.Metric] = ci
				charts = append(charts, LineChart{Title: r.Metric, XLabel: "N (processes)", YLabel: yLabel(r.Metric)})
			}
			c := &charts[ci]
			for _, kind := range []string{"measured", "formula"} {
				v := r.Measured
				if kind == "formula" {
					v = r.Formula
				}
				si := -1
				for i, se := range c.Series {
					if se.Name == sm.Protocol && se.Kind == kind {
						si = i
					}
				}
				if si < 0 {
					si = len(c.Series)
					c.Series = append(c.Series, Series{Name: sm.Protocol, Kind: kind})
				}
				c.Series[si].X = append(c.Series[si].X, float64(sm.N))
				c.Series[si].Y = append(c.Series[si].Y, v)
			}
		}
	}
	var names []string
	for _, sm := range samples {
		if !slices.Contains(names, sm.Protocol) {
			names = append(names, sm.Protocol)
		}
	}
	for i := range charts {
		charts[i].Names = names
	}
	return charts
}

func yLabel(metric string) string {
	if strings.Contains(metric, "time") || strings.Contains(metric, "delay") {
		return "message latencies"
	}
	return "messages"
}

var costsPage = template.Must(template.New("costs").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>costs of {{.Family}} algorithms</title>
<style>body { font: 14px/1.4 system-ui, sans-serif; margin: 16px; color: #222; } h1 { font-size: 18px; } .charts { display: flex; flex-wrap: wrap; }{{.CSS}}</style>
</head>
<body>
<h1>costs of {{.Family}} algorithms against N</h1>
<p>Measured by running each protocol in synchronous rounds (one round delivers every message in flight: one message latency), for N = {{.From}} to {{.To}}; a dashed line is the notes' formula for the same figure.</p>
<div class="charts">
{{range .Charts}}{{.}}
{{end}}</div>
</body>
</html>
`))

// WriteCostsHTML writes the cost charts of a family as one
// self-contained HTML page.
func WriteCostsHTML(w io.Writer, family string, samples []CostSample) error {
	from, to := 0, 0
	for i, s := range samples {
		if i == 0 || s.N < from {
			from = s.N
		}
		to = max(to, s.N)
	}
	var charts []template.HTML
	for _, c := range CostCharts(samples) {
		charts = append(charts, template.HTML(c.SVG()))
	}
	return costsPage.Execute(w, map[string]any{"Family": family, "From": from, "To": to, "Charts": charts, "CSS": template.CSS(chartCSS)})
}
