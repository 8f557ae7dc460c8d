package linearizability

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
)

// records builds a history from "pN:text" items.
func records(items ...string) []model.Record {
	var recs []model.Record
	for _, it := range items {
		node, text, _ := strings.Cut(it, ":")
		id, err := model.ParseNodeID(node)
		if err != nil {
			panic(err)
		}
		recs = append(recs, model.Record{Node: id, Text: text})
	}
	return recs
}

// Records pair as Jepsen's events do: ok happened, fail is dropped, info
// and never-completed return at the end with an unknown output, and the
// node goes on as a new process after an info.
func TestFromRecordsPairs(t *testing.T) {
	h, err := FromRecords(records(
		"p3:invoke write /x 1",
		"p3:enter", // not an event
		"p4:invoke read /x",
		"p3:ok write /x 1",
		"p4:info read /x",
		"p4:invoke write /x 2",
		"p4:fail write /x 2",
		"p4:invoke read /y",
		"p4:ok read /y nil",
		"p3:invoke write /y 3",
	))
	require.NoError(t, err)
	require.Equal(t, 10, h.Lines)
	require.Equal(t, 1, h.Failed)
	require.Equal(t, 2, h.Indeterminate)
	require.Equal(t, []int64{3, 4, 4 + model.MaxNodes}, h.Processes)
	type op struct {
		client       int
		call, ret    int64
		in           Input
		out          Output
		notePrefixed string
	}
	var got []op
	for _, o := range h.Ops {
		got = append(got, op{o.Client, o.Call, o.Return, o.Input, o.Output, strings.SplitN(o.Note, ",", 2)[0]})
	}
	require.Equal(t, []op{
		{0, 1, 4, Input{Op: Write, Key: "/x", Arg: Int(1)}, Output{}, "p3: invoke write /x 1"},
		{1, 3, 11, Input{Op: Read, Key: "/x"}, Output{Unknown: true}, "p4: invoke read /x"},
		{2, 8, 9, Input{Op: Read, Key: "/y"}, Output{Value: Nil}, "p4: invoke read /y"},
		{0, 10, 11, Input{Op: Write, Key: "/y", Arg: Int(3)}, Output{Unknown: true}, "p3: invoke write /y 3"},
	}, got)
}

func TestFromRecordsRefusesMalformed(t *testing.T) {
	for _, c := range []struct {
		recs []model.Record
		want string
	}{
		{records("p3:ok write /x 1"), "with nothing pending"},
		{records("p3:invoke write /x 1", "p3:invoke read /x"), "while"},
		{records("p3:invoke write /x 1", "p3:ok write /x 2"), "completes"},
		{records("p3:invoke write /x 1", "p3:ok read /x 1"), "completes"},
		{records("p3:invoke cas /x 1"), "unknown function"},
		{records("p3:invoke write /x one"), "want an integer or nil"},
		{records("p3:invoke read /x", "p3:ok read /x one"), "want an integer or nil"},
	} {
		_, err := FromRecords(c.recs)
		require.ErrorContains(t, err, c.want, "%v", c.recs)
	}
}

func world(recs []model.Record) *model.World[int, int] { return &model.World[int, int]{History: recs} }

// The invariant passes linearizable histories, names the keys of the
// others, and reports malformed ones; it is judged at the end of runs.
func TestRecordsInvariant(t *testing.T) {
	inv := RecordsInvariant[int, int](time.Minute)
	require.Equal(t, PropertyName, inv.Name)
	require.True(t, inv.Terminal)
	stale := records("p3:invoke write /x 1", "p3:ok write /x 1", "p4:invoke read /x", "p4:ok read /x nil",
		"p4:invoke read /y", "p4:ok read /y nil")
	for range 2 { // the second time from the cache
		v, why := inv.Judge(world(stale))
		require.Equal(t, checker.Violated, v)
		require.Equal(t, "the history is not linearizable: key /x (at most 1 of its 2 operations linearize)", why)
	}
	v, why := inv.Judge(world(records("p3:invoke write /x 1", "p4:invoke read /x", "p4:ok read /x nil", "p3:ok write /x 1")))
	require.Equal(t, checker.Pass, v, why)
	v, why = inv.Judge(world(records("p3:invoke write /x 1", "p4:invoke read /x", "p4:ok read /x 1")))
	require.Equal(t, checker.Pass, v, "an unfinished write may have happened: %s", why)
	v, why = inv.Judge(world(records("p3:ok write /x 1")))
	require.Equal(t, checker.Violated, v)
	require.Contains(t, why, "malformed history")
	v, _ = inv.Judge(world(nil))
	require.Equal(t, checker.Pass, v)
}

// hardRecords is hardHistory as records: n writes that never complete and
// reads of them in a random order, then a read of a value never written.
func hardRecords(n int) []model.Record {
	var recs []model.Record
	for i := range n {
		recs = append(recs, model.Record{Node: model.NodeID(i), Text: fmt.Sprintf("invoke write /x %d", i)})
	}
	reader := model.NodeID(n)
	for _, v := range rand.New(rand.NewPCG(1, 2)).Perm(n) {
		recs = append(recs, model.Record{Node: reader, Text: "invoke read /x"},
			model.Record{Node: reader, Text: fmt.Sprintf("ok read /x %d", v)})
	}
	return append(recs, model.Record{Node: reader, Text: "invoke read /x"}, model.Record{Node: reader, Text: "ok read /x -1"})
}

// A timeout is inconclusive, never a pass, and never cached as a verdict.
func TestRecordsInvariantTimeoutIsNotAPass(t *testing.T) {
	inv := RecordsInvariant[int, int](20 * time.Millisecond)
	v, why := inv.Judge(world(hardRecords(40)))
	if strings.HasPrefix(why, "the history is not linearizable") {
		t.Skip("porcupine decided the hard history within 20ms; nothing to time out")
	}
	require.Equal(t, checker.Inconclusive, v)
	require.True(t, strings.HasPrefix(why, "inconclusive: porcupine timed out after 20ms"), why)
}

// The visualization of a counterexample is drawn from the history of its
// final world.
func TestVisualizeTrace(t *testing.T) {
	recs := records("p3:invoke write /x 1", "p3:ok write /x 1", "p4:invoke read /x", "p4:ok read /x nil")
	var buf bytes.Buffer
	require.NoError(t, VisualizeTrace(&buf, recs, time.Minute))
	html := buf.String()
	require.True(t, strings.HasPrefix(html, "<!doctype html>"))
	require.Contains(t, html, "p4: invoke read /x, record 3, ok record 4")
	// Its rows are named as the trace names the processes, not 0 and 1.
	require.Contains(t, html, `text.textContent = i < realClients ? (["p3","p4"][i] ?? i)`)
	require.NotContains(t, html, porcupineRowLabel)

	// A restarted node's new incarnation is a client of its own.
	h, err := FromRecords(records("p3:invoke write /x 1", "p3:info write /x 1", "p3:invoke read /x", "p3:ok read /x 1"))
	require.NoError(t, err)
	require.Equal(t, []string{"p3", "p3 (restart 1)"}, RecordClientNames(h))
	require.Equal(t, []string{"7", "12"}, ProcessNames([]int64{7, 12}))

	require.ErrorContains(t, VisualizeTrace(&buf, nil, time.Minute), "records no history")
}
