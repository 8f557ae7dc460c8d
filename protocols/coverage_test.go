package protocols

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/bully"
	"github.com/coordcheck/coordcheck/protocols/centralized"
	"github.com/coordcheck/coordcheck/protocols/lamport"
	"github.com/coordcheck/coordcheck/protocols/mutex"
	ra "github.com/coordcheck/coordcheck/protocols/ricartagrawala"
	"github.com/coordcheck/coordcheck/protocols/tokenring"
)

// The kinds a protocol declares (model.KindLister) are the kinds its
// checks take: every kind a small configuration fires is declared, and
// every declared kind fires, so that "never fired" means what it says.
func TestDeclaredKindsAreTheKindsThatFire(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		params   map[string]string
		faults   string
		declared model.KindLister
	}{
		{"ricartagrawala", map[string]string{"n": "2"}, "", ra.New(2, 1)},
		{"centralized", map[string]string{"n": "2"}, "", centralized.New(2, 1)},
		{"lamport", map[string]string{"n": "2"}, "", lamport.New(2, 1)},
		{"maekawa", map[string]string{"n": "2"}, "", nil}, // below
		{"tokenring", map[string]string{"n": "2"}, "", tokenring.NewVariant(2, 1, tokenring.Plain, 3)},
		{"tokenring", map[string]string{"n": "2", "variant": "timeout"}, "drop=1", tokenring.NewVariant(2, 1, tokenring.Timeout, 3)},
		{"tokenring", map[string]string{"n": "2", "variant": "pingpong"}, "", tokenring.NewVariant(2, 1, tokenring.PingPong, 3)},
		{"bully", map[string]string{"n": "3"}, "crash=2", bully.New(3)},
		{"maekawa-df", map[string]string{"n": "2"}, "", nil}, // below
	}
	for _, c := range cases {
		target, v := buildTarget(t, c.name, c.params, c.faults)
		rep := target.Check(checker.Options{Workers: 1, SkipLiveness: true, Exhaust: true})
		what := c.name + " " + v.String() + " faults=" + c.faults
		declared := append(mutex.InputKinds(), "deliver REQ", "deliver GRANT", "deliver REL") // maekawa
		switch {
		case c.declared != nil:
			declared = c.declared.ActionKinds()
		case c.name == "maekawa-df":
			declared = append(mutex.InputKinds(), "deliver REQ", "deliver GRANT", "deliver REL",
				"deliver FAILED", "deliver INQUIRE", "deliver YIELD")
		}
		for _, k := range rep.Coverage {
			if k.Kind == "drop" || k.Kind == "crash" {
				continue
			}
			require.Contains(t, declared, k.Kind, "%s: fired but not declared", what)
		}
		require.Empty(t, rep.NeverFired, "%s: declared but never fired", what)
	}
	// Without a loss, the timeout ring's recovery never runs (its timer
	// fires only once the token is lost): listed, but no warning, since
	// the configuration asked for no fault.
	target, _ := buildTarget(t, "tokenring", map[string]string{"n": "2", "variant": "timeout"}, "")
	rep := target.Check(checker.Options{Workers: 1, SkipLiveness: true})
	require.Equal(t, checker.Pass, rep.Verdict)
	require.Equal(t, []string{"deliver ASK", "deliver STATE", "fire token-timeout"}, rep.NeverFired)
	require.Empty(t, rep.Warnings)
}
