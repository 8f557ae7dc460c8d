package protocols

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
)

// codecCase is one configuration whose codec is checked: a registered
// protocol, parameters and system semantics.
type codecCase struct {
	name   string
	params map[string]string
	cfg    model.Config
}

func (c codecCase) String() string { return fmt.Sprintf("%s %v %+v", c.name, c.params, c.cfg) }

// codecCases covers every registered protocol with its defaults, under
// every fault and with causality tracking (which widen the world's
// encoding), and the parameter variants that change a codec (the enhanced
// ring's lists, the token ring's variants, the coordination service's
// workloads).
func codecCases(t testing.TB) []codecCase {
	faults, err := model.ParseFaults("crash=1,restart=1,drop=1,dup=1,partition=1")
	require.NoError(t, err)
	var cases []codecCase
	for _, name := range Names() {
		cases = append(cases,
			codecCase{name, nil, model.Config{}},
			codecCase{name, nil, model.Config{Faults: faults, Network: model.Unordered}},
			codecCase{name, nil, model.Config{Ordering: true, AppMsgs: 2, History: true}})
	}
	for _, v := range []struct{ name, k, v string }{
		{"ringelection", "variant", "enhanced"},
		{"tokenring", "variant", "timeout"},
		{"tokenring", "variant", "pingpong"},
		{"ricartagrawala", "clock", "spin"},
		{"voting", "option", "backoff"},
		{"coordination", "reads", "local"},
		{"coordination", "reads", "sync"},
		{"latewrite", "sequencers", "on"},
		{"maekawa-df", "fixes", "none"},
	} {
		cases = append(cases, codecCase{v.name, map[string]string{v.k: v.v}, model.Config{}},
			codecCase{v.name, map[string]string{v.k: v.v}, model.Config{Faults: faults}})
	}
	return cases
}

// codecChecker builds c, or returns nil when the configuration does not
// apply to the protocol (ordering for a protocol without requests).
func codecChecker(t testing.TB, c codecCase) checker.CodecChecker {
	e, ok := Lookup(c.name)
	require.True(t, ok, c.name)
	target, _, err := e.BuildWith(c.params, c.cfg)
	if err != nil {
		return nil
	}
	cc, ok := target.(checker.CodecChecker)
	require.True(t, ok, "%s: the target has no codec checks", c)
	return cc
}

// Every registered protocol's codec passes the self-check, in every
// configuration of codecCases (Check runs it too, but on the
// configurations the tests happen to check).
func TestCodecSelfCheckAllProtocols(t *testing.T) {
	built := map[string]bool{}
	for _, c := range codecCases(t) {
		cc := codecChecker(t, c)
		if cc == nil {
			continue
		}
		built[c.name] = true
		require.NoError(t, cc.CheckCodec(checker.SelfCheckStates), "%s", c)
	}
	for _, name := range Names() {
		require.True(t, built[name], "%s: no configuration built", name)
	}
}

// FuzzCodecWalk: on every world of any walk of any protocol, states and
// messages in flight read back as they were, and the world decodes to
// itself (checker.CodecChecker.CheckCodecWalk).
func FuzzCodecWalk(f *testing.F) {
	cases := codecCases(f)
	for i := range cases {
		f.Add(uint16(i), []byte{})
		f.Add(uint16(i), []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19})
		f.Add(uint16(i), []byte{7, 3, 5, 1, 2, 9, 4, 0, 8, 6, 7, 3, 5, 1, 2, 9, 4, 0, 8, 6, 200, 13, 77})
	}
	f.Fuzz(func(t *testing.T, which uint16, choices []byte) {
		c := cases[int(which)%len(cases)]
		cc := codecChecker(t, c)
		if cc == nil {
			return
		}
		if len(choices) > 400 {
			choices = choices[:400]
		}
		require.NoError(t, cc.CheckCodecWalk(choices), "%s", c)
	})
}

// FuzzCodecDecode: arbitrary bytes decoded as a state, a message or a
// world of any protocol never panic (model.DecodeState, DecodeMsg,
// System.DecodeChecked return an error), and what does decode reads back
// as itself once encoded again.
func FuzzCodecDecode(f *testing.F) {
	cases := codecCases(f)
	for i := range cases {
		f.Add(uint16(i), []byte{})
		f.Add(uint16(i), make([]byte, 12))
		f.Add(uint16(i), []byte{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1})
		f.Add(uint16(i), []byte{0, 2, 0, 3, 0x81, 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0, 0, 0})
	}
	f.Fuzz(func(t *testing.T, which uint16, data []byte) {
		c := cases[int(which)%len(cases)]
		cc := codecChecker(t, c)
		if cc == nil {
			return
		}
		require.NoError(t, cc.CheckDecode(data), "%s", c)
	})
}
