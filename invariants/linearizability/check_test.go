package linearizability

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func parseFile(t testing.TB, path string, spec Spec) *History {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	h, err := ParseJepsen(f, spec)
	require.NoError(t, err)
	return h
}

// TestGeneratedHistoriesLinearizable: the simulated registers are atomic,
// so their histories must be linearizable, with and without timeouts.
func TestGeneratedHistoriesLinearizable(t *testing.T) {
	for seed := range uint64(20) {
		for _, keys := range []int{0, 3} {
			ops := genHistory(seed, 5, 200, keys, 0.05)
			m := CASRegister()
			if keys > 0 {
				m = KV()
			}
			r := Check(m, ops, 10*time.Second)
			require.Equal(t, Linearizable, r.Verdict, "seed %d keys %d", seed, keys)
			// a read of a value nobody wrote is not linearizable (early in
			// the history: late, it makes the check search every order)
			for i := range ops {
				if ops[i].Input.Op == Read && !ops[i].Output.Unknown {
					ops[i].Output.Value = Int(99)
					break
				}
			}
			r = Check(m, ops, 10*time.Second)
			require.Equal(t, NotLinearizable, r.Verdict, "seed %d keys %d, corrupted", seed, keys)
		}
	}
}

// TestIndeterminateOperationsMatter: the :info operations are what
// explains the histories that need them; without them, the verdict flips.
func TestIndeterminateOperationsMatter(t *testing.T) {
	for _, c := range []struct {
		file string
		spec Spec
	}{
		{"info-write-ok.edn", SpecRegister},
		{"info-cas-ok.edn", SpecCASRegister},
		{"never-completed.edn", SpecRegister},
		{"cas-ok.log", SpecCASRegister},
	} {
		h := parseFile(t, filepath.Join("testdata", c.file), c.spec)
		require.Equal(t, Linearizable, Check(c.spec.Model(), h.Ops, 0).Verdict, c.file)
		var definite []Operation[Input, Output]
		for _, op := range h.Ops {
			if !op.Output.Unknown {
				definite = append(definite, op)
			}
		}
		require.Less(t, len(definite), len(h.Ops), c.file)
		require.Equal(t, NotLinearizable, Check(c.spec.Model(), definite, 0).Verdict, c.file)
	}
}

// hardHistory is not linearizable, and porcupine can only find out by
// trying every order of n concurrent writes: after them all, a read
// returns a value that nobody wrote. Reads concurrent with the writes see
// values in an order drawn from a seeded PCG.
func hardHistory(n int) []Operation[Input, Output] {
	rng := rand.New(rand.NewPCG(1, 2))
	var ops []Operation[Input, Output]
	end := int64(4 * n)
	for i := range n {
		ops = append(ops, Operation[Input, Output]{Client: i, Call: int64(i), Return: end,
			Input: Input{Op: Write, Arg: Int(int64(i))}})
	}
	t := int64(n)
	for _, v := range rng.Perm(n) {
		ops = append(ops, Operation[Input, Output]{Client: n, Call: t, Return: t + 1,
			Input: Input{Op: Read}, Output: Output{Value: Int(int64(v))}})
		t += 2
	}
	ops = append(ops, Operation[Input, Output]{Client: n, Call: end + 1, Return: end + 2,
		Input: Input{Op: Read}, Output: Output{Value: Int(-1)}})
	return ops
}

func TestTimeoutIsUnknownNotPass(t *testing.T) {
	ops := hardHistory(40)
	r := Check(Register(), ops, 20*time.Millisecond)
	if r.Verdict == NotLinearizable {
		t.Skip("porcupine decided the hard history within 20ms; nothing to time out")
	}
	require.Equal(t, Unknown, r.Verdict)
	require.Equal(t, 3, r.Verdict.ExitCode())
	require.NotEqual(t, Linearizable, r.Verdict)
	var buf bytes.Buffer
	require.NoError(t, r.WriteVisualization(&buf), "a timed-out check still draws what it found")
}

func TestVisualization(t *testing.T) {
	h := parseFile(t, "testdata/kv-bad.edn", SpecKV)
	html := func() string {
		r := Check(KV(), h.Ops, 0)
		require.Equal(t, NotLinearizable, r.Verdict)
		require.Equal(t, []Partition{{Key: ":x", Operations: 2, Linearized: 2}, {Key: ":y", Operations: 3, Linearized: 2}}, r.Partitions)
		var buf bytes.Buffer
		require.NoError(t, r.WriteVisualization(&buf))
		return buf.String()
	}
	first := html()
	for range 5 {
		require.Equal(t, first, html(), "the visualization is the same on every run")
	}
	// the data is JSON in the page, where > is \u003e
	for _, want := range []string{"cas(:y, 1, 2)", `read(:y) -\u003e 1`, "write(:x, 1)", "process 1, :invoke line 10, :ok line 12"} {
		require.True(t, strings.Contains(first, want), "the visualization shows %s", want)
	}

	path := filepath.Join(t.TempDir(), "kv-bad.html")
	r := Check(KV(), h.Ops, 0)
	require.NoError(t, r.WriteVisualizationFile(path))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, first, string(data))
	require.True(t, strings.HasPrefix(first, "<!doctype html>"))
}

func TestEmptyHistory(t *testing.T) {
	for _, m := range []Model[Value, Input, Output]{Register(), KV()} {
		r := Check(m, nil, time.Second)
		require.Equal(t, Linearizable, r.Verdict, m.Name)
		require.NoError(t, r.WriteVisualization(&bytes.Buffer{}))
	}
}
