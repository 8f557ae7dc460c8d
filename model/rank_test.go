package model_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/maekawa"
	"github.com/coordcheck/coordcheck/protocols/maekawadf"
)

// RankAfter, the measure computed from what a step changed, is the
// measure of the world after the step, for every kind of step: inputs,
// deliveries, application messages and every fault; and so is the
// measure Stepped.RankAfter gives from the memo of a step Cursor.Step
// took, messages sent to a crashed or cut-off node weighing nothing.
func TestRankAfterIsRank(t *testing.T) {
	total := 0
	rapid.Check(t, func(rt *rapid.T) {
		faults, err := model.ParseFaults(rapid.SampledFrom([]string{
			"none", "crash=1,restart=1", "drop=inf,dup=2", "partition=1", "crash=2,restart=2,drop=1,dup=1,partition=1",
		}).Draw(rt, "faults"))
		require.NoError(rt, err)
		cfg := model.Config{
			Network: rapid.SampledFrom([]model.Network{model.FIFO, model.Unordered}).Draw(rt, "network"),
			Faults:  faults,
			AppMsgs: rapid.IntRange(0, 2).Draw(rt, "app-msgs"),
		}
		// Application messages take effect in Maekawa only through the
		// happened-before order they relate requests by.
		cfg.Ordering = cfg.AppMsgs > 0
		p, err := maekawadf.New(3, 2, maekawa.AllSets(3), maekawadf.AllFixes)
		require.NoError(rt, err)
		sys := model.MustNewSystem[maekawadf.State, maekawadf.Msg](p, cfg)
		require.True(rt, sys.Ranked())
		w, next := sys.Init(), &model.World[maekawadf.State, maekawadf.Msg]{}
		c := model.NewCursor(model.NewStore[maekawadf.State, maekawadf.Msg](), sys.Clone())
		var loaded, after model.World[maekawadf.State, maekawadf.Msg]
		var r model.Stepped
		stepped := 0
		for range rapid.IntRange(0, 60).Draw(rt, "steps") {
			acts := sys.Actions(w, nil)
			if len(acts) == 0 {
				break
			}
			vec, fp := c.AppendStored(nil, w)
			c.Load(vec, fp, &loaded)
			rank, _ := sys.Rank(w)
			for _, a := range c.Actions(&loaded, nil) {
				if _, ok := c.Step(&loaded, &a, &r); ok {
					sys.Apply(&loaded, a, &after)
					want, _ := sys.Rank(&after)
					require.Equal(rt, want, r.RankAfter(rank), "stepped: %s", sys.FormatAction(&loaded, a))
					stepped++
				}
			}
			a := acts[rapid.IntRange(0, len(acts)-1).Draw(rt, "action")]
			sys.Apply(w, a, next)
			want, _ := sys.Rank(next)
			require.Equal(rt, want, sys.RankAfter(w, a, next, rank), "%s", sys.FormatAction(w, a))
			w, next = next, w
		}
		total += stepped
	})
	require.Positive(t, total, "no step was taken by Cursor.Step")
}
