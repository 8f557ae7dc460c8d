package coordination

import (
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/coordcheck/coordcheck/model"
)

// Along random runs of every workload, with crashes and either timer
// semantics: every node state and every message in flight decodes to
// itself, the world's encoding round-trips, and a step never changes the
// world it starts from (states are values, whatever slices they hold).
func TestCodecRoundTripAndPurity(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		var p *Protocol
		switch rapid.IntRange(0, 5).Draw(rt, "workload") {
		case 0:
			reads := rapid.SampledFrom([]ReadMode{LeaderReads, LocalReads, SyncReads}).Draw(rt, "reads")
			p = NewRegister(3, 2, 3, reads)
			p.Leader = rapid.SampledFrom([]LeaderMode{FormulaLeader, ElectedLeader}).Draw(rt, "leader")
			p.NoLeaseWait = p.Leader == ElectedLeader && rapid.Bool().Draw(rt, "noleasewait")
		case 1:
			p = NewLock(3, rapid.IntRange(2, 3).Draw(rt, "clients"), false, false)
		case 2:
			p = NewLock(3, 2, true, rapid.Bool().Draw(rt, "sequencers"))
			p.LockDelay = rapid.SampledFrom([]LockDelay{NoLockDelay, ShortLockDelay, LongLockDelay}).Draw(rt, "lockdelay")
		case 3:
			w := rapid.SampledFrom([]Workload{SimpleLockClients, RWLockClients, BarrierClients, MemberClients, ElectionClients, CounterClients}).Draw(rt, "recipe")
			p = NewRecipe(w, rapid.SampledFrom([]int{1, 3}).Draw(rt, "replicas"), rapid.IntRange(2, 3).Draw(rt, "clients"), rapid.Bool().Draw(rt, "broken"))
		case 5:
			p = NewChubbySession(3, 2, 2, rapid.SampledFrom([]SessionMode{GraceSessions, NoGrace, KeepCacheInJeopardy}).Draw(rt, "sessions"))
		default:
			p = NewRegister(1, 2, 3, LeaderReads)
			p.Cache = rapid.SampledFrom([]CacheMode{Invalidating, LateInvalidation}).Draw(rt, "cache")
		}
		faults, err := model.ParseFaults(rapid.SampledFrom([]string{"none", "crash=1", "crash=2"}).Draw(rt, "faults"))
		require.NoError(rt, err)
		cfg := model.Config{Faults: faults, History: true,
			Timers: rapid.SampledFrom([]model.TimerMode{model.TimersPerfect, model.TimersFree}).Draw(rt, "timers")}
		sys := model.MustNewSystem[State, Msg](p, cfg)
		w, next := sys.Init(), &model.World[State, Msg]{}
		for range rapid.IntRange(0, 80).Draw(rt, "steps") {
			for i, s := range w.Nodes {
				b := p.AppendState([]byte{7}, s)
				got, rest := p.ReadState(b[1:])
				require.Equal(rt, s, got, "p%d", i)
				require.Empty(rt, rest)
			}
			for _, e := range w.Net {
				b := p.AppendMsg(nil, e.Msg)
				got, rest := p.ReadMsg(b)
				require.Equal(rt, e.Msg, got, p.FormatMsg(e.Msg))
				require.Empty(rt, rest)
			}
			enc := sys.Encode(nil, w)
			var back model.World[State, Msg]
			sys.Decode(enc, &back)
			require.Equal(rt, enc, sys.Encode(nil, &back))
			require.Equal(rt, sys.FormatWorld(w), sys.FormatWorld(&back))

			acts := sys.Actions(w, nil)
			if len(acts) == 0 {
				return
			}
			sys.Apply(w, acts[rapid.IntRange(0, len(acts)-1).Draw(rt, "action")], next)
			require.Equal(rt, enc, sys.Encode(nil, w), "the step changed the world it started from")
			w, next = next, w
		}
	})
}

// Different messages on one link print differently, and so do different
// states of a node.
func TestFormatsDistinguish(t *testing.T) {
	p := NewRegister(3, 2, 2, LeaderReads)
	msgs := []Msg{
		{Kind: Request, Seq: 0, Op: Op{Kind: OpGetData, Path: "/x"}},
		{Kind: Request, Seq: 1, Op: Op{Kind: OpGetData, Path: "/x"}},
		{Kind: Reply, Seq: 0, Res: Result{Data: 1}},
		{Kind: Reply, Seq: 0, Res: Result{}},
		{Kind: Reply, Seq: 0, Res: Result{Children: []string{}}},
		{Kind: Reply, Seq: 0, Res: Result{Code: ConnLoss}},
		{Kind: Propose, Epoch: 1, N: 0, Txn: Txn{Epoch: 1, Client: 0, Origin: 1, Seq: 0, Op: Op{Kind: OpSetData, Path: "/x", Data: 1, Version: AnyVersion}}},
		{Kind: Propose, Epoch: 1, N: 0, Txn: Txn{Epoch: 1, Client: 0, Origin: 0, Seq: 0, Op: Op{Kind: OpSetData, Path: "/x", Data: 1, Version: AnyVersion}}},
		{Kind: Ack, Epoch: 1, N: 1},
		{Kind: Commit, Epoch: 1, N: 1},
		{Kind: AckEpoch, Epoch: 2, N: 1},
		{Kind: AckEpoch, Epoch: 2, N: 1, Log: []Txn{{Epoch: 1, Origin: NoOrigin, Op: Op{Kind: OpCloseSession}}}},
		{Kind: Answer, Epoch: 1, Client: 1, Seq: 0, Op: Op{Kind: OpGetData, Path: "/x"}, Res: Result{Data: 2}},
		{Kind: Notify, Event: Event{Path: "/lock/n-0", Kind: Deleted}},
		{Kind: Write, N: 1, Seq: 0},
		{Kind: Written, Res: Result{Code: BadVersion}},
	}
	seen := map[string]int{}
	encs := map[string]int{}
	for i, m := range msgs {
		text := p.FormatMsg(m)
		j, dup := seen[text]
		require.False(t, dup, "%d and %d both print %s", i, j, text)
		seen[text] = i
		enc := string(p.AppendMsg(nil, m))
		j, dup = encs[enc]
		require.False(t, dup, "%d and %d encode alike", i, j)
		encs[enc] = i
	}
	require.Equal(t, "PROPOSE(e1 0 e1:p3#0@p1:setData(/x,1))", p.FormatMsg(msgs[6]))
	require.Equal(t, "ACKEPOCH(e2 cur=1 [e1:p3:closeSession()])", p.FormatMsg(msgs[11]))
	require.Equal(t, "REPLY(#0 ok [])", p.FormatMsg(msgs[4]))
}
