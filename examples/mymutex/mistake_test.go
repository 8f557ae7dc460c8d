package mymutex_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/live"
	"github.com/coordcheck/coordcheck/model"
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
	_, err = live.Start[lockState, lockMsg](pointerLock{}, live.Options{})
	require.EqualError(t, err, want)
}
