package main

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

// timing drops the summary's times, which differ from run to run.
var timing = regexp.MustCompile(`time [0-9.]+s  [0-9,]+ states/s`)

// The binary, started with -checkpoint and killed with SIGKILL as soon
// as its first checkpoint is written, then started again with -resume,
// prints what a run never stopped prints: counts, trace and verdict.
func TestCheckpointSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "coordcheck")
	build := exec.Command("go", "build", "-o", bin, ".")
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
			if _, err := os.Stat(ck); err == nil {
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
	}
}
