package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Whatever cannot take effect is refused before any search, with exit 2
// and exactly one line naming it; nothing goes to stdout. Each case pins
// the whole line.
func TestRefuseWhatCannotTakeEffect(t *testing.T) {
	dir := t.TempDir()
	bullyCex, err := os.ReadFile("../counterexamples/bully/premature-timeout.cex")
	require.NoError(t, err)
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	badNode := write("p9.cex", strings.Replace(string(bullyCex), "fire      p2 ok-timeout", "fire      p9 ok-timeout", 1))
	badFault := write("crash-p7.cex", strings.Replace(string(bullyCex), "timers    free\n", "timers    free\nfaults    crash=1@p7\n", 1))
	cases := []struct {
		args []string
		line string
	}{
		// Node ids outside the configuration: -faults, protocol parameters, files.
		{[]string{"check", "ricartagrawala", "-n", "3", "-faults", "crash=1@p9"},
			"ricartagrawala: faults crash=1@p9: no node p9 in this configuration (the nodes are p0..p2)"},
		{[]string{"check", "bully", "-n", "3", "-faults", "crash=1@p9,restart=1"},
			"bully: faults crash=1@p9: no node p9 in this configuration (the nodes are p0..p2)"},
		{[]string{"check", "maekawa", "-n", "3", "-requesters", "0,5"},
			`maekawa: requesters="0,5": "5" is not a process id (0..2)`},
		{[]string{"check", "maekawa", "-n", "3", "-sets", "0,1;1,9;0,2"},
			`maekawa: voting set V1={1,9}: "9" is not a process id (0..2 for n=3)`},
		{[]string{"check", "ringelection", "-initiators", "p9"},
			`ringelection: parameter initiators="p9": "p9" is not a process (want all, or ids like p1+p3 from p0 to p3)`},
		{[]string{"replay", badNode},
			badNode + `:12: "fire p9 ok-timeout": p9 is not a node of this configuration (the nodes are p0..p2)`},
		{[]string{"replay", badFault},
			badFault + ": faults crash=1@p7: no node p7 in this configuration (the nodes are p0..p2)"},
		// Faults and system settings that can never strike.
		{[]string{"check", "ricartagrawala", "-faults", "restart=1"},
			"ricartagrawala: faults restart=1: a restart needs a crashed node, and the crash budget is 0 (add crash=N)"},
		{[]string{"check", "ricartagrawala", "-timers", "perfect"},
			"ricartagrawala: timers perfect: the protocol cannot say when no reply can still arrive (it has no TimerGuard), so its timers stay free"},
		{[]string{"check", "maekawa", "-app-msgs", "1"},
			"maekawa: app-msgs 1: without ordering, application messages affect nothing in this protocol"},
		// Properties the protocol does not report (-ordering used to panic here).
		{[]string{"check", "coordination", "-ordering"},
			"coordination: ordering has no effect: the protocol checks no happened-before-order property"},
		{[]string{"check", "zklock", "-ordering"},
			"zklock: ordering has no effect: the protocol checks no happened-before-order property"},
		{[]string{"check", "ricartagrawala", "-n", "9", "-ordering"},
			"ricartagrawala: ordering tracks at most 8 nodes, not 9"},
		{[]string{"check", "coordination", "-liveness=false"},
			"-liveness=false has no effect: coordination checks no liveness property (it checks zab-agreement, linearizability, no-deadlock)"},
		// Flags the mode ignores.
		{[]string{"check", "ricartagrawala", "-walk", "5"},
			"-walk 5 has no effect under -mode bfs (it applies to -mode random, swarm)"},
		{[]string{"check", "ricartagrawala", "-seed", "3"},
			"-seed 3 has no effect under -mode bfs (it applies to -mode random, swarm)"},
		{[]string{"check", "ricartagrawala", "-mode", "dfs", "-walks", "5"},
			"-walks 5 has no effect under -mode dfs (it applies to -mode random, swarm)"},
		{[]string{"check", "ricartagrawala", "-mode", "dfs", "-workers", "2"},
			"-workers 2 has no effect under -mode dfs (it applies to -mode bfs, random, swarm)"},
		{[]string{"check", "ricartagrawala", "-mode", "random", "-walks", "10", "-walk", "3"},
			"-walks 10 has no effect: with -walk 3 only that walk runs"},
		{[]string{"check", "ricartagrawala", "-mode", "swarm", "-exhaust", "-walk", "3"},
			"-exhaust has no effect: with -walk 3 one walk runs and stops at its violation"},
		// Values out of range.
		{[]string{"check", "ricartagrawala", "-timeout", "-5s"}, "-timeout -5s: want 0 (no bound) or more"},
		{[]string{"check", "ricartagrawala", "-max-depth", "-1"}, "-max-depth -1: want 0 (no bound) or more"},
		{[]string{"check", "ricartagrawala", "-mode", "random", "-walk", "-3"}, "-walk -3: want a walk number, 0 or more"},
		{[]string{"check", "ricartagrawala", "-mode", "random", "-walks", "0"}, "-walks 0: want at least 1"},
		// Outputs that could not be written, found before the search.
		{[]string{"check", "ricartagrawala", "-o", filepath.Join(dir, "no", "such", "x.cex")},
			"-o " + filepath.Join(dir, "no", "such", "x.cex") + ": cannot write there: no such file or directory"},
		{[]string{"check", "ricartagrawala", "-o", dir}, "-o " + dir + ": is a directory"},
		{[]string{"check", "coordination", "-html", filepath.Join(dir, "no", "x.html")},
			"-html " + filepath.Join(dir, "no", "x.html") + ": cannot write there: no such file or directory"},
	}
	for _, c := range cases {
		code, out, errs := runCmd(c.args...)
		require.Equal(t, 2, code, "%v: stdout %s stderr %s", c.args, out, errs)
		require.Empty(t, out, "%v", c.args)
		require.Equal(t, "coordcheck: "+c.line+"\n", errs, "%v", c.args)
	}
	require.NoFileExists(t, filepath.Join(dir, "x.html.tmp"))
}

// The flags of the table apply where they take effect: -seed, -walks and
// -walk under random search, -exhaust under random search (it counts the
// failing walks), -workers under BFS, -html for a protocol with a history.
func TestFlagsWhereTheyTakeEffect(t *testing.T) {
	code, out, errs := runCmd("check", "maekawa", "-n", "4", "-sets", "grid", "-mode", "random", "-seed", "7",
		"-walks", "300", "-exhaust", "-liveness=false", "-workers", "2")
	require.Equal(t, 1, code, errs)
	require.Contains(t, out, "failing walks: ")
	html := filepath.Join(t.TempDir(), "stale.html")
	code, out, errs = runCmd("check", "coordination", "-ops", "1", "-reads", "local", "-html", html)
	require.Equal(t, 1, code, errs)
	require.Contains(t, out, "visualization of the history written to "+html)
	require.FileExists(t, html)
}

// A 100 KB binary line in a counterexample file or a history, or a huge
// flag value, yields one short line that keeps the line number.
func TestLongInputGivesShortError(t *testing.T) {
	dir := t.TempDir()
	junk := make([]byte, 100_000)
	for i := range junk {
		junk[i] = byte(i*7 + 1)
		if junk[i] == '\n' {
			junk[i] = 0
		}
	}
	cex := filepath.Join(dir, "junk.cex")
	require.NoError(t, os.WriteFile(cex, append([]byte("# coordcheck counterexample v1\nprotocol  bully\n"), junk...), 0o644))
	hist := filepath.Join(dir, "junk.edn")
	require.NoError(t, os.WriteFile(hist, append([]byte("{:process 0, :type :invoke, :f :read, :value nil}\n"), junk...), 0o644))
	for _, c := range []struct {
		args   []string
		prefix string
	}{
		{[]string{"replay", cex}, "coordcheck: " + cex + `: line 3: unknown header "\x01\b\x0f\x16\x1d$+29@GNU\\cjqx..." (41 bytes) (valid: `},
		{[]string{"lincheck", hist}, "coordcheck: " + hist + `: line 2: not a history line: want an EDN map`},
		{[]string{"check", "ricartagrawala", "-n", strings.Repeat("9", 100_000)}, `coordcheck: ricartagrawala: parameter n="999999999`},
		{[]string{"check", "ricartagrawala", "-walks", strings.Repeat("9", 100_000)}, `coordcheck: check ricartagrawala: invalid value "` +
			strings.Repeat("9", 60) + `..." (100000 bytes) for flag -walks: value out of range` + "\n"},
		{[]string{"check", "ricartagrawala", "-exhaust=" + strings.Repeat("y", 100_000)}, `coordcheck: check ricartagrawala: invalid boolean value "` +
			strings.Repeat("y", 60) + `..." (100000 bytes) for -exhaust: parse error` + "\n"},
		{[]string{"check", "ricartagrawala", "-bogus"}, `coordcheck: check ricartagrawala: flag provided but not defined: -bogus (valid flags: -app-msgs `},
		{[]string{"replay", "-" + strings.Repeat("x", 100_000)}, `coordcheck: replay: flag provided but not defined: -` + strings.Repeat("x", 59) + "... (100001 bytes)\n"},
	} {
		code, out, errs := runCmd(c.args...)
		require.Equal(t, 2, code, "%v", c.args[:1])
		require.Empty(t, out)
		require.Equal(t, 1, strings.Count(errs, "\n"), "one line")
		require.True(t, strings.HasPrefix(errs, c.prefix), "%s", errs)
		require.Less(t, len(errs), 500, "%s", errs) // most of it, for an unknown flag, the list of check's valid flags
		require.NotContains(t, errs, "more bytes)", "each quoted part is cut, not the line")
	}
}

// Every command answers -h with exit 0, and coordcheck alone or with -h
// lists every command.
func TestHelp(t *testing.T) {
	for _, args := range [][]string{{}, {"-h"}, {"help"}} {
		code, out, errs := runCmd(args...)
		text := out + errs
		for _, cmd := range []string{"list", "check", "replay", "costs", "lincheck"} {
			require.Contains(t, text, "\n  coordcheck "+cmd+" ", "%v", args)
		}
		if len(args) == 0 {
			require.Equal(t, 2, code)
		} else {
			require.Equal(t, 0, code)
		}
	}
	for _, args := range [][]string{{"list", "-h"}, {"check", "-h"}, {"check", "bully", "-h"}, {"replay", "-h"},
		{"costs", "-h"}, {"costs", "mutex", "-h"}, {"lincheck", "-h"}} {
		code, out, errs := runCmd(args...)
		require.Equal(t, 0, code, "%v: %s", args, errs)
		require.True(t, strings.HasPrefix(out, "usage: coordcheck "+args[0]), "%v: %s", args, out)
		require.Empty(t, errs)
	}
}
