package live_test

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/live"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
	ra "github.com/coordcheck/coordcheck/protocols/ricartagrawala"
)

// The node processes of the proc transport are this test binary run
// again, told by the environment which node to be.
const nodeEnv = "COORDCHECK_LIVE_TEST_NODE"

func TestMain(m *testing.M) {
	if spec := os.Getenv(nodeEnv); spec != "" {
		var id, n int
		var addr string
		if _, err := fmt.Sscanf(spec, "%d %d %s", &id, &n, &addr); err != nil {
			fmt.Fprintln(os.Stderr, "bad node spec:", err)
			os.Exit(2)
		}
		r := live.NewRunner[ra.State, ra.Msg](ra.New(n, mutex.Endless))
		if err := r.ServeNode(live.NodeArgs{ID: model.NodeID(id), Addr: addr}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func nodeCommand(n int) live.NodeCommand {
	return func(id model.NodeID, addr string) *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), nodeEnv+"="+strconv.Itoa(int(id))+" "+strconv.Itoa(n)+" "+addr)
		cmd.Stderr = os.Stderr
		return cmd
	}
}

// Ricart-Agrawala with every process in its own OS process: the critical
// sections never overlap, a process killed by the crash is started again
// and, having no Recover, begins afresh (as model.Restart says) and takes
// steps again.
func TestProcessPerNode(t *testing.T) {
	const n = 3
	f, err := live.ParseFaults("crash=1,restart=1")
	require.NoError(t, err)
	rep := run(t, live.NewRunner[ra.State, ra.Msg](ra.New(n, mutex.Endless)), live.RunConfig{
		Duration: 600 * time.Millisecond, Transport: live.Proc, Node: nodeCommand(n), Faults: f,
		Hold: 100 * time.Microsecond, RestartWithin: 50 * time.Millisecond})
	require.True(t, rep.Verdicts[0].Holds, rep.Verdicts[0].First)
	require.Positive(t, rep.TotalEntries())
	require.Equal(t, n+1, rep.Processes.Started)
	require.Equal(t, 1, rep.Processes.Killed)
	require.Len(t, rep.Rejoins, 1)
	require.Positive(t, rep.Rejoins[0].StepsAfter, "the restarted process took no step")
}
