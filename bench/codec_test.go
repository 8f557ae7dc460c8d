package bench

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/maekawa"
	"github.com/coordcheck/coordcheck/protocols/mutex"
	ra "github.com/coordcheck/coordcheck/protocols/ricartagrawala"
)

// The derived codec (model.DeriveCodec) against the hand-written ones of
// the SPIN rows' protocols, Ricart-Agrawala and Maekawa: a state or a
// message encoded, and read back, through the interface the System calls.
// The messages of both are derived now; kindTS is the hand-written codec
// they had, kept here to compare.
//
//	go test ./bench/ -run '^$' -bench Codec -benchmem

// mutexCore is what a mutual-exclusion spec needs of a protocol, and no
// codec: a protocol seen through it has its codec derived.
type mutexCore[S, M any] interface {
	model.Protocol[S, M]
	invariants.CriticalSection[S]
	model.Waiter[S]
	model.StateFormatter[S]
	model.MsgFormatter[M]
}

// derived hides a protocol's hand-written codec, so that a System runs the
// whole check on the codec derived from the types.
type derived[S, M any] struct{ mutexCore[S, M] }

// kindTS is the hand-written {Kind, TS} message codec the four mutual
// exclusion protocols each had, for Ricart-Agrawala's messages, and
// mkKindTS for Maekawa's.
type (
	kindTS   struct{}
	mkKindTS struct{}
)

func (kindTS) AppendMsg(b []byte, m ra.Msg) []byte {
	return model.AppendUvarint(append(b, byte(m.Kind)), uint64(m.TS))
}

func (kindTS) ReadMsg(b []byte) (ra.Msg, []byte) {
	v, rest := model.ReadUvarint(b[1:])
	return ra.Msg{Kind: ra.Kind(b[0]), TS: uint32(v)}, rest
}

func (mkKindTS) AppendMsg(b []byte, m maekawa.Msg) []byte {
	return model.AppendUvarint(append(b, byte(m.Kind)), uint64(m.TS))
}

func (mkKindTS) ReadMsg(b []byte) (maekawa.Msg, []byte) {
	v, rest := model.ReadUvarint(b[1:])
	return maekawa.Msg{Kind: maekawa.Kind(b[0]), TS: uint32(v)}, rest
}

// raHand and mkHand are the protocols with every codec hand-written, as
// before the messages' was derived: the System calls the protocol itself.
type (
	raHand struct {
		*ra.Protocol
		kindTS
	}
	mkHand struct {
		*maekawa.Protocol
		mkKindTS
	}
)

// raStates and maekawaStates are states met in a check.
var (
	raStates = []ra.State{
		{},
		{Phase: mutex.Wanted, Clock: 3, TS: 3, Replies: 1, Deferred: 0b100},
		{Phase: mutex.Held, Clock: 200, TS: 130, Replies: 2, Deferred: 0b11, Rounds: 1},
	}
	maekawaStates = func() []maekawa.State {
		q := maekawa.State{Phase: mutex.Wanted, Clock: 2, TS: 2, Grants: 1, Voted: 1}
		q.Queued[0], q.Queued[2] = 1, 2
		return []maekawa.State{{Voted: maekawa.Nobody}, {Phase: mutex.Held, Clock: 1, TS: 1, Grants: 3, Voted: 0}, q}
	}()
)

func benchState[S, M any](b *testing.B, c model.StateCodec[S], states []S) {
	buf := make([]byte, 0, 256)
	for b.Loop() {
		for _, s := range states {
			buf = c.AppendState(buf[:0], s)
			if _, rest := c.ReadState(buf); len(rest) != 0 {
				b.Fatal("state not read whole")
			}
		}
	}
}

func BenchmarkCodecRAStateHand(b *testing.B) {
	benchState[ra.State, ra.Msg](b, ra.New(3, 1), raStates)
}

func BenchmarkCodecRAStateDerived(b *testing.B) {
	c, err := model.DeriveCodec[ra.State, ra.Msg]()
	require.NoError(b, err)
	benchState[ra.State, ra.Msg](b, c, raStates)
}

func BenchmarkCodecMaekawaStateHand(b *testing.B) {
	p, err := maekawa.New(3, 1, maekawa.AllSets(3))
	require.NoError(b, err)
	benchState[maekawa.State, maekawa.Msg](b, p, maekawaStates)
}

func BenchmarkCodecMaekawaStateDerived(b *testing.B) {
	c, err := model.DeriveCodec[maekawa.State, maekawa.Msg]()
	require.NoError(b, err)
	benchState[maekawa.State, maekawa.Msg](b, c, maekawaStates)
}

var raMsgs = []ra.Msg{{Kind: ra.Request, TS: 3}, {Kind: ra.Reply, TS: 200}, {Kind: ra.App, TS: 1}}

func benchMsg[M comparable](b *testing.B, c model.MsgCodec[M], msgs []M) {
	buf := make([]byte, 0, 16)
	for b.Loop() {
		for _, m := range msgs {
			buf = c.AppendMsg(buf[:0], m)
			if got, _ := c.ReadMsg(buf); got != m {
				b.Fatal("message not read back")
			}
		}
	}
}

func BenchmarkCodecRAMsgHand(b *testing.B) { benchMsg[ra.Msg](b, kindTS{}, raMsgs) }

func BenchmarkCodecRAMsgDerived(b *testing.B) {
	c, err := model.DeriveCodec[ra.State, ra.Msg]()
	require.NoError(b, err)
	benchMsg[ra.Msg](b, c, raMsgs)
}

// The derived codecs are as good as the hand-written ones, though their
// bytes differ: the same check finds as many states, transitions and
// deadlocks with every codec hand-written, as shipped (the messages'
// derived) and every codec derived, for Ricart-Agrawala N=3 (the SPIN
// row, 2357 states) and Maekawa N=3 (61007 states, 171 deadlocked).
func TestDerivedCodecSameCounts(t *testing.T) {
	raP := ra.New(3, 1)
	raP.Clocks = ra.SPIN
	mk, err := maekawa.New(3, 1, maekawa.AllSets(3))
	require.NoError(t, err)
	for _, c := range []struct {
		name          string
		checks        []func() *checker.Report // hand, shipped, derived
		states, edges uint64
		verdict       checker.Verdict
	}{
		{"ricartagrawala n=3", []func() *checker.Report{
			func() *checker.Report { return mutexCheck[ra.State, ra.Msg](t, raHand{Protocol: raP}, 0) },
			func() *checker.Report { return mutexCheck[ra.State, ra.Msg](t, raP, 0) },
			func() *checker.Report { return mutexCheck[ra.State, ra.Msg](t, derived[ra.State, ra.Msg]{raP}, 0) },
		}, 2357, 6282, checker.Pass},
		{"maekawa n=3", []func() *checker.Report{
			func() *checker.Report { return mutexCheck[maekawa.State, maekawa.Msg](t, mkHand{Protocol: mk}, 0) },
			func() *checker.Report { return mutexCheck[maekawa.State, maekawa.Msg](t, mk, 0) },
			func() *checker.Report {
				return mutexCheck[maekawa.State, maekawa.Msg](t, derived[maekawa.State, maekawa.Msg]{mk}, 0)
			},
		}, 61007, 239216, checker.Violated},
	} {
		var first *checker.Report
		for i, check := range c.checks {
			rep := check()
			require.Empty(t, rep.Error, "%s codec %d", c.name, i)
			require.Equal(t, c.verdict, rep.Verdict, "%s codec %d", c.name, i)
			require.Equal(t, c.states, rep.States, "%s codec %d", c.name, i)
			require.Equal(t, c.edges, rep.Transitions, "%s codec %d", c.name, i)
			if first == nil {
				first = rep
			}
			require.Equal(t, first.ViolationCounts, rep.ViolationCounts, "%s codec %d", c.name, i)
		}
	}
}

// mutexCheck checks mutual exclusion and deadlock freedom of p on the
// whole state space, on the given workers (0: one per core).
func mutexCheck[S, M any](t testing.TB, p mutexCore[S, M], workers int) *checker.Report {
	sys, err := model.NewSystem[S, M](p, model.Config{})
	require.NoError(t, err)
	_, hand := p.(model.StateCodec[S])
	_, isDerived := p.(derived[S, M])
	require.Equal(t, !isDerived, hand, "derived hides the state codec")
	sp := &checker.Spec[S, M]{
		System:     sys,
		Invariants: []checker.Invariant[S, M]{invariants.MutualExclusion[S, M](p)},
		Deadlock:   true,
	}
	return sp.Check(checker.Options{Exhaust: true, Workers: workers})
}

// A whole check of a SPIN row, on one worker, with every codec
// hand-written (Hand, as before the messages' was derived), as shipped
// (Shipped: the state's hand-written, the messages' derived) or every
// codec derived (Derived):
//
//	go test ./bench/ -run '^$' -bench CodecCheck -benchtime 3x
func benchCheck[S, M any](b *testing.B, p mutexCore[S, M], states uint64) {
	var rep *checker.Report
	for b.Loop() {
		rep = mutexCheck(b, p, 1)
	}
	require.Equal(b, states, rep.States)
	b.ReportMetric(rep.StatesPerSecond, "states/s")
}

func raN4() *ra.Protocol {
	p := ra.New(4, 1)
	p.Clocks = ra.SPIN
	return p
}

func maekawaN4Grid(b *testing.B) *maekawa.Protocol {
	sets, err := maekawa.GridSets(4)
	require.NoError(b, err)
	p, err := maekawa.New(4, 1, sets)
	require.NoError(b, err)
	return p
}

func BenchmarkCodecCheckRA_N4_R1_Hand(b *testing.B) {
	benchCheck[ra.State, ra.Msg](b, raHand{Protocol: raN4()}, 1470924)
}

func BenchmarkCodecCheckRA_N4_R1_Shipped(b *testing.B) {
	benchCheck[ra.State, ra.Msg](b, raN4(), 1470924)
}

func BenchmarkCodecCheckRA_N4_R1_Derived(b *testing.B) {
	benchCheck[ra.State, ra.Msg](b, derived[ra.State, ra.Msg]{raN4()}, 1470924)
}

func BenchmarkCodecCheckMK_N4_Grid_Hand(b *testing.B) {
	benchCheck[maekawa.State, maekawa.Msg](b, mkHand{Protocol: maekawaN4Grid(b)}, 2272135)
}

func BenchmarkCodecCheckMK_N4_Grid_Shipped(b *testing.B) {
	benchCheck[maekawa.State, maekawa.Msg](b, maekawaN4Grid(b), 2272135)
}

func BenchmarkCodecCheckMK_N4_Grid_Derived(b *testing.B) {
	benchCheck[maekawa.State, maekawa.Msg](b, derived[maekawa.State, maekawa.Msg]{maekawaN4Grid(b)}, 2272135)
}
