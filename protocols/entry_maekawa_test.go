package protocols

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
)

// Voting sets that break seed 000's rules (p_i ∈ V_i, V_i ∩ V_j ≠ ∅, one
// set per process, ids in range) are refused with an error naming the
// offending sets.
func TestMaekawaRefusesBadSets(t *testing.T) {
	e, ok := Lookup("maekawa")
	require.True(t, ok)
	cases := []struct {
		n, sets, err string
	}{
		{"4", "0,1;1,3;0,2;0,3", "voting sets V1={1,3} and V2={0,2} do not intersect"},
		{"3", "1,2;0,1;0,2", "voting set V0={1,2} does not contain p0 itself"},
		{"3", "0,1;1,2", "2 voting sets for n=3 processes (want one per process, V0 first)"},
		{"3", "0,1;1,2;0,2;0,1,2", "4 voting sets for n=3 processes (want one per process, V0 first)"},
		{"3", "0,1;1,5;0,2", `voting set V1={1,5}: "5" is not a process id (0..2 for n=3)`},
		{"3", "0,1;1,x;0,2", `voting set V1={1,x}: "x" is not a process id (0..2 for n=3)`},
		{"3", "0,0,1;1,2;0,2", "voting set V0={0,0,1} lists 0 twice"},
		{"5", "grid", "sets=grid needs n to be a perfect square (1, 4, 9, 16, ...), got n=5"},
		{"4", "plane", "sets=plane needs n=7 (the projective plane of order 2), got n=4"},
		{"3", ";", `sets=";": want all, grid, plane, or sets like 0,1,2;1,3,5;...`},
	}
	for _, c := range cases {
		_, _, err := e.BuildWith(map[string]string{"n": c.n, "sets": c.sets}, model.Config{})
		require.EqualError(t, err, c.err, "n=%s sets=%s", c.n, c.sets)
	}
}

// The named structures and sets written out are accepted.
func TestMaekawaAcceptsGoodSets(t *testing.T) {
	e, _ := Lookup("maekawa")
	for _, c := range []struct{ n, sets string }{
		{"3", "all"}, {"4", "grid"}, {"7", "plane"}, {"1", "grid"},
		{"7", "0,1,2;1,3,5;2,4,5;0,3,4;1,4,6;0,5,6;2,3,6"},
		{"7", "0,1,2/1,3,5/2,4,5/0,3,4/1,4,6/0,5,6/2,3,6"},
		{"3", "p0,p1; p1,p2; p0,p2"},
	} {
		_, _, err := e.BuildWith(map[string]string{"n": c.n, "sets": c.sets}, model.Config{})
		require.NoError(t, err, "n=%s sets=%s", c.n, c.sets)
	}
}

// The registry's centralized entry counts clients in n, as SPIN does.
func TestCentralizedEntry(t *testing.T) {
	e, ok := Lookup("centralized")
	require.True(t, ok)
	target, v, err := e.BuildWith(map[string]string{"n": "3"}, model.Config{})
	require.NoError(t, err)
	require.Equal(t, "n=3 rounds=2", v.String())
	rep := target.Check(checker.Options{})
	require.Equal(t, checker.Pass, rep.Verdict)
	require.Equal(t, uint64(1238), rep.States)
	require.Equal(t, []string{"mutual-exclusion", "release-from-holder", "no-deadlock", "starvation-freedom"}, rep.Properties)
}
