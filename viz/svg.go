package viz

import (
	"fmt"
	"html"
	"strings"
)

// svgWriter builds SVG text; every number is written with %d or %.1f, so
// the same drawing is the same bytes.
type svgWriter struct{ strings.Builder }

func (s *svgWriter) f(format string, args ...any) { fmt.Fprintf(&s.Builder, format, args...) }

// esc escapes text for SVG and HTML.
func esc(s string) string { return html.EscapeString(s) }

// clipText cuts s to n runes, with an ellipsis.
func clipText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func laneX(i int) int { return labelW + i*laneW + laneW/2 }
func rowY(r int) int  { return headH + r*rowH + rowH/2 }

// draw renders the layout as the diagram's SVG. prop is the violated
// property ("" for none), loop the first step of the lasso's cycle (-1
// for none).
func (l layout) draw(actions []string, loop int, prop string) string {
	var s svgWriter
	width := labelW + len(l.Lanes)*laneW + tailW
	height := headH + (l.Rows+2)*rowH + 8
	s.f(`<svg class="seq" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" data-lanes="%d" data-steps="%d">`+"\n",
		width, height, width, height, len(l.Lanes), l.Rows)
	s.f(`<defs><marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" class="head"/></marker></defs>` + "\n")
	// Rows: the initial world, each step, and the end.
	for r := 0; r <= l.Rows; r++ {
		cls := "row"
		if r%2 == 1 {
			cls += " odd"
		}
		if loop >= 0 && r > loop {
			cls += " cycle"
		}
		if r == l.Rows && prop != "" {
			cls += " violated"
		}
		label := "initial world"
		if r > 0 {
			label = actions[r-1]
		}
		s.f(`<g class="%s" id="row-%d" data-step="%d"><rect x="0" y="%d" width="%d" height="%d"/>`, cls, r, r, rowY(r)-rowH/2, width, rowH)
		s.f(`<text class="num" x="8" y="%d">%d</text><text class="act" x="36" y="%d"><title>%s</title>%s</text></g>`+"\n",
			rowY(r)+4, r, rowY(r)+4, esc(label), esc(clipText(label, 34)))
	}
	// Lanes and their bands.
	for i, name := range l.Lanes {
		x := laneX(i)
		s.f(`<g class="lane" data-node="%s"><line x1="%d" y1="%d" x2="%d" y2="%d"/><rect class="lanehead" x="%d" y="8" width="%d" height="28" rx="4"/><text class="lanename" x="%d" y="27">%s</text></g>`+"\n",
			esc(name), x, headH-16, x, rowY(l.Rows+1), x-40, 80, x, esc(name))
	}
	for _, b := range l.Bands {
		x, y0, y1 := laneX(b.Lane), rowY(b.From), rowY(b.To)
		if b.To > l.Rows {
			y1 = rowY(l.Rows) + rowH/2
		}
		w := 14
		if b.Kind == "down" {
			w = 22
		}
		s.f(`<rect class="band %s" data-node="%s" x="%d" y="%d" width="%d" height="%d" rx="3"><title>%s %s, after step %d to step %d</title></rect>`+"\n",
			b.Kind, esc(l.Lanes[b.Lane]), x-w/2, y0, w, y1-y0, esc(l.Lanes[b.Lane]), bandWords[b.Kind], b.From, b.To-1)
	}
	for _, c := range l.Cuts {
		y := rowY(c.Row)
		s.f(`<g class="cut %s" data-step="%d"><line x1="%d" y1="%d" x2="%d" y2="%d"/><text x="%d" y="%d">%s</text></g>`+"\n",
			c.Kind, c.Row, laneX(0)-30, y, laneX(len(l.Lanes)-1)+30, y, laneX(len(l.Lanes)-1)+36, y+4, esc(c.Text))
	}
	for _, a := range l.Arrows {
		s.arrow(a, l.Lanes, l.Rows)
	}
	for _, m := range l.Marks {
		s.mark(m)
	}
	if loop >= 0 && loop < l.Rows {
		x := labelW + len(l.Lanes)*laneW + 24
		y0, y1 := rowY(loop+1)-rowH/2+3, rowY(l.Rows)+rowH/2-3
		s.f(`<g class="loop" data-loop="%d"><path d="M%d,%d h10 V%d h-10"/><text x="%d" y="%d">cycle: steps %d-%d</text><text x="%d" y="%d">repeat forever</text></g>`+"\n",
			loop+1, x, y0, y1, x+16, (y0+y1)/2-4, loop+1, l.Rows, x+16, (y0+y1)/2+12)
	}
	s.f("</svg>")
	return s.String()
}

var bandWords = map[string]string{"cs": "in the critical section", "leader": "leader", "down": "down"}

// arrow draws one message. A message to self is a loop to the right of
// its lane; a lost one ends in a cross half-way; one still in flight runs
// to the bottom.
func (s *svgWriter) arrow(a arrow, lanes []string, rows int) {
	x0, y0 := laneX(a.From), rowY(a.Sent)
	x1, y1 := laneX(a.To), rowY(a.Fate)
	var fate string
	step := a.Fate
	switch a.Kind {
	case msgDelivered:
		fate = fmt.Sprintf("delivered at step %d", a.Fate)
	case msgReordered:
		fate = fmt.Sprintf("delivered at step %d, before a message sent earlier on its link", a.Fate)
	case msgDup:
		fate = fmt.Sprintf("a duplicate, delivered at step %d", a.Fate)
	case msgLost:
		fate = fmt.Sprintf("lost at step %d", a.Fate)
	default:
		fate, step = "still in flight at the end", rows
	}
	cls := "msg " + a.Kind
	if a.Dup {
		cls += " copy"
	}
	s.f(`<g class="%s" data-step="%d" data-from="%s" data-to="%s" data-sent="%d" data-fate="%d"><title>%s->%s %s: sent at step %d, %s</title>`,
		cls, step, esc(lanes[a.From]), esc(lanes[a.To]), a.Sent, a.Fate, esc(lanes[a.From]), esc(lanes[a.To]), esc(a.Text), a.Sent, fate)
	label := esc(clipText(a.Text, 22))
	switch {
	case a.Kind == msgLost:
		// Half-way to the receiver, then a cross at the step that lost
		// it (half a row down when it was lost as it was sent).
		if a.Fate == a.Sent {
			y1 = y0 + rowH/2
		}
		mx, my := (x0+x1)/2, y1
		if a.From == a.To {
			mx = x0 + 40
		}
		s.f(`<path d="M%d,%d L%d,%d"/><path class="cross" d="M%d,%d l10,10 m0,-10 l-10,10"/><text x="%d" y="%d">%s</text>`,
			x0, y0, mx, my, mx-5, my-5, mx+8, my-4, label)
	case a.From == a.To:
		s.f(`<path d="M%d,%d C%d,%d %d,%d %d,%d" marker-end="url(#head)"/><text x="%d" y="%d">%s</text>`,
			x0, y0, x0+56, y0, x0+56, y1, x1+3, y1, x0+50, (y0+y1)/2+4, label)
	default:
		s.f(`<path d="M%d,%d L%d,%d" marker-end="url(#head)"/><text x="%d" y="%d" text-anchor="middle">%s</text>`,
			x0, y0, x1, y1, (x0+x1)/2, (y0+y1)/2-4, label)
	}
	s.f("</g>\n")
}

// mark draws an event on a lane.
func (s *svgWriter) mark(m mark) {
	x, y := laneX(m.Lane), rowY(m.Row)
	s.f(`<g class="mark %s" data-step="%d">`, m.Kind, m.Row)
	switch m.Kind {
	case "input":
		s.f(`<rect x="%d" y="%d" width="10" height="10"/>`, x-5, y-5)
	case "fire":
		s.f(`<circle cx="%d" cy="%d" r="6"/><path d="M%d,%d v-4 M%d,%d h3"/>`, x, y, x, y, x, y)
	case "crash":
		s.f(`<path d="M%d,%d l14,14 m0,-14 l-14,14"/>`, x-7, y-7)
	case "restart":
		s.f(`<path d="M%d,%d l12,7 l-12,7z"/>`, x-5, y-7)
	case "dup":
		s.f(`<circle cx="%d" cy="%d" r="4"/>`, x, y)
	}
	if m.Text != "" {
		s.f(`<text x="%d" y="%d">%s</text>`, x-10, y+4, esc(clipText(m.Text, 18)))
	}
	s.f("</g>\n")
}
