package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// timing drops the summary's times and peak memory, which differ from
// run to run (the memory with the moments the workers poll at).
var timing = regexp.MustCompile(`time [0-9.]+s  [0-9,]+ states/s  memory [0-9.]+ MB \([0-9.]+ B/state\)`)

// The binary, started with -checkpoint and killed with SIGKILL once its
// checkpoint holds a thousand states or so, then started with -resume,
// prints what a run never stopped prints: counts, trace and verdict.
func TestCheckpointSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "coordcheck")
	build := exec.Command("go", "build", "-o", bin, "../cmd/coordcheck")
	build.Stderr = os.Stderr
	require.NoError(t, build.Run())

	for _, args := range [][]string{
		{"check", "ricartagrawala", "-n", "3", "-rounds", "2", "-faults", "dup=1", "-liveness=false", "-workers", "1"},
		{"check", "ricartagrawala", "-n", "3", "-rounds", "2", "-workers", "2"},
	} {
		full, err := exec.Command(bin, args...).Output()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else {
			require.NoError(t, err)
		}

		ck := filepath.Join(dir, "run.ckpt")
		os.Remove(ck)
		killed := exec.Command(bin, append(args, "-checkpoint", ck, "-checkpoint-every", "1ms")...)
		require.NoError(t, killed.Start())
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(time.Millisecond) {
			// A checkpoint past the first few levels: 32 KB hold about
			// a thousand states, of the 36,000 to 43,000 these reach.
			if st, err := os.Stat(ck); err == nil && st.Size() > 32<<10 {
				break
			}
			require.True(t, time.Now().Before(deadline), "no checkpoint written")
		}
		require.NoError(t, killed.Process.Signal(syscall.SIGKILL))
		err = killed.Wait()
		require.Error(t, err)
		require.Contains(t, err.Error(), "killed", "%v ended before it was killed", args)

		resume := exec.Command(bin, append(args, "-resume", ck)...)
		var stderr bytes.Buffer
		resume.Stderr = &stderr
		out, err := resume.Output()
		rcode := 0
		if ee, ok := err.(*exec.ExitError); ok {
			rcode = ee.ExitCode()
		} else {
			require.NoError(t, err)
		}
		t.Logf("%v: %s", args, stderr.String())
		require.Contains(t, stderr.String(), "resuming from "+ck)
		require.Equal(t, code, rcode)
		require.Equal(t, timing.ReplaceAllString(string(full), "TIME"), timing.ReplaceAllString(string(out), "TIME"))

		// A search a bound stops (as Ctrl-C and SIGTERM do) writes its
		// checkpoint as it stops; the resumed run has no such bound.
		os.Remove(ck)
		stopped := exec.Command(bin, append(args, "-checkpoint", ck, "-timeout", "1ns")...)
		err = stopped.Run()
		require.Error(t, err)
		require.Equal(t, 3, stopped.ProcessState.ExitCode())
		out, _ = exec.Command(bin, append(args, "-resume", ck)...).Output()
		require.Equal(t, timing.ReplaceAllString(string(full), "TIME"), timing.ReplaceAllString(string(out), "TIME"))
	}
}
