package checker_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
)

// The three shards of a random or swarm run, merged, give the unsharded
// run's verdict, walks, failing walk, counterexample and count of failing
// walks; for several seeds, with and without -exhaust, including seeds
// whose reported walk is not the first failing one (a shorter one comes
// within ExtraWalks), and a run in which no walk fails.
func TestShardsMergeToTheUnshardedRun(t *testing.T) {
	f, _ := model.ParseFaults("dup=1")
	sp := raSpec(3, 1, model.Config{Faults: f})
	sp.Deadlock = false
	notFirst := 0
	for _, strat := range []checker.Strategy{checker.Random, checker.Swarm} {
		for seed := uint64(1); seed <= 3; seed++ {
			for _, exhaust := range []bool{false, true} {
				name := fmt.Sprintf("%s seed %d exhaust %v", strat, seed, exhaust)
				opts := checker.Options{Strategy: strat, Seed: seed, Walks: 150, Exhaust: exhaust, Workers: 2}
				whole := sp.Check(opts)
				var shards []*checker.Report
				first := -1
				for i := range 3 {
					o := opts
					o.Shard = &checker.Shard{Index: i, Count: 3}
					s := sp.Check(o)
					require.Equal(t, &checker.ShardInfo{Index: i, Count: 3, Walks: 150, Depth: checker.DefaultWalkDepth, Exhaust: exhaust}, s.Shard)
					for _, fl := range s.Failures {
						require.Equal(t, i, fl.Walk%3, "%s: walk %d in shard %d", name, fl.Walk, i)
						if first < 0 || fl.Walk < first {
							first = fl.Walk
						}
					}
					shards = append(shards, s)
				}
				// Given in any order.
				m, err := checker.MergeShards([]*checker.Report{shards[2], shards[0], shards[1]}, []string{"c", "a", "b"})
				require.NoError(t, err)
				require.Equal(t, whole.Verdict, m.Verdict, name)
				require.Equal(t, whole.Walks, m.Walks, name)
				require.Equal(t, whole.FailingWalk, m.FailingWalk, name)
				require.Equal(t, whole.ShrunkFrom, m.ShrunkFrom, name)
				require.Equal(t, whole.Counterexample, m.Counterexample, name)
				require.Equal(t, whole.ViolationCounts, m.ViolationCounts, name)
				require.Equal(t, whole.Bound, m.Bound, name)
				require.GreaterOrEqual(t, m.Transitions, whole.Transitions, name)
				if whole.FailingWalk != nil && *whole.FailingWalk != first {
					notFirst++
				}
			}
		}
	}
	require.Positive(t, notFirst, "some seed reports a failing walk other than the first")

	// No walk fails in 30 walks of depth 3: inconclusive, walks added up.
	opts := checker.Options{Strategy: checker.Swarm, Seed: 1, Walks: 30, MaxDepth: 3}
	whole := sp.Check(opts)
	require.Equal(t, checker.Inconclusive, whole.Verdict)
	var shards []*checker.Report
	for i := range 3 {
		o := opts
		o.Shard = &checker.Shard{Index: i, Count: 3}
		shards = append(shards, sp.Check(o))
	}
	m, err := checker.MergeShards(shards, []string{"a", "b", "c"})
	require.NoError(t, err)
	require.Equal(t, checker.Inconclusive, m.Verdict)
	require.Equal(t, uint64(30), m.Walks)
	require.Equal(t, whole.Bound, m.Bound)
	require.Equal(t, whole.Transitions, m.Transitions)
	require.Equal(t, whole.Coverage, m.Coverage)
}

// MergeShards refuses what is not one whole run, with a line naming it.
func TestMergeShardsRefuses(t *testing.T) {
	sp := raSpec(3, 1, model.Config{})
	run := func(i, n int, seed uint64) *checker.Report {
		return sp.Check(checker.Options{Strategy: checker.Random, Seed: seed, Walks: 9, MaxDepth: 4, Shard: &checker.Shard{Index: i, Count: n}})
	}
	for _, c := range []struct {
		reps []*checker.Report
		want string
	}{
		{[]*checker.Report{run(0, 2, 1), sp.Check(checker.Options{Strategy: checker.Random, Walks: 9})}, "b is not a shard's report (run check -mode random|swarm -shard i/n -json)"},
		{[]*checker.Report{run(0, 2, 1), run(0, 2, 1)}, "a and b are both shard 0/2"},
		{[]*checker.Report{run(0, 3, 1), run(2, 3, 1)}, "shard 1/3 is missing (2 of 3 shards given)"},
		{[]*checker.Report{run(0, 2, 1), run(1, 3, 1)}, "a and b are shards of different runs (shards 0/2 and 1/3, walks 9 and 9, depth 4 and 4, seed 1 and 1)"},
		{[]*checker.Report{run(0, 2, 1), run(1, 2, 5)}, "a and b are shards of different runs (shards 0/2 and 1/2, walks 9 and 9, depth 4 and 4, seed 1 and 5)"},
	} {
		_, err := checker.MergeShards(c.reps, []string{"a", "b"})
		require.EqualError(t, err, c.want)
	}
	for _, bad := range []string{"3/3", "-1/2", "1", "a/b", "0/0"} {
		_, err := checker.ParseShard(bad)
		require.Error(t, err, bad)
	}
	s, err := checker.ParseShard("2/5")
	require.NoError(t, err)
	require.Equal(t, checker.Shard{Index: 2, Count: 5}, s)
}
