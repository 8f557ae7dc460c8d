package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// coordcheck run: Ricart-Agrawala over TCP passes, at 2(N-1) = 4 messages
// per entry for n=3 (a little more: the requests pending at the end), next
// to the costs table's figure.
func TestRunRicartAgrawala(t *testing.T) {
	code, out, errOut := runCmd("run", "ricartagrawala", "-n", "3", "-duration", "400ms")
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "run ricartagrawala n=3 clock=notes: 3 nodes, transport tcp, faults none, at most 400ms")
	require.Regexp(t, `mutual-exclusion: holds on [1-9][0-9]* observed critical sections`, out)
	require.Contains(t, out, "messages per entry: 2(N-1) = 4 (measured 4)")
	require.Regexp(t, `(?m)^p2 +[1-9][0-9]* +[0-9.]+$`, out, "per-node throughput")
	require.Regexp(t, `request -> enter latency: p50 \S+  p90 \S+  p99 \S+`, out)
	m := regexp.MustCompile(`(\d+\.\d+) per critical-section entry`).FindStringSubmatch(out)
	require.NotNil(t, m, out)
	per, err := strconv.ParseFloat(m[1], 64)
	require.NoError(t, err)
	require.GreaterOrEqual(t, per, 4.0)
	require.Less(t, per, 4.5)
	require.Regexp(t, `(?m)^ +[0-9.]+s +[0-9]+ steps`, errOut, "a progress line")
	require.Regexp(t, `the checker replayed the run's [1-9][0-9]* steps: every world the run passed through satisfies the invariants`, out)
}

// Duplicated replies break Ricart-Agrawala live, as the checker finds with
// -faults dup=1: the observer sees two processes inside at once (or, when
// the duplicate is the reply a process counts instead of a later one, the
// deadlock that follows), exit 1, and the run's trace, replayed in the
// checker, violates the same property there: it is shrunk and written as
// a counterexample that `replay` reproduces. Which frames are duplicated depends on the run's timing, so
// up to three seeds are tried.
func TestRunDupCaughtAndReproduced(t *testing.T) {
	dir := t.TempDir()
	for seed := 1; seed <= 3; seed++ {
		cex := filepath.Join(dir, "ra.cex")
		code, out, errOut := runCmd("run", "ricartagrawala", "-n", "3", "-duration", "500ms", "-faults", "dup=inf",
			"-seed", strconv.Itoa(seed), "-cex", cex)
		if code == 0 {
			continue
		}
		require.Equal(t, 1, code, errOut)
		m := regexp.MustCompile(`(?m)^([a-z-]+): VIOLATED on the observed run`).FindStringSubmatch(out)
		require.NotNil(t, m, out)
		require.Contains(t, out, "the checker, replaying the run, finds "+m[1]+" violated after step ")
		require.Contains(t, out, "are a counterexample: written to "+cex)
		code, out, errOut = runCmd("replay", cex)
		require.Equal(t, 1, code, errOut)
		require.Contains(t, out, "reproduced: "+m[1]+" is violated")
		return
	}
	t.Fatal("no overlap observed in three runs with dup=inf")
}

// The coordination service with local reads and a slow replica (its
// incoming messages delayed): a client reads a value older than one
// another client's write has already returned, and porcupine rejects the
// observed history; the history written as EDN is rejected by lincheck as
// well. Leader reads stay linearizable on the same runs.
func TestRunLocalReadsNotLinearizable(t *testing.T) {
	dir := t.TempDir()
	args := func(reads string, seed int, edn string) []string {
		return []string{"run", "coordination", "-reads", reads, "-ops", "20", "-clients", "3", "-faults", "delay=50ms@p2",
			"-think", "10ms", "-duration", "3s", "-seed", strconv.Itoa(seed), "-o", edn, "-cex", filepath.Join(dir, "c.cex")}
	}
	caught := false
	for seed := 2; seed <= 7 && !caught; seed++ {
		edn := filepath.Join(dir, "local.edn")
		code, out, errOut := runCmd(args("local", seed, edn)...)
		if code == 0 {
			continue
		}
		require.Equal(t, 1, code, errOut)
		require.Contains(t, out, "linearizability: VIOLATED on the observed run")
		require.Contains(t, out, "history of 60 operations written to "+edn)
		code, _, errOut = runCmd("lincheck", "-model", "kv", edn)
		require.Equal(t, 1, code, errOut)
		t.Logf("stale read caught with seed %d", seed)
		caught = true
	}
	require.True(t, caught, "six runs with local reads and a slow replica stayed linearizable")
	for seed := 2; seed <= 3; seed++ {
		edn := filepath.Join(dir, "leader.edn")
		code, out, errOut := runCmd(args("leader", seed, edn)...)
		require.Equal(t, 0, code, "%s%s", out, errOut)
		require.Contains(t, out, "linearizability: holds on 1 ends of runs")
		code, _, errOut = runCmd("lincheck", "-model", "kv", edn)
		require.Equal(t, 0, code, errOut)
	}
}

// -transport proc: every node is its own process, this very program
// re-executed (`coordcheck node ...`). A replica killed as a process is
// started again and recovers from the state it had persisted, as the
// model's Restarter says: it takes steps again, and the run stays
// linearizable and in agreement.
func TestRunProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "coordcheck")
	build := exec.Command("go", "build", "-o", bin, "github.com/coordcheck/coordcheck/cmd/coordcheck")
	build.Stderr = os.Stderr
	require.NoError(t, build.Run())
	cmd := exec.Command(bin, "run", "coordination", "-ops", "6", "-think", "20ms", "-transport", "proc",
		"-faults", "crash=1@p1,restart=1", "-restart-within", "30ms", "-duration", "1s")
	outb, err := cmd.Output()
	out := string(outb)
	require.NoError(t, err, out)
	require.Contains(t, out, "transport proc")
	require.Contains(t, out, "node processes: 6 started (5 nodes, 1 restart), 1 killed")
	require.Contains(t, out, "faults: crashes 1, restarts 1")
	require.Regexp(t, `p1 crashed at [0-9.]+s, restarted at [0-9.]+s and took [1-9][0-9]* steps after`, out)
	require.Contains(t, out, "linearizability: holds on 1 ends of runs")
	require.Contains(t, out, "zab-agreement: holds")
	require.False(t, strings.Contains(out, "VIOLATED"), out)
}

// What a live run cannot do is refused, with exit code 2.
func TestRunRefuses(t *testing.T) {
	cases := []struct {
		args []string
		err  string
	}{
		{[]string{"run"}, "run needs a protocol (valid: besteffort, bully,"},
		{[]string{"run", "ricartagrawala", "-rounds", "2"}, "-rounds bounds the checker's state space"},
		{[]string{"run", "ricartagrawala", "-transport", "udp"}, `-transport "udp" (valid: tcp, mem, proc)`},
		{[]string{"run", "ricartagrawala", "-faults", "reorder=1"}, "unknown fault kind"},
		{[]string{"run", "ricartagrawala", "-faults", "crash=1@p7"}, "no node p7 in this configuration"},
		{[]string{"run", "ricartagrawala", "-faults", "delay=1ms@p7"}, "no node p7 in this configuration"},
		{[]string{"run", "ricartagrawala", "-faults", "delay=x"}, `fault delay="x": want a duration`},
		{[]string{"run", "ricartagrawala", "-duration", "0s"}, "-duration 0s: want a duration"},
		{[]string{"run", "ricartagrawala", "-faults", "dup=1", "-fault-rate", "0"}, "drop and dup would never strike"},
		{[]string{"node", "ricartagrawala", "-id", "9", "-addr", "127.0.0.1:1"}, "-id 9: want 0 to 2"},
	}
	for _, c := range cases {
		code, _, errOut := runCmd(c.args...)
		require.Equal(t, 2, code, "%v", c.args)
		require.Contains(t, errOut, c.err, "%v", c.args)
	}
}
