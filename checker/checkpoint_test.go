package checker_test

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols"
)

func registryTarget(t *testing.T, name string, params map[string]string, faults string) checker.Target {
	e, ok := protocols.Lookup(name)
	require.True(t, ok)
	f, err := model.ParseFaults(faults)
	require.NoError(t, err)
	tg, _, err := e.BuildWith(params, model.Config{Faults: f})
	require.NoError(t, err)
	return tg
}

// killAndResume runs tg under opts until the kill-th checkpoint is
// written, stops it there as a SIGKILL would, then resumes from the file.
func killAndResume(t *testing.T, tg checker.Target, opts checker.Options, kill int) *checker.Report {
	path := filepath.Join(t.TempDir(), "run.ckpt")
	killed := opts
	killed.Checkpoint, killed.CheckpointEvery = path, 1 // every chance
	killed.Identity = "test"
	if opts.Workers > 1 {
		kill *= 3 // one checkpoint a level: kill deeper than level 3
	}
	checker.WithCheckpointKill(&killed, func(k int) bool { return k == kill })
	rep := tg.Check(killed)
	require.Equal(t, "killed after a checkpoint (test)", rep.Bound, "the search ended before its checkpoint %d", kill)
	ck, err := checker.LoadCheckpoint(path)
	require.NoError(t, err)
	t.Logf("resumed from %s", ck)
	resumed := opts
	resumed.Resume, resumed.Identity = ck, "test"
	require.NoError(t, tg.CheckpointError(resumed))
	return tg.Check(resumed)
}

// A search killed after a checkpoint and resumed from it reports what the
// same search never stopped reports: states, transitions, depth, memory,
// the violation counts and the counterexample, on one worker and on two,
// with and without the liveness check that keeps no graph. (A search that
// writes checkpoints runs level by level on two workers, and on one looks
// each successor up as it makes it: the search in ordered batches keeps
// no frontier a checkpoint could hold.)
func TestResumeGivesTheSameReport(t *testing.T) {
	ra32 := registryTarget(t, "ricartagrawala", map[string]string{"n": "3", "rounds": "2"}, "none")
	dup := registryTarget(t, "ricartagrawala", map[string]string{"n": "3", "rounds": "1"}, "dup=1")
	cases := []struct {
		name  string
		tg    checker.Target
		opts  checker.Options
		kill  int
		want  checker.Verdict
		state uint64
	}{
		{"pass, liveness acyclic", ra32, checker.Options{}, 3, checker.Pass, 42768},
		{"pass, safety only", ra32, checker.Options{SkipLiveness: true}, 3, checker.Pass, 42768},
		// With dup=1 the graph may have cycles: the search keeping it
		// writes no checkpoints, so these check safety only.
		{"violated", dup, checker.Options{SkipLiveness: true}, 2, checker.Violated, 0},
		{"violated, exhaust", dup, checker.Options{SkipLiveness: true, Exhaust: true}, 4, checker.Violated, 0},
	}
	for _, c := range cases {
		for _, workers := range workerCounts(1, 2) {
			opts := c.opts
			opts.Workers = workers
			never := opts
			never.Checkpoint, never.Identity = filepath.Join(t.TempDir(), "never.ckpt"), "test"
			want := c.tg.Check(never)
			require.Equal(t, c.want, want.Verdict, c.name)
			if c.state > 0 {
				require.Equal(t, c.state, want.States, c.name)
			}
			got := killAndResume(t, c.tg, opts, c.kill)
			t.Logf("%s, %d workers: %d states, %d transitions, depth %d", c.name, workers, got.States, got.Transitions, got.Depth)
			require.Equal(t, want.Verdict, got.Verdict, c.name)
			require.Equal(t, want.Bound, got.Bound, c.name)
			require.Equal(t, want.States, got.States, c.name)
			require.Equal(t, want.Transitions, got.Transitions, c.name)
			require.Equal(t, want.Depth, got.Depth, c.name)
			require.Equal(t, want.TableBytes, got.TableBytes, c.name)
			require.Equal(t, want.FrontierBytes, got.FrontierBytes, c.name)
			require.Equal(t, want.ViolationCounts, got.ViolationCounts, c.name)
			require.Equal(t, want.Liveness, got.Liveness, c.name)
			require.Equal(t, want.Counterexample, got.Counterexample, c.name)
			require.Equal(t, want.Coverage, got.Coverage, c.name)
			require.Equal(t, want.NeverFired, got.NeverFired, c.name)
			require.Equal(t, want.Premises, got.Premises, c.name)
			require.Equal(t, want.Warnings, got.Warnings, c.name)
		}
	}
}

// A checkpoint is refused, with one line, for another check, another
// engine, a mode that cannot write one, and a damaged file.
func TestCheckpointRefusals(t *testing.T) {
	tg := registryTarget(t, "ricartagrawala", map[string]string{"n": "3", "rounds": "2"}, "none")
	path := filepath.Join(t.TempDir(), "run.ckpt")
	opts := checker.Options{Workers: 1, Identity: "ra n=3", Checkpoint: path, CheckpointEvery: 1}
	checker.WithCheckpointKill(&opts, func(k int) bool { return true })
	require.NoError(t, tg.CheckpointError(opts))
	tg.Check(opts)
	load := func() *checker.Checkpoint {
		ck, err := checker.LoadCheckpoint(path)
		require.NoError(t, err)
		return ck
	}
	refuse := func(o checker.Options, want string) {
		err := tg.CheckpointError(o)
		require.Error(t, err)
		require.Contains(t, err.Error(), want)
		require.NotContains(t, err.Error(), "\n")
	}
	refuse(checker.Options{Workers: 1, Identity: "ra n=4", Resume: load()}, "written for another check")
	refuse(checker.Options{Workers: 1, Identity: "ra n=3", MaxDepth: 5, Resume: load()}, "written for another check")
	refuse(checker.Options{Workers: 2, Identity: "ra n=3", Resume: load()}, "resume it with -workers 1")
	refuse(checker.Options{Strategy: checker.DFS, Checkpoint: path}, "-mode bfs only, not dfs")
	refuse(checker.Options{Strategy: checker.Swarm, Checkpoint: path}, "-mode bfs only, not swarm")
	refuse(checker.Options{KeepGraph: true, Checkpoint: path}, "while the state graph is kept")

	data, err := os.ReadFile(path)
	require.NoError(t, err)
	for _, c := range []struct {
		data []byte
		want string
	}{
		{data[:len(data)/2], "truncated"},
		{flip(data, len(data)/2), "checksum mismatch"},
		{flip(data, len(data)-1), "checksum mismatch"},
		{data[:len(data)-7], "truncated"},
		{word(data, 8, 4), "format version 4, this coordcheck reads version 8"},
		{word(data, 16, model.FingerprintScheme-1), "fingerprints states otherwise"},
		{[]byte("# coordcheck counterexample v1\n"), "not a coordcheck checkpoint"},
		{nil, "not a coordcheck checkpoint"},
	} {
		bad := filepath.Join(t.TempDir(), "bad.ckpt")
		require.NoError(t, os.WriteFile(bad, c.data, 0o644))
		_, err := checker.LoadCheckpoint(bad)
		require.Error(t, err)
		require.Contains(t, err.Error(), c.want)
		require.NotContains(t, err.Error(), "\n")
	}
}

// word is data with the little-endian word at offset at set to v.
func word(data []byte, at int, v uint64) []byte {
	b := append([]byte{}, data...)
	binary.LittleEndian.PutUint64(b[at:], v)
	return b
}

func flip(data []byte, i int) []byte {
	b := append([]byte{}, data...)
	b[i] ^= 0x40
	return b
}

// A search stopped early (Ctrl-C, SIGTERM, a timeout) writes its
// checkpoint as it stops, long before the next periodic one is due.
func TestCheckpointAtStop(t *testing.T) {
	tg := registryTarget(t, "ricartagrawala", map[string]string{"n": "3", "rounds": "2"}, "none")
	for _, workers := range []int{1, 2} {
		want := tg.Check(checker.Options{Workers: workers})
		path := filepath.Join(t.TempDir(), "run.ckpt")
		stop := make(chan struct{})
		close(stop)
		rep := tg.Check(checker.Options{Workers: workers, Identity: "x", Checkpoint: path, CheckpointEvery: time.Hour, Stop: stop})
		require.Equal(t, "interrupted", rep.Bound)
		ck, err := checker.LoadCheckpoint(path)
		require.NoError(t, err)
		got := tg.Check(checker.Options{Workers: workers, Identity: "x", Resume: ck})
		require.Equal(t, want.States, got.States)
		require.Equal(t, want.Transitions, got.Transitions)
		require.Equal(t, want.Verdict, got.Verdict)
	}
}
