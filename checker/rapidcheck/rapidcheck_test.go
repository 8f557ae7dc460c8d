package rapidcheck_test

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/checker/rapidcheck"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	ra "github.com/coordcheck/coordcheck/protocols/ricartagrawala"
)

// eager is Ricart-Agrawala with a classic bug: it replies to every request
// at once, before comparing timestamps, so two processes can both collect
// all replies.
type eager struct{ *ra.Protocol }

func (p eager) Step(self model.NodeID, s ra.State, ev model.Event[ra.Msg], out *model.Out[ra.Msg]) ra.State {
	if ev.Kind == model.Receive && ev.Msg.Kind == ra.Request {
		s.Clock = max(s.Clock, ev.Msg.TS)
		out.Send(ev.From, ra.Msg{Kind: ra.Reply}) // BUG: no deferral
		return s
	}
	return p.Protocol.Step(self, s, ev, out)
}

func spec(p interface {
	model.Protocol[ra.State, ra.Msg]
	invariants.CriticalSection[ra.State]
}) *checker.Spec[ra.State, ra.Msg] {
	return &checker.Spec[ra.State, ra.Msg]{
		System:     model.MustNewSystem[ra.State, ra.Msg](p, model.Config{}),
		Invariants: []checker.Invariant[ra.State, ra.Msg]{invariants.MutualExclusion[ra.State, ra.Msg](p)},
		Deadlock:   true,
	}
}

// recorder is a rapid.TB that records a failure instead of failing.
type recorder struct {
	*testing.T
	failed bool
	out    strings.Builder
}

func (r *recorder) Errorf(format string, args ...any) {
	r.failed = true
	fmt.Fprintf(&r.out, format+"\n", args...)
}
func (r *recorder) Error(args ...any)                 { r.failed = true; fmt.Fprintln(&r.out, args...) }
func (r *recorder) Fatalf(format string, args ...any) { r.Errorf(format, args...); panic(r) }
func (r *recorder) Fatal(args ...any)                 { r.Error(args...); panic(r) }
func (r *recorder) Fail()                             { r.failed = true }
func (r *recorder) FailNow()                          { r.failed = true; panic(r) }
func (r *recorder) Failed() bool                      { return r.failed }
func (r *recorder) Logf(format string, args ...any)   { fmt.Fprintf(&r.out, format+"\n", args...) }
func (r *recorder) Log(args ...any)                   { fmt.Fprintln(&r.out, args...) }

func runRecorded(t *testing.T, sp checker.Target) *recorder {
	require.NoError(t, flag.Set("rapid.nofailfile", "true"))
	defer flag.Set("rapid.nofailfile", "false")
	r := &recorder{T: t}
	func() {
		defer func() {
			if p := recover(); p != nil && p != r {
				panic(p)
			}
		}()
		rapidcheck.Check(r, sp, rapidcheck.Options{})
	}()
	return r
}

// The correct algorithm passes.
func TestRicartAgrawalaPasses(t *testing.T) {
	rapidcheck.Check(t, spec(ra.New(3, 2)), rapidcheck.Options{})
}

// The broken one is caught, and the shrunk counterexample reads as a
// coordcheck trace: actions by value, the final state, the violation.
//
// The seed is fixed: with a random one, rapid's 100 runs now and then
// miss the bug (about one CI run in a few dozen), and a test must not
// depend on luck.
func TestBrokenProtocolIsCaught(t *testing.T) {
	require.NoError(t, flag.Set("rapid.seed", "1"))
	defer flag.Set("rapid.seed", "0")
	r := runRecorded(t, spec(eager{ra.New(2, 1)}))
	require.True(t, r.failed, "rapid did not catch the eager replies")
	out := r.out.String()
	t.Log(out)
	require.Contains(t, out, "violated: mutual-exclusion: p0 and p1 are in the critical section at once")
	require.Contains(t, out, "input p0 request")
	require.Contains(t, out, "-rapid.seed=")
	// Two requests, two deliveries, two replies, two enters: rapid shrinks
	// the schedule to the 8 steps this bug needs.
	require.Contains(t, out, "counterexample: 8 steps to a violation of mutual-exclusion")
}
