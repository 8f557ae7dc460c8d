package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Maekawa's algorithm deadlocks (seed 001); three shards of a swarm run,
// each run as a batch engine would run it and merged, give the unsharded
// run's verdict, exit code, walks, failing walk and counterexample.
func TestMergeShardsOfMaekawaSwarm(t *testing.T) {
	args := []string{"check", "maekawa", "-n", "3", "-mode", "swarm", "-seed", "1", "-json", "-workers", "1"}
	code, out, errs := runCmd(args...)
	require.Equal(t, 1, code, errs)
	var whole map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &whole))

	dir := t.TempDir()
	var files []string
	for _, i := range []string{"2", "0", "1"} {
		code, out, errs := runCmd(append(args, "-shard", i+"/3")...)
		require.Contains(t, []int{1, 3}, code, errs)
		f := filepath.Join(dir, "shard"+i+".json")
		require.NoError(t, os.WriteFile(f, []byte(out), 0o644))
		files = append(files, f)
	}
	code, out, errs = runCmd(append([]string{"merge", "-json"}, files...)...)
	require.Equal(t, 1, code, errs)
	var merged map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &merged))
	for _, k := range []string{"verdict", "exit_code", "walks", "failing_walk", "shrunk_from", "counterexample", "violation_counts", "identity", "protocol", "params"} {
		require.Equal(t, whole[k], merged[k], k)
	}
	// Walk 1 (shard 1) deadlocks in 15 steps; the run goes ExtraWalks on.
	require.Equal(t, "no-deadlock", merged["counterexample"].(map[string]any)["property"])
	require.Equal(t, float64(66), merged["walks"])
	require.Equal(t, float64(1), merged["failing_walk"])
	require.Len(t, merged["counterexample"].(map[string]any)["steps"], 15)

	code, out, errs = runCmd(append([]string{"merge"}, files...)...)
	require.Equal(t, 1, code, errs)
	require.Contains(t, out, "coordcheck merge: 3 shards of maekawa n=3")
	require.Contains(t, out, "verdict: violated: no-deadlock")

	// Refused, with one line: a shard missing, given twice, of another
	// run, or not a shard at all.
	other := filepath.Join(dir, "other.json")
	_, out, _ = runCmd("check", "maekawa", "-n", "3", "-mode", "swarm", "-seed", "4", "-json", "-shard", "0/3")
	require.NoError(t, os.WriteFile(other, []byte(out), 0o644))
	plain := filepath.Join(dir, "plain.json")
	_, out, _ = runCmd(args...)
	require.NoError(t, os.WriteFile(plain, []byte(out), 0o644))
	for _, c := range []struct {
		files []string
		want  string
	}{
		{files[:2], "merge: shard 1/3 is missing (2 of 3 shards given)"},
		{[]string{files[0], files[1], files[1]}, "are both shard 0/3"},
		{[]string{files[1], files[0], other}, `are not shards of one run: "seed=1" vs "seed=4"`},
		{[]string{plain}, "plain.json is not a shard's report"},
		{[]string{filepath.Join(dir, "nosuch.json")}, "no such file"},
		{nil, "merge needs the shards' report files"},
	} {
		code, out, errs := runCmd(append([]string{"merge"}, c.files...)...)
		require.Equal(t, 2, code, c.files)
		require.Empty(t, out)
		require.Contains(t, errs, c.want)
		require.Equal(t, 1, strings.Count(errs, "\n"), errs)
	}
	code, _, errs = runCmd("check", "maekawa", "-shard", "0/2")
	require.Equal(t, 2, code)
	require.Contains(t, errs, "-shard 0/2 has no effect under -mode bfs")
}
