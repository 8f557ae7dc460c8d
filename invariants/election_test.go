package invariants

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/model"
)

// toy is an election protocol's observable state: whom a node follows
// (-1: undecided) and whether it is in the middle of a run. Its messages
// are ints; odd ones belong to an election. Ids rank in reverse node
// order, so p0 has the highest id, as on the SPIN ring.
type toy struct {
	leader   int
	electing bool
}

type toyElector struct{}

func (toyElector) Leader(_ model.NodeID, s toy) (model.NodeID, bool) {
	return model.NodeID(max(s.leader, 0)), s.leader >= 0
}
func (toyElector) ID(p model.NodeID) int               { return 10 - int(p) }
func (toyElector) Electing(_ model.NodeID, s toy) bool { return s.electing }
func (toyElector) ElectionMsg(m int) bool              { return m%2 == 1 }

func world(down uint64, net []int, nodes ...toy) *model.World[toy, int] {
	w := &model.World[toy, int]{Nodes: nodes, Timers: make([]uint64, len(nodes)), Down: down}
	for _, m := range net {
		w.Net = append(w.Net, model.Envelope[int]{From: 0, To: 1, Msg: m})
	}
	return w
}

func TestAgreement(t *testing.T) {
	inv := Agreement[toy, int](toyElector{})
	cases := []struct {
		name string
		w    *model.World[toy, int]
		ok   bool
		why  string
	}{
		{"all follow p0", world(0, nil, toy{0, false}, toy{0, false}, toy{0, false}), true, ""},
		{"undecided processes do not count", world(0, nil, toy{0, false}, toy{-1, true}, toy{0, true}), true, ""},
		{"two live coordinators", world(0, nil, toy{0, false}, toy{1, false}, toy{0, false}), false,
			"p0 considers p0 its coordinator but p1 considers p1"},
		{"a crashed coordinator does not count", world(1, nil, toy{0, false}, toy{0, false}, toy{1, false}), true, ""},
		{"a crashed process does not count", world(1<<1, nil, toy{0, false}, toy{1, false}, toy{0, false}), true, ""},
	}
	for _, c := range cases {
		ok, why := inv.Holds(c.w)
		require.Equal(t, c.ok, ok, c.name)
		require.Equal(t, c.why, why, c.name)
	}
}

func TestElectionSafety(t *testing.T) {
	inv := ElectionSafety[toy, int](toyElector{})
	cases := []struct {
		name string
		w    *model.World[toy, int]
		ok   bool
		why  string
	}{
		{"ended on the highest", world(0, nil, toy{0, false}, toy{0, false}), true, ""},
		{"ended on the highest live", world(1, nil, toy{0, false}, toy{1, false}, toy{1, false}), true, ""},
		{"ended on a lower one", world(0, nil, toy{0, false}, toy{1, false}), false,
			"the election is over but p1 considers p1 its coordinator, not p0, the highest live process (p0->p0 p1->p1)"},
		{"ended undecided", world(0, nil, toy{0, false}, toy{-1, false}), false,
			"the election is over but p1 has not decided"},
		{"a process electing: not over", world(0, nil, toy{0, false}, toy{1, true}), true, ""},
		{"an election message in flight: not over", world(0, []int{3}, toy{0, false}, toy{1, false}), true, ""},
		{"other traffic does not keep a run going", world(0, []int{2}, toy{0, false}, toy{1, false}), false,
			"the election is over but p1 considers p1 its coordinator, not p0, the highest live process (p0->p0 p1->p1)"},
		{"a crashed coordinator: a new run is due", world(1, nil, toy{0, false}, toy{0, false}, toy{2, false}), true, ""},
	}
	for _, c := range cases {
		ok, why := inv.Holds(c.w)
		require.Equal(t, c.ok, ok, c.name)
		require.Equal(t, c.why, why, c.name)
	}
}

func TestElectionLiveness(t *testing.T) {
	l := ElectionLiveness[toy, int](toyElector{})
	w := world(0, nil, toy{0, false}, toy{-1, true})
	require.False(t, l.Pending(w, 0))
	require.True(t, l.Pending(w, 1))
	require.Equal(t, ElectionLivenessName, l.Name)
}

func TestHighestLive(t *testing.T) {
	_, ok := HighestLive[toy, int](toyElector{}, world(0b11, nil, toy{}, toy{}))
	require.False(t, ok)
	best, ok := HighestLive[toy, int](toyElector{}, world(0b01, nil, toy{}, toy{}, toy{}))
	require.True(t, ok)
	require.Equal(t, model.NodeID(1), best)
}
