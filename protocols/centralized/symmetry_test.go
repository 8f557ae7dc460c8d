package centralized

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/internal/long"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
)

// Symmetry reduction stores one state per renaming of the clients: the
// counts are pinned with and without it, and the reduced count is the
// number of orbits of the full reachable set (counted below by
// canonicalising every state of the full search), so that nothing is lost
// and nothing merged that should not be. The reduction factor tends to
// N! (6, 24, 120) as the states that some renaming fixes grow rarer.
func TestSymmetryReducesByRenamingClients(t *testing.T) {
	cases := []struct {
		n, rounds           int
		full, reduced       uint64
		fullEdges, redEdges uint64
	}{
		{3, 2, 1238, 238, 2748, 540},
		{4, 2, 13029, 721, 33984, 2004},
		{5, 2, 149040, 1918, 427340, 6192},
	}
	for _, c := range cases {
		red := spec(c.n, c.rounds).Check(checker.Options{Symmetry: true})
		require.Equal(t, checker.Pass, red.Verdict, red.Error)
		require.Equal(t, c.reduced, red.States, "n=%d", c.n)
		require.Equal(t, c.redEdges, red.Transitions, "n=%d", c.n)
		require.Equal(t, c.n, red.Symmetry)
		require.Equal(t, 5*c.n*c.rounds, red.Depth, "the longest run keeps its length")
		if c.n == 4 {
			for _, o := range []checker.Options{{Workers: 1}, {Workers: 2}, {Strategy: checker.DFS}} {
				o.Symmetry = true
				r := spec(c.n, c.rounds).Check(o)
				require.Equal(t, c.reduced, r.States, "%+v", o)
				require.Equal(t, c.redEdges, r.Transitions, "%+v", o)
			}
		}
		if c.n == 5 && !long.Enabled() {
			continue
		}
		full := spec(c.n, c.rounds).Check(checker.Options{})
		require.Equal(t, c.full, full.States)
		require.Equal(t, c.fullEdges, full.Transitions)
		require.Equal(t, 0, full.Symmetry)
		t.Logf("N=%d R=%d: %d states without symmetry, %d with: %.1fx", c.n, c.rounds, full.States, red.States, float64(full.States)/float64(red.States))
		if c.n <= 4 {
			require.Equal(t, c.reduced, orbits(t, c.n, c.rounds))
		}
	}
}

// orbits counts the canonical representatives of every reachable world of
// the full state space.
func orbits(t *testing.T, n, rounds int) uint64 {
	sys := spec(n, rounds).System
	y, err := model.NewSymmetry(sys.Clone())
	require.NoError(t, err)
	init := sys.Init()
	seen := map[string]bool{string(sys.Encode(nil, init)): true}
	canon := map[string]bool{}
	queue := []*model.World[State, Msg]{init}
	for len(queue) > 0 {
		w := queue[0]
		queue = queue[1:]
		canon[string(y.Canonical(sys.Encode(nil, w), w))] = true
		for _, a := range sys.Actions(w, nil) {
			next := &model.World[State, Msg]{}
			sys.Apply(w, a, next)
			if k := string(sys.Encode(nil, next)); !seen[k] {
				seen[k] = true
				queue = append(queue, next)
			}
		}
	}
	return uint64(len(canon))
}

// Under faults the algorithm fails (a duplicated GRANT or REL, a crashed
// coordinator); with symmetry the verdict, the property violated and the
// shortest counterexample's length are the same as without, and the
// counterexample is a real run: it replays to the same violation.
func TestSymmetryKeepsTheVerdict(t *testing.T) {
	for _, c := range []struct {
		faults string
		prop   string
		steps  int
	}{
		{"dup=1", invariants.ReleaseFromHolderName, 6},
		{"crash=1", checker.DeadlockProperty, 4},
		{"drop=1", checker.DeadlockProperty, 7},
		{"crash=1,restart=1", checker.DeadlockProperty, 5},
		{"partition=1", checker.DeadlockProperty, 5},
	} {
		f, err := model.ParseFaults(c.faults)
		require.NoError(t, err)
		sp := faultySpec(3, 2, f)
		full := sp.Check(checker.Options{})
		red := sp.Check(checker.Options{Symmetry: true})
		require.Equal(t, checker.Violated, full.Verdict, c.faults)
		require.Equal(t, checker.Violated, red.Verdict, "%s: %s", c.faults, red.Error)
		require.Equal(t, c.prop, full.Counterexample.Property, c.faults)
		require.Equal(t, c.prop, red.Counterexample.Property, c.faults)
		require.Len(t, full.Counterexample.Steps, c.steps, c.faults)
		require.Len(t, red.Counterexample.Steps, c.steps, c.faults)
		require.Less(t, red.States, full.States, c.faults)
		var lines []string
		for _, s := range red.Counterexample.Steps {
			lines = append(lines, s.Action)
		}
		rp, err := sp.Replay(lines)
		require.NoError(t, err, c.faults)
		require.Equal(t, c.prop, rp.Trace.Property, c.faults)
		require.Equal(t, red.Counterexample.Detail, rp.Trace.Detail, "%s: the detail names the run's own nodes", c.faults)
		t.Logf("%s: %s in %d steps; %d states without symmetry, %d with", c.faults, c.prop, c.steps, full.States, red.States)
	}
}

func faultySpec(n, rounds int, f model.Faults) *checker.Spec[State, Msg] {
	sp := spec(n, rounds)
	p := sp.System.P.(*Protocol)
	sp.System = model.MustNewSystem[State, Msg](p, model.Config{Faults: f})
	return sp
}

// Symmetry is refused, with a line saying why, where it would be unsound.
func TestSymmetryRefusals(t *testing.T) {
	crash0, _ := model.ParseFaults("crash=1@p0")
	live := spec(3, 1)
	live.Liveness = []checker.Liveness[State, Msg]{invariants.StarvationFreedom[State, Msg](live.System.P.(*Protocol))}
	named := spec(3, 1)
	named.Invariants = append(named.Invariants, checker.Invariant[State, Msg]{Name: "p0-never-waits", Holds: func(w *model.World[State, Msg]) (bool, string) {
		return w.Nodes[0].Phase != 1, "p0 waits"
	}})
	lying := spec(3, 1)
	lying.Invariants[1].Symmetric = true
	lying.Invariants = append(lying.Invariants, checker.Invariant[State, Msg]{Name: "p0-never-waits", Symmetric: true, Holds: func(w *model.World[State, Msg]) (bool, string) {
		return w.Nodes[0].Phase == 0 || w.Nodes[0].Phase == 2, "p0 waits"
	}})
	forgetful := spec(3, 1)
	forgetful.System = model.MustNewSystem[State, Msg](forgetQueue{New(3, 1)}, model.Config{})
	ordering := spec(3, 1)
	ordering.System = model.MustNewSystem[State, Msg](New(3, 1), model.Config{Ordering: true})
	for _, c := range []struct {
		sp   *checker.Spec[State, Msg]
		opts checker.Options
		want string
	}{
		{spec(3, 1), checker.Options{Symmetry: true, Strategy: checker.Swarm}, "-symmetry: applies to bfs and dfs"},
		{live, checker.Options{Symmetry: true}, "-symmetry: liveness properties (starvation-freedom) are not checked under symmetry reduction"},
		{named, checker.Options{Symmetry: true}, "-symmetry: property p0-never-waits is not declared symmetric"},
		{lying, checker.Options{Symmetry: true}, "-symmetry: renaming p0<->p1 changes the verdict of a world"},
		{forgetful, checker.Options{Symmetry: true}, "-symmetry: renaming p0<->p1 changes a world's successors"},
		{faultySpec(3, 1, crash0), checker.Options{Symmetry: true}, "-symmetry: crashes restricted to {p0} single out some of the interchangeable nodes {p0,p1,p2}"},
		{ordering, checker.Options{Symmetry: true}, "-symmetry: -ordering keeps request vectors per node"},
	} {
		rep := c.sp.Check(c.opts)
		require.Equal(t, checker.Inconclusive, rep.Verdict)
		require.Contains(t, rep.Error, c.want)
	}
	ok := live.Check(checker.Options{Symmetry: true, SkipLiveness: true})
	require.Equal(t, checker.Pass, ok.Verdict, ok.Error)
}

// forgetQueue renames the holder but not the queue: a wrong hook.
type forgetQueue struct{ *Protocol }

func (f forgetQueue) PermuteState(self model.NodeID, s State, perm []model.NodeID) State {
	q := s.Queue
	s = f.Protocol.PermuteState(self, s, perm)
	s.Queue = q
	return s
}

// Partial-order reduction on the centralized algorithm (deadlock only,
// the property it judges in terminal states): the same pass, in fewer
// states; the pinned counts give the reduction factor. A client's actions
// are persistent only while the coordinator's link to it is busy, so the
// reduction is small here.
func TestPORCounts(t *testing.T) {
	for _, c := range []struct {
		n                    int
		full, reduced, edges uint64
	}{
		{3, 1238, 1142, 2304},
		{4, 13029, 12069, 27904},
	} {
		sp := spec(c.n, 2)
		sp.Invariants = nil
		full := sp.Check(checker.Options{})
		red := sp.Check(checker.Options{POR: true})
		require.Equal(t, checker.Pass, full.Verdict)
		require.Equal(t, checker.Pass, red.Verdict, red.Error)
		require.Equal(t, c.full, full.States)
		require.Equal(t, c.reduced, red.States)
		require.Equal(t, c.edges, red.Transitions)
		require.Equal(t, full.Depth, red.Depth)
		t.Logf("N=%d: %d states without -por, %d with (%.2fx)", c.n, full.States, red.States, float64(full.States)/float64(red.States))
	}
}
