package viz

import (
	"html/template"
	"io"
	"strconv"

	"github.com/coordcheck/coordcheck/checker"
)

// SearchCharts draws what a report counts: a BFS's states per level, and
// a random or swarm search's failing walks by length.
func SearchCharts(rep *checker.Report) []string {
	var out []string
	if len(rep.Levels) > 0 {
		c := BarChart{Title: "states per BFS level", XLabel: "depth (steps from the initial world)", YLabel: "new states"}
		for _, l := range rep.Levels {
			c.Labels = append(c.Labels, strconv.Itoa(l.Depth))
			c.Values = append(c.Values, float64(l.States))
		}
		out = append(out, c.SVG())
	}
	if len(rep.FailingWalkLengths) > 0 {
		c := BarChart{Title: "failing walks by length", XLabel: "steps to the failure (before shrinking)", YLabel: "walks"}
		for _, l := range rep.FailingWalkLengths {
			c.Labels = append(c.Labels, strconv.Itoa(l.Steps))
			c.Values = append(c.Values, float64(l.Walks))
		}
		out = append(out, c.SVG())
	}
	return out
}

var reportPage = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Verdict}}: {{.Title}}</title>
<style>body { font: 14px/1.4 system-ui, sans-serif; margin: 16px; color: #222; } h1 { font-size: 18px; } .charts { display: flex; flex-wrap: wrap; }{{.CSS}}</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p id="verdict">{{.Verdict}}</p>
<p id="summary">{{.Summary}}</p>
<div class="charts">{{range .Charts}}{{.}}
{{end}}</div>
</body>
</html>
`))

// WriteReportHTML writes a check's report without a counterexample (a
// pass, or an inconclusive search) as one self-contained page: the
// verdict, the summary line and the search's charts.
func WriteReportHTML(w io.Writer, title, verdict, summary string, rep *checker.Report) error {
	var charts []template.HTML
	for _, c := range SearchCharts(rep) {
		charts = append(charts, template.HTML(c))
	}
	return reportPage.Execute(w, map[string]any{"Title": title, "Verdict": verdict, "Summary": summary, "Charts": charts, "CSS": template.CSS(chartCSS)})
}
