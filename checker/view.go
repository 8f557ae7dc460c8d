package checker

import (
	"strings"

	"github.com/coordcheck/coordcheck/model"
)

// View is one world as the pictures show it (package viz, the explorer):
// every node's state and role, the messages in flight, and the rest of
// the world's description.
type View struct {
	Nodes []NodeView `json:"nodes"`
	// Net lists the messages in flight, link by link, each link's in
	// order.
	Net []NetMsg `json:"net"`
	// Notes are the world's other lines (history, partition, faults
	// used), as FormatWorld writes them.
	Notes []string `json:"notes,omitempty"`
}

// NodeView is one node of a View.
type NodeView struct {
	Name   string   `json:"name"`
	State  string   `json:"state"`
	Down   bool     `json:"down,omitempty"`
	Timers []string `json:"timers,omitempty"`
	// Role is "critical section" for a node in its critical section (a
	// mutual-exclusion protocol), "leader" for a node that considers
	// itself the coordinator (an election protocol), "" otherwise.
	Role string `json:"role,omitempty"`
}

// NetMsg is one message in flight.
type NetMsg struct {
	From string `json:"from"`
	To   string `json:"to"`
	Msg  string `json:"msg"`
}

// The roles a NodeView can show.
const (
	RoleCS     = "critical section"
	RoleLeader = "leader"
)

// PropertyState is what a world says of one property.
type PropertyState struct {
	Name string `json:"name"`
	// Status is "holds", "violated", "unknown" (an invariant that could
	// not be judged, or a terminal invariant before the end), or
	// "cycles" (a liveness property, judged on the state graph's cycles,
	// not on one world).
	Status string `json:"status"`
	Detail string `json:"detail,omitempty"`
}

// Exploration is one execution stepped by hand (the explorer) or along a
// counterexample's lines (the sequence diagrams): a Simulation that also
// shows its world.
type Exploration interface {
	Simulation
	// View shows the current world.
	View() View
	// Properties judges every property on the current world, in checking
	// order.
	Properties() []PropertyState
	// TakeLine applies the enabled action whose line is line (blanks
	// folded, as in counterexample files); false when none is.
	TakeLine(line string) bool
	// Trace is the path taken so far, with what each step did.
	Trace() *Trace
}

// Explorable is implemented by the targets that can be explored: every
// Spec.
type Explorable interface {
	Explore() Exploration
}

var _ Explorable = (*Spec[int, int])(nil)

// Explore starts an exploration of sp at its initial world.
func (sp *Spec[S, M]) Explore() Exploration {
	return &exploration[S, M]{simulation: sp.Simulate().(*simulation[S, M])}
}

// exploration is a simulation that records its steps, as a trace does.
type exploration[S, M any] struct {
	*simulation[S, M]
	steps []Step
}

func (e *exploration[S, M]) Take(i int) {
	a := e.acts[i]
	line := e.sys.FormatAction(e.cur, a)
	e.simulation.Take(i)
	st := Step{Action: line, Node: a.Node.String(), State: e.sys.FormatState(a.Node, e.cur.Nodes[a.Node]),
		Sends: e.sys.FormatSends(e.cur, a.Node)}
	if outs := e.sys.LastOut().Outputs(); len(outs) > 0 {
		st.Outputs = append([]string(nil), outs...)
	}
	e.steps = append(e.steps, st)
}

func (e *exploration[S, M]) TakeLine(line string) bool {
	want := model.NormalizeAction(line)
	for i, a := range e.acts {
		if e.sys.FormatAction(e.cur, a) == want {
			e.Take(i)
			return true
		}
	}
	return false
}

// Trace is the path taken so far, as a counterexample's trace: its
// Property is the first property the current world violates ("" when
// none is).
func (e *exploration[S, M]) Trace() *Trace {
	prop, why := e.Violation()
	return &Trace{Property: prop, Detail: why, Steps: append([]Step(nil), e.steps...), Final: e.sys.FormatWorld(e.cur),
		History: append([]model.Record(nil), e.cur.History...)}
}

func (e *exploration[S, M]) View() View {
	s := e.simulation
	sys, w := s.sys, s.cur
	var v View
	cs, _ := any(sys.P).(interface{ InCS(model.NodeID, S) bool })
	el, _ := any(sys.P).(interface {
		Leader(model.NodeID, S) (model.NodeID, bool)
	})
	for i := range w.Nodes {
		id := model.NodeID(i)
		n := NodeView{Name: id.String(), State: sys.FormatState(id, w.Nodes[i]), Down: w.IsDown(id),
			Timers: sys.ArmedTimers(w, id)}
		switch {
		case n.Down:
		case cs != nil && cs.InCS(id, w.Nodes[i]):
			n.Role = RoleCS
		case el != nil:
			if l, ok := el.Leader(id, w.Nodes[i]); ok && l == id {
				n.Role = RoleLeader
			}
		}
		v.Nodes = append(v.Nodes, n)
	}
	for i := range w.Net {
		e := &w.Net[i]
		v.Net = append(v.Net, NetMsg{From: e.From.String(), To: e.To.String(), Msg: sys.FormatEnvelope(e)})
	}
	for _, line := range sys.FormatWorld(w)[len(w.Nodes):] {
		if !strings.HasPrefix(line, "net  ") {
			v.Notes = append(v.Notes, line)
		}
	}
	return v
}

func (e *exploration[S, M]) Properties() []PropertyState {
	s := e.simulation
	sp, w := s.sp, s.cur
	var out []PropertyState
	for i := range sp.Invariants {
		inv := &sp.Invariants[i]
		ps := PropertyState{Name: inv.Name, Status: "holds"}
		one := &Spec[S, M]{System: sp.System, Invariants: sp.Invariants[i : i+1]}
		switch prop, why, unknown := one.judge(w, s.acts); {
		case inv.Terminal && len(s.acts) > 0:
			ps.Status, ps.Detail = "unknown", "judged when no action is enabled"
		case prop != "":
			ps.Status, ps.Detail = "violated", why
		case unknown != "":
			ps.Status, ps.Detail = "unknown", strings.TrimPrefix(unknown, inv.Name+": ")
		}
		out = append(out, ps)
	}
	if sp.Deadlock {
		ps := PropertyState{Name: DeadlockProperty, Status: "holds"}
		if len(s.acts) == 0 {
			if why := sp.deadlock(w); why != "" {
				ps.Status, ps.Detail = "violated", why
			}
		}
		out = append(out, ps)
	}
	for _, l := range sp.Liveness {
		ps := PropertyState{Name: l.Name, Status: "cycles", Detail: "judged on the state graph's cycles (coordcheck check)"}
		if len(s.acts) == 0 {
			one := &Spec[S, M]{System: sp.System, Liveness: []Liveness[S, M]{l}}
			ps.Status, ps.Detail = "holds", "no process waits at this end"
			if prop, why := one.pendingAtEnd(w); prop != "" {
				ps.Status, ps.Detail = "violated", why
			}
		}
		out = append(out, ps)
	}
	return out
}
