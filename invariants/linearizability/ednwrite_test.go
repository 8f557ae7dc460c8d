package linearizability

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/model"
)

// A history of client records written as EDN reads back with the kv
// model and gets the same verdict: here the stale read of the service's
// stored counterexample (counterexamples/coordination/stale-read.cex).
func TestWriteEDNReadsBack(t *testing.T) {
	recs := []model.Record{
		{Node: 3, Text: "invoke write /x 1"}, {Node: 3, Text: "ok write /x 1"},
		{Node: 4, Text: "invoke read /x"}, {Node: 4, Text: "ok read /x nil"},
		{Node: 5, Text: "invoke write /y 2"}, {Node: 5, Text: "info write /y 2"},
	}
	h, err := FromRecords(recs)
	require.NoError(t, err)
	var b strings.Builder
	require.NoError(t, WriteEDN(&b, h))
	require.Equal(t, `{:process 3, :type :invoke, :f :write, :value ["/x" 1]}
{:process 3, :type :ok, :f :write, :value ["/x" 1]}
{:process 4, :type :invoke, :f :read, :value ["/x" nil]}
{:process 4, :type :ok, :f :read, :value ["/x" nil]}
{:process 5, :type :invoke, :f :write, :value ["/y" 2]}
{:process 5, :type :info, :f :write, :value ["/y" 2]}
`, b.String())
	again, err := ParseJepsen(strings.NewReader(b.String()), SpecKV)
	require.NoError(t, err)
	require.Equal(t, NotLinearizable, Check(KV(), again.Ops, 10*time.Second).Verdict)
	require.Equal(t, Check(KV(), h.Ops, 10*time.Second).Verdict, Check(KV(), again.Ops, 10*time.Second).Verdict)
}
