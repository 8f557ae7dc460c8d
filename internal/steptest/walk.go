package steptest

import (
	"testing"

	"github.com/coordcheck/coordcheck/model"
)

// Walk drives a system by hand from its initial world, one action at a
// time, each named by its text in a trace ("deliver p1->p2 VOTEREQ(e2)").
type Walk[S, M any] struct {
	t   *testing.T
	sys *model.System[S, M]
	// W is the world reached.
	W *model.World[S, M]
}

// NewWalk starts a walk of sys at its initial world.
func NewWalk[S, M any](t *testing.T, sys *model.System[S, M]) *Walk[S, M] {
	return &Walk[S, M]{t: t, sys: sys, W: sys.Init()}
}

// Do takes the enabled action written text; the test fails when none is.
func (k *Walk[S, M]) Do(text string) {
	k.t.Helper()
	for _, a := range k.sys.Actions(k.W, nil) {
		if k.sys.FormatAction(k.W, a) == text {
			next := &model.World[S, M]{}
			k.sys.Apply(k.W, a, next)
			k.W = next
			return
		}
	}
	k.t.Fatalf("%s is not enabled", text)
}

// Enabled reports whether an action written text is enabled.
func (k *Walk[S, M]) Enabled(text string) bool {
	for _, a := range k.sys.Actions(k.W, nil) {
		if k.sys.FormatAction(k.W, a) == text {
			return true
		}
	}
	return false
}
