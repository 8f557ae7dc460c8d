package model_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/coordcheck/coordcheck/model"
	ra "github.com/coordcheck/coordcheck/protocols/ricartagrawala"
)

// Every world reached under any configuration encodes canonically:
// decoding its encoding and encoding again gives the same bytes, and the
// decoded world prints the same; a successor's fingerprint from its
// parent's parts (StepHash), and from a step taken on ids (Cursor.Step)
// with its stored form, are those of the successor made whole.
func TestEncodingRoundTrips(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		faults, err := model.ParseFaults(rapid.SampledFrom([]string{
			"none", "crash=1", "crash=1,restart=1", "drop=inf,dup=1", "partition=1", "crash=2,restart=2,drop=1,dup=1,partition=1",
		}).Draw(rt, "faults"))
		require.NoError(rt, err)
		cfg := model.Config{
			Network:  rapid.SampledFrom([]model.Network{model.FIFO, model.Unordered}).Draw(rt, "network"),
			Faults:   faults,
			Ordering: rapid.Bool().Draw(rt, "ordering"),
			AppMsgs:  rapid.IntRange(0, 2).Draw(rt, "app-msgs"),
			History:  rapid.Bool().Draw(rt, "history"),
		}
		cfg.HistoryByNode = cfg.History && rapid.Bool().Draw(rt, "by-node")
		p := ra.New(rapid.IntRange(2, 4).Draw(rt, "n"), 2)
		sys := model.MustNewSystem[ra.State, ra.Msg](p, cfg)
		w, next := sys.Init(), &model.World[ra.State, ra.Msg]{}
		for range rapid.IntRange(0, 40).Draw(rt, "steps") {
			enc := sys.Encode(nil, w)
			var back model.World[ra.State, ra.Msg]
			sys.Decode(enc, &back)
			require.Equal(rt, enc, sys.Encode(nil, &back))
			require.Equal(rt, sys.FormatWorld(w), sys.FormatWorld(&back))
			acts := sys.Actions(w, nil)
			if len(acts) == 0 {
				return
			}
			a := acts[rapid.IntRange(0, len(acts)-1).Draw(rt, "action")]
			sys.Apply(w, a, next)
			// Its fingerprint from the parent's parts is that of the
			// whole world; so is the one a step taken on ids gives
			// (Cursor.Step: every protocol step unless the ordering
			// vectors are kept), with the successor's stored form.
			var h model.WorldHash
			sys.LoadHash(&h, &back)
			c := model.NewCursor(model.NewStore[ra.State, ra.Msg](), sys.Clone())
			vec, fp := c.AppendStored(nil, &back)
			var loaded model.World[ra.State, ra.Msg]
			var r model.Stepped
			c.Load(vec, fp, &loaded)
			peek, peeked := c.Step(&loaded, &a, &r)
			var after []byte
			if peeked {
				after = c.AppendStepped(nil, &r)
			}
			again, _ := c.Step(&loaded, &a, &r) // memoized
			sys.Apply(&back, a, next)
			want := sys.HashWorld(next)
			require.Equal(rt, want, sys.StepHash(&h, &back, a, next), "%s", sys.FormatAction(w, a))
			protocolStep := a.Kind == model.ActInput || a.Kind == model.ActFire || a.Kind == model.ActDeliver && !back.Net[a.Slot].App
			require.Equal(rt, protocolStep && !cfg.Ordering, peeked, "%s", sys.FormatAction(w, a))
			if peeked {
				stored, _ := c.AppendStored(nil, next)
				require.Equal(rt, stored, after, "%s", sys.FormatAction(w, a))
				require.Equal(rt, want, peek, "%s", sys.FormatAction(w, a))
				require.Equal(rt, want, again, "%s", sys.FormatAction(w, a))
			}
			w, next = next, w
		}
	})
}

// A fault budget parses, prints back, and refuses what it should.
func TestParseFaults(t *testing.T) {
	f, err := model.ParseFaults("restart=1,crash=1@p2+p3,drop=inf")
	require.NoError(t, err)
	require.Equal(t, "crash=1@p2+p3,restart=1,drop=inf", f.String())
	require.True(t, f.MayCrash(2))
	require.False(t, f.MayCrash(0))
	for spec, want := range map[string]string{
		"crash":           "is not kind=count",
		"explode=1":       `unknown fault kind "explode"`,
		"dup=inf":         "want a count from 0 to 255",
		"crash=1,crash=2": "given twice",
		"crash=1@q7":      "invalid node id",
	} {
		_, err := model.ParseFaults(spec)
		require.ErrorContains(t, err, want, spec)
	}
}
