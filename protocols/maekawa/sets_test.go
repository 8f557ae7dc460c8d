package maekawa

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The named structures are SPIN's sets bit for bit (maekawa.pml's VS masks)
// and the notes' row-plus-column rule.
func TestNamedSets(t *testing.T) {
	grid4, err := GridSets(4)
	require.NoError(t, err)
	require.Equal(t, []Set{7, 11, 13, 14}, grid4)
	require.Equal(t, []Set{7, 42, 52, 25, 82, 97, 76}, PlaneSets())
	require.Equal(t, []Set{7, 7, 7}, AllSets(3))

	grid9, err := GridSets(9)
	require.NoError(t, err)
	require.Equal(t, "{1,3,4,5,7}", grid9[4].String()) // row 1 and column 1 of the 3×3 grid
	for i, v := range grid9 {
		require.Equal(t, 5, v.Len(), "V%d", i) // 2√N-1
	}
	require.NoError(t, CheckSets(9, grid9))

	written, err := ParseSets("0,1,2;0,1,3;0,2,3;1,2,3", 4)
	require.NoError(t, err)
	require.Equal(t, grid4, written)
}

// The requesters parameter: all, or distinct ids below n.
func TestParseRequesters(t *testing.T) {
	v, err := ParseRequesters("all", 4)
	require.NoError(t, err)
	require.Equal(t, SetOf(0, 1, 2, 3), v)
	v, err = ParseRequesters("2, 0", 4)
	require.NoError(t, err)
	require.Equal(t, SetOf(0, 2), v)
	require.Equal(t, 2, v.Rounds(2, 2))
	require.Equal(t, 0, v.Rounds(1, 2))
	for spec, msg := range map[string]string{
		"0,4": `requesters="0,4": "4" is not a process id (0..3)`,
		"0,x": `requesters="0,x": "x" is not a process id (0..3)`,
		"1,1": `requesters="1,1": p1 is named twice`,
	} {
		_, err := ParseRequesters(spec, 4)
		require.EqualError(t, err, msg)
	}
}
