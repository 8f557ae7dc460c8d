package viz

import (
	"math"
	"slices"
	"strconv"
)

// Series is one line of a LineChart: its points, in increasing X.
type Series struct {
	// Name is the algorithm (or what else the line stands for).
	Name string
	// Kind is "measured" (a solid line with points) or "formula" (a
	// dashed line in the same colour as its measured twin).
	Kind string
	X, Y []float64
}

// LineChart is a small plot of Y against X, drawn as inline SVG.
type LineChart struct {
	Title, XLabel, YLabel string
	Series                []Series
	// Names, when set, fixes the colours: the i-th name gets the i-th
	// colour, so that an algorithm has one colour in every chart.
	Names []string
}

// palette colours the series by name, in the order the names first come.
var palette = []string{"#1f5fa8", "#c0392b", "#2e8b57", "#8e44ad", "#d2691e", "#17becf", "#7f7f7f", "#b8860b"}

// chart geometry
const (
	chartW, chartH         = 460, 260
	padL, padR, padT, padB = 52, 150, 30, 40
)

// num writes a number for SVG: an integer without decimals, else one.
func num(v float64) string {
	if v == math.Trunc(v) {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// ticks chooses about five round tick values from 0 to at least hi.
func ticks(hi float64) []float64 {
	if hi <= 0 {
		hi = 1
	}
	step := math.Pow(10, math.Floor(math.Log10(hi/5)))
	for _, m := range []float64{1, 2, 5, 10} {
		if hi/(step*m) <= 6 {
			step *= m
			break
		}
	}
	var ts []float64
	for v := 0.0; v < hi+step; v += step {
		ts = append(ts, v)
		if v >= hi {
			break
		}
	}
	return ts
}

// SVG draws the chart. Each series is a <g class="series KIND"
// data-name="NAME">, so that tests and styles can find it.
func (c LineChart) SVG() string {
	var s svgWriter
	xmin, xmax, ymax := math.Inf(1), math.Inf(-1), 0.0
	for _, se := range c.Series {
		for i := range se.X {
			xmin, xmax, ymax = math.Min(xmin, se.X[i]), math.Max(xmax, se.X[i]), math.Max(ymax, se.Y[i])
		}
	}
	if math.IsInf(xmin, 0) {
		xmin, xmax = 0, 1
	}
	if xmax == xmin {
		xmax = xmin + 1
	}
	yt := ticks(ymax)
	ytop := yt[len(yt)-1]
	pw, ph := float64(chartW-padL-padR), float64(chartH-padT-padB)
	px := func(x float64) float64 { return float64(padL) + (x-xmin)/(xmax-xmin)*pw }
	py := func(y float64) float64 { return float64(padT) + ph - y/ytop*ph }
	s.f(`<svg class="chart line" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" data-series="%d">`+"\n", chartW, chartH, chartW, chartH, len(c.Series))
	s.f(`<text class="title" x="%d" y="18">%s</text>`+"\n", padL, esc(c.Title))
	for _, y := range yt {
		s.f(`<line class="grid" x1="%d" y1="%.1f" x2="%d" y2="%.1f"/><text class="ytick" x="%d" y="%.1f">%s</text>`+"\n", padL, py(y), chartW-padR, py(y), padL-6, py(y)+4, num(y))
	}
	for x := math.Ceil(xmin); x <= xmax; x++ {
		s.f(`<text class="xtick" x="%.1f" y="%d">%s</text>`+"\n", px(x), chartH-padB+16, num(x))
	}
	s.f(`<text class="xlabel" x="%.1f" y="%d">%s</text>`+"\n", float64(padL)+pw/2, chartH-6, esc(c.XLabel))
	s.f(`<text class="ylabel" transform="translate(14,%.1f) rotate(-90)">%s</text>`+"\n", float64(padT)+ph/2, esc(c.YLabel))
	s.f(`<path class="axis" d="M%d,%d V%.1f H%d"/>`+"\n", padL, padT, float64(padT)+ph, chartW-padR)
	colour := map[string]string{}
	for i, n := range c.Names {
		colour[n] = palette[i%len(palette)]
	}
	var names []string
	for _, se := range c.Series {
		if !slices.Contains(names, se.Name) {
			names = append(names, se.Name)
		}
		if _, ok := colour[se.Name]; !ok {
			colour[se.Name] = palette[len(colour)%len(palette)]
		}
	}
	for _, se := range c.Series {
		s.f(`<g class="series %s" data-name="%s" style="stroke:%s;fill:%s"><title>%s (%s)</title><path d="`, se.Kind, esc(se.Name), colour[se.Name], colour[se.Name], esc(se.Name), se.Kind)
		for i := range se.X {
			cmd := "L"
			if i == 0 {
				cmd = "M"
			}
			s.f("%s%.1f,%.1f ", cmd, px(se.X[i]), py(se.Y[i]))
		}
		s.f(`"/>`)
		if se.Kind != "formula" {
			for i := range se.X {
				s.f(`<circle cx="%.1f" cy="%.1f" r="3"><title>%s: N=%s, %s</title></circle>`, px(se.X[i]), py(se.Y[i]), esc(se.Name), num(se.X[i]), num(se.Y[i]))
			}
		}
		s.f("</g>\n")
	}
	for i, n := range names {
		y := padT + 10 + i*18
		s.f(`<g class="key" style="stroke:%s;fill:%s"><line x1="%d" y1="%d" x2="%d" y2="%d"/><text x="%d" y="%d">%s</text></g>`+"\n",
			colour[n], colour[n], chartW-padR+12, y, chartW-padR+34, y, chartW-padR+40, y+4, esc(n))
	}
	y := padT + 10 + len(names)*18 + 6
	s.f(`<g class="key"><line x1="%d" y1="%d" x2="%d" y2="%d"/><text x="%d" y="%d">measured</text><line class="dashed" x1="%d" y1="%d" x2="%d" y2="%d"/><text x="%d" y="%d">notes' formula</text></g>`+"\n",
		chartW-padR+12, y, chartW-padR+34, y, chartW-padR+40, y+4, chartW-padR+12, y+18, chartW-padR+34, y+18, chartW-padR+40, y+22)
	s.f("</svg>")
	return s.String()
}

// BarChart is a small bar chart: a bar per label.
type BarChart struct {
	Title, XLabel, YLabel string
	Labels                []string
	Values                []float64
}

// SVG draws the bar chart; each bar is a <rect class="bar" data-label=..
// data-value=..>.
func (c BarChart) SVG() string {
	var s svgWriter
	w := max(chartW-padR+40, padL+20+len(c.Labels)*14)
	ymax := 0.0
	for _, v := range c.Values {
		ymax = math.Max(ymax, v)
	}
	yt := ticks(ymax)
	ytop := yt[len(yt)-1]
	pw, ph := float64(w-padL-20), float64(chartH-padT-padB)
	py := func(y float64) float64 { return float64(padT) + ph - y/ytop*ph }
	s.f(`<svg class="chart bars" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" data-bars="%d">`+"\n", w, chartH, w, chartH, len(c.Values))
	s.f(`<text class="title" x="%d" y="18">%s</text>`+"\n", padL, esc(c.Title))
	for _, y := range yt {
		s.f(`<line class="grid" x1="%d" y1="%.1f" x2="%d" y2="%.1f"/><text class="ytick" x="%d" y="%.1f">%s</text>`+"\n", padL, py(y), w-20, py(y), padL-6, py(y)+4, num(y))
	}
	bw := pw / math.Max(1, float64(len(c.Values)))
	every := max(1, (len(c.Labels)+11)/12)
	for i, v := range c.Values {
		x := float64(padL) + float64(i)*bw
		s.f(`<rect class="bar" data-label="%s" data-value="%s" x="%.1f" y="%.1f" width="%.1f" height="%.1f"><title>%s: %s</title></rect>`+"\n",
			esc(c.Labels[i]), num(v), x+1, py(v), math.Max(1, bw-2), py(0)-py(v), esc(c.Labels[i]), num(v))
		if i%every == 0 {
			s.f(`<text class="xtick" x="%.1f" y="%d">%s</text>`+"\n", x+bw/2, chartH-padB+16, esc(c.Labels[i]))
		}
	}
	s.f(`<text class="xlabel" x="%.1f" y="%d">%s</text>`+"\n", float64(padL)+pw/2, chartH-6, esc(c.XLabel))
	s.f(`<text class="ylabel" transform="translate(14,%.1f) rotate(-90)">%s</text>`+"\n", float64(padT)+ph/2, esc(c.YLabel))
	s.f(`<path class="axis" d="M%d,%d V%.1f H%d"/>`+"\n", padL, padT, float64(padT)+ph, w-20)
	s.f("</svg>")
	return s.String()
}

// chartCSS styles the charts (in every page that shows one).
const chartCSS = `
svg.chart { font: 11px system-ui, sans-serif; background: #fff; border: 1px solid #ddd; margin: 6px 10px 6px 0; }
svg.chart .title { font-size: 13px; font-weight: bold; fill: #222; }
svg.chart .grid { stroke: #eee; }
svg.chart .axis { stroke: #888; fill: none; }
svg.chart .ytick { text-anchor: end; fill: #555; }
svg.chart .xtick, svg.chart .xlabel { text-anchor: middle; fill: #555; }
svg.chart .ylabel { text-anchor: middle; fill: #555; }
svg.chart .series path { fill: none; stroke-width: 2; }
svg.chart .series.formula path { stroke-dasharray: 6 4; stroke-width: 1.5; }
svg.chart .key line { stroke-width: 2; }
svg.chart .key text { stroke: none; fill: #333; }
svg.chart .key line.dashed { stroke-dasharray: 6 4; stroke: #555; }
svg.chart .key:last-child line { stroke: #555; }
svg.chart .bar { fill: #1f5fa8; }
`
