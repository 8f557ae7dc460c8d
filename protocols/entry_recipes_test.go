package protocols

import (
	"github.com/coordcheck/coordcheck/checker"
	"strconv"

	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/model"
)

// The recipes' entries: their properties, their defaults, and bad values
// refused.
func TestRecipeEntries(t *testing.T) {
	for name, props := range map[string][]string{
		"zkherd":     {"mutual-exclusion", "zab-agreement", "no-deadlock"},
		"zkrwlock":   {"rw-exclusion", "no-reader-passes-a-writer", "zab-agreement", "no-deadlock"},
		"zkbarrier":  {"barrier-entry", "barrier-exit", "barrier-progress", "zab-agreement"},
		"zkgroup":    {"view-converges", "zab-agreement", "no-deadlock"},
		"zkelection": {"one-leader", "one-wakeup", "leader-elected", "zab-agreement", "no-deadlock"},
	} {
		e, ok := Lookup(name)
		require.True(t, ok, name)
		target, v, err := e.BuildWith(nil, model.Config{})
		require.NoError(t, err, name)
		require.Equal(t, props, target.PropertyNames(), name)
		require.Equal(t, "replicas=1 clients=3 epochs=3 broken=off", v.String(), name)
		_, _, err = e.BuildWith(map[string]string{"broken": "maybe"}, model.Config{})
		require.ErrorContains(t, err, `broken="maybe": want on or off`, name)
	}
	for _, name := range []string{"zkrwlock", "zkbarrier"} {
		e, _ := Lookup(name)
		_, _, err := e.BuildWith(map[string]string{"clients": "1"}, model.Config{})
		require.ErrorContains(t, err, "clients=1: want an integer from 2 to 8", name)
	}
}

// `costs coordination`: the herd effect, measured, matches the notes'
// argument for N = 3..7 (N-1 notifications per release of the simple
// lock, 1 of the sequential recipe).
func TestHerdCosts(t *testing.T) {
	for n := 3; n <= 7; n++ {
		for name, first := range map[string]int{"zkherd": n - 1, "zklock": 1} {
			e, _ := Lookup(name)
			require.Equal(t, "coordination", e.Family)
			rows, err := e.Costs(n)
			require.NoError(t, err)
			require.Len(t, rows, 2)
			for _, r := range rows {
				require.True(t, r.Matches, "%s n=%d: %+v", name, n, r)
			}
			require.Equal(t, strconv.Itoa(first), rows[0].Measured, "%s n=%d", name, n)
		}
	}
	e, _ := Lookup("zkherd")
	_, err := e.Costs(9)
	require.ErrorContains(t, err, "9 clients: want 2 to 8")
}

// The service's own elections: their properties, and the lease wait as
// the parameter that makes two masters serve when off.
func TestMasterElectionEntries(t *testing.T) {
	for name, props := range map[string][]string{
		"chubbyelect": {"one-master-per-epoch", "one-serving-master", "master-elected", "no-deadlock"},
		"zkelect":     {"one-master-per-epoch", "master-elected", "no-deadlock"},
	} {
		e, ok := Lookup(name)
		require.True(t, ok, name)
		target, _, err := e.BuildWith(nil, model.Config{})
		require.NoError(t, err, name)
		require.Equal(t, props, target.PropertyNames(), name)
	}
	e, _ := Lookup("chubbyelect")
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
