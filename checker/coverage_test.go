package checker_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/bully"
	ra "github.com/coordcheck/coordcheck/protocols/ricartagrawala"
)

// raNotesSpec is `check ricartagrawala -n N`: the notes' clocks, mutual
// exclusion, no deadlock and starvation freedom.
func raNotesSpec(n int, cfg model.Config) *checker.Spec[ra.State, ra.Msg] {
	p := ra.New(n, 1)
	return &checker.Spec[ra.State, ra.Msg]{
		System:     model.MustNewSystem[ra.State, ra.Msg](p, cfg),
		Invariants: []checker.Invariant[ra.State, ra.Msg]{invariants.MutualExclusion[ra.State, ra.Msg](p)},
		Deadlock:   true,
		Liveness:   []checker.Liveness[ra.State, ra.Msg]{invariants.StarvationFreedom[ra.State, ra.Msg](p)},
	}
}

// naiveCoverage explores sp's whole space the plainest way (a map of
// encodings, no engine) and counts every edge by the kind its action
// line names: the word, then the input or the message up to '('.
func naiveCoverage[S, M any](sp *checker.Spec[S, M]) (states int, kinds map[string]uint64) {
	sys := sp.System
	kinds = map[string]uint64{}
	seen := map[string]bool{}
	queue := []*model.World[S, M]{sys.Init()}
	seen[string(sys.Encode(nil, queue[0]))] = true
	for len(queue) > 0 {
		w := queue[0]
		queue = queue[1:]
		for _, a := range sys.Actions(w, nil) {
			f := strings.Fields(sys.FormatAction(w, a))
			kind := f[0]
			switch f[0] {
			case "input", "fire":
				kind += " " + f[2]
			case "deliver", "send":
				kind += " " + strings.SplitN(f[2], "(", 2)[0]
			}
			kinds[kind]++
			next := &model.World[S, M]{}
			sys.Apply(w, a, next)
			if enc := string(sys.Encode(nil, next)); !seen[enc] {
				seen[enc] = true
				queue = append(queue, next)
			}
		}
	}
	return len(seen), kinds
}

// The coverage of a whole space is every edge by kind: the engine's
// counts are those of a naive exploration, pinned for Ricart-Agrawala
// with 3 processes, and add up to the transitions.
func TestCoverageCountsEveryEdge(t *testing.T) {
	sp := raNotesSpec(3, model.Config{})
	rep := sp.Check(checker.Options{Workers: 1})
	require.Equal(t, checker.Pass, rep.Verdict)
	require.Equal(t, uint64(2861), rep.States)
	require.Equal(t, uint64(7545), rep.Transitions)
	want := []checker.KindCount{
		{Kind: "input enter", Count: 368},
		{Kind: "input exit", Count: 368},
		{Kind: "input request", Count: 582},
		{Kind: "deliver REP", Count: 2421},
		{Kind: "deliver REQ", Count: 3806},
	}
	require.Equal(t, want, rep.Coverage)
	var sum uint64
	for _, c := range rep.Coverage {
		sum += c.Count
	}
	require.Equal(t, rep.Transitions, sum)

	states, naive := naiveCoverage(sp)
	require.Equal(t, 2861, states)
	got := map[string]uint64{}
	for _, c := range rep.Coverage {
		got[c.Kind] = c.Count
	}
	require.Equal(t, naive, got)
	require.Empty(t, rep.NeverFired)
	require.Empty(t, rep.Warnings)
	require.Equal(t, []checker.PremiseSeen{
		{Property: invariants.MutualExclusionName, Premise: "a process in the critical section", Seen: true},
		{Property: invariants.StarvationFreedomName, Premise: "a process waiting for the critical section", Seen: true},
	}, rep.Premises)
}

// kindedRA is Ricart-Agrawala naming its messages' kinds itself
// (model.MsgKinder), in words the formatter would not give.
type kindedRA struct{ *ra.Protocol }

func (kindedRA) MsgKind(m ra.Msg) string {
	if m.Kind == ra.Request {
		return "request-msg"
	}
	return "reply-msg"
}

// A protocol's MsgKinder names the deliveries, with the same counts as
// the formatter's kinds, on one worker and on three.
func TestCoverageUsesMsgKinder(t *testing.T) {
	p := kindedRA{ra.New(3, 1)}
	sp := &checker.Spec[ra.State, ra.Msg]{
		System:     model.MustNewSystem[ra.State, ra.Msg](p, model.Config{}),
		Invariants: []checker.Invariant[ra.State, ra.Msg]{invariants.MutualExclusion[ra.State, ra.Msg](p.Protocol)},
	}
	want := []checker.KindCount{
		{Kind: "input enter", Count: 368},
		{Kind: "input exit", Count: 368},
		{Kind: "input request", Count: 582},
		{Kind: "deliver reply-msg", Count: 2421},
		{Kind: "deliver request-msg", Count: 3806},
	}
	for _, workers := range []int{1, 3} {
		rep := sp.Check(checker.Options{Workers: workers})
		require.Equal(t, checker.Pass, rep.Verdict)
		require.Equal(t, uint64(7545), rep.Transitions)
		require.Equal(t, want, rep.Coverage, "workers %d", workers)
	}
}

// Faults and application messages are counted by kind too, and the
// counts agree with the naive exploration.
func TestCoverageOfFaultsAndAppMessages(t *testing.T) {
	for _, c := range []struct {
		faults string
		app    int
		order  []string
	}{
		{"crash=1,restart=1,partition=1", 1, []string{"input enter", "input exit", "input request",
			"deliver APP", "deliver REP", "deliver REQ", "send APP", "crash", "restart", "partition", "heal"}},
		{"drop=1,dup=1", 0, []string{"input enter", "input exit", "input request",
			"deliver REP", "deliver REQ", "drop", "dup"}},
	} {
		f, err := model.ParseFaults(c.faults)
		require.NoError(t, err)
		sp := raNotesSpec(2, model.Config{Faults: f, AppMsgs: c.app})
		sp.Invariants, sp.Deadlock, sp.Liveness = nil, false, nil // explore it all
		rep := sp.Check(checker.Options{Workers: 1})
		require.Equal(t, checker.Pass, rep.Verdict)
		_, naive := naiveCoverage(sp)
		got := map[string]uint64{}
		var order []string
		for _, k := range rep.Coverage {
			got[k.Kind] = k.Count
			order = append(order, k.Kind)
		}
		require.Equal(t, naive, got, c.faults)
		require.Equal(t, c.order, order, c.faults)
		require.Empty(t, rep.NeverFired, c.faults)
	}
}

// The counts are the same for any number of workers and for BFS and DFS
// over a whole space; for BFS cut inside a level (a violation, a bound on
// states) on one worker or several; and for random and swarm walks.
func TestCoverageSameForAnyWorkers(t *testing.T) {
	crash, err := model.ParseFaults("crash=1")
	require.NoError(t, err)
	sp := raNotesSpec(3, model.Config{Faults: crash})
	cases := []checker.Options{
		{SkipLiveness: true},
		{SkipLiveness: true, Exhaust: true},
		{MaxStates: 1234},
		{MaxStates: 1234, Exhaust: true, SkipLiveness: true},
		{MaxStates: 1},
		{MaxDepth: 7, SkipLiveness: true},
		{Strategy: checker.Random, Walks: 300, Seed: 3},
		{Strategy: checker.Swarm, Walks: 300, Seed: 3},
	}
	for _, opts := range cases {
		var first *checker.Report
		for _, workers := range []int{1, 2, 4} {
			opts.Workers = workers
			rep := sp.Check(opts)
			require.NotEmpty(t, rep.Coverage)
			var sum uint64
			for _, c := range rep.Coverage {
				sum += c.Count
			}
			require.Equal(t, rep.Transitions, sum, "%+v", opts)
			if first == nil {
				first = rep
				continue
			}
			require.Equal(t, first.Coverage, rep.Coverage, "%+v", opts)
			require.Equal(t, first.NeverFired, rep.NeverFired, "%+v", opts)
			require.Equal(t, first.Premises, rep.Premises, "%+v", opts)
		}
	}
	bfs := sp.Check(checker.Options{Exhaust: true, SkipLiveness: true, Workers: 3})
	dfs := sp.Check(checker.Options{Strategy: checker.DFS, Exhaust: true, SkipLiveness: true})
	require.Equal(t, bfs.Transitions, dfs.Transitions)
	require.Equal(t, bfs.Coverage, dfs.Coverage)
	require.Equal(t, bfs.Premises, dfs.Premises)
}

// A configured fault that can never strike turns the pass into a pass
// with a warning: without a crash, the bully algorithm sends nothing, so
// there is no message to duplicate.
func TestNeverFiredFaultWarns(t *testing.T) {
	dup, err := model.ParseFaults("dup=1")
	require.NoError(t, err)
	p := bully.New(3)
	sp := &checker.Spec[bully.State, bully.Msg]{
		System:     model.MustNewSystem[bully.State, bully.Msg](p, model.Config{Faults: dup}),
		Invariants: []checker.Invariant[bully.State, bully.Msg]{invariants.ElectionSafety[bully.State, bully.Msg](p)},
		Deadlock:   true,
	}
	for _, opts := range []checker.Options{{Workers: 1}, {Workers: 2}, {Strategy: checker.DFS}} {
		rep := sp.Check(opts)
		require.Equal(t, checker.Pass, rep.Verdict)
		require.Equal(t, uint64(1), rep.States)
		// The duplication first (configured, warned about), then the
		// protocol's own kinds (declared: model.KindLister).
		require.Equal(t, []string{"dup", "deliver ELECTION", "deliver OK", "deliver COORD",
			"fire detect", "fire ok-timeout", "fire coord-timeout"}, rep.NeverFired)
		require.Equal(t, []string{"dup never fired though -faults asks for it: no explored execution exercises it"}, rep.Warnings)
	}
	// With a crash, messages flow and the duplication fires: no warning;
	// one crash never leaves a process waiting for a COORD in vain.
	f, err := model.ParseFaults("crash=1,dup=1")
	require.NoError(t, err)
	sp.System = model.MustNewSystem[bully.State, bully.Msg](p, model.Config{Faults: f})
	rep := sp.Check(checker.Options{Workers: 1})
	require.Equal(t, checker.Pass, rep.Verdict)
	require.Equal(t, []string{"fire coord-timeout"}, rep.NeverFired)
	require.Empty(t, rep.Warnings)
}

// A property whose premise never holds is vacuous: the pass warns, for
// every search order and number of workers.
func TestVacuousPremiseWarns(t *testing.T) {
	sp := raNotesSpec(2, model.Config{})
	p := sp.System.P.(*ra.Protocol)
	never := invariants.MutualExclusion[ra.State, ra.Msg](p)
	never.Name, never.PremiseDoc = "never", "a process with clock 99"
	never.Premise = func(w *model.World[ra.State, ra.Msg]) bool { return w.Nodes[0].Clock == 99 }
	sp.Invariants = append(sp.Invariants, never)
	for _, opts := range []checker.Options{{Workers: 1}, {Workers: 2}, {Strategy: checker.DFS}} {
		rep := sp.Check(opts)
		require.Equal(t, checker.Pass, rep.Verdict)
		require.Equal(t, []string{"never is vacuous here: no explored state has a process with clock 99"}, rep.Warnings)
		require.Equal(t, checker.PremiseSeen{Property: "never", Premise: "a process with clock 99", Seen: false}, rep.Premises[1])
		require.True(t, rep.Premises[0].Seen)
	}
	// Random search is never a pass, so it warns of nothing, but it says
	// which premises it saw.
	rep := sp.Check(checker.Options{Strategy: checker.Random, Walks: 50})
	require.Equal(t, checker.Inconclusive, rep.Verdict)
	require.Empty(t, rep.Warnings)
	require.False(t, rep.Premises[1].Seen)
	require.True(t, rep.Premises[0].Seen)
}
