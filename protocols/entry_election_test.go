package protocols

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
)

// The bully entry: the notes' counterexample with a restart, agreement at
// all times on request, and bad values refused.
func TestBullyEntry(t *testing.T) {
	e := mustLookup(t, "bully")
	faults, err := model.ParseFaults("crash=1,restart=1")
	require.NoError(t, err)
	for _, c := range []struct {
		agreement, property string
		steps               int
	}{{"end", "election-safety", 8}, {"always", "agreement", 4}} {
		target, v, err := e.BuildWith(map[string]string{"agreement": c.agreement}, model.Config{Faults: faults})
		require.NoError(t, err)
		require.Equal(t, "n=3 agreement="+c.agreement, v.String())
		rep := target.Check(checker.Options{})
		require.Equal(t, checker.Violated, rep.Verdict)
		require.Equal(t, c.property, rep.Counterexample.Property)
		require.Len(t, rep.Counterexample.Steps, c.steps)
	}
	_, _, err = e.BuildWith(map[string]string{"agreement": "never"}, model.Config{})
	require.EqualError(t, err, `parameter agreement="never": want end or always`)
	_, _, err = e.BuildWith(map[string]string{"n": "1"}, model.Config{})
	require.EqualError(t, err, `parameter n="1": want an integer from 2 to 63`)
}

// The ring entry: Chang-Roberts by default, SPIN's counts, both variants.
func TestRingElectionEntry(t *testing.T) {
	e := mustLookup(t, "ringelection")
	target, v, err := e.BuildWith(nil, model.Config{})
	require.NoError(t, err)
	require.Equal(t, "n=4 variant=changroberts initiators=all agreement=always", v.String())
	rep := target.Check(checker.Options{})
	require.Equal(t, checker.Pass, rep.Verdict)
	require.Equal(t, uint64(116), rep.States)
	require.Equal(t, []string{"election-safety", "agreement", "no-deadlock", "election-liveness"}, rep.Properties)

	target, _, err = e.BuildWith(map[string]string{"n": "3", "variant": "enhanced"}, model.Config{})
	require.NoError(t, err)
	require.Equal(t, checker.Pass, target.Check(checker.Options{}).Verdict)

	_, _, err = e.BuildWith(map[string]string{"variant": "lelann"}, model.Config{})
	require.EqualError(t, err, `parameter variant="lelann": want changroberts or enhanced`)
	_, _, err = e.BuildWith(map[string]string{"initiators": "p9"}, model.Config{})
	require.Error(t, err)
}
