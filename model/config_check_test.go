package model_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/model"
	ra "github.com/coordcheck/coordcheck/protocols/ricartagrawala"
)

// A configuration that cannot take effect is an error of NewSystem, never
// a panic and never a system that silently ignores it.
func TestNewSystemRefusesWhatCannotTakeEffect(t *testing.T) {
	faults := func(spec string) model.Faults {
		f, err := model.ParseFaults(spec)
		require.NoError(t, err)
		return f
	}
	cases := []struct {
		n   int
		cfg model.Config
		err string
	}{
		{3, model.Config{Faults: faults("crash=1@p9")}, "faults crash=1@p9: no node p9 in this configuration (the nodes are p0..p2)"},
		{3, model.Config{Faults: faults("crash=1@p1+p5+p7,restart=1")}, "faults crash=1@p1+p5+p7: no node p5, p7 in this configuration (the nodes are p0..p2)"},
		{3, model.Config{Faults: faults("crash=0@p1")}, "faults: crash nodes are named but the crash budget is 0"},
		{3, model.Config{Faults: faults("restart=1")}, "faults restart=1: a restart needs a crashed node, and the crash budget is 0 (add crash=N)"},
		{9, model.Config{Ordering: true}, "ordering tracks at most 8 nodes, not 9"},
		{3, model.Config{Timers: model.TimersPerfect}, "timers perfect: the protocol cannot say when no reply can still arrive (it has no TimerGuard), so its timers stay free"},
		{63, model.Config{Faults: faults("crash=1@p62")}, ""},
		{3, model.Config{AppMsgs: 1}, ""}, // Ricart-Agrawala stamps application messages with its clock
	}
	for _, c := range cases {
		sys, err := model.NewSystem[ra.State, ra.Msg](ra.New(c.n, 1), c.cfg)
		if c.err == "" {
			require.NoError(t, err, "n=%d %+v", c.n, c.cfg)
			require.NotNil(t, sys)
			continue
		}
		require.EqualError(t, err, c.err, "n=%d %+v", c.n, c.cfg)
		require.Nil(t, sys)
	}
	require.PanicsWithValue(t, "model: faults crash=1@p9: no node p9 in this configuration (the nodes are p0..p2)", func() {
		model.MustNewSystem[ra.State, ra.Msg](ra.New(3, 1), model.Config{Faults: faults("crash=1@p9")})
	})
	require.EqualError(t, faults("partition=1").Check(1), "faults partition=1: a partition needs at least 2 nodes, not 1")
}
