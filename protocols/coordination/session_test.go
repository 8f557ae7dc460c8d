package coordination

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/invariants/linearizability"
)

func session(ops int, mode SessionMode, fs string) func() *checker.Spec[State, Msg] {
	return func() *checker.Spec[State, Msg] {
		return mustSpec(NewChubbySession(3, 2, ops, mode), faults(fs))
	}
}

// Chubby's sessions across a fail-over: 3 replicas, the master p0
// crashes, p1 takes over; p3 writes /x once, p4 reads it ops times,
// from its cache when it can. Cached reads stay linearizable, no session
// is lost (the fail-over is shorter than the grace period), and with a
// majority down the grace period runs out and the clients stop acting on
// their sessions.
func TestSessionsSurviveAFailover(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		pinned
		expires bool // a majority is down: the sessions expire
	}{
		{pinned{name: "sessions only, crash=1@p0", spec: session(0, GraceSessions, "crash=1@p0"), states: 39, edges: 86, depth: 9}, false},
		{pinned{name: "ops=1 crash=1@p0", spec: session(1, GraceSessions, "crash=1@p0"), states: 74181, edges: 321962, depth: 23}, false},
		{pinned{name: "ops=2 crash=1@p0", spec: session(2, GraceSessions, "crash=1@p0"), states: 378103, edges: 1716338, depth: 27, long: true}, false},
		// The cell blocks: the grace period runs out, the sessions expire.
		{pinned{name: "sessions only, crash=2@p0+p1", spec: session(0, GraceSessions, "crash=2@p0+p1"), states: 315, edges: 902, depth: 15}, true},
		{pinned{name: "ops=1 crash=2@p0+p1", spec: session(1, GraceSessions, "crash=2@p0+p1"), states: 382279, edges: 1645006, depth: 30, long: true}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := c.run(t)
			// The pass is earned: the sessions went into jeopardy and, with
			// a majority down, expired.
			seen := map[string]bool{}
			for _, ps := range rep.Premises {
				seen[ps.Property] = ps.Seen
			}
			require.True(t, seen[SessionSurvivesName], "%s: a session in jeopardy", c.name)
			require.Equal(t, c.expires, seen[NoActAfterExpiryName], "%s: a session expired", c.name)
		})
	}
}

// Without a grace period the client declares its session expired as soon
// as its local lease runs out, while the new master would honour it
// (counterexamples/chubbysession/no-grace.cex).
func TestNoGraceLosesTheSession(t *testing.T) {
	t.Parallel()
	c := brokenRecipe{pinned{name: "grace=none ops=0 crash=1@p0", spec: session(0, NoGrace, "crash=1@p0"),
		verdict: checker.Violated, property: SessionSurvivesName, states: 177, edges: 397, depth: 14},
		14, "the run ends with p4's session EXPIRED, though a majority lives and master p1 (epoch 2) serves: the fail-over was shorter than a grace period"}
	tr := c.run(t)
	require.Equal(t, "fire p4 lease", tr.Steps[8].Action, "its local lease runs out after p1 leads")
	require.Equal(t, "fire p1 session-p4", tr.Steps[9].Action, "and the new master closes the session given up")
}

// A cache that goes on serving in jeopardy returns a value the new master
// has overwritten: the master wrote without p4's acknowledgement once
// p4's lease had timed out (counterexamples/chubbysession/cache-in-jeopardy.cex).
// The breadth-first search for the shortest (387,991 states) runs with
// COORDCHECK_LONG=1; here a depth-first search finds one.
func TestCacheInJeopardyIsStale(t *testing.T) {
	t.Parallel()
	keep := brokenRecipe{pinned{name: "jeopardy=keep ops=2 crash=1@p0", spec: session(2, KeepCacheInJeopardy, "crash=1@p0"),
		verdict: checker.Violated, property: linearizability.PropertyName, states: 387991, edges: 1751703, depth: 25, long: true},
		25, "the history is not linearizable: key /x (at most 2 of its 3 operations linearize)"}
	t.Run(keep.name, func(t *testing.T) {
		tr := keep.run(t)
		require.Equal(t, "fire p4 lease", tr.Steps[15].Action, "p4 enters jeopardy, keeping its cache")
		require.Equal(t, "fire p1 lapse-p4", tr.Steps[16].Action, "so the new master's write goes on without it")
		require.Equal(t, "input p4 read /x", tr.Steps[21].Action, "and p4 reads the old value from its cache")
	})
	rep := session(2, KeepCacheInJeopardy, "crash=1@p0")().Check(checker.Options{Strategy: checker.DFS})
	require.Equal(t, checker.Violated, rep.Verdict)
	require.Equal(t, linearizability.PropertyName, rep.Counterexample.Property)

	_, err := ParseSessions("short", "clear")
	require.ErrorContains(t, err, "want long or none")
	_, err = ParseSessions("none", "keep")
	require.ErrorContains(t, err, "one broken variant at a time")
}
