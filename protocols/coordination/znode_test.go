package coordination

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/invariants/linearizability"
	"github.com/coordcheck/coordcheck/model"
)

func parseZnode(t *testing.T, path string) *linearizability.HistoryOf[ZnodeCall, ZnodeReturn] {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	h, err := linearizability.ParseHistory[ZnodeCall, ZnodeReturn](f, ZnodeDecoder{})
	require.NoError(t, err)
	return h
}

// The API's own histories, judged with the tree the replicas use: the
// lock recipe's calls linearize; a sequential name handed out twice does
// not, and the smallest failing part is the two creates.
func TestZnodeModelHistories(t *testing.T) {
	m := ZnodeModel([]string{LockDir, RegisterPath})
	ok := parseZnode(t, "testdata/znode-lock-ok.edn")
	require.Len(t, ok.Ops, 10)
	require.Equal(t, linearizability.Linearizable, linearizability.Check(m, ok.Ops, 10*time.Second).Verdict)

	bad := parseZnode(t, "testdata/znode-lock-two-holders.edn")
	r := linearizability.Check(m, bad.Ops, 10*time.Second)
	require.Equal(t, linearizability.NotLinearizable, r.Verdict)
	sub, found := linearizability.Minimize(m, bad.Ops, 10*time.Second, 0)
	require.True(t, found)
	require.True(t, sub.Minimal)
	require.Len(t, sub.Ops, 2)
}

// Malformed calls name what is wrong.
func TestZnodeDecoderErrors(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{`{:process 0, :type :invoke, :f :write, :path "/x"}`, "line 1: :f :write is not an operation of the znode model"},
		{`{:process 0, :type :invoke, :f :getData}`, "line 1: :getData needs :path, a string starting with /"},
		{`{:process 9, :type :invoke, :f :getData, :path "/x"}`, "line 1: :process 9: the znode model's sessions are processes 0 to 7"},
		{`{:process 0, :type :invoke, :f :create, :path "/x", :flags [:durable]}`, "line 1: :flags :durable: want :ephemeral or :sequential"},
		{`{:process 0, :type :invoke, :f :setData, :path "/x", :version 200}`, "line 1: :version 200: want -1 (any) or an integer to 127"},
		{"{:process 0, :type :invoke, :f :exists, :path \"/x\"}\n{:process 0, :type :ok, :f :exists, :value 3}", "line 2: :exists returned 3: want true or false"},
	} {
		_, err := linearizability.ParseHistory[ZnodeCall, ZnodeReturn](strings.NewReader(c.line), ZnodeDecoder{})
		require.Error(t, err, c.line)
		require.Contains(t, err.Error(), c.want)
	}
}

// znodeJudge checks the recorded history of a run that has ended with the
// znode model.
func znodeJudge(t *testing.T) checker.Invariant[State, Msg] {
	m := ZnodeModel([]string{RegisterPath})
	return checker.Invariant[State, Msg]{
		Name:     "znode-linearizability",
		Terminal: true,
		Holds: func(w *model.World[State, Msg]) (bool, string) {
			h, err := linearizability.FromRecords(w.History)
			if err != nil {
				return false, err.Error()
			}
			r := linearizability.Check(m, ZnodeHistory(h), 10*time.Second)
			return r.Verdict == linearizability.Linearizable, r.Verdict.String()
		},
	}
}

// The znode model judges the service's own histories as the register
// model does: every history of reads at the leader is linearizable, and
// with reads at followers the search finds the stored stale read
// (counterexamples/coordination/stale-read.cex, 12 steps).
func TestZnodeModelOnTheServiceHistories(t *testing.T) {
	leader := mustSpec(NewRegister(3, 2, 1, LeaderReads), faults("none"))
	leader.Invariants = append(leader.Invariants, znodeJudge(t))
	rep := leader.Check(checker.Options{})
	require.Equal(t, checker.Pass, rep.Verdict)
	require.Equal(t, uint64(686), rep.States)

	local := mustSpec(NewRegister(3, 2, 1, LocalReads), faults("none"))
	local.Invariants = append([]checker.Invariant[State, Msg]{znodeJudge(t)}, local.Invariants...)
	rep = local.Check(checker.Options{})
	require.Equal(t, checker.Violated, rep.Verdict)
	require.Equal(t, "znode-linearizability", rep.Counterexample.Property)
	require.Len(t, rep.Counterexample.Steps, 12)
	hist := rep.Counterexample.History
	require.Equal(t, model.Record{Node: 4, Text: "ok read /x nil"}, hist[len(hist)-1], "the stale read")
}
