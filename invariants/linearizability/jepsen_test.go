package linearizability

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestTestdata checks every history under testdata. Each file says in its
// header comments which model reads it and what the answer is:
//
//	; model: kv
//	; want: not linearizable
//	; want: error: line 7: what is wrong
//	; minimal: 3 (the size of the smallest failing sub-history)
func TestTestdata(t *testing.T) {
	files, err := historyFiles()
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			model, want, minimal := readHeader(t, path)
			spec, err := ParseSpec(model)
			require.NoError(t, err)
			f, err := os.Open(path)
			require.NoError(t, err)
			defer f.Close()
			h, err := ParseJepsen(f, spec)
			if wantErr, ok := strings.CutPrefix(want, "error: "); ok {
				require.Error(t, err)
				require.Equal(t, wantErr, err.Error())
				var le *LineError
				require.True(t, errors.As(err, &le))
				require.True(t, strings.HasPrefix(wantErr, "line "), "want a line number")
				return
			}
			require.NoError(t, err)
			r := Check(spec.Model(), h.Ops, 10*time.Second)
			require.Equal(t, want, r.Verdict.String())
			stuck := 0
			for _, p := range r.Partitions {
				if !p.Linearizable() {
					stuck++
				}
			}
			require.Equal(t, r.Verdict == NotLinearizable, stuck > 0, "%+v", r.Partitions)
			sub, ok := Minimize(spec.Model(), h.Ops, 10*time.Second, 0)
			require.Equal(t, r.Verdict == NotLinearizable, ok)
			if ok {
				require.True(t, sub.Minimal)
				require.NotEmpty(t, minimal, "%s: no '; minimal:' line", path)
				require.Equal(t, minimal, strconv.Itoa(len(sub.Ops)), "%v", sub.Ops)
			}
		})
	}
}

func readHeader(t *testing.T, path string) (model, want, minimal string) {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "; ")
		if !ok {
			break
		}
		if v, ok := strings.CutPrefix(line, "model: "); ok {
			model = v
		}
		if v, ok := strings.CutPrefix(line, "want: "); ok {
			want = v
		}
		if v, ok := strings.CutPrefix(line, "minimal: "); ok {
			minimal = v
		}
	}
	require.NotEmpty(t, model, "%s: no '; model:' line", path)
	require.NotEmpty(t, want, "%s: no '; want:' line", path)
	return model, want, minimal
}

// FuzzParseJepsen: any input parses into well-formed operations or fails
// with the number of a line of the input.
func FuzzParseJepsen(f *testing.F) {
	files, _ := historyFiles()
	for _, path := range files {
		data, err := os.ReadFile(path)
		require.NoError(f, err)
		f.Add(string(data), uint8(0))
	}
	f.Fuzz(func(t *testing.T, text string, which uint8) {
		specs := Specs()
		spec := specs[int(which)%len(specs)]
		h, err := ParseJepsen(strings.NewReader(text), spec)
		lines := strings.Count(text, "\n") + 1
		if err != nil {
			var le *LineError
			require.True(t, errors.As(err, &le), "%v", err)
			require.True(t, le.Line >= 1 && le.Line <= lines, "line %d of %d", le.Line, lines)
			return
		}
		for _, op := range h.Ops {
			require.LessOrEqual(t, op.Call, op.Return)
			require.Less(t, op.Client, len(h.Processes))
			require.Equal(t, spec == SpecKV || spec == SpecKVAppend, op.Input.Key != "")
		}
	})
}

// historyFiles lists the hand-written histories under testdata (not the
// fuzzer's corpus under testdata/fuzz).
func historyFiles() ([]string, error) {
	all, err := filepath.Glob("testdata/*")
	var files []string
	for _, f := range all {
		if st, err := os.Stat(f); err == nil && !st.IsDir() {
			files = append(files, f)
		}
	}
	return files, err
}
