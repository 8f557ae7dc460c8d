package protocols

import (
	"github.com/coordcheck/coordcheck/checker"

	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/model"
)

// The recipes' entries: their properties, their defaults, and bad values
// refused.
func TestRecipeEntries(t *testing.T) {
	recipes := map[string][]string{
		"zkherd":     {"mutual-exclusion", "zab-agreement", "no-deadlock"},
		"zkrwlock":   {"rw-exclusion", "no-reader-passes-a-writer", "zab-agreement", "no-deadlock"},
		"zkbarrier":  {"barrier-entry", "barrier-exit", "barrier-progress", "zab-agreement"},
		"zkgroup":    {"view-converges", "zab-agreement", "no-deadlock"},
		"zkelection": {"one-leader", "one-wakeup", "leader-elected", "zab-agreement", "no-deadlock"},
		"zkcounter":  {"no-lost-update", "zab-agreement", "no-deadlock"},
	}
	requireProperties(t, recipes)
	for name := range recipes {
		_, v := buildTarget(t, name, nil, "")
		require.Equal(t, "replicas=1 clients=3 epochs=3 broken=off", v.String(), name)
		e := mustLookup(t, name)
		_, _, err := e.BuildWith(map[string]string{"broken": "maybe"}, model.Config{})
		require.ErrorContains(t, err, `broken="maybe": want on or off`, name)
		if name == "zkrwlock" || name == "zkbarrier" {
			_, _, err := e.BuildWith(map[string]string{"clients": "1"}, model.Config{})
			require.ErrorContains(t, err, "clients=1: want an integer from 2 to 8", name)
		}
	}
}

// The service's own elections: their properties, and the lease wait as
// the parameter that makes two masters serve when off.
func TestMasterElectionEntries(t *testing.T) {
	requireProperties(t, map[string][]string{
		"chubbyelect": {"one-master-per-epoch", "one-serving-master", "master-elected", "no-deadlock"},
		"zkelect":     {"one-master-per-epoch", "master-elected", "no-deadlock"},
	})
	e := mustLookup(t, "chubbyelect")
	_, _, err := e.BuildWith(map[string]string{"leasewait": "later"}, model.Config{})
	require.ErrorContains(t, err, `leasewait="later": want on or off`)
	f, err := model.ParseFaults("partition=1")
	require.NoError(t, err)
	for wait, want := range map[string]checker.Verdict{"on": checker.Pass, "off": checker.Violated} {
		target, _, err := e.BuildWith(map[string]string{"leasewait": wait}, model.Config{Faults: f})
		require.NoError(t, err)
		require.Equal(t, want, target.Check(checker.Options{}).Verdict, "leasewait=%s", wait)
	}
}
