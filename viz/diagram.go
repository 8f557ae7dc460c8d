package viz

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"time"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/invariants/linearizability"
)

// Diagram is a counterexample ready to be drawn as a sequence diagram.
type Diagram struct {
	// Title names what was checked: "maekawa n=3 rounds=1 sets=all
	// network=fifo faults=none".
	Title string
	Trace *checker.Trace
	// Views[i] is the world after step i; Views[0] the initial world.
	Views []checker.View
	// History, when set, is porcupine's HTML view of the trace's client
	// history (a linearizability violation), shown inside the page.
	History string
	// Summary and Charts, when set, say how the search that found the
	// trace went (a check's report: see SearchCharts).
	Summary string
	Charts  []string
}

// HistoryTimeout bounds porcupine when it draws the history of a
// linearizability violation.
const HistoryTimeout = 30 * time.Second

// New replays tr on target to see the world after every step, and for a
// linearizability violation draws porcupine's view of the history too.
func New(target checker.Target, title string, tr *checker.Trace) (*Diagram, error) {
	views, err := Views(target, tr)
	if err != nil {
		return nil, err
	}
	d := &Diagram{Title: title, Trace: tr, Views: views}
	if tr.Property == linearizability.PropertyName {
		var b bytes.Buffer
		if err := linearizability.VisualizeTrace(&b, tr.History, HistoryTimeout); err != nil {
			return nil, fmt.Errorf("the history's view: %v", err)
		}
		d.History = b.String()
	}
	return d, nil
}

// Views replays tr's actions on target and returns the world before the
// first step and after each.
func Views(target checker.Target, tr *checker.Trace) ([]checker.View, error) {
	ex, ok := target.(checker.Explorable)
	if !ok {
		return nil, fmt.Errorf("the target cannot be explored")
	}
	e := ex.Explore()
	views := []checker.View{e.View()}
	for i, st := range tr.Steps {
		if !e.TakeLine(st.Action) {
			return nil, fmt.Errorf("step %d: %s is not enabled", i+1, st.Action)
		}
		views = append(views, e.View())
	}
	return views, nil
}

//go:embed diagram.html.tmpl
var diagramTmpl string

//go:embed static/diagram.css
var diagramCSS string

//go:embed diagram.js
var diagramJS string

var pageTmpl = template.Must(template.New("diagram").Parse(diagramTmpl))

// stepView is one step as the side panel shows it.
type stepView struct {
	N       int
	Action  string
	Node    string
	Sends   []string
	Outputs []string
	World   checker.View
	Cycle   bool
}

// WriteHTML writes the diagram as one self-contained HTML page.
func (d *Diagram) WriteHTML(w io.Writer) error {
	tr := d.Trace
	if len(d.Views) != len(tr.Steps)+1 {
		return fmt.Errorf("viz: %d views for %d steps", len(d.Views), len(tr.Steps))
	}
	loop := -1
	if tr.Loop != nil {
		loop = *tr.Loop
	}
	actions := make([]string, len(tr.Steps))
	steps := []stepView{{N: 0, Action: "initial world", World: d.Views[0]}}
	for i, st := range tr.Steps {
		actions[i] = st.Action
		steps = append(steps, stepView{N: i + 1, Action: st.Action, Node: st.Node, Sends: st.Sends, Outputs: st.Outputs,
			World: d.Views[i+1], Cycle: loop >= 0 && i >= loop})
	}
	l := lay(tr, d.Views)
	var charts []template.HTML
	for _, c := range d.Charts {
		charts = append(charts, template.HTML(c))
	}
	data := map[string]any{
		"Title":     d.Title,
		"Property":  tr.Property,
		"Detail":    tr.Detail,
		"Loop":      loop,
		"CycleFrom": loop + 1,
		"Steps":     steps,
		"Last":      len(tr.Steps),
		"SVG":       template.HTML(l.draw(actions, loop, tr.Property)),
		"CSS":       template.CSS(diagramCSS),
		"JS":        template.JS(diagramJS),
		"History":   d.History,
		"Legend":    legend(l),
		"Summary":   d.Summary,
		"Charts":    charts,
		"ChartCSS":  template.CSS(chartCSS),
	}
	return pageTmpl.Execute(w, data)
}

// legend lists the kinds of things the diagram shows, only those present.
func legend(l layout) []string {
	has := map[string]bool{}
	for _, a := range l.Arrows {
		has[a.Kind] = true
	}
	for _, m := range l.Marks {
		has[m.Kind] = true
	}
	for _, b := range l.Bands {
		has[b.Kind] = true
	}
	var out []string
	for _, k := range []string{msgDelivered, msgReordered, msgDup, msgLost, msgInFlight, "input", "fire", "crash", "restart", "dup", "cs", "leader", "down"} {
		if has[k] {
			out = append(out, k)
		}
	}
	return out
}
