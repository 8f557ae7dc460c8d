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
// deliveries, application messages and every fault.
func TestRankAfterIsRank(t *testing.T) {
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
		for range rapid.IntRange(0, 60).Draw(rt, "steps") {
			acts := sys.Actions(w, nil)
			if len(acts) == 0 {
				return
			}
			a := acts[rapid.IntRange(0, len(acts)-1).Draw(rt, "action")]
			rank, _ := sys.Rank(w)
			sys.Apply(w, a, next)
			want, _ := sys.Rank(next)
			require.Equal(rt, want, sys.RankAfter(w, a, next, rank), "%s", sys.FormatAction(w, a))
			w, next = next, w
		}
	})
}
