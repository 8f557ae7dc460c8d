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
