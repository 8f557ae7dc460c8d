package checker_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/property"
	"github.com/coordcheck/coordcheck/protocols/mutex"
	ra "github.com/coordcheck/coordcheck/protocols/ricartagrawala"
)

// The codec self-check is tested with a small protocol whose codec can be
// broken on purpose. Each of two nodes counts the pings it received and
// remembers who sent the last one; a node pings the other up to twice.

type pingState struct {
	Sent, Got uint8
	Last      model.NodeID
	Seen      []uint8 // the ping numbers received, in order
	Mark      bool    // set by the input "mark" (bug hiddenField only)
}

type pingMsg struct{ N uint8 }

// codecBug is how the codec is broken.
type codecBug uint8

const (
	noBug       codecBug = iota
	forgetLast           // Last is not encoded
	swapped              // Got is decoded into Sent and Sent into Got
	panicky              // ReadState indexes past Seen once a node has got two pings
	overread             // ReadMsg reads one byte too many
	forgetMsgN           // AppendMsg leaves N out
	hiddenField          // Mark, set by an input that changes nothing else, is not encoded
	impure               // Step numbers its pings by its own count of calls, not by the state
)

type pingProto struct {
	bug   codecBug
	calls uint8 // the Steps taken (bug impure)
}

func (p *pingProto) Nodes() int                                       { return 2 }
func (p *pingProto) Init(model.NodeID, *model.Out[pingMsg]) pingState { return pingState{} }

func (p *pingProto) Inputs(_ model.NodeID, s pingState, dst []model.Input) []model.Input {
	if s.Sent < 2 {
		dst = append(dst, mutex.Request)
	}
	if p.bug == hiddenField && !s.Mark {
		dst = append(dst, "mark")
	}
	return dst
}

func (p *pingProto) Step(self model.NodeID, s pingState, ev model.Event[pingMsg], out *model.Out[pingMsg]) pingState {
	switch ev.Kind {
	case model.Environment:
		if ev.Input == "mark" {
			s.Mark = true
			break
		}
		s.Sent++
		n := s.Sent
		if p.bug == impure {
			p.calls++
			n = p.calls
		}
		out.Send(1-self, pingMsg{n})
	case model.Receive:
		s.Got++
		s.Last = ev.From
		s.Seen = append(s.Seen[:len(s.Seen):len(s.Seen)], ev.Msg.N)
	}
	return s
}

func (p *pingProto) AppendState(b []byte, s pingState) []byte {
	b = append(b, s.Sent, s.Got)
	if p.bug != forgetLast {
		b = append(b, byte(s.Last))
	}
	if p.bug != hiddenField {
		b = model.AppendBool(b, s.Mark)
	}
	b = append(b, byte(len(s.Seen)))
	return append(b, s.Seen...)
}

func (p *pingProto) ReadState(b []byte) (pingState, []byte) {
	var s pingState
	s.Sent, s.Got, b = b[0], b[1], b[2:]
	if p.bug == swapped {
		s.Sent, s.Got = s.Got, s.Sent
	}
	if p.bug != forgetLast {
		s.Last, b = model.NodeID(b[0]), b[1:]
	}
	if p.bug != hiddenField {
		s.Mark, b = model.ReadBool(b)
	}
	k := int(b[0])
	b = b[1:]
	if p.bug == panicky && k == 2 {
		_ = b[k+5] // the bug: reads past the end
	}
	if k > 0 {
		s.Seen = append([]uint8(nil), b[:k]...)
	}
	return s, b[k:]
}

func (p *pingProto) AppendMsg(b []byte, m pingMsg) []byte {
	if p.bug == forgetMsgN {
		return append(b, 0)
	}
	return append(b, m.N)
}

func (p *pingProto) ReadMsg(b []byte) (pingMsg, []byte) {
	if p.bug == overread {
		return pingMsg{b[0]}, b[2:]
	}
	return pingMsg{b[0]}, b[1:]
}

func (p *pingProto) FormatState(_ model.NodeID, s pingState) string { return fmt.Sprintf("%+v", s) }
func (p *pingProto) FormatMsg(m pingMsg) string                     { return fmt.Sprintf("PING(%d)", m.N) }

func pingSpec(bug codecBug) *checker.Spec[pingState, pingMsg] {
	return &checker.Spec[pingState, pingMsg]{System: model.MustNewSystem[pingState, pingMsg](&pingProto{bug: bug}, model.Config{})}
}

// A sound codec passes: Check explores the whole space.
func TestSelfCheckPassesSoundCodec(t *testing.T) {
	sp := pingSpec(noBug)
	require.NoError(t, sp.CheckCodec(checker.SelfCheckStates))
	rep := sp.Check(checker.Options{})
	require.Empty(t, rep.Error)
	require.Equal(t, checker.Pass, rep.Verdict)
	// Each node sends 0..2 pings and the other receives up to those,
	// in order: (1+2+3)^2 = 36 states.
	require.Equal(t, uint64(36), rep.States)
}

// A search told to stop before its codec self-check is done stops there,
// in every mode: inconclusive, the bound named, no state searched, no
// error (the codec was not found at fault); never a pass. The 36-state
// space would pass at once if the search went on.
func TestSelfCheckStopsWhenTold(t *testing.T) {
	stop := make(chan struct{})
	close(stop)
	for _, mode := range []checker.Strategy{checker.BFS, checker.DFS, checker.Random} {
		rep := pingSpec(noBug).Check(checker.Options{Strategy: mode, Walks: 10, Stop: stop})
		require.Equal(t, checker.Inconclusive, rep.Verdict, "mode %v", mode)
		require.Equal(t, "interrupted", rep.Bound, "mode %v", mode)
		require.Empty(t, rep.Error, "mode %v", mode)
		require.Zero(t, rep.States, "mode %v", mode)
	}
}

// Each broken codec stops Check before the search, with an error that
// names the type and the field at fault, on one line; never a pass.
func TestSelfCheckNamesTheField(t *testing.T) {
	for _, c := range []struct {
		bug  codecBug
		want string
	}{
		{forgetLast, "codec self-check: checker_test.pingState.Last: decoded p0 want p1 (state of p0 at depth 2)"},
		// Shown only by a world met again, whose encoding was first seen
		// without the mark: the round trip alone misses it, since the
		// decoder's guess (false) fits the first.
		{hiddenField, "codec self-check: two different worlds at depth 1 encode alike: model.World[checker_test.pingState, checker_test.pingMsg].Nodes[0].Mark: true and false"},
		{swapped, "codec self-check: checker_test.pingState.Sent: decoded 0 want 1 (state of p0 at depth 1)"},
		{panicky, "codec self-check: checker_test.pingState codec (state of p1 at depth 4) panicked: runtime error: index out of range [7] with length 3"},
		{overread, "codec self-check: checker_test.pingMsg: ReadMsg read 2 bytes of the 1 AppendMsg wrote (message p0->p1 at depth 1)"},
		{forgetMsgN, "codec self-check: checker_test.pingMsg.N: decoded 0 want 1 (message p0->p1 at depth 1)"},
		// Not a codec's fault, but a Step's that the same check shows:
		// the search takes a step once per node state and event.
		{impure, "codec self-check: the step input p0 request at depth 1 gives another result when taken again: does Step read anything but its arguments (a global, a clock, a state it changed before)?"},
	} {
		sp := pingSpec(c.bug)
		for _, mode := range []checker.Strategy{checker.BFS, checker.DFS, checker.Random} {
			rep := sp.Check(checker.Options{Strategy: mode, Walks: 10})
			require.Equal(t, c.want, rep.Error, "bug %d", c.bug)
			require.Equal(t, checker.Inconclusive, rep.Verdict)
			require.Zero(t, rep.States, "no search is made")
			require.NotContains(t, rep.Error, "\n")
		}
		var ce *checker.CodecError
		require.ErrorAs(t, sp.CheckCodec(checker.SelfCheckStates), &ce)
	}
}

// A property that writes to the world it judges is refused before the
// search: the search loads each state into the same world, setting only
// the nodes that changed (model.Cursor.Load), so the write would carry
// over to the states judged after it.
func TestSelfCheckRefusesAWritingProperty(t *testing.T) {
	sp := pingSpec(noBug)
	sp.Invariants = []property.Invariant[pingState, pingMsg]{
		{Name: "reads", Holds: func(w *model.World[pingState, pingMsg]) (bool, string) { return w.Nodes[0].Got < 3, "" }},
		{Name: "writes", Holds: func(w *model.World[pingState, pingMsg]) (bool, string) {
			if w.Nodes[1].Got == 1 {
				w.Nodes[1].Sent = 2 // the bug
			}
			return true, ""
		}},
	}
	want := "codec self-check: invariant writes changed the world it was given at depth 2: properties must only read it"
	for _, mode := range []checker.Strategy{checker.BFS, checker.DFS} {
		rep := sp.Check(checker.Options{Strategy: mode})
		require.Equal(t, want, rep.Error)
		require.Equal(t, checker.Inconclusive, rep.Verdict)
		require.Zero(t, rep.States, "no search is made")
	}
	sp.Invariants = sp.Invariants[:1]
	sp.Liveness = []property.Liveness[pingState, pingMsg]{{Name: "pending-writes", Pending: func(w *model.World[pingState, pingMsg], i model.NodeID) bool {
		w.Nodes[i].Last = 1 - i // the bug
		return false
	}}}
	require.Equal(t, "codec self-check: liveness property pending-writes changed the world it was given at depth 0: properties must only read it",
		sp.Check(checker.Options{}).Error)
	sp.Liveness = nil
	rep := sp.Check(checker.Options{})
	require.Equal(t, checker.Pass, rep.Verdict)
	require.Equal(t, uint64(36), rep.States)
}

// The self-check walk (the fuzz target's) and the decoding of untrusted
// bytes: a walk of a sound codec passes, one of a broken codec names it;
// garbage decodes to an error, never a panic.
func TestSelfCheckWalkAndDecode(t *testing.T) {
	require.NoError(t, pingSpec(noBug).CheckCodecWalk([]byte{0, 0, 1, 1, 0, 1}))
	require.EqualError(t, pingSpec(swapped).CheckCodecWalk([]byte{0}),
		"codec self-check: checker_test.pingState.Sent: decoded 0 want 1 (state of p0 at depth 1)")
	for _, b := range [][]byte{nil, {1}, {1, 2, 3, 4, 5, 6, 7, 8, 9}, {0, 0, 0, 9}} {
		require.NoError(t, pingSpec(noBug).CheckDecode(b))
		require.NoError(t, pingSpec(panicky).CheckDecode(b))
	}
	_, err := model.DecodeState[pingState, pingMsg](&pingProto{}, []byte{0, 0, 0, 0, 9})
	require.EqualError(t, err, "malformed state encoding (5 bytes): runtime error: slice bounds out of range [:9] with capacity 0")
	_, err = model.DecodeState[pingState, pingMsg](&pingProto{}, []byte{0, 0, 0, 0, 0, 7})
	require.EqualError(t, err, "malformed state encoding (6 bytes): 1 bytes left over after byte 5")
}

// An invariant split for the search (property.Invariant.Digest) must be
// whole and judge as its Holds does: the self-check refuses one that is
// not, before a search could trust it.
func TestSelfCheckRefusesAWrongDigest(t *testing.T) {
	sp := raSpec(2, 1, model.Config{})
	// Holds finds the world good only while no node has left its
	// first phase; Verdict, on the digests, always.
	phase0 := func(_ model.NodeID, s ra.State) uint32 { return uint32(s.Phase) }
	holds := func(w *model.World[ra.State, ra.Msg]) (bool, string) {
		for _, s := range w.Nodes {
			if s.Phase != 0 {
				return false, "a node moved"
			}
		}
		return true, ""
	}
	always := func([]uint32, uint64) bool { return true }
	sp.Invariants = []checker.Invariant[ra.State, ra.Msg]{{Name: "still", Holds: holds, Digest: phase0, Verdict: always}}
	rep := sp.Check(checker.Options{})
	require.Equal(t, checker.Inconclusive, rep.Verdict)
	require.Equal(t, "codec self-check: invariant still at depth 1: Verdict on the nodes' digests says true, Holds says false: the two must agree", rep.Error)

	sp.Invariants[0].Verdict = nil
	rep = sp.Check(checker.Options{})
	require.Equal(t, checker.Inconclusive, rep.Verdict)
	require.Equal(t, "invariant still: Digest and Verdict go together, with Holds, not Judge (property.Invariant)", rep.Error)

	// Made right, the split finds what Holds finds.
	sp.Invariants[0].Verdict = func(d []uint32, _ uint64) bool {
		for _, v := range d {
			if v != 0 {
				return false
			}
		}
		return true
	}
	rep = sp.Check(checker.Options{})
	require.Equal(t, checker.Violated, rep.Verdict)
	require.Equal(t, "a node moved", rep.Counterexample.Detail)
	require.Len(t, rep.Counterexample.Steps, 1)
}

// A split invariant whose Verdict disagrees with Holds only past the
// self-check's states is caught by the search: a violation that names the
// disagreement, never a pass.
func TestSearchReportsADigestDisagreement(t *testing.T) {
	sp := raSpec(3, 1, model.Config{})
	rounds := func(_ model.NodeID, s ra.State) uint32 { return uint32(s.Rounds) }
	// Verdict says no once every node has been in its critical section,
	// which only the deepest states show; Holds always says yes.
	allDone := func(d []uint32, _ uint64) bool {
		for _, v := range d {
			if v == 0 {
				return true
			}
		}
		return false
	}
	always := func(*model.World[ra.State, ra.Msg]) (bool, string) { return true, "" }
	sp.Invariants = []checker.Invariant[ra.State, ra.Msg]{{Name: "split", Holds: always, Digest: rounds, Verdict: allDone}}
	for _, workers := range []int{1, 2} {
		rep := sp.Check(checker.Options{Workers: workers})
		require.Equal(t, checker.Violated, rep.Verdict, rep.Error)
		require.Equal(t, "split", rep.Counterexample.Property)
		require.Equal(t, "the invariant's Verdict finds it violated but its Holds finds it holds: the two must agree (property.Invariant.Digest)",
			rep.Counterexample.Detail)
	}
}
