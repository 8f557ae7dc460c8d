package checker

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/coordcheck/coordcheck/model"
)

// The codec self-check. The engine keeps states as their encodings only,
// so a codec that forgets a field, or reads it back into the wrong place,
// silently changes the system being checked: every verdict is then about
// some other protocol. Before a search, Check walks the first
// SelfCheckStates states breadth first, with the states as Go values (not
// round-tripped), and checks on each new world that every node state and
// every message in flight reads back as it was (ReadState(AppendState(s))
// == s), that a read consumes exactly what the append wrote and that the
// value read encodes as before, and that the whole world decodes to
// itself; and that two worlds met with the same encoding are equal. A
// failure names the type and the field at fault.

// SelfCheckStates is the number of states the codec self-check visits
// before a search.
const SelfCheckStates = 256

// CodecError is a codec self-check failure: a protocol's encoding does not
// round-trip. It is one line, naming the type and the field at fault.
type CodecError struct{ Msg string }

// Error is the one-line description.
func (e *CodecError) Error() string { return "codec self-check: " + e.Msg }

// CodecChecker is implemented by every Spec: the codec self-check and the
// decoding of untrusted bytes, for tests and fuzzing through a Target.
type CodecChecker interface {
	// CheckCodec runs the codec self-check on the first max states of a
	// breadth-first walk.
	CheckCodec(max int) error
	// CheckCodecWalk checks the codec on every world of one walk from the
	// initial world; choices[i] picks the i-th action (modulo the number
	// enabled).
	CheckCodecWalk(choices []byte) error
	// CheckDecode reads b as a node state, a message and a world with the
	// decoders for untrusted bytes (model.DecodeState ...). Malformed
	// input is fine; a value that decodes but does not round-trip from
	// there is a CodecError.
	CheckDecode(b []byte) error
}

var _ CodecChecker = (*Spec[int, int])(nil)

// selfCheck is the codec self-check Check runs first: nil, or a report
// whose Error says what is wrong (and whose verdict is inconclusive, never
// a pass, for callers that look no further).
func (sp *Spec[S, M]) selfCheck(opts *Options) *Report {
	for _, inv := range sp.Invariants {
		if (inv.Digest == nil) != (inv.Verdict == nil) || inv.Digest != nil && inv.Judge != nil {
			return &Report{Verdict: Inconclusive, Properties: sp.PropertyNames(),
				Error: fmt.Sprintf("invariant %s: Digest and Verdict go together, with Holds, not Judge (property.Invariant)", inv.Name)}
		}
	}
	start := time.Now()
	// A search that writes a checkpoint writes it when a bound stops it
	// (checkpoint.go): its self-check runs to the end, and the search
	// stops at its first poll, its checkpoint written.
	var stop func() string
	if opts.Checkpoint == "" {
		stop = func() string { return interrupt(opts, start) }
	}
	err := sp.checkCodec(SelfCheckStates, stop)
	if err == nil {
		return nil
	}
	var cut selfCheckCut
	if errors.As(err, &cut) {
		// No search, and no verdict on the codec: never a pass.
		return &Report{Verdict: Inconclusive, Bound: string(cut), Properties: sp.PropertyNames(), Elapsed: time.Since(start)}
	}
	return &Report{Verdict: Inconclusive, Error: err.Error(), Properties: sp.PropertyNames()}
}

// selfCheckCut is the bound (a signal, the timeout) that stopped the
// codec self-check before it was done. On a large system the check takes
// a while (Maekawa N=63 under the race detector: over a second), and a
// search asked to stop then must stop, not check on first.
type selfCheckCut string

// Error names the bound that stopped the check.
func (c selfCheckCut) Error() string { return "codec self-check stopped: " + string(c) }

// digestsAgree checks, on w, the world ids loaded, that each invariant
// judged from its digests (property.Invariant.Digest) is judged alike by
// Verdict and by Holds.
func (sp *Spec[S, M]) digestsAgree(ids *model.Cursor[S, M], w *model.World[S, M], depth int) error {
	j := 0
	for i := range sp.Invariants {
		inv := &sp.Invariants[i]
		if inv.Digest == nil {
			continue
		}
		fast := inv.Verdict(ids.Digests(j), w.Down)
		j++
		if ok, _ := inv.Holds(w); ok != fast {
			return &CodecError{fmt.Sprintf("invariant %s at depth %d: Verdict on the nodes' digests says %v, Holds says %v: the two must agree",
				inv.Name, depth, fast, ok)}
		}
	}
	return nil
}

// CheckCodec implements CodecChecker.
func (sp *Spec[S, M]) CheckCodec(max int) error { return sp.checkCodec(max, nil) }

// checkCodec is CheckCodec, asking stop (when not nil) before each world
// whether to stop there: a bound it names ends the check with that bound
// (selfCheckCut).
func (sp *Spec[S, M]) checkCodec(max int, stop func() string) error {
	c := newCodecCheck(sp)
	w := c.sys.Init()
	if err := c.world(w, 0); err != nil {
		return err
	}
	seen := map[string]*model.World[S, M]{string(c.sys.Encode(nil, w)): w}
	type item struct {
		w     *model.World[S, M]
		depth int
	}
	queue := []item{{w, 0}}
	var acts, loadedActs []model.Action
	var h model.WorldHash
	var scratch model.World[S, M]
	var stepped model.Stepped
	// The worlds are stored and loaded as the search stores and loads
	// them, and stepped as it steps them, on ids (model.Cursor).
	ids := model.NewCursor(sp.newStore(), c.sys.Clone())
	ids.UseSmallMemo() // it takes few steps
	for len(queue) > 0 && len(seen) < max {
		if stop != nil {
			if b := stop(); b != "" {
				return selfCheckCut(b)
			}
		}
		it := queue[0]
		queue = queue[1:]
		acts = c.sys.Actions(it.w, acts[:0])
		fp := c.sys.HashWorld(it.w)
		vec, stored := ids.AppendStored(nil, it.w)
		if stored != fp {
			return &CodecError{fmt.Sprintf("a world at depth %d is fingerprinted otherwise stored than whole (an engine bug)", it.depth)}
		}
		ids.Load(vec, fp, &scratch)
		if !bytes.Equal(c.sys.Encode(nil, &scratch), c.sys.Encode(nil, it.w)) {
			return &CodecError{fmt.Sprintf("a world at depth %d loads back from its stored form as another (an engine bug)", it.depth)}
		}
		// The search lists a loaded world's actions off its links
		// (model.Cursor.Actions): the same list, in the same order.
		loadedActs = ids.Actions(&scratch, loadedActs[:0])
		if !slices.Equal(loadedActs, acts) {
			return &CodecError{fmt.Sprintf("a world at depth %d has other actions loaded from its stored form than whole (an engine bug)", it.depth)}
		}
		if err := sp.readsOnly(c.sys, &scratch, it.depth); err != nil {
			return err
		}
		if err := sp.digestsAgree(ids, &scratch, it.depth); err != nil {
			return err
		}
		c.sys.LoadHash(&h, it.w)
		for _, a := range acts {
			peek, peeked := ids.Step(&scratch, &a, &stepped)
			var spliced []byte
			if peeked {
				spliced = ids.AppendStepped(nil, &stepped)
			}
			next := &model.World[S, M]{}
			c.sys.Apply(it.w, a, next)
			// The engine hashes a step by the parts it changed: a Step
			// that changes what it was not given (a slice it shares
			// with the state it came from) breaks that.
			want := c.sys.HashWorld(next)
			if c.sys.StepHash(&h, it.w, a, next) != want {
				return &CodecError{fmt.Sprintf("the step %s at depth %d changes more than its node, the links it used and the history: "+
					"does Step change a state or message it shares with the world it was given?", c.sys.FormatAction(it.w, a), it.depth+1)}
			}
			// And it takes a step once per node state and event (the
			// cursor's memo): a Step whose result depends on more than
			// its arguments breaks that.
			if peeked && peek != want {
				return &CodecError{fmt.Sprintf("the step %s at depth %d gives another result when taken again: "+
					"does Step read anything but its arguments (a global, a clock, a state it changed before)?", c.sys.FormatAction(it.w, a), it.depth+1)}
			}
			if peeked {
				if whole, _ := ids.AppendStored(nil, next); !bytes.Equal(spliced, whole) {
					// The engine's own fault, not the protocol's.
					return &CodecError{fmt.Sprintf("the step %s at depth %d: the successor's stored form made from its parent's differs from its own (an engine bug)",
						c.sys.FormatAction(it.w, a), it.depth+1)}
				}
			}
			enc := string(c.sys.Encode(nil, next))
			if prev, ok := seen[enc]; ok {
				// A field the encoding leaves out shows here when the
				// world first met with that encoding had it at the
				// value the decoder assumes.
				if d := diff(c.wName(), reflect.ValueOf(*next), reflect.ValueOf(*prev)); d != nil {
					return &CodecError{fmt.Sprintf("two different worlds at depth %d encode alike: %s: %s and %s",
						it.depth+1, d.path, d.got, d.want)}
				}
				continue
			}
			if err := c.world(next, it.depth+1); err != nil {
				return err
			}
			seen[enc] = next
			if len(seen) >= max {
				break
			}
			queue = append(queue, item{next, it.depth + 1})
		}
	}
	return nil
}

// CheckCodecWalk implements CodecChecker.
func (sp *Spec[S, M]) CheckCodecWalk(choices []byte) error {
	c := newCodecCheck(sp)
	w, next := c.sys.Init(), &model.World[S, M]{}
	var acts []model.Action
	var h model.WorldHash
	for depth := 0; ; depth++ {
		if err := c.world(w, depth); err != nil {
			return err
		}
		acts = c.sys.Actions(w, acts[:0])
		if depth == len(choices) || len(acts) == 0 {
			return nil
		}
		a := acts[int(choices[depth])%len(acts)]
		c.sys.LoadHash(&h, w)
		c.sys.Apply(w, a, next)
		if got, want := c.sys.StepHash(&h, w, a, next), c.sys.HashWorld(next); got != want {
			return &CodecError{fmt.Sprintf("the step %s at depth %d changes more than its node, the links it used and the history: "+
				"does Step change a state or message it shares with the world it was given?", c.sys.FormatAction(w, a), depth+1)}
		}
		w, next = next, w
	}
}

// CheckDecode implements CodecChecker.
func (sp *Spec[S, M]) CheckDecode(b []byte) error {
	c := newCodecCheck(sp)
	p := c.sys.Codec()
	if s, err := model.DecodeState(p, b); err == nil {
		if err := c.state(s, func() string { return "decoded state" }); err != nil {
			return err
		}
	}
	if m, err := model.DecodeMsg(p, b); err == nil {
		if err := c.msg(m, func() string { return "decoded message" }); err != nil {
			return err
		}
	}
	var w model.World[S, M]
	if err := c.sys.DecodeChecked(b, &w); err == nil {
		return c.world(&w, 0)
	}
	return nil
}

// codecCheck checks the round trip of states, messages and worlds.
type codecCheck[S, M any] struct {
	sys      *model.System[S, M]
	sName    string // the type names, e.g. "ricartagrawala.State"
	mName    string
	buf, enc []byte
}

func newCodecCheck[S, M any](sp *Spec[S, M]) *codecCheck[S, M] {
	return &codecCheck[S, M]{sys: sp.System.Clone(),
		sName: reflect.TypeFor[S]().String(), mName: reflect.TypeFor[M]().String()}
}

// wName is the world's type, which names the protocol's:
// "model.World[ricartagrawala.State, ricartagrawala.Msg]".
func (c *codecCheck[S, M]) wName() string {
	return "model.World[" + c.sName + ", " + c.mName + "]"
}

// sentinel follows an encoding when it is read back: a read must stop
// right before it.
const sentinel = 0xA5

// guard runs f, turning a panic into a CodecError that says what was
// being done, what(): a function, so that the text is made only on
// failure.
func guard(what func() string, f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			msg := fmt.Sprint(r)
			if i := strings.IndexByte(msg, '\n'); i >= 0 {
				msg = msg[:i]
			}
			err = &CodecError{fmt.Sprintf("%s panicked: %s", what(), clipText(msg))}
		}
	}()
	return f()
}

// state checks that s reads back as itself; where() says which state it
// is.
func (c *codecCheck[S, M]) state(s S, where func() string) error {
	p := c.sys.Codec()
	return guard(func() string { return c.sName + " codec (" + where() + ")" }, func() error {
		c.enc = p.AppendState(c.enc[:0], s)
		n := len(c.enc)
		c.buf = append(append(c.buf[:0], c.enc...), sentinel)
		got, rest := p.ReadState(c.buf)
		if len(rest) != 1 {
			return &CodecError{fmt.Sprintf("%s: ReadState read %d bytes of the %d AppendState wrote (%s)", c.sName, len(c.buf)-len(rest), n, where())}
		}
		if d := diff(c.sName, reflect.ValueOf(got), reflect.ValueOf(s)); d != nil {
			return &CodecError{fmt.Sprintf("%s (%s)", d, where())}
		}
		if again := p.AppendState(c.buf[:0], got); !bytes.Equal(again, c.enc[:n]) {
			return &CodecError{fmt.Sprintf("%s: the decoded state encodes differently (%s)", c.sName, where())}
		}
		return nil
	})
}

// msg checks that m reads back as itself; where() says which message it
// is.
func (c *codecCheck[S, M]) msg(m M, where func() string) error {
	p := c.sys.Codec()
	return guard(func() string { return c.mName + " codec (" + where() + ")" }, func() error {
		c.enc = p.AppendMsg(c.enc[:0], m)
		n := len(c.enc)
		c.buf = append(append(c.buf[:0], c.enc...), sentinel)
		got, rest := p.ReadMsg(c.buf)
		if len(rest) != 1 {
			return &CodecError{fmt.Sprintf("%s: ReadMsg read %d bytes of the %d AppendMsg wrote (%s)", c.mName, len(c.buf)-len(rest), n, where())}
		}
		if d := diff(c.mName, reflect.ValueOf(got), reflect.ValueOf(m)); d != nil {
			return &CodecError{fmt.Sprintf("%s (%s)", d, where())}
		}
		if again := p.AppendMsg(c.buf[:0], got); !bytes.Equal(again, c.enc[:n]) {
			return &CodecError{fmt.Sprintf("%s: the decoded message encodes differently (%s)", c.mName, where())}
		}
		return nil
	})
}

// world checks every node state and message of w, then w as a whole.
func (c *codecCheck[S, M]) world(w *model.World[S, M], depth int) error {
	for i, s := range w.Nodes {
		where := func() string { return fmt.Sprintf("state of %s at depth %d", model.NodeID(i), depth) }
		if err := c.state(s, where); err != nil {
			return err
		}
	}
	for _, e := range w.Net {
		where := func() string { return fmt.Sprintf("message %s->%s at depth %d", e.From, e.To, depth) }
		if err := c.msg(e.Msg, where); err != nil {
			return err
		}
	}
	return guard(func() string { return c.wName() + " codec" }, func() error {
		enc := c.sys.Encode(nil, w)
		var got model.World[S, M]
		if err := c.sys.DecodeChecked(enc, &got); err != nil {
			return &CodecError{fmt.Sprintf("%s at depth %d: %v", c.wName(), depth, err)}
		}
		if d := diff(c.wName(), reflect.ValueOf(got), reflect.ValueOf(*w)); d != nil {
			return &CodecError{fmt.Sprintf("%s (at depth %d)", d, depth)}
		}
		return nil
	})
}

// diff returns nil when got and want are equal, and otherwise the path of
// the first field at which they differ, under root, with both values:
// "ricartagrawala.State.Deferred: decoded 0 want 2". Nil and empty slices
// and maps are equal; functions are not compared. The path is made only
// for a difference, so equal values cost no allocation.
func diff(root string, got, want reflect.Value) *difference {
	d := diffValue(got, want)
	if d != nil {
		d.path = root + d.path
	}
	return d
}

// diffValue is diff with the path relative to got and want.
func diffValue(got, want reflect.Value) *difference {
	if got.Kind() != want.Kind() || got.IsValid() != want.IsValid() {
		return mismatch(got, want)
	}
	switch got.Kind() {
	case reflect.Invalid, reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return nil
	case reflect.Struct:
		for i := range got.NumField() {
			if d := diffValue(got.Field(i), want.Field(i)); d != nil {
				d.path = "." + got.Type().Field(i).Name + d.path
				return d
			}
		}
		return nil
	case reflect.Slice, reflect.Array:
		if got.Len() != want.Len() {
			return mismatch(got, want)
		}
		for i := range got.Len() {
			if d := diffValue(got.Index(i), want.Index(i)); d != nil {
				d.path = fmt.Sprintf("[%d]%s", i, d.path)
				return d
			}
		}
		return nil
	case reflect.Map:
		if got.Len() != want.Len() {
			return mismatch(got, want)
		}
		for _, k := range want.MapKeys() {
			g := got.MapIndex(k)
			if !g.IsValid() {
				return mismatch(got, want)
			}
			if d := diffValue(g, want.MapIndex(k)); d != nil {
				d.path = fmt.Sprintf("[%v]%s", k, d.path)
				return d
			}
		}
		return nil
	case reflect.Pointer, reflect.Interface:
		if got.IsNil() || want.IsNil() {
			if got.IsNil() != want.IsNil() {
				return mismatch(got, want)
			}
			return nil
		}
		return diffValue(got.Elem(), want.Elem())
	case reflect.Bool:
		if got.Bool() != want.Bool() {
			return mismatch(got, want)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if got.Int() != want.Int() {
			return mismatch(got, want)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if got.Uint() != want.Uint() {
			return mismatch(got, want)
		}
	case reflect.Float32, reflect.Float64:
		if got.Float() != want.Float() {
			return mismatch(got, want)
		}
	case reflect.Complex64, reflect.Complex128:
		if got.Complex() != want.Complex() {
			return mismatch(got, want)
		}
	case reflect.String:
		if got.String() != want.String() {
			return mismatch(got, want)
		}
	}
	return nil
}

// difference is where two values first differ, and the values there.
type difference struct{ path, got, want string }

// String: "ricartagrawala.State.Deferred: decoded 0 want 2".
func (d *difference) String() string { return d.path + ": decoded " + d.got + " want " + d.want }

// mismatch is a difference right at got and want.
func mismatch(got, want reflect.Value) *difference {
	return &difference{"", show(got), show(want)}
}

// show prints a value, clipped.
func show(v reflect.Value) string {
	if !v.IsValid() {
		return "nothing"
	}
	if v.CanInterface() {
		return clipText(fmt.Sprintf("%v", v.Interface()))
	}
	return clipText(fmt.Sprintf("%v", v))
}

// clipText cuts s to a readable length.
func clipText(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// readsOnly checks that the properties only read the world w they are
// given: a search loads each state into the same scratch world, setting
// only the nodes that differ from the state before (model.Cursor.Load),
// so a property that wrote to it would change the states judged after it
// (and the successors made from the state it judged, in any case).
func (sp *Spec[S, M]) readsOnly(sys *model.System[S, M], w *model.World[S, M], depth int) error {
	before := sys.Encode(nil, w)
	// check runs f, one property's, and fails when the world changed.
	check := func(what string, f func()) error {
		f()
		if !bytes.Equal(sys.Encode(nil, w), before) {
			return &CodecError{fmt.Sprintf("%s changed the world it was given at depth %d: properties must only read it", what, depth)}
		}
		return nil
	}
	for _, inv := range sp.Invariants {
		judge := func() { inv.Holds(w) }
		if inv.Judge != nil {
			judge = func() { inv.Judge(w) }
		}
		if err := check("invariant "+inv.Name, judge); err != nil {
			return err
		}
		if inv.Premise != nil {
			if err := check("the premise of "+inv.Name, func() { inv.Premise(w) }); err != nil {
				return err
			}
		}
	}
	for _, l := range sp.Liveness {
		pending := func() {
			for i := range w.Nodes {
				l.Pending(w, model.NodeID(i))
			}
		}
		if err := check("liveness property "+l.Name, pending); err != nil {
			return err
		}
		if l.Premise != nil {
			if err := check("the premise of "+l.Name, func() { l.Premise(w) }); err != nil {
				return err
			}
		}
	}
	return nil
}
