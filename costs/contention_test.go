package costs_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/protocols/maekawa"
	"github.com/coordcheck/coordcheck/protocols/maekawadf"
)

// Everyone contends (the costs table's last rows): with the requests of
// higher priority delivered first, every later request is told FAILED;
// delivered last, each outranks the vote, and INQUIREs, YIELDs and the
// GRANTs that follow them appear. Seed 002 bounds a critical section by
// 5K messages (5√N); the runs stay between 3K and 5K per CS. To the
// letter of the notes, the grid deadlocks in this very run: the INQUIREs
// reach their targets before the FAILEDs do, and are dropped (FixDefer).
func TestMaekawaContention(t *testing.T) {
	grid, err := maekawa.GridSets(4)
	require.NoError(t, err)
	cases := []struct {
		n        int
		sets     []maekawa.Set
		lowFirst bool
		want     maekawadf.Tally
	}{
		{3, maekawa.AllSets(3), false, maekawadf.Tally{maekawadf.Request: 9, maekawadf.Grant: 9, maekawadf.Release: 9, maekawadf.Fail: 6}},
		{3, maekawa.AllSets(3), true, maekawadf.Tally{maekawadf.Request: 9, maekawadf.Grant: 9, maekawadf.Release: 9, maekawadf.Fail: 3, maekawadf.Inquire: 3}},
		{4, grid, false, maekawadf.Tally{maekawadf.Request: 12, maekawadf.Grant: 12, maekawadf.Release: 12, maekawadf.Fail: 8}},
		{4, grid, true, maekawadf.Tally{maekawadf.Request: 12, maekawadf.Grant: 13, maekawadf.Release: 12, maekawadf.Fail: 4, maekawadf.Inquire: 4, maekawadf.Yield: 1}},
		{7, maekawa.PlaneSets(), false, maekawadf.Tally{maekawadf.Request: 21, maekawadf.Grant: 21, maekawadf.Release: 21, maekawadf.Fail: 14}},
		{7, maekawa.PlaneSets(), true, maekawadf.Tally{maekawadf.Request: 21, maekawadf.Grant: 23, maekawadf.Release: 21, maekawadf.Fail: 7, maekawadf.Inquire: 7, maekawadf.Yield: 2}},
	}
	for _, c := range cases {
		p, err := maekawadf.New(c.n, 1, c.sets, maekawadf.AllFixes)
		require.NoError(t, err)
		got, err := costs.MaekawaContention(p, c.lowFirst)
		require.NoError(t, err)
		require.Equal(t, c.want, got, "n=%d lowFirst=%v: %s", c.n, c.lowFirst, got)
		k := c.sets[0].Len()
		require.True(t, 3*k*c.n <= got.Total() && got.Total() <= 5*k*c.n, "n=%d: %d messages", c.n, got.Total())
	}
	p, err := maekawadf.New(4, 1, grid, maekawadf.NoFixes)
	require.NoError(t, err)
	_, err = costs.MaekawaContention(p, true)
	require.EqualError(t, err, "p0 has not entered and no message is in flight")
}
