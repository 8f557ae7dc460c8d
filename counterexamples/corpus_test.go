package counterexamples

import (
	"bytes"
	"os"
	"time"

	"path/filepath"
	"testing"

	"github.com/coordcheck/coordcheck/invariants/linearizability"

	"github.com/stretchr/testify/require"
)

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
			if f.Property == linearizability.PropertyName {
				// Its visualization is stored next to it, and still drawn the same.
				want, err := os.ReadFile(path + ".html")
				require.NoError(t, err, "%s: no visualization stored next to it", path)
				var got bytes.Buffer
				require.NoError(t, linearizability.VisualizeTrace(&got, res.Trace.History, time.Minute))
				require.Equal(t, string(want), got.String(), "%s.html: the visualization differs", path)
			}
		})
	}
}
