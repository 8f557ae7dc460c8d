package cli

import (
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// interruptAfter makes the next search receive sig from the process
// itself d after it starts listening, and returns a function that says
// when it was sent (waiting for the sending goroutine, so that the time
// is read after it was written). The
// test listens too, so that a signal arriving after the search has
// stopped listening cannot end the test binary.
func interruptAfter(t *testing.T, sig syscall.Signal, d time.Duration) func() time.Time {
	guard := make(chan os.Signal, 4)
	signal.Notify(guard, syscall.SIGINT, syscall.SIGTERM)
	sent := new(time.Time)
	done := make(chan struct{})
	searchStarted = func() {
		go func() {
			time.Sleep(d)
			*sent = time.Now()
			if err := syscall.Kill(os.Getpid(), sig); err != nil {
				t.Error(err)
			}
			close(done)
		}()
	}
	t.Cleanup(func() {
		<-done
		searchStarted = func() {}
		signal.Stop(guard)
	})
	return func() time.Time {
		<-done
		return *sent
	}
}

// SIGTERM (as `timeout` sends) and SIGINT (Ctrl-C) stop every mode within
// about a second and print the summary, inconclusive, exit 3. The
// configurations run far longer than the test if not stopped.
func TestSignalsStopEveryMode(t *testing.T) {
	for _, c := range []struct {
		name string
		sig  syscall.Signal
		args []string
		out  string
	}{
		{"bfs", syscall.SIGTERM, []string{"check", "ricartagrawala", "-n", "9", "-workers", "1"}, "bound reached (interrupted)"},
		{"parallel bfs", syscall.SIGINT, []string{"check", "ricartagrawala", "-n", "9", "-workers", "2"}, "bound reached (interrupted)"},
		{"dfs", syscall.SIGTERM, []string{"check", "ricartagrawala", "-n", "63", "-mode", "dfs"}, "bound reached (interrupted)"},
		{"liveness graph", syscall.SIGINT, []string{"check", "maekawa", "-n", "63", "-mode", "dfs"}, "bound reached (interrupted)"},
		{"liveness graph after a cycle", syscall.SIGTERM, []string{"check", "tokenring", "-n", "14"}, "bound reached (interrupted)"},
		{"random", syscall.SIGTERM, []string{"check", "ricartagrawala", "-n", "63", "-mode", "random", "-walks", "100000000", "-workers", "1"}, "bound reached (interrupted) after"},
		{"swarm", syscall.SIGINT, []string{"check", "ricartagrawala", "-n", "63", "-mode", "swarm", "-walks", "100000000", "-workers", "2"}, "bound reached (interrupted) after"},
	} {
		t.Run(c.name, func(t *testing.T) {
			sent := interruptAfter(t, c.sig, 150*time.Millisecond)
			code, out, errs := runCmd(append(c.args, "-max-memory", "1000")...)
			took := time.Since(sent())
			require.Equal(t, 3, code, "stdout %s stderr %s", out, errs)
			require.Contains(t, out, c.out)
			require.Contains(t, out, "states")
			require.Less(t, took, 1500*time.Millisecond, "stopped %v after the signal (under load)", took)
		})
	}
}

// lincheck stops as soon as a signal arrives: the verdict is unknown, not
// a pass.
func TestSignalStopsLincheck(t *testing.T) {
	path := hardHistoryFile(t, t.TempDir(), 40)
	sent := interruptAfter(t, syscall.SIGTERM, 150*time.Millisecond)
	code, out, errs := runLincheck("-model", "register", "-timeout", "3s", path)
	took := time.Since(sent())
	require.Equal(t, 3, code, "stdout %s stderr %s", out, errs)
	require.Contains(t, out, "verdict: unknown: interrupted after")
	require.Less(t, took, 500*time.Millisecond)
}

// A bound too small for the search to start is bad usage: one line,
// exit 2, nothing on stdout.
func TestMaxMemoryTooSmallIsRefused(t *testing.T) {
	code, out, errs := runCmd("check", "ricartagrawala", "-max-memory", "1")
	require.Equal(t, 2, code, "stdout %s stderr %s", out, errs)
	require.Empty(t, out)
	require.Contains(t, errs, "-max-memory 1: too small: the search needs")
}
