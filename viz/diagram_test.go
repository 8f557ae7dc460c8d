package viz_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/coordcheck/coordcheck/counterexamples"
	"github.com/stretchr/testify/require"
)

// draw replays a stored counterexample and draws it.
func draw(t *testing.T, name string) string {
	t.Helper()
	fh, err := os.Open(filepath.Join("..", "counterexamples", name))
	require.NoError(t, err)
	defer fh.Close()
	f, err := counterexamples.Parse(fh)
	require.NoError(t, err)
	res, err := counterexamples.Replay(f)
	require.NoError(t, err)
	d, err := counterexamples.Diagram(f, res.Trace)
	require.NoError(t, err)
	var a, b bytes.Buffer
	require.NoError(t, d.WriteHTML(&a))
	require.NoError(t, d.WriteHTML(&b))
	require.Equal(t, a.String(), b.String(), "the same trace draws the same bytes")
	return a.String()
}

// count counts the elements whose class attribute is exactly cls.
func count(page, cls string) int {
	return strings.Count(page, `class="`+cls+`"`)
}

// The stored Maekawa deadlock (n=3): three lanes, fifteen steps, twelve
// messages each drawn from its send to its delivery, none lost or left in
// flight, and the violated property stated.
func TestMaekawaDeadlockDiagram(t *testing.T) {
	page := draw(t, "maekawa/deadlock-n3-all.cex")
	require.Contains(t, page, `data-lanes="3" data-steps="15"`)
	for _, p := range []string{"p0", "p1", "p2"} {
		require.Contains(t, page, `<g class="lane" data-node="`+p+`">`)
	}
	require.Equal(t, 12, count(page, "msg delivered"))
	require.Equal(t, 12, strings.Count(page, `class="msg `))
	require.Equal(t, 3, count(page, "mark input"), "three requests")
	require.Contains(t, page, "violated: <b>no-deadlock</b>: circular wait")
	// The world after every step, for the clicks: 16 panels.
	require.Len(t, regexp.MustCompile(`<section class="world" id="world-\d+"`).FindAllString(page, -1), 16)
	// The self-delivery p0->p0 REQ (steps 1 to 2) is a loop on p0's lane.
	require.Contains(t, page, `data-from="p0" data-to="p0" data-sent="1" data-fate="2"`)
	require.Equal(t, 1, strings.Count(page, "http"), "nothing is fetched: the only URL is the SVG namespace")
}

// Faults, timers, roles and cycles are drawn as such.
func TestDiagramDrawsFaultsRolesAndCycles(t *testing.T) {
	page := draw(t, "tokenring/plain-token-lost.cex")
	require.Equal(t, 1, count(page, "msg lost"), "the dropped token")
	// In flight from the start (the initial holder passes it on), dropped
	// at step 4: the line ends half-way to p1, in row 4, with a cross.
	require.Contains(t, page, `data-from="p0" data-to="p1" data-sent="0" data-fate="4"><title>p0->p1 TOKEN: sent at step 0, lost at step 4</title><path d="M345,72 L420,200"/><path class="cross" d="M415,195 l10,10 m0,-10 l-10,10"/>`)

	page = draw(t, "ricartagrawala/dup-reply.cex")
	require.Equal(t, 1, count(page, "msg duplicate copy"), "the copy of the duplicated reply, delivered")
	require.Equal(t, 1, count(page, "mark dup"))
	require.Equal(t, 2, count(page, "band cs"), "p0 and p1 both in the critical section at the end")

	page = draw(t, "sequencer/unordered-not-fifo.cex")
	require.Equal(t, 1, count(page, "msg reordered"))
	require.Equal(t, 3, count(page, "msg inflight"))

	page = draw(t, "bully/restart-during-election.cex")
	require.Equal(t, 1, count(page, "mark crash"))
	require.Equal(t, 1, count(page, "mark restart"))
	require.Equal(t, 1, count(page, "band down"))
	require.Equal(t, 3, count(page, "mark fire"))
	require.Contains(t, page, `class="band leader"`)

	page = draw(t, "voting/backoff-starvation.cex")
	require.Contains(t, page, `<g class="loop" data-loop="7">`)
	require.Contains(t, page, "cycle: steps 7-30")
}
