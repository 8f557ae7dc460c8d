package model_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/coordcheck/coordcheck/model"
)

// Types of a user's protocol, as varied as the derived codec allows.
type (
	color uint8
	point struct{ X, Y int16 }
	inner struct {
		name  string // unexported fields are encoded too
		pts   []point
		flags [3]bool
	}
	nested struct {
		A   int
		B   uint32
		C   int8
		D   float64
		E   color
		In  inner
		Ins []inner
		M   map[string]int64
		MS  map[point][]byte
		Arr [2][2]uint64
		u   uint16
		_   [4]byte // blank: padding, not encoded
	}
	tree struct { // a type under itself, through a slice
		Label uint8
		Kids  []tree
	}
)

// The generators make nil, never empty, slices and maps: the decoder
// returns nil for both, which encode alike.
func genPoint() *rapid.Generator[point] {
	return rapid.Custom(func(t *rapid.T) point {
		return point{rapid.Int16().Draw(t, "x"), rapid.Int16().Draw(t, "y")}
	})
}

func nilIfEmpty[S ~[]E, E any](s S) S {
	if len(s) == 0 {
		return nil
	}
	return s
}

func genInner() *rapid.Generator[inner] {
	return rapid.Custom(func(t *rapid.T) inner {
		return inner{
			name:  rapid.String().Draw(t, "name"),
			pts:   nilIfEmpty(rapid.SliceOfN(genPoint(), 0, 3).Draw(t, "pts")),
			flags: [3]bool{rapid.Bool().Draw(t, "f0"), rapid.Bool().Draw(t, "f1"), rapid.Bool().Draw(t, "f2")},
		}
	})
}

// pairs are map entries in the order they are inserted.
type pairs[K comparable, V any] []struct {
	k K
	v V
}

func (ps pairs[K, V]) build(reverse bool) map[K]V {
	if len(ps) == 0 {
		return nil
	}
	m := map[K]V{}
	order := slices.Clone(ps)
	if reverse {
		slices.Reverse(order)
	}
	for _, p := range order {
		if _, ok := m[p.k]; !ok { // the first value of a key wins either way
			m[p.k] = p.v
		}
	}
	return m
}

func genPairs[K comparable, V any](k *rapid.Generator[K], v *rapid.Generator[V]) *rapid.Generator[pairs[K, V]] {
	return rapid.Custom(func(t *rapid.T) pairs[K, V] {
		var ps pairs[K, V]
		seen := map[K]bool{}
		for range rapid.IntRange(0, 4).Draw(t, "len") {
			key := k.Draw(t, "k")
			if !seen[key] {
				seen[key] = true
				ps = append(ps, struct {
					k K
					v V
				}{key, v.Draw(t, "v")})
			}
		}
		return ps
	})
}

// genNested draws a nested value; its maps are built twice, from the same
// entries inserted in opposite orders.
func genNested(t *rapid.T) (nested, nested) {
	v := nested{
		A:   rapid.Int().Draw(t, "A"),
		B:   rapid.Uint32().Draw(t, "B"),
		C:   rapid.Int8().Draw(t, "C"),
		D:   rapid.Float64Range(-1e9, 1e9).Draw(t, "D"),
		E:   color(rapid.Uint8().Draw(t, "E")),
		In:  genInner().Draw(t, "In"),
		Ins: nilIfEmpty(rapid.SliceOfN(genInner(), 0, 2).Draw(t, "Ins")),
		Arr: [2][2]uint64{{rapid.Uint64().Draw(t, "a0"), rapid.Uint64().Draw(t, "a1")}, {rapid.Uint64().Draw(t, "a2"), 7}},
		u:   rapid.Uint16().Draw(t, "u"),
	}
	m := genPairs(rapid.String(), rapid.Int64()).Draw(t, "M")
	ms := genPairs(genPoint(), rapid.Custom(func(t *rapid.T) []byte {
		return nilIfEmpty(rapid.SliceOfN(rapid.Byte(), 0, 3).Draw(t, "bytes"))
	})).Draw(t, "MS")
	w := v
	v.M, v.MS = m.build(false), ms.build(false)
	w.M, w.MS = m.build(true), ms.build(true)
	return v, w
}

// A derived codec reads back what it writes, consuming exactly it, and is
// canonical: equal values (maps filled in any order) encode alike, and
// values that encode alike are equal.
func TestDerivedCodecRoundTrips(t *testing.T) {
	c, err := model.DeriveCodec[nested, tree]()
	require.NoError(t, err)
	rapid.Check(t, func(t *rapid.T) {
		v, same := genNested(t)
		b := c.AppendState([]byte{0xA5}, v)
		require.Equal(t, b, c.AppendState([]byte{0xA5}, same), "the same maps, filled in another order")
		got, rest := c.ReadState(append(b[1:], 0x5A))
		require.Equal(t, []byte{0x5A}, rest)
		require.Equal(t, v, got)

		other, _ := genNested(t)
		if bytes.Equal(b[1:], c.AppendState(nil, other)) {
			require.Equal(t, v, other, "two values encode alike")
		}
	})
}

// A type under itself (through a slice) has a plan.
func TestDerivedCodecRecursiveType(t *testing.T) {
	c, err := model.DeriveCodec[nested, tree]()
	require.NoError(t, err)
	v := tree{1, []tree{{2, nil}, {3, []tree{{4, nil}}}}}
	got, rest := c.ReadMsg(c.AppendMsg(nil, v))
	require.Empty(t, rest)
	require.Equal(t, v, got)
}

// Nil and empty slices and maps are one value; a malformed encoding is an
// error of model.DecodeState, not a crash.
func TestDerivedCodecNilIsEmpty(t *testing.T) {
	c, err := model.DeriveCodec[nested, tree]()
	require.NoError(t, err)
	empty := nested{Ins: []inner{}, M: map[string]int64{}, In: inner{pts: []point{}}}
	require.Equal(t, c.AppendState(nil, nested{}), c.AppendState(nil, empty))
	for _, bad := range [][]byte{nil, {1}, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0x7f}} {
		_, err := model.DecodeState(c, bad)
		require.Error(t, err, "%x", bad)
	}
}

// Encoding a fixed-size value allocates nothing, nor does decoding one.
func TestDerivedCodecAllocatesNothing(t *testing.T) {
	type msg struct {
		Kind uint8
		TS   uint32
		Set  [4]int64
		On   bool
	}
	c, err := model.DeriveCodec[point, msg]()
	require.NoError(t, err)
	m, buf := msg{Kind: 2, TS: 300, Set: [4]int64{-1, 2, -300, 4}, On: true}, make([]byte, 0, 64)
	require.Zero(t, testing.AllocsPerRun(100, func() { buf = c.AppendMsg(buf[:0], m) }))
	require.Zero(t, testing.AllocsPerRun(100, func() { m, _ = c.ReadMsg(buf) }))
}

// The derived encoding of a {Kind uint8, TS uint32} message is the
// hand-written one the mutual-exclusion protocols had: the kind's byte,
// then the timestamp as a varint.
func TestDerivedCodecKindTS(t *testing.T) {
	type msg struct {
		Kind uint8
		TS   uint32
	}
	c, err := model.DeriveCodec[point, msg]()
	require.NoError(t, err)
	require.Equal(t, model.AppendUvarint([]byte{2}, 300), c.AppendMsg(nil, msg{2, 300}))
}

// A type of bytes alone is encoded as its memory, a byte each, in the
// order of its fields: the same bytes whether its plan copies the memory
// at once (a vector clock, a queue of byte messages) or, as for a type
// with a wider field or a bool, goes field by field.
func TestDerivedCodecBytesInOrder(t *testing.T) {
	type id struct{ Node, Seq uint8 }
	type entry struct {
		ID id
		VC [3]int8
	}
	type queue struct {
		Len   uint8
		Slots [2]entry
	}
	c, err := model.DeriveCodec[queue, queue]()
	require.NoError(t, err)
	q := queue{2, [2]entry{{id{1, 2}, [3]int8{3, -1, 5}}, {id{6, 7}, [3]int8{8, 9, 10}}}}
	want := []byte{2, 1, 2, 3, 0xff, 5, 6, 7, 8, 9, 10}
	require.Equal(t, want, c.AppendState(nil, q))
	back, rest := c.ReadState(append(slices.Clone(want), 42))
	require.Equal(t, q, back)
	require.Equal(t, []byte{42}, rest)

	type mixed struct { // a bool and a uint16 among bytes
		A  uint8
		On bool
		B  [2]uint8
		W  uint16
	}
	m, err := model.DeriveCodec[mixed, mixed]()
	require.NoError(t, err)
	enc := m.AppendState(nil, mixed{4, true, [2]uint8{5, 6}, 300})
	require.Equal(t, model.AppendUvarint([]byte{4, 1, 5, 6}, 300), enc)
	back2, _ := m.ReadState(enc)
	require.Equal(t, mixed{4, true, [2]uint8{5, 6}, 300}, back2)
}

// An array tagged coordcheck:"len=F" is encoded as its first F elements
// (F within 0 and its length): values that differ only past the count
// encode alike, and decoding, even over another value, leaves zeros there.
func TestDerivedCodecCountedArray(t *testing.T) {
	type entry struct {
		ID   uint8
		Note string
	}
	type queue struct {
		Len   uint8
		Wide  uint16
		Slots [3]entry `coordcheck:"len=Len"`
		Neg   int16
		Few   [2]uint32 `coordcheck:"len=Neg"`
	}
	c, err := model.DeriveCodec[queue, queue]()
	require.NoError(t, err)
	q := queue{Len: 2, Wide: 300, Slots: [3]entry{{1, "a"}, {2, "bc"}}, Neg: -1}
	want := append(model.AppendUvarint([]byte{2}, 300), 1, 1, 'a', 2, 2, 'b', 'c', 1) // Neg's zig-zag
	require.Equal(t, want, c.AppendState(nil, q))
	junk := q
	junk.Slots[2], junk.Few = entry{9, "zz"}, [2]uint32{7, 8}
	require.Equal(t, want, c.AppendState(nil, junk))
	require.Equal(t, []byte{}, model.ReadInto(want, &junk))
	require.Equal(t, q, junk)

	// A count beyond the array's length takes all of it, and stays.
	full := queue{Len: 9, Slots: [3]entry{{1, ""}, {2, ""}, {3, "x"}}, Neg: 5, Few: [2]uint32{4, 300}}
	enc := c.AppendState(nil, full)
	require.Equal(t, append([]byte{9, 0, 1, 0, 2, 0, 3, 1, 'x', 10, 4}, model.AppendUvarint(nil, 300)...), enc)
	back, rest := c.ReadState(enc)
	require.Equal(t, full, back)
	require.Empty(t, rest)

	// Counts of the platform's widths.
	type wide struct {
		N  int
		A  [2]uint8 `coordcheck:"len=N"`
		U  uint
		B  [2]uint8 `coordcheck:"len=U"`
		P  uintptr
		C_ [2]uint8 `coordcheck:"len=P"`
	}
	wc, err := model.DeriveCodec[wide, wide]()
	require.NoError(t, err)
	v := wide{N: 1, A: [2]uint8{7, 9}, U: 5, B: [2]uint8{3, 4}, P: 0, C_: [2]uint8{8, 8}}
	require.Equal(t, []byte{2, 7, 5, 3, 4, 0}, wc.AppendState(nil, v)) // N zig-zagged
}

// A coordcheck tag that cannot take effect is refused when the codec is
// made, naming the field and what is wrong.
func TestDerivedCodecRefusesBadCounts(t *testing.T) {
	type notArray struct {
		N uint8
		A uint8 `coordcheck:"len=N"`
	}
	type after struct {
		A [2]uint8 `coordcheck:"len=N"`
		N uint8
	}
	type missing struct {
		A [2]uint8 `coordcheck:"len=Count"`
	}
	type notInt struct {
		N string
		A [2]uint8 `coordcheck:"len=N"`
	}
	type otherTag struct {
		N uint8
		A [2]uint8 `coordcheck:"size=N"`
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{derr[notArray](), `state type model_test.notArray field A: tag coordcheck:"len=N": the field is a uint8, not an array`},
		{derr[after](), `state type model_test.after field A: tag coordcheck:"len=N": no field N before it in model_test.after`},
		{derr[missing](), `state type model_test.missing field A: tag coordcheck:"len=Count": no field Count before it`},
		{derr[notInt](), `state type model_test.notInt field A: tag coordcheck:"len=N": field N is a string, not an integer`},
		{derr[otherTag](), `state type model_test.otherTag field A: tag coordcheck:"size=N": the only tag is "len=F"`},
	} {
		require.Error(t, c.err)
		require.Contains(t, c.err.Error(), c.want)
	}
}

// derr is the error of deriving a codec for state type S.
func derr[S any]() error {
	_, err := model.DeriveCodec[S, point]()
	return err
}

// A type that holds something without a canonical value is refused when
// the codec is made, with the type and the path of the field at fault.
func TestDerivedCodecRefuses(t *testing.T) {
	type owner struct {
		ID    int
		Owner func()
	}
	type queued struct{ Queue []owner }
	type withPtr struct {
		M map[string]*int
	}
	type withIface struct{ V [2]any }
	type withChan struct{ c chan int }
	for _, c := range []struct {
		err  func() error
		want string
	}{
		{func() error { _, err := model.DeriveCodec[queued, point](); return err },
			"state type model_test.queued field Queue[].Owner: type func() cannot be encoded (a func has no canonical value;"},
		{func() error { _, err := model.DeriveCodec[point, withPtr](); return err },
			"message type model_test.withPtr field M[]: type *int cannot be encoded (a pointer has no canonical value;"},
		{func() error { _, err := model.DeriveCodec[withIface, point](); return err },
			"state type model_test.withIface field V[]: type interface {} cannot be encoded (an interface"},
		{func() error { _, err := model.DeriveCodec[withChan, point](); return err },
			"state type model_test.withChan field c: type chan int cannot be encoded (a channel"},
		{func() error { _, err := model.DeriveCodec[*point, point](); return err },
			"state type *model_test.point: type *model_test.point cannot be encoded (a pointer"},
	} {
		err := c.err()
		require.Error(t, err)
		require.Contains(t, err.Error(), c.want)
	}
}

// A protocol that writes one half of the codec gets the other derived.
func TestCodecOfHalves(t *testing.T) {
	c, err := model.CodecOf[uint8, point](halfProto{})
	require.NoError(t, err)
	require.Equal(t, []byte{'s', 7}, c.AppendState(nil, 7))
	got, rest := c.ReadMsg(c.AppendMsg(nil, point{-3, 4}))
	require.Empty(t, rest)
	require.Equal(t, point{-3, 4}, got)
}

// halfProto writes its state codec, and leaves its message codec to be
// derived.
type halfProto struct{}

func (halfProto) Nodes() int                                                    { return 1 }
func (halfProto) Init(model.NodeID, *model.Out[point]) uint8                    { return 0 }
func (halfProto) Inputs(_ model.NodeID, _ uint8, d []model.Input) []model.Input { return d }
func (halfProto) Step(_ model.NodeID, s uint8, _ model.Event[point], _ *model.Out[point]) uint8 {
	return s
}
func (halfProto) AppendState(b []byte, s uint8) []byte { return append(b, 's', s) }
func (halfProto) ReadState(b []byte) (uint8, []byte)   { return b[1], b[2:] }

// FuzzDerivedDecode: any bytes read as a state either fail with an error
// (model.DecodeState), never a crash, or give a value whose encoding
// reads back as the same value.
func FuzzDerivedDecode(f *testing.F) {
	c, err := model.DeriveCodec[nested, tree]()
	require.NoError(f, err)
	f.Add(c.AppendState(nil, nested{}))
	f.Add(c.AppendState(nil, nested{A: -5, M: map[string]int64{"a": 1, "b": -2}, MS: map[point][]byte{{1, 2}: {3}}}))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := model.DecodeState(c, b)
		if err != nil {
			return
		}
		enc := c.AppendState(nil, v)
		again, err := model.DecodeState(c, enc)
		require.NoError(t, err)
		require.Equal(t, enc, c.AppendState(nil, again))
	})
}

// Without a FormatState or FormatMsg, a state and a message print as their
// %+v, on one line.
func TestDefaultFormat(t *testing.T) {
	sys := model.MustNewSystem[point, note](textProto{}, model.Config{})
	require.Equal(t, "{X:-1 Y:2}", sys.FormatState(0, point{-1, 2}))
	require.Equal(t, "{Kind:1 Text:ok}", sys.FormatMsg(note{1, "ok"}))
	require.Equal(t, `"{Kind:1 Text:two\nlines}"`, sys.FormatMsg(note{1, "two\nlines"}))
}

// textProto is a protocol with no codec and no text of its own.
type (
	textProto struct{}
	note      struct {
		Kind uint8
		Text string
	}
)

func (textProto) Nodes() int                                                    { return 1 }
func (textProto) Init(model.NodeID, *model.Out[note]) point                     { return point{} }
func (textProto) Inputs(_ model.NodeID, _ point, d []model.Input) []model.Input { return d }
func (textProto) Step(_ model.NodeID, s point, _ model.Event[note], _ *model.Out[note]) point {
	return s
}

// A world decoded over another is the world decoded afresh: a derived
// codec reads each state and message in place (System.Decode), writing
// every field, a nil slice or map over a full one too.
func TestDecodeOverAnotherWorld(t *testing.T) {
	sys := model.MustNewSystem[nested, tree](nestedProto{}, model.Config{})
	genWorld := func(t *rapid.T, label string) *model.World[nested, tree] {
		w := &model.World[nested, tree]{Timers: make([]uint64, 2)}
		for range 2 {
			v, _ := genNested(t)
			w.Nodes = append(w.Nodes, v)
		}
		for k := range rapid.IntRange(0, 3).Draw(t, label+" messages") {
			kids := []tree(nil)
			if rapid.Bool().Draw(t, label+" kids") {
				kids = []tree{{Label: uint8(k)}}
			}
			w.Net = append(w.Net, model.Envelope[tree]{From: 0, To: 1, Msg: tree{Label: uint8(k), Kids: kids}})
		}
		return w
	}
	rapid.Check(t, func(t *rapid.T) {
		first, second := genWorld(t, "first"), genWorld(t, "second")
		var over, fresh model.World[nested, tree]
		sys.Decode(sys.Encode(nil, first), &over)
		sys.Decode(sys.Encode(nil, second), &over)
		sys.Decode(sys.Encode(nil, second), &fresh)
		require.Equal(t, fresh.Nodes, over.Nodes)
		require.Equal(t, len(fresh.Net), len(over.Net))
		for k := range fresh.Net {
			require.Equal(t, fresh.Net[k], over.Net[k])
		}
		require.Equal(t, sys.Encode(nil, second), sys.Encode(nil, &over))
	})
}

// nestedProto is a protocol of two nodes whose states and messages have
// derived codecs with slices and maps in them.
type nestedProto struct{}

func (nestedProto) Nodes() int                                                     { return 2 }
func (nestedProto) Init(model.NodeID, *model.Out[tree]) nested                     { return nested{} }
func (nestedProto) Inputs(_ model.NodeID, _ nested, d []model.Input) []model.Input { return d }
func (nestedProto) Step(_ model.NodeID, s nested, _ model.Event[tree], _ *model.Out[tree]) nested {
	return s
}
