package model_test

import (
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/coordcheck/coordcheck/model"
)

// chatter sends what a step taken on ids must place right: several
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

// chatterSystem draws a configuration of chatter: its network, faults and
// history.
func chatterSystem(rt *rapid.T) *model.System[chatState, chatMsg] {
	faults, err := model.ParseFaults(rapid.SampledFrom([]string{"none", "crash=1,restart=1", "drop=1,dup=1", "partition=1"}).Draw(rt, "faults"))
	require.NoError(rt, err)
	cfg := model.Config{
		Network: rapid.SampledFrom([]model.Network{model.FIFO, model.Unordered}).Draw(rt, "network"),
		Faults:  faults,
		Timers:  model.TimersFree,
		History: rapid.Bool().Draw(rt, "history"),
	}
	cfg.HistoryByNode = cfg.History && rapid.Bool().Draw(rt, "by-node")
	switch rapid.SampledFrom([]string{"free", "guarded", "guarded-all"}).Draw(rt, "timers") {
	case "guarded":
		cfg.Timers = model.TimersPerfect
		return model.MustNewSystem[chatState, chatMsg](guardedChatter{}, cfg)
	case "guarded-all":
		cfg.Timers = model.TimersPerfect
		return model.MustNewSystem[chatState, chatMsg](allGuardedChatter{}, cfg)
	}
	return model.MustNewSystem[chatState, chatMsg](chatter{}, cfg)
}

// guardedChatter is chatter with perfect timers: a timer fires only when
// an even number of messages is in flight.
type guardedChatter struct{ chatter }

func (guardedChatter) TimerReady(w *model.World[chatState, chatMsg], _ model.NodeID, _ model.TimerID) bool {
	return len(w.Net)%2 == 0
}

// nodeGuardedChatter is chatter with perfect timers whose guard depends on
// the node: a timer of node i fires only when the number of messages in
// flight and i are both even or both odd.
type nodeGuardedChatter struct{ chatter }

func (nodeGuardedChatter) TimerReady(w *model.World[chatState, chatMsg], self model.NodeID, _ model.TimerID) bool {
	return chatReady(w, self)
}

// chatReady is nodeGuardedChatter's guard.
func chatReady(w *model.World[chatState, chatMsg], self model.NodeID) bool {
	return (len(w.Net)+int(self))%2 == 0
}

// allGuardedChatter is nodeGuardedChatter asked once a world
// (model.TimersGuard), its ready sets holding timers not armed too.
type allGuardedChatter struct{ nodeGuardedChatter }

func (allGuardedChatter) ReadyTimers(w *model.World[chatState, chatMsg], ready []uint64) {
	for i := range ready {
		ready[i] = 0
		if chatReady(w, model.NodeID(i)) {
			ready[i] = ^uint64(0)
		}
	}
}

// A protocol that asks its guards once a world (model.TimersGuard) gets
// the actions it would get asking them once a timer, along any walk.
func TestReadyTimersMatchTimerReady(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		cfg := model.Config{Network: model.FIFO, Timers: model.TimersPerfect}
		all := model.MustNewSystem[chatState, chatMsg](allGuardedChatter{}, cfg)
		one := model.MustNewSystem[chatState, chatMsg](nodeGuardedChatter{}, cfg)
		w, next := all.Init(), &model.World[chatState, chatMsg]{}
		for range rapid.IntRange(0, 30).Draw(rt, "steps") {
			acts := all.Actions(w, nil)
			require.Equal(rt, one.Actions(w, nil), acts)
			if len(acts) == 0 {
				break
			}
			all.Apply(w, acts[rapid.IntRange(0, len(acts)-1).Draw(rt, "action")], next)
			w, next = next, w
		}
	})
}

// From any reachable world, under any network, fault budget and history:
// a world's stored form loads back as that world with its fingerprint;
// a step Cursor.Step takes on ids gives the fingerprint and the stored
// form of the successor Apply makes; and a store restored from its keys
// gives every part its id again; and a world loaded over another is the
// one loaded alone.
func TestCursorStepMatchesApply(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		sys := chatterSystem(rt)
		st := model.NewStore[chatState, chatMsg]()
		c := model.NewCursor(st, sys.Clone())
		w, next := sys.Init(), &model.World[chatState, chatMsg]{}
		var back model.World[chatState, chatMsg]
		var r model.Stepped
		var stored [][]byte
		for range rapid.IntRange(0, 30).Draw(rt, "steps") {
			vec, fp := c.AppendStored(nil, w)
			require.Equal(rt, sys.HashWorld(w), fp)
			stored = append(stored, vec)
			c.Load(vec, fp, &back)
			require.Equal(rt, sys.Encode(nil, w), sys.Encode(nil, &back))
			acts := c.Actions(&back, nil)
			require.Equal(rt, sys.Actions(w, nil), acts)
			// ActionsAwake lists the others, and counts the steps of the
			// nodes asleep (their firings too, but under guards).
			asleep := rapid.Uint64Range(0, 1<<sys.N()-1).Draw(rt, "asleep")
			var awake []model.Action
			var at []int // their indexes in acts
			for j, a := range acts {
				step := a.Kind == model.ActInput || a.Kind == model.ActDeliver || a.Kind == model.ActFire && !sys.Guarded()
				if !step || asleep>>a.Node&1 == 0 {
					awake, at = append(awake, a), append(at, j)
				}
			}
			gotAwake, slept := c.ActionsAwake(&back, nil, asleep)
			require.Equal(rt, awake, gotAwake)
			require.Equal(rt, len(acts)-len(awake), slept)
			for j := range gotAwake {
				require.Equal(rt, at[j], c.IndexInAll(j, &gotAwake[j]), "%s", sys.FormatAction(&back, gotAwake[j]))
			}
			if len(acts) == 0 {
				break
			}
			for _, a := range acts {
				got, ok := c.Step(&back, &a, &r)
				var after []byte
				if ok {
					after = c.AppendStepped(nil, &r)
				}
				sys.Apply(&back, a, next)
				want, wantFP := c.AppendStored(nil, next)
				if !ok {
					require.Contains(rt, []model.ActionKind{model.ActDrop, model.ActDup, model.ActCrash, model.ActRestart, model.ActPartition, model.ActHeal}, a.Kind,
						"a protocol step left to Apply: %s", sys.FormatAction(&back, a))
					continue
				}
				require.Equal(rt, wantFP, got, "%s", sys.FormatAction(&back, a))
				require.Equal(rt, want, after, "%s", sys.FormatAction(&back, a))
			}
			a := acts[rapid.IntRange(0, len(acts)-1).Draw(rt, "action")]
			sys.Apply(w, a, next)
			w, next = next, w
		}
		// Restored from its keys, the store names every part alike.
		again := model.NewCursor(model.NewStore[chatState, chatMsg](), sys.Clone())
		require.NoError(rt, again.Restore(st.Keys()))
		require.Equal(rt, st.Keys(), again.Store().Keys())
		var a, b model.World[chatState, chatMsg]
		for _, vec := range stored {
			c.Load(vec, 0, &a)
			again.Load(vec, 0, &b)
			require.Equal(rt, sys.Encode(nil, &a), sys.Encode(nil, &b))
		}
		// Loaded into one world in any order, a stored form gives the
		// world a load into an empty one gives: Load sets only the nodes
		// that differ from the last state's, and the rest must be right.
		other := model.NewCursor(st, sys.Clone())
		for _, vec := range rapid.Permutation(stored).Draw(rt, "order") {
			var fresh model.World[chatState, chatMsg]
			c.Load(vec, 0, &a)
			other.Load(vec, 0, &fresh)
			require.Equal(rt, fresh.Nodes, a.Nodes)
			require.Equal(rt, fresh.Timers, a.Timers)
			require.Equal(rt, sys.Encode(nil, &fresh), sys.Encode(nil, &a))
			require.Equal(rt, other.Actions(&fresh, nil), c.Actions(&a, nil))
		}
	})
}

// Goroutines that share a store (the workers of one search) name each
// part alike, whichever interns it first. (Run under -race by CI.)
func TestStoreSharedByGoroutines(t *testing.T) {
	sys := model.MustNewSystem[chatState, chatMsg](chatter{}, model.Config{History: true})
	// The worlds of a breadth-first walk, as Go values.
	worlds := []*model.World[chatState, chatMsg]{sys.Init()}
	seen := map[string]bool{string(sys.Encode(nil, worlds[0])): true}
	for i := 0; i < len(worlds) && len(worlds) < 3000; i++ {
		for _, a := range sys.Actions(worlds[i], nil) {
			next := &model.World[chatState, chatMsg]{}
			sys.Apply(worlds[i], a, next)
			if k := string(sys.Encode(nil, next)); !seen[k] {
				seen[k] = true
				worlds = append(worlds, next)
			}
		}
	}
	worlds = worlds[:3000]
	st := model.NewStore[chatState, chatMsg]()
	got := make([][][]byte, 4)
	var wg sync.WaitGroup
	for g := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := model.NewCursor(st, sys.Clone())
			var back model.World[chatState, chatMsg]
			for k := range worlds {
				w := worlds[(k*(g+1))%len(worlds)] // each in its own order
				vec, fp := c.AppendStored(nil, w)
				c.Load(vec, fp, &back)
				got[g] = append(got[g], vec)
			}
		}()
	}
	wg.Wait()
	byWorld := map[string]string{}
	for g := range got {
		for k, vec := range got[g] {
			w := string(sys.Encode(nil, worlds[(k*(g+1))%len(worlds)]))
			if prev, ok := byWorld[w]; ok {
				require.Equal(t, prev, string(vec))
			}
			byWorld[w] = string(vec)
		}
	}
	require.Equal(t, len(worlds), len(byWorld))
}

// A store is restored only from keys a store gave: a key that does not
// decode, or one given twice, is an error, not a panic.
func TestRestoreRefusesBadKeys(t *testing.T) {
	sys := model.MustNewSystem[chatState, chatMsg](chatter{}, model.Config{})
	st := model.NewStore[chatState, chatMsg]()
	c := model.NewCursor(st, sys.Clone())
	c.AppendStored(nil, sys.Init())
	keys := st.Keys()
	bad := func(t, k int, b []byte) [4][][]byte {
		var out [4][][]byte
		for i := range keys {
			out[i] = append([][]byte(nil), keys[i]...)
		}
		out[t] = append(out[t][:k:k], b)
		return out
	}
	for _, ks := range [][4][][]byte{
		bad(1, 0, []byte{9}),                // a node out of range, its state missing
		bad(1, 1, keys[1][0]),               // a state given twice
		bad(2, 0, []byte{0, 1, 7, 0, 0, 0}), // a link of a message not stored
	} {
		err := model.NewCursor(model.NewStore[chatState, chatMsg](), sys.Clone()).Restore(ks)
		require.Error(t, err)
	}
	require.NoError(t, model.NewCursor(model.NewStore[chatState, chatMsg](), sys.Clone()).Restore(keys))
}

// memoCursor is a cursor on chatter's initial world with a memo of
// 2^bits entries, the world's actions, and step, which takes one on the
// cursor and returns its memo's name.
func memoCursor(t *testing.T, bits uint) (*model.Cursor[chatState, chatMsg], []model.Action, func(model.Action) model.MemoRef) {
	sys := model.MustNewSystem[chatState, chatMsg](chatter{}, model.Config{})
	c := model.NewCursor(model.NewStore[chatState, chatMsg](), sys.Clone())
	model.SetCursorMemoBits(c, bits)
	vec, fp := c.AppendStored(nil, sys.Init())
	w := &model.World[chatState, chatMsg]{}
	c.Load(vec, fp, w)
	var r model.Stepped
	step := func(a model.Action) model.MemoRef {
		_, ok := c.Step(w, &a, &r)
		require.True(t, ok)
		return r.Ref()
	}
	return c, c.Actions(w, nil), step
}

// A note left on a memoized step (SetMemoTag) is read back while the step
// holds its entry, and is gone once another step takes the entry: neither
// the new step nor the old one, memoized again, has it.
func TestCursorMemoTagGoesWithItsStep(t *testing.T) {
	c, acts, step := memoCursor(t, 0) // one entry
	require.GreaterOrEqual(t, len(acts), 2)
	first := step(acts[0])
	require.Zero(t, c.MemoTag(first))
	c.SetMemoTag(first, 7)
	require.Equal(t, uint64(7), c.MemoTag(first))
	require.Equal(t, first, step(acts[0]), "served again by its entry")
	second := step(acts[1])
	require.Zero(t, c.MemoTag(first), "replaced")
	require.Zero(t, c.MemoTag(second))
	c.SetMemoTag(first, 9) // not its entry any more: ignored
	require.Zero(t, c.MemoTag(second))
	again := step(acts[0])
	require.NotEqual(t, first, again)
	require.Zero(t, c.MemoTag(again), "memoized again, with no note")
}

// The memo has two ways: two steps whose entries collide (a memo of one
// pair: every step's) both stay memoized; a third takes the place of the
// one of the two memoized longer ago, whatever was served since.
func TestCursorMemoHasTwoWays(t *testing.T) {
	c, acts, step := memoCursor(t, 1) // one pair
	require.GreaterOrEqual(t, len(acts), 3)
	first, second := step(acts[0]), step(acts[1])
	require.NotEqual(t, first>>32, second>>32, "the pair's two entries")
	c.SetMemoTag(first, 1)
	c.SetMemoTag(second, 2)
	require.Equal(t, second, step(acts[1]), "both served again")
	require.Equal(t, first, step(acts[0]))
	third := step(acts[2])
	require.Equal(t, first>>32, third>>32, "the older one's entry")
	require.Zero(t, c.MemoTag(first), "replaced")
	require.Equal(t, uint64(2), c.MemoTag(second), "kept, with its note")
	require.Equal(t, second, step(acts[1]))
}

// A search grown large gives its cursor a memo of 2^15 entries
// (UseLargeMemo): made so at the first step when asked before it, or
// made anew in place of the small one after, its steps dropped and
// memoized again under new serials, so that a MemoRef taken before names
// no step after.
func TestCursorLargeMemo(t *testing.T) {
	c, acts, step := memoCursor(t, 13)
	first := step(acts[0])
	c.SetMemoTag(first, 7)
	c.UseLargeMemo()
	require.Equal(t, 1<<15, model.MemoLen(c))
	require.Zero(t, c.MemoTag(first), "dropped")
	again := step(acts[0])
	require.Greater(t, uint32(again), uint32(first), "memoized again, under a new serial")
	require.Zero(t, c.MemoTag(again))
	c.UseLargeMemo() // large already: kept
	require.Equal(t, again, step(acts[0]))

	sys := model.MustNewSystem[chatState, chatMsg](chatter{}, model.Config{})
	c = model.NewCursor(model.NewStore[chatState, chatMsg](), sys.Clone())
	c.UseLargeMemo()
	require.Zero(t, model.MemoLen(c), "made at the first step")
	vec, fp := c.AppendStored(nil, sys.Init())
	w := &model.World[chatState, chatMsg]{}
	c.Load(vec, fp, w)
	acts = c.Actions(w, nil)
	var r model.Stepped
	got, ok := c.Step(w, &acts[0], &r)
	require.True(t, ok)
	require.Equal(t, 1<<15, model.MemoLen(c), "made large at the first step")
	next := &model.World[chatState, chatMsg]{}
	sys.Apply(w, acts[0], next)
	require.Equal(t, sys.HashWorld(next), got)
}

// A cursor's first step makes its memo: a search's 2^13 entries, or
// 2^8 for a cursor told it takes few steps (UseSmallMemo), which steps
// alike.
func TestCursorSmallMemo(t *testing.T) {
	sys := model.MustNewSystem[chatState, chatMsg](chatter{}, model.Config{})
	for _, small := range []bool{false, true} {
		c := model.NewCursor(model.NewStore[chatState, chatMsg](), sys.Clone())
		if small {
			c.UseSmallMemo()
		}
		vec, fp := c.AppendStored(nil, sys.Init())
		w := &model.World[chatState, chatMsg]{}
		c.Load(vec, fp, w)
		require.Zero(t, model.MemoLen(c))
		acts := c.Actions(w, nil)
		require.NotEmpty(t, acts)
		var r model.Stepped
		got, ok := c.Step(w, &acts[0], &r)
		require.True(t, ok)
		want := map[bool]int{false: 1 << 13, true: 1 << 8}[small]
		require.Equal(t, want, model.MemoLen(c), "small %v", small)
		next := &model.World[chatState, chatMsg]{}
		sys.Apply(w, acts[0], next)
		require.Equal(t, sys.HashWorld(next), got, "small %v", small)
	}
}

// A cursor's DigestEpoch changes whenever a Load changes the loaded
// nodes' digests, loads in any order into one world: the search reuses a
// Verdict found for one epoch (checker's judgeStep), so an epoch that
// stayed while a digest changed would pass a world it never judged.
func TestDigestEpochFollowsTheDigests(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		sys := chatterSystem(rt)
		st := model.NewStore[chatState, chatMsg]()
		st.SetDigests(2, func(_ model.NodeID, s chatState, d []uint32) { d[0], d[1] = uint32(s.Said), uint32(s.Heard%2) })
		c := model.NewCursor(st, sys.Clone())
		var stored [][]byte
		w, next := sys.Init(), &model.World[chatState, chatMsg]{}
		for range rapid.IntRange(1, 20).Draw(rt, "steps") {
			vec, _ := c.AppendStored(nil, w)
			stored = append(stored, vec)
			acts := sys.Actions(w, nil)
			if len(acts) == 0 {
				break
			}
			sys.Apply(w, acts[rapid.IntRange(0, len(acts)-1).Draw(rt, "action")], next)
			w, next = next, w
		}
		var into model.World[chatState, chatMsg]
		var last [2][]uint32
		epoch := c.DigestEpoch()
		for k, vec := range rapid.Permutation(stored).Draw(rt, "order") {
			c.Load(vec, 0, &into)
			now := [2][]uint32{append([]uint32(nil), c.Digests(0)...), append([]uint32(nil), c.Digests(1)...)}
			for j, d := range now {
				want := make([]uint32, len(into.Nodes))
				for i, s := range into.Nodes {
					want[i] = uint32(s.Said)
					if j == 1 {
						want[i] = uint32(s.Heard % 2)
					}
				}
				require.Equal(rt, want, d, "digest %d", j)
			}
			if k > 0 && (!slices.Equal(now[0], last[0]) || !slices.Equal(now[1], last[1])) {
				require.NotEqual(rt, epoch, c.DigestEpoch(), "the digests changed, the epoch did not")
			}
			last, epoch = now, c.DigestEpoch()
		}
	})
}

// fourChatter is chatter with a fourth node, which never speaks first.
type fourChatter struct{ chatter }

func (fourChatter) Nodes() int { return 4 }

// A store serves systems of one size (a link's place is to*n+from): a
// cursor of another size on it panics, one of the same size does not.
func TestStoreServesOneSize(t *testing.T) {
	three := model.MustNewSystem[chatState, chatMsg](chatter{}, model.Config{})
	four := model.MustNewSystem[chatState, chatMsg](fourChatter{}, model.Config{})
	st := model.NewStore[chatState, chatMsg]()
	model.NewCursor(st, three.Clone())
	require.NotPanics(t, func() { model.NewCursor(st, three.Clone()) })
	require.PanicsWithValue(t, "model: a cursor of 4 nodes on a store of 3", func() { model.NewCursor(st, four.Clone()) })
}

// Two cursors, made one after the other as a search's workers are, write
// their loaded worlds and their own scratch on cache lines no other
// cursor's lies on (a write took the line from the other worker's core:
// centralized N=6 R=2 on two workers ran 0.41-0.50 s, 0.40-0.42 s after).
func TestCursorsWriteOnLinesOfTheirOwn(t *testing.T) {
	sys := model.MustNewSystem[chatState, chatMsg](chatter{}, model.Config{})
	st := model.NewStore[chatState, chatMsg]()
	w := sys.Init()
	a := sys.Actions(w, nil)[0]
	next := &model.World[chatState, chatMsg]{}
	sys.Apply(w, a, next) // messages in flight
	var spans [2][][2]uintptr
	worlds := [2]model.World[chatState, chatMsg]{}
	for i := range spans {
		c := model.NewCursor(st, sys.Clone())
		vec, fp := c.AppendStored(nil, next)
		c.Load(vec, fp, &worlds[i])
		require.NotEmpty(t, worlds[i].Net)
		spans[i] = append(model.CursorScratch(c), model.CapSpan(worlds[i].Nodes), model.CapSpan(worlds[i].Timers), model.CapSpan(worlds[i].Net))
	}
	const line = 128 // internal/lines.Size
	for _, p := range spans[0] {
		for _, q := range spans[1] {
			if p[0] == p[1] || q[0] == q[1] {
				continue // no array (a store with no digests)
			}
			require.False(t, p[0]/line <= (q[1]-1)/line && q[0]/line <= (p[1]-1)/line,
				"arrays at %#x-%#x and %#x-%#x share a line", p[0], p[1], q[0], q[1])
		}
	}
}
