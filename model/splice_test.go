package model_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/coordcheck/coordcheck/model"
)

// chatter sends what the memo and the splice must place right: several
// messages in one step, some on one link, some alike, to itself too, a
// timer armed and cancelled, and records for the history, none, one or
// two a step. Each of three nodes may speak twice; a node answers each
// message by echoing it to the sender and to itself until its count runs
// out.
type chatter struct{}

type chatState struct {
	Said, Heard uint8
}

type chatMsg struct {
	N    uint8
	Text string
}

func (chatter) Nodes() int { return 3 }

func (chatter) Init(model.NodeID, *model.Out[chatMsg]) chatState { return chatState{} }

func (chatter) Inputs(_ model.NodeID, s chatState, dst []model.Input) []model.Input {
	if s.Said < 2 {
		dst = append(dst, "speak")
	}
	return dst
}

func (chatter) Step(self model.NodeID, s chatState, ev model.Event[chatMsg], out *model.Out[chatMsg]) chatState {
	switch ev.Kind {
	case model.Environment:
		s.Said++
		out.Output("said")
		next := (self + 1) % 3
		out.Send(next, chatMsg{s.Said, "b"})
		out.Send(next, chatMsg{s.Said, "a"}) // before the first on an unordered link
		out.Send(next, chatMsg{s.Said, "a"}) // alike
		out.Send((self+2)%3, chatMsg{0, ""})
		out.SetTimer(1)
	case model.Receive:
		s.Heard++
		if ev.Msg.Text != "" {
			out.Output("heard " + ev.Msg.Text)
			out.Output("")
		}
		if s.Heard < 3 {
			out.Send(ev.From, chatMsg{ev.Msg.N, ev.Msg.Text + "!"})
			out.Send(self, chatMsg{s.Heard, ""})
		}
		out.CancelTimer(1)
	case model.Timeout:
		s.Heard = 0
	}
	return s
}

// From any reachable world, under any network, fault budget and history,
// the memo's fingerprint of a step and the successor's encoding spliced from
// the parent's are those of the successor Apply makes.
func TestPeekAndSpliceMatchApply(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		faults, err := model.ParseFaults(rapid.SampledFrom([]string{"none", "crash=1,restart=1", "drop=1,dup=1", "partition=1"}).Draw(rt, "faults"))
		require.NoError(rt, err)
		cfg := model.Config{
			Network: rapid.SampledFrom([]model.Network{model.FIFO, model.Unordered}).Draw(rt, "network"),
			Faults:  faults,
			Timers:  model.TimersFree,
			History: rapid.Bool().Draw(rt, "history"),
		}
		cfg.HistoryByNode = cfg.History && rapid.Bool().Draw(rt, "by-node")
		sys := model.MustNewSystem[chatState, chatMsg](chatter{}, cfg)
		// A memo of one or two entries: a step's is mostly replaced by
		// the time its successor is encoded.
		model.SetMemoBits(sys, uint(rapid.IntRange(0, 1).Draw(rt, "memo-bits")))
		w, next := sys.Init(), &model.World[chatState, chatMsg]{}
		var h model.WorldHash
		var back model.World[chatState, chatMsg]
		for range rapid.IntRange(0, 30).Draw(rt, "steps") {
			acts := sys.Actions(w, nil)
			if len(acts) == 0 {
				break
			}
			enc := sys.Encode(nil, w)
			spans := sys.DecodeSpans(enc, &back, nil)
			sys.LoadFP(&h, &back, sys.HashWorld(&back), enc, spans)
			// Every action is peeked first, so that the memo holds
			// several steps and a later one may have replaced an
			// earlier's entry (EncodePeeked then takes the step again).
			refs := make([]model.MemoRef, len(acts))
			fps := make([]uint64, len(acts))
			oks := make([]bool, len(acts))
			for i, a := range acts {
				fps[i], oks[i] = sys.PeekHash(&h, &back, &a)
				refs[i] = sys.Peeked()
			}
			for i, a := range acts {
				sys.Apply(&back, a, next)
				// The fingerprint from the parent's parts and the step's
				// effects, for every action.
				require.Equal(rt, sys.HashWorld(next), sys.StepHash(&h, &back, a, next), "%s", sys.FormatAction(&back, a))
				if !oks[i] {
					continue
				}
				require.Equal(rt, sys.HashWorld(next), fps[i], "%s", sys.FormatAction(&back, a))
				require.Equal(rt, sys.Encode(nil, next), sys.EncodePeeked(nil, &h, &back, &a, refs[i]), "%s", sys.FormatAction(&back, a))
			}
			a := acts[rapid.IntRange(0, len(acts)-1).Draw(rt, "action")]
			sys.Apply(w, a, next)
			w, next = next, w
		}
	})
}

// A note left on a memoized step (SetMemoTag) is read back while the
// step holds its entry, and is gone once another step takes the entry:
// neither the new step nor the old one, memoized again, has it.
func TestMemoTagGoesWithItsStep(t *testing.T) {
	sys := model.MustNewSystem[chatState, chatMsg](chatter{}, model.Config{Timers: model.TimersFree})
	model.SetMemoBits(sys, 0) // one entry
	w := sys.Init()
	enc := sys.Encode(nil, w)
	var back model.World[chatState, chatMsg]
	var h model.WorldHash
	spans := sys.DecodeSpans(enc, &back, nil)
	sys.LoadFP(&h, &back, sys.HashWorld(&back), enc, spans)
	acts := sys.Actions(&back, nil)
	require.GreaterOrEqual(t, len(acts), 2)
	peek := func(a model.Action) model.MemoRef {
		_, ok := sys.PeekHash(&h, &back, &a)
		require.True(t, ok)
		return sys.Peeked()
	}
	first := peek(acts[0])
	require.Zero(t, sys.MemoTag(first))
	sys.SetMemoTag(first, 7)
	require.Equal(t, uint64(7), sys.MemoTag(first))
	second := peek(acts[1])
	require.NotEqual(t, first, second)
	require.Zero(t, sys.MemoTag(first), "replaced")
	require.Zero(t, sys.MemoTag(second))
	sys.SetMemoTag(first, 9) // not its entry any more: ignored
	require.Zero(t, sys.MemoTag(second))
	require.Equal(t, first, peek(acts[0]))
	require.Zero(t, sys.MemoTag(first), "memoized again, with no note")
}
