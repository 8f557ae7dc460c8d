package model

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode"
	"unsafe"
)

// CodecOf returns the codec of p's states and messages: p's own methods
// where p implements StateCodec[S] or MsgCodec[M], and the encoding
// derived from the type otherwise (see derive.go). It returns an error
// naming the type and the field at fault when S or M holds something that
// has no canonical encoding (a pointer, an interface, a func, a channel):
// "state type foo.State field Queue[].Owner: type func() cannot be
// encoded ...". NewSystem returns that error; a System's codec is
// System.Codec.
func CodecOf[S, M any](p Protocol[S, M]) (Codec[S, M], error) {
	if c, ok := p.(Codec[S, M]); ok {
		return c, nil
	}
	c := &codec[S, M]{}
	var err error
	if sc, ok := p.(StateCodec[S]); ok {
		c.sc = sc
	} else if c.sp, err = derivedPlan[S]("state"); err != nil {
		return nil, err
	}
	if mc, ok := p.(MsgCodec[M]); ok {
		c.mc = mc
	} else if c.mp, err = derivedPlan[M]("message"); err != nil {
		return nil, err
	}
	return c, nil
}

// DeriveCodec returns the codec derived for states S and messages M, the
// one CodecOf gives a protocol that writes none, or the error naming what
// cannot be encoded. It serves to compare a hand-written codec with the
// derived one, or to encode values of a type outside a protocol.
func DeriveCodec[S, M any]() (Codec[S, M], error) {
	sp, err := derivedPlan[S]("state")
	if err != nil {
		return nil, err
	}
	mp, err := derivedPlan[M]("message")
	if err != nil {
		return nil, err
	}
	return &codec[S, M]{sp: sp, mp: mp}, nil
}

// derivedPlan is the plan of T, or the error naming what in T cannot be
// encoded; what is "state" or "message".
func derivedPlan[T any](what string) (*plan, error) {
	t := reflect.TypeFor[T]()
	p, err := planFor(t)
	if err != nil {
		return nil, codecError(what, t, err)
	}
	return p, nil
}

// codec is a Codec whose halves are each hand-written (sc, mc) or derived
// (sp, mp).
type codec[S, M any] struct {
	sc     StateCodec[S]
	mc     MsgCodec[M]
	sp, mp *plan
}

// The plans read and write the value through a pointer to the argument;
// they keep no pointer to it, so the argument stays on the stack.

func (c *codec[S, M]) AppendState(b []byte, s S) []byte {
	if c.sp == nil {
		return c.sc.AppendState(b, s)
	}
	return c.sp.append(b, unsafe.Pointer(&s))
}

func (c *codec[S, M]) ReadState(b []byte) (S, []byte) {
	if c.sp == nil {
		return c.sc.ReadState(b)
	}
	var s S
	b = c.sp.read(b, unsafe.Pointer(&s))
	return s, b
}

func (c *codec[S, M]) AppendMsg(b []byte, m M) []byte {
	if c.mp == nil {
		return c.mc.AppendMsg(b, m)
	}
	return c.mp.append(b, unsafe.Pointer(&m))
}

func (c *codec[S, M]) ReadMsg(b []byte) (M, []byte) {
	if c.mp == nil {
		return c.mc.ReadMsg(b)
	}
	var m M
	b = c.mp.read(b, unsafe.Pointer(&m))
	return m, b
}

// mustCodecOf is CodecOf for a protocol NewSystem has accepted.
func mustCodecOf[S, M any](p Protocol[S, M]) Codec[S, M] {
	c, err := CodecOf(p)
	if err != nil {
		panic("model: " + err.Error())
	}
	return c
}

// Codec is the codec the system encodes states and messages with (see
// CodecOf).
func (sys *System[S, M]) Codec() Codec[S, M] { return sys.codec }

// FormatState is the text of node self's state s: the protocol's
// FormatState, or else formatValue(s).
func (sys *System[S, M]) FormatState(self NodeID, s S) string {
	if f, ok := sys.P.(StateFormatter[S]); ok {
		return f.FormatState(self, s)
	}
	return formatValue(s)
}

// FormatMsg is the text of message m: the protocol's FormatMsg, or else
// formatValue(m).
func (sys *System[S, M]) FormatMsg(m M) string {
	if f, ok := sys.P.(MsgFormatter[M]); ok {
		return f.FormatMsg(m)
	}
	return formatValue(m)
}

// formatValue is the default text of a state or a message: its %+v
// ("{Kind:1 TS:3}"), quoted when that holds a line break or another
// control character, which a trace line or a counterexample file cannot.
func formatValue(v any) string {
	s := fmt.Sprintf("%+v", v)
	if strings.IndexFunc(s, unicode.IsControl) >= 0 {
		return strconv.Quote(s)
	}
	return s
}
