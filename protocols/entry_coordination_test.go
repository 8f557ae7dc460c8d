package protocols

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
)

// The coordination service's entries: their properties, the history
// turned on for the linearizability check whatever the configuration
// says, the verdicts of the notes' read modes, and bad values refused.
func TestCoordinationEntries(t *testing.T) {
	requireProperties(t, map[string][]string{
		"coordination":  {"zab-agreement", "linearizability", "no-deadlock"},
		"zklock":        {"mutual-exclusion", "zab-agreement", "no-deadlock"},
		"latewrite":     {"mutual-exclusion", "zab-agreement", "no-late-write", "no-deadlock"},
		"chubbysession": {"zab-agreement", "linearizability", "no-act-after-expiry", "session-survives-failover", "no-deadlock"},
	})

	e := mustLookup(t, "coordination")
	for reads, want := range map[string]checker.Verdict{"leader": checker.Pass, "sync": checker.Pass, "local": checker.Violated} {
		target, v, err := e.BuildWith(map[string]string{"ops": "1", "reads": reads}, model.Config{})
		require.NoError(t, err)
		require.Equal(t, "replicas=3 clients=2 ops=1 reads="+reads+" epochs=3 lease=on cache=off leader=formula leasewait=on", v.String())
		require.Equal(t, want, target.Check(checker.Options{}).Verdict, reads)
	}

	for name, bad := range map[string]map[string]string{
		"coordination": {"reads": "anywhere"},
		"zklock":       {"replicas": "0"},
		"latewrite":    {"sequencers": "maybe"},
	} {
		e := mustLookup(t, name)
		_, _, err := e.BuildWith(bad, model.Config{})
		require.Error(t, err, "%s %v", name, bad)
	}
	_, _, err := e.BuildWith(map[string]string{"lease": "sometimes"}, model.Config{})
	require.ErrorContains(t, err, "want on or off")
	_, _, err = e.BuildWith(map[string]string{"cache": "on"}, model.Config{})
	require.ErrorContains(t, err, "cache=on needs replicas=1 and reads=leader")
	_, _, err = e.BuildWith(map[string]string{"clients": "9"}, model.Config{})
	require.ErrorContains(t, err, "from 1 to 8")

	// The elected leader (-leader elected): the election's properties too,
	// and the settings that go with it.
	target, _, err := e.BuildWith(map[string]string{"leader": "elected"}, model.Config{})
	require.NoError(t, err)
	require.Equal(t, []string{"zab-agreement", "one-leader-per-epoch", "one-serving-leader", "service-leader-elected",
		"linearizability", "no-deadlock"}, target.PropertyNames())
	_, _, err = e.BuildWith(map[string]string{"leader": "voted"}, model.Config{})
	require.ErrorContains(t, err, "leader=\"voted\": want formula or elected")
	_, _, err = e.BuildWith(map[string]string{"leasewait": "off"}, model.Config{})
	require.ErrorContains(t, err, "leasewait=off needs leader=elected")
	_, _, err = e.BuildWith(map[string]string{"leader": "elected", "lease": "off"}, model.Config{})
	require.ErrorContains(t, err, "leader=elected goes with lease=on and cache=off")

	// Chubby's sessions: a fail-over shorter than the grace period keeps
	// them; without a grace period one is lost.
	s, _ := Lookup("chubbysession")
	f, err := model.ParseFaults("crash=1@p0")
	require.NoError(t, err)
	for grace, want := range map[string]checker.Verdict{"long": checker.Pass, "none": checker.Violated} {
		target, v, err := s.BuildWith(map[string]string{"ops": "0", "grace": grace}, model.Config{Faults: f})
		require.NoError(t, err)
		require.Equal(t, "replicas=3 clients=2 ops=0 epochs=3 grace="+grace+" jeopardy=clear", v.String())
		require.Equal(t, want, target.Check(checker.Options{}).Verdict, grace)
	}
	_, _, err = s.BuildWith(map[string]string{"grace": "none", "jeopardy": "keep"}, model.Config{})
	require.ErrorContains(t, err, "one broken variant at a time")
	_, _, err = s.BuildWith(map[string]string{"jeopardy": "sometimes"}, model.Config{})
	require.ErrorContains(t, err, `jeopardy="sometimes": want clear or keep`)
}
