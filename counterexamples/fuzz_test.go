package counterexamples

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// corpusFiles are the stored counterexamples, the seeds of the fuzz
// targets.
func corpusFiles(f *testing.F) [][]byte {
	paths, err := filepath.Glob("*/*.cex")
	require.NoError(f, err)
	require.NotEmpty(f, paths)
	var files [][]byte
	for _, p := range paths {
		data, err := os.ReadFile(p)
		require.NoError(f, err)
		files = append(files, data)
	}
	var buf bytes.Buffer
	require.NoError(f, sample().Write(&buf))
	return append(files, buf.Bytes())
}

// maxErrLen bounds the length of an error about a file, which quotes at
// most a clip of the offending line however long the file makes it.
func maxErrLen(input []byte) int { return 600 }

// requireOneLine checks that err is one line and not out of proportion
// with the input.
func requireOneLine(t *testing.T, err error, input []byte) {
	msg := err.Error()
	require.NotContains(t, msg, "\n")
	require.LessOrEqual(t, len(msg), maxErrLen(input))
}

// FuzzParse: any text parses or fails with one line naming what is
// wrong, never a panic; what parses is written back to a text that
// parses to the same file (parse(write(parse(x))) == parse(x)).
func FuzzParse(f *testing.F) {
	for _, data := range corpusFiles(f) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse(bytes.NewReader(data))
		if err != nil {
			requireOneLine(t, err, data)
			return
		}
		var buf bytes.Buffer
		require.NoError(t, file.Write(&buf))
		again, err := Parse(bytes.NewReader(buf.Bytes()))
		require.NoError(t, err, "the written file does not parse:\n%s", buf.String())
		file.ActionLines, again.ActionLines = nil, nil
		for _, x := range []*File{file, again} { // "" and the default are the same
			if x.Faults == "none" {
				x.Faults = ""
			}
			if x.Timers == "default" {
				x.Timers = ""
			}
		}
		require.Equal(t, file, again, "written as:\n%s", buf.String())
	})
}

// FuzzReplay: a file whose header names a real protocol, with any
// parameters and action lines, replays or fails with one line (an action
// that is not enabled names its line), never a panic. The action lines
// are text matched against the enabled actions' texts: this is where a
// file's content reaches the protocols.
func FuzzReplay(f *testing.F) {
	for _, data := range corpusFiles(f) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse(bytes.NewReader(data))
		if err != nil || len(file.Actions) > 200 {
			return
		}
		if _, err := Replay(file); err != nil {
			requireOneLine(t, err, data)
			if le, ok := err.(*LineError); ok {
				require.Contains(t, file.ActionLines, le.Line, "the line named is an action's")
			}
		}
	})
}

// A loop marker after the last action stands for an empty cycle, which
// no lasso has; it was parsed and then lost on writing (found by FuzzParse).
func TestParseRefusesEmptyLoop(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, sample().Write(&buf))
	text := strings.Replace(buf.String(), "----", "loop\n----", 1)
	_, err := Parse(strings.NewReader(text))
	require.ErrorContains(t, err, "loop")
}
