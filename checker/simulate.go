package checker

import "github.com/coordcheck/coordcheck/model"

// Simulation is one execution of a target stepped from outside the
// checker, by a driver that chooses every action (rapidcheck draws them
// with rapid): it starts at the initial world.
type Simulation interface {
	// Enabled lists the actions enabled in the current world, as lines.
	Enabled() []string
	// Take applies the i-th action of the last Enabled list.
	Take(i int)
	// Violation names the first property the current world violates, and
	// why; "" when every property holds.
	Violation() (prop, why string)
}

// Simulate starts a simulation of sp at its initial world.
func (sp *Spec[S, M]) Simulate() Simulation {
	sys := sp.System.Clone()
	s := &simulation[S, M]{sp: sp, sys: sys, cur: sys.Init(), next: &model.World[S, M]{}}
	s.acts = sys.Actions(s.cur, nil)
	return s
}

type simulation[S, M any] struct {
	sp        *Spec[S, M]
	sys       *model.System[S, M]
	cur, next *model.World[S, M]
	acts      []model.Action
}

func (s *simulation[S, M]) Enabled() []string {
	names := make([]string, len(s.acts))
	for i, a := range s.acts {
		names[i] = s.sys.FormatAction(s.cur, a)
	}
	return names
}

func (s *simulation[S, M]) Take(i int) {
	s.sys.Apply(s.cur, s.acts[i], s.next)
	s.cur, s.next = s.next, s.cur
	s.acts = s.sys.Actions(s.cur, s.acts[:0])
}

func (s *simulation[S, M]) Violation() (string, string) { return s.sp.Violation(s.cur, s.acts) }
