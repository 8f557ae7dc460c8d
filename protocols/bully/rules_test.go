package bully

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/model"
)

type sent struct {
	to  model.NodeID
	msg Msg
}

func sends(out *model.Out[Msg]) []sent {
	var s []sent
	out.Sends(func(to model.NodeID, m Msg) { s = append(s, sent{to, m}) })
	return s
}

// Each rule of seed 001, one step at a time.
func TestRules(t *testing.T) {
	p := New(4)
	cases := []struct {
		name  string
		self  model.NodeID
		s     State
		ev    model.Event[Msg]
		want  State
		sends []sent
	}{
		{"detect: a) ELECTION to every higher id", 1, State{Normal, 3},
			model.Event[Msg]{Kind: model.Timeout, Timer: TimerDetect},
			State{WaitOK, 3}, []sent{{2, Election}, {3, Election}}},
		{"b) ELECTION while NORMAL: OK, and an own election", 2, State{Normal, 3},
			model.Event[Msg]{Kind: model.Receive, From: 0, Msg: Election},
			State{WaitOK, 3}, []sent{{0, OK}, {3, Election}}},
		{"b) ELECTION while electing: OK only", 2, State{WaitCoord, 3},
			model.Event[Msg]{Kind: model.Receive, From: 1, Msg: Election},
			State{WaitCoord, 3}, []sent{{1, OK}}},
		{"d) OK: drop out, await COORD", 1, State{WaitOK, 3},
			model.Event[Msg]{Kind: model.Receive, From: 2, Msg: OK},
			State{WaitCoord, 3}, nil},
		{"d) a late OK changes nothing", 1, State{WaitCoord, 3},
			model.Event[Msg]{Kind: model.Receive, From: 3, Msg: OK},
			State{WaitCoord, 3}, nil},
		{"e) no OK before the timeout: COORD to every lower id", 2, State{WaitOK, 3},
			model.Event[Msg]{Kind: model.Timeout, Timer: TimerOK},
			State{Normal, 2}, []sent{{0, Coordinator}, {1, Coordinator}}},
		{"d) no COORD before the timeout: a new election", 0, State{WaitCoord, 3},
			model.Event[Msg]{Kind: model.Timeout, Timer: TimerCoord},
			State{WaitOK, 3}, []sent{{1, Election}, {2, Election}, {3, Election}}},
		{"COORD: the sender is the coordinator", 0, State{WaitCoord, 3},
			model.Event[Msg]{Kind: model.Receive, From: 2, Msg: Coordinator},
			State{Normal, 2}, nil},
	}
	for _, c := range cases {
		var out model.Out[Msg]
		got := p.Step(c.self, c.s, c.ev, &out)
		require.Equal(t, c.want, got, c.name)
		require.Equal(t, c.sends, sends(&out), c.name)
	}
	// Recovery: a restarted process forgets its coordinator and starts an
	// election (seed 001: "or P has just recovered from failure").
	var out model.Out[Msg]
	require.Equal(t, State{WaitOK, NoCoord}, p.Recover(1, State{Normal, 3}, &out))
	require.Equal(t, []sent{{2, Election}, {3, Election}}, sends(&out))
}

// A timer of another phase than the process's changes nothing: each
// timeout rule applies in its own phase only (seed 001: the detector while
// NORMAL, the ok-timeout in WAIT_OK, the coord-timeout in WAIT_COORD).
func TestTimersOfAnotherPhaseAreIgnored(t *testing.T) {
	p := New(4)
	phaseOf := map[model.TimerID]Phase{TimerDetect: Normal, TimerOK: WaitOK, TimerCoord: WaitCoord}
	for _, timer := range []model.TimerID{TimerDetect, TimerOK, TimerCoord} {
		for _, phase := range []Phase{Normal, WaitOK, WaitCoord} {
			if phase == phaseOf[timer] {
				continue
			}
			var out model.Out[Msg]
			s := State{phase, 3}
			require.Equal(t, s, p.Step(1, s, model.Event[Msg]{Kind: model.Timeout, Timer: timer}, &out), "timer %d in %v", timer, phase)
			require.Empty(t, sends(&out), "timer %d in %v", timer, phase)
		}
	}
}

// After each step exactly the timer of the phase is armed: the failure
// detector while NORMAL with a coordinator other than itself (the
// coordinator watches nobody), the ok-timeout in WAIT_OK, the
// coord-timeout in WAIT_COORD.
func TestArmedTimers(t *testing.T) {
	for _, c := range []struct {
		self model.NodeID
		s    State
		want []model.TimerID
	}{
		{1, State{Normal, 3}, []model.TimerID{TimerDetect}},
		{3, State{Normal, 3}, nil},
		{1, State{Normal, NoCoord}, nil},
		{1, State{WaitOK, 3}, []model.TimerID{TimerOK}},
		{1, State{WaitCoord, 3}, []model.TimerID{TimerCoord}},
	} {
		var out model.Out[Msg]
		arm(c.self, c.s, &out)
		var set []model.TimerID
		out.TimerOps(func(id model.TimerID, on bool) {
			if on {
				set = append(set, id)
			}
		})
		require.Equal(t, c.want, set, "%s %+v", c.self, c.s)
	}
}

// The timer guards are SPIN's: an ok-timeout waits while an ELECTION of
// its own, or an OK or COORD towards it, is in flight; a coord-timeout
// also while a higher process is electing or an ELECTION goes up.
func TestTimerGuards(t *testing.T) {
	p := New(3)
	w := &model.World[State, Msg]{
		Nodes:  []State{{WaitCoord, 2}, {WaitOK, 2}, {Normal, 2}},
		Timers: make([]uint64, 3),
	}
	require.True(t, p.TimerReady(w, 1, TimerOK))
	require.False(t, p.TimerReady(w, 0, TimerCoord), "p1 is in an election")
	w.Net = []model.Envelope[Msg]{{From: 1, To: 2, Msg: Election}}
	require.False(t, p.TimerReady(w, 1, TimerOK), "p1's ELECTION is in flight")
	w.Nodes[1] = State{Normal, 1}
	require.False(t, p.TimerReady(w, 0, TimerCoord), "an ELECTION goes up to p2")
	w.Net = []model.Envelope[Msg]{{From: 1, To: 0, Msg: Coordinator}}
	require.False(t, p.TimerReady(w, 0, TimerCoord), "a COORD is on its way to p0")
	w.Net = nil
	require.True(t, p.TimerReady(w, 0, TimerCoord))
	// An ELECTION from below, on its way to p0's peer p1 in WAIT_COORD, is
	// no COORD from above: p1's coord-timeout may fire.
	w.Nodes = []State{{WaitOK, 2}, {WaitCoord, 2}, {Normal, 2}}
	w.Net = []model.Envelope[Msg]{{From: 0, To: 1, Msg: Election}}
	require.True(t, p.TimerReady(w, 1, TimerCoord), "only an ELECTION to a higher id holds it back")
	w.Net = nil
	require.False(t, p.TimerReady(w, 1, TimerDetect), "p1 is the coordinator")
	w.Nodes[0] = State{Normal, 2}
	require.False(t, p.TimerReady(w, 0, TimerDetect), "p2 is up")
	w.Down = 1 << 2
	require.True(t, p.TimerReady(w, 0, TimerDetect))
	w.Nodes[0] = State{WaitCoord, 2}
	require.False(t, p.TimerReady(w, 0, TimerDetect), "the detector is a NORMAL process's")
}

// Encodings round-trip and tell states and messages apart.
func TestCodecRoundTrip(t *testing.T) {
	p := New(5)
	seen := map[string]State{}
	for ph := Normal; ph <= WaitCoord; ph++ {
		for _, c := range []model.NodeID{0, 3, 4, NoCoord} {
			s := State{ph, c}
			b := p.AppendState([]byte{7}, s)
			got, rest := p.ReadState(b[1:])
			require.Equal(t, s, got)
			require.Empty(t, rest)
			_, dup := seen[string(b)]
			require.False(t, dup, "two states encode alike: %v", s)
			seen[string(b)] = s
		}
	}
	for _, m := range []Msg{Election, OK, Coordinator} {
		got, rest := p.ReadMsg(p.AppendMsg(nil, m))
		require.Equal(t, m, got)
		require.Empty(t, rest)
	}
	require.Equal(t, "WAIT_COORD coord=none", p.FormatState(1, State{WaitCoord, NoCoord}))
	require.Equal(t, "NORMAL coord=p4", p.FormatState(1, State{Normal, 4}))
	require.Equal(t, "COORD", p.FormatMsg(Coordinator))
	require.Equal(t, "ok-timeout", p.TimerName(TimerOK))
}
