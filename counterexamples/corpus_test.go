package counterexamples

import (
	"bytes"
	"flag"
	"os"

	"path/filepath"
	"testing"

	"github.com/coordcheck/coordcheck/invariants/linearizability"

	"github.com/stretchr/testify/require"
)

//go:generate go test -run ^TestCorpus$ -update-diagrams

// updateDiagrams draws the corpus's sequence diagrams again (go generate).
var updateDiagrams = flag.Bool("update-diagrams", false, "write the corpus's sequence diagrams (FILE.cex.html) instead of comparing them")

// TestCorpus replays every stored counterexample: each must still apply
// line by line, still violate the property it records, and end in the
// final state it records.
func TestCorpus(t *testing.T) {
	files, err := filepath.Glob("*/*.cex")
	require.NoError(t, err)
	require.NotEmpty(t, files, "the corpus is empty")
	for _, path := range files {
		t.Run(path, func(t *testing.T) {
			fh, err := os.Open(path)
			require.NoError(t, err)
			defer fh.Close()
			f, err := Parse(fh)
			require.NoError(t, err)
			res, err := Replay(f)
			require.NoError(t, err, "%s no longer replays", path)
			require.True(t, res.Reproduced, "%s: records %s, replay violates %q", path, f.Property, res.Trace.Property)
			require.Equal(t, f.Final, res.Trace.Final, "%s: final state differs", path)
			require.Equal(t, f.Detail, res.Trace.Detail, "%s: violation detail differs", path)
			// Its sequence diagram is stored next to it (with porcupine's
			// view of the history for a linearizability violation), and
			// still drawn the same. go generate ./counterexamples/ draws
			// them again.
			d, err := Diagram(f, res.Trace)
			require.NoError(t, err)
			var got bytes.Buffer
			require.NoError(t, d.WriteHTML(&got))
			if *updateDiagrams {
				require.NoError(t, os.WriteFile(path+".html", got.Bytes(), 0o644))
			}
			want, err := os.ReadFile(path + ".html")
			require.NoError(t, err, "%s: no sequence diagram stored next to it (go generate ./counterexamples/)", path)
			require.Equal(t, string(want), got.String(), "%s.html: the diagram differs (go generate ./counterexamples/ draws it again)", path)
			if f.Property == linearizability.PropertyName {
				require.Contains(t, got.String(), "porcupine's view of the history")
			}
		})
	}
}
