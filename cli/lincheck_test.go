package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// runLincheck runs cmdLincheck as run() does, with its exit code and its
// stdout and stderr.
func runLincheck(args ...string) (int, string, string) {
	var out bytes.Buffer
	code, err := cmdLincheck(args, &out)
	if err != nil {
		var ee *exitError
		if !errors.As(err, &ee) {
			return 2, out.String(), "coordcheck: " + err.Error() + "\n"
		}
		return ee.code, out.String(), "coordcheck: " + ee.msg + "\n"
	}
	return code, out.String(), ""
}

// historyDir copies the library's hand-written histories to a temporary
// directory, where lincheck may write visualizations next to them.
func historyDir(t *testing.T) string {
	dir := t.TempDir()
	src := "../invariants/linearizability/testdata"
	entries, err := os.ReadDir(src)
	require.NoError(t, err)
	for _, e := range entries {
		if e.IsDir() {
			continue // the fuzzer's corpus
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, e.Name()), data, 0o644))
	}
	return dir
}

// hardHistoryFile writes a history that is not linearizable, which
// porcupine can only find out by trying every order of n concurrent writes:
// after them all, a read returns a value nobody wrote.
func hardHistoryFile(t *testing.T, dir string, n int) string {
	var b strings.Builder
	for p := range n {
		fmt.Fprintf(&b, "{:type :invoke, :f :write, :value %d, :process %d}\n", p, p)
	}
	for p := range n {
		fmt.Fprintf(&b, "{:type :ok, :f :write, :value %d, :process %d}\n", p, p)
	}
	fmt.Fprintf(&b, "{:type :invoke, :f :read, :value nil, :process %d}\n", n)
	fmt.Fprintf(&b, "{:type :ok, :f :read, :value -1, :process %d}\n", n)
	path := filepath.Join(dir, "hard.edn")
	require.NoError(t, os.WriteFile(path, []byte(b.String()), 0o644))
	return path
}

func TestLincheck(t *testing.T) {
	dir := historyDir(t)
	in := func(name string) string { return filepath.Join(dir, name) }
	zdir := func(name string) string { return filepath.Join("../protocols/coordination/testdata", name) }
	cases := []struct {
		args     []string
		code     int
		inStdout []string
		inStderr string
		html     string // a visualization written there
	}{
		{args: []string{"-model", "register", in("register-ok.edn")}, code: 0,
			inStdout: []string{"model register, 6 operations from 3 processes", "verdict: linearizable"}},
		{args: []string{in("register-ok.edn"), "-model", "register"}, code: 0,
			inStdout: []string{"verdict: linearizable"}},
		{args: []string{"-model", "register", in("register-stale-read.edn")}, code: 1,
			inStdout: []string{"verdict: not linearizable", "the register: at most 2 of its 3 operations linearize",
				"visualization written to " + in("register-stale-read.edn.html")},
			html: in("register-stale-read.edn.html")},
		{args: []string{"-model", "kv", in("kv-bad.edn")}, code: 1,
			inStdout: []string{"on 2 keys", "key :y: at most 2 of its 3 operations linearize"},
			html:     in("kv-bad.edn.html")},
		{args: []string{"-model", "kv", in("kv-ok.edn")}, code: 0, inStdout: []string{"on 3 keys", "verdict: linearizable"}},
		{args: []string{in("cas-ok.log")}, code: 0,
			inStdout: []string{"model cas-register", "1 indeterminate (:info or never completed), 2 :fail dropped", "verdict: linearizable"}},
		{args: []string{in("cas-bad.edn")}, code: 1, inStdout: []string{"verdict: not linearizable"}},
		{args: []string{in("info-write-ok.edn")}, code: 0, inStdout: []string{"verdict: linearizable"}},
		{args: []string{in("info-write-flipflop.edn")}, code: 1, inStdout: []string{"verdict: not linearizable"}},
		{args: []string{"-html", "none", in("fail-write.edn")}, code: 1, inStdout: []string{"verdict: not linearizable"}},
		{args: []string{"-model", "kv-append", in("kv-append-ok.edn")}, code: 0,
			inStdout: []string{"model kv-append, 6 operations from 4 processes on 2 keys", "1 indeterminate", "verdict: linearizable"}},
		{args: []string{"-model", "kv-append", in("kv-append-lost-append.edn")}, code: 1,
			inStdout: []string{`key "k": at most 2 of its 3 operations linearize`,
				`smallest failing sub-history: 3 of the 3 operations of key "k"; not linearizable`,
				`  0        line 7     line 8     append("k", "1")`,
				`  1        line 11    line 12    append("k", "2")`,
				`  2        line 13    line 14    get("k") -> "2"`,
				"its visualization written to " + in("kv-append-lost-append.edn.min.html")},
			html: in("kv-append-lost-append.edn.min.html")},
		{args: []string{"-html", in("ok.html"), in("register-ok.edn")}, code: 0,
			inStdout: []string{"visualization written to " + in("ok.html")}, html: in("ok.html")},

		{args: []string{"-model", "kv-append", in("malformed-kv-append-mixed.edn")}, code: 2,
			inStderr: ": line 6: value [\"k\" \"1\"] is a [key value] pair but the event has no :key: this line has the tuple shape of -model kv, the history mixes shapes"},
		{args: []string{in("kv-append-ok.edn")}, code: 2,
			inStderr: ": line 6: :key \"4\": an event of the key-value :key shape (use -model kv-append)"},
		{args: []string{"-minimize", "-1s", in("cas-ok.edn")}, code: 2, inStderr: "-minimize -1s"},
		{args: []string{"-znodes", "/x", in("cas-ok.edn")}, code: 2, inStderr: "-znodes goes with -model znode"},
		{args: []string{"-model", "znode", "-znodes", "x", zdir("znode-lock-ok.edn")}, code: 2, inStderr: `-znodes "x": want paths such as /lock,/x`},
		{args: []string{"-model", "znode", "-html", "none", zdir("znode-lock-ok.edn")}, code: 1,
			inStdout: []string{"model znode, 10 operations from 4 processes", "verdict: not linearizable"}},
		{args: []string{"-model", "znode", "-znodes", "/lock,/x", zdir("znode-lock-ok.edn")}, code: 0,
			inStdout: []string{"verdict: linearizable"}},
		{args: []string{"-model", "znode", "-znodes", "/lock", "-html", "none", zdir("znode-lock-two-holders.edn")}, code: 1,
			inStdout: []string{"smallest failing sub-history: 2 of the 2 operations of the tree",
				"create(/lock/n-,e|s) -> ok /lock/n-0"}},
		{args: []string{"-model", "register", in("malformed-unpaired.edn")}, code: 2,
			inStderr: in("malformed-unpaired.edn") + ": line 6: :ok :read of process 1 completes no pending :invoke"},
		{args: []string{"-model", "register", in("malformed-cas-in-register.edn")}, code: 2,
			inStderr: ": line 5: :cas is not an operation of the register model"},
		{args: []string{in("malformed-log.log")}, code: 2, inStderr: ": line 5: not a history line"},
		{args: []string{in("malformed-syntax.edn")}, code: 2, inStderr: ": line 5: missing '}'"},
		{args: []string{}, code: 2, inStderr: "lincheck needs one history file"},
		{args: []string{os.DevNull}, code: 2, inStderr: os.DevNull + ": no client operations in 0 lines"},
		{args: []string{in("nosuch.edn")}, code: 2, inStderr: "no such file"},
		{args: []string{in("cas-ok.edn"), in("cas-bad.edn")}, code: 2, inStderr: "unexpected argument"},
		{args: []string{"-model", "queue", in("cas-ok.edn")}, code: 2, inStderr: `unknown model "queue" (valid: register, cas-register, kv, kv-append, znode)`},
		{args: []string{"-timeout", "-1s", in("cas-ok.edn")}, code: 2, inStderr: "-timeout -1s"},
		{args: []string{"-bogus", in("cas-ok.edn")}, code: 2, inStderr: "valid flags: "},
		// An unwritable -html is refused before the check.
		{args: []string{"-html", filepath.Join(dir, "no", "such", "dir.html"), in("cas-ok.edn")}, code: 2,
			inStderr: "coordcheck: -html " + filepath.Join(dir, "no", "such", "dir.html") + ": cannot write there: no such file or directory\n"},
		{args: []string{"-h"}, code: 0, inStdout: []string{"usage: coordcheck lincheck", "exit codes:"}},
	}
	for _, c := range cases {
		code, out, errs := runLincheck(c.args...)
		require.Equal(t, c.code, code, "%v: stdout %s stderr %s", c.args, out, errs)
		for _, s := range c.inStdout {
			require.Contains(t, out, s, "%v", c.args)
		}
		require.Contains(t, errs, c.inStderr, "%v", c.args)
		if c.code == 2 {
			require.Empty(t, out, "%v: bad usage writes nothing else", c.args)
			require.Equal(t, 1, strings.Count(errs, "\n"), "%v: one-line error", c.args)
		}
		if c.html != "" {
			data, err := os.ReadFile(c.html)
			require.NoError(t, err, "%v", c.args)
			require.True(t, bytes.HasPrefix(data, []byte("<!doctype html>")), "%v", c.args)
		}
	}
	_, err := os.Stat(in("fail-write.edn.html"))
	require.True(t, os.IsNotExist(err), "-html none writes no visualization")
	_, err = os.Stat(in("register-ok.edn.html"))
	require.True(t, os.IsNotExist(err), "no visualization by default for a linearizable history")
}

func TestLincheckTimeoutIsUnknown(t *testing.T) {
	dir := t.TempDir()
	path := hardHistoryFile(t, dir, 32)
	code, out, errs := runLincheck("-model", "register", "-timeout", "20ms", path)
	if code == 1 {
		t.Skip("porcupine decided the hard history within 20ms; nothing to time out")
	}
	require.Equal(t, 3, code, "stdout %s stderr %s", out, errs)
	require.Contains(t, out, "verdict: unknown: the check timed out after 20ms before deciding; this is not a pass")
	_, err := os.Stat(path + ".html")
	require.True(t, os.IsNotExist(err), "no visualization by default for a timed-out check")
}

func TestLincheckJSON(t *testing.T) {
	dir := historyDir(t)
	code, out, _ := runLincheck("-json", "-model", "kv", filepath.Join(dir, "kv-bad.edn"))
	require.Equal(t, 1, code)
	var v struct {
		Verdict    string `json:"verdict"`
		Model      string `json:"model"`
		Operations int    `json:"operations"`
		Partitions []struct {
			Key        string `json:"key"`
			Operations int    `json:"operations"`
			Linearized int    `json:"linearized"`
		} `json:"partitions"`
		Processes   int          `json:"processes"`
		HTML        string       `json:"html"`
		ExitCode    int          `json:"exit_code"`
		FailingKeys []string     `json:"failing_keys"`
		Minimal     *minimalJSON `json:"minimal"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	require.Equal(t, "not linearizable", v.Verdict)
	require.Equal(t, "kv", v.Model)
	require.Equal(t, 5, v.Operations)
	require.Equal(t, 2, v.Processes)
	require.Len(t, v.Partitions, 2)
	require.Equal(t, ":y", v.Partitions[1].Key)
	require.Equal(t, 2, v.Partitions[1].Linearized)
	require.Equal(t, filepath.Join(dir, "kv-bad.edn.html"), v.HTML)
	require.Equal(t, 1, v.ExitCode)
	require.Equal(t, []string{":y"}, v.FailingKeys)
	require.Equal(t, ":y", v.Minimal.Key)
	require.True(t, v.Minimal.Minimal)
	require.Equal(t, filepath.Join(dir, "kv-bad.edn.min.html"), v.Minimal.HTML)
	require.Equal(t, []minimalOp{
		{Process: 1, Invoke: 8, Complete: 9, Operation: "write(:y, 1)"},
		{Process: 1, Invoke: 10, Complete: 12, Operation: "cas(:y, 1, 2)"},
		{Process: 0, Invoke: 14, Complete: 15, Operation: "read(:y) -> 1"},
	}, v.Minimal.Operations)

	code, out, _ = runLincheck("-json", filepath.Join(dir, "cas-ok.edn"))
	require.Equal(t, 0, code)
	require.Contains(t, out, `"verdict": "linearizable"`)
	require.Contains(t, out, `"exit_code": 0`)
	require.NotContains(t, out, `"html"`)
}

// check -history writes the client history of the service's stale read
// as EDN, and lincheck judges the file as the checker did.
func TestCheckHistoryGoesThroughLincheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "stale.edn")
	code, out, errs := runCmd("check", "coordination", "-ops", "1", "-reads", "local", "-history", path)
	require.Equal(t, 1, code, "stdout %s stderr %s", out, errs)
	require.Contains(t, out, "history written to "+path)
	code, out, _ = runLincheck("-model", "kv", "-html", "none", path)
	require.Equal(t, 1, code)
	require.Contains(t, out, "model kv, 2 operations from 2 processes on 1 keys")
	require.Contains(t, out, `read("/x") -> nil`)

	code, _, errs = runCmd("check", "ricartagrawala", "-history", path)
	require.Equal(t, 2, code)
	require.Contains(t, errs, "-history "+path+" has no effect: ricartagrawala does not check linearizability")
}
