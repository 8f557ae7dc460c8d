package mymutex_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/cli"
	"github.com/coordcheck/coordcheck/live"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/property"
	"github.com/coordcheck/coordcheck/protocols"
)

// A codec mistake a user might make: a state that holds a pointer, which
// has no canonical value (two equal owners at two addresses would be two
// states). It is refused when the system is made, naming the type and
// the field, before any search: never a panic inside the engine.
type (
	waiter    struct{ Owner *int }
	lockState struct{ Queue []waiter }
	lockMsg   struct{ From int }
)

type pointerLock struct{}

func (pointerLock) Nodes() int                                                        { return 2 }
func (pointerLock) Init(model.NodeID, *model.Out[lockMsg]) lockState                  { return lockState{} }
func (pointerLock) Inputs(_ model.NodeID, _ lockState, d []model.Input) []model.Input { return d }
func (pointerLock) Step(_ model.NodeID, s lockState, _ model.Event[lockMsg], _ *model.Out[lockMsg]) lockState {
	return s
}

func TestCodecMistakeIsOneError(t *testing.T) {
	const want = "state type mymutex_test.lockState field Queue[].Owner: type *int cannot be encoded " +
		"(a pointer has no canonical value; keep states and messages to integers, bools, floats, strings, " +
		"arrays, slices, maps and structs, or write the codec: model.Codec)"
	_, err := model.NewSystem[lockState, lockMsg](pointerLock{}, model.Config{})
	require.EqualError(t, err, want)
	require.PanicsWithValue(t, "model: "+want, func() { model.MustNewSystem[lockState, lockMsg](pointerLock{}, model.Config{}) })
	_, err = checker.NewSpec(pointerLock{}, model.Config{}, property.Set[lockState, lockMsg]{Deadlock: true})
	require.EqualError(t, err, want)
	require.PanicsWithValue(t, "checker: "+want, func() {
		checker.MustNewSpec(pointerLock{}, model.Config{}, property.Set[lockState, lockMsg]{Deadlock: true})
	})
	_, err = live.Start[lockState, lockMsg](pointerLock{}, live.Options{})
	require.EqualError(t, err, want)

	// From a user's own command line: one line, exit 2 (bad usage).
	protocols.Register(protocols.Entry{Name: "pointer-lock", Doc: "a lock whose state holds a pointer",
		Build: func(_ protocols.Values, cfg model.Config) (checker.Target, error) {
			return checker.NewSpec(pointerLock{}, cfg, property.Set[lockState, lockMsg]{Deadlock: true})
		}})
	var stdout, stderr bytes.Buffer
	require.Equal(t, 2, cli.Main([]string{"check", "pointer-lock"}, &stdout, &stderr))
	require.Empty(t, stdout.String())
	require.Equal(t, "coordcheck: pointer-lock: "+want+"\n", stderr.String())
}
