package model

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unsafe"
)

// The derived codec. A state or message type made of plain values
// (integers of every width, bools, floats, strings, fixed arrays, slices,
// maps and structs of those, named or not, exported fields or not) gets
// its canonical encoding without a hand-written codec: the type is walked
// once, into a plan, a flat list of operations at fixed offsets (nested
// structs are inlined), which encoding and decoding then run over the
// value's memory. Pointers, interfaces, functions and channels have no
// canonical value (an address, a dynamic type, a closure), so a type that
// holds one is refused when the System is made, with the path of the
// field at fault.
//
// The encoding: a bool, an int8 and a uint8 are one byte; wider unsigned
// integers are LEB128 varints (AppendUvarint), wider signed ones zig-zag
// varints; a float is its IEEE bits, little-endian (so -0 and +0 are two
// values, as are two NaNs of different bits); a string, a slice and a map
// are their length then their elements; a map's entries come in the order
// of their keys' encodings, so that the encoding does not depend on the
// order the entries were inserted in. Two values encode alike exactly when
// they are equal (with nil and empty slices and maps equal), which is the
// equality the checker uses for states.
//
// A fixed-size queue kept with its length (a hold-back queue, a queue of
// requests) can say so: an array field tagged `coordcheck:"len=F"`, F an
// integer field declared before it in the same struct, holds F elements
// (at most its length), and only those are encoded, not the whole
// capacity. The elements past the count are then not part of the state:
// decoding sets them to zero, and values that differ only there are one
// state. A queue that clears the slot it vacates loses nothing; one that
// leaves something there fails the checker's codec self-check (its states
// do not read back as they were). A tag that cannot take effect (not on an
// array, no such field before it, a count that is not an integer) is an
// error when the codec is made.
//
// The plan reads and writes the value through unsafe pointers rather than
// reflect.Value: that is what lets it set unexported fields, and keeps an
// encoding free of allocation for a fixed-size type. reflect makes the
// slices and maps a decoding needs, and walks a map.

// opKind is what one operation of a plan encodes.
type opKind uint8

const (
	opBool opKind = iota
	opU8          // uint8 and int8: the byte itself
	opU16
	opU32
	opU64 // also uint, uintptr
	opI16
	opI32
	opI64 // also int
	opF32
	opF64
	opString
	opArray
	opSlice
	opMap
	opNone // no operation: plan.scalar of a type that is not one number
)

// op is one operation of a plan: encode the value of kind at off.
type op struct {
	kind opKind
	off  uintptr
	n    int          // opArray: the length
	elem *plan        // opArray, opSlice: the element; opMap: the key
	val  *plan        // opMap: the value
	typ  reflect.Type // opSlice, opMap: the type, to make one when decoding; a counted opArray: the array's
	// counted: an opArray whose elements from the count on are not part
	// of the value (the tag coordcheck:"len=F"): the count is the integer
	// of kind lenKind at lenOff, an earlier field, so read before.
	counted bool
	lenKind reflect.Kind
	lenOff  uintptr
}

// plan is the encoding of one type.
type plan struct {
	ops  []op
	size uintptr // the type's size, the stride of its arrays and slices
	// scalar is opU8, opU32 or opU64 when the type is that one number
	// and nothing else, so that its arrays and slices take a loop of
	// their own; opNone otherwise.
	scalar opKind
	// flat: the encoding is the value's memory, its size bytes, a copy
	// each way (a type of bytes alone, with no padding: a uint8, a
	// vector clock of them, a struct of those).
	flat bool
	// pointers: the type holds pointers (a string, a slice, a map).
	pointers bool
}

// append appends the encoding of the value at base.
func (p *plan) append(b []byte, base unsafe.Pointer) []byte {
	if p.flat {
		return append(b, unsafe.Slice((*byte)(base), p.size)...)
	}
	for i := range p.ops {
		o := &p.ops[i]
		ptr := unsafe.Add(base, o.off)
		switch o.kind {
		case opBool:
			b = AppendBool(b, *(*bool)(ptr))
		case opU8:
			b = append(b, *(*uint8)(ptr))
		case opU16:
			b = AppendUvarint(b, uint64(*(*uint16)(ptr)))
		case opU32:
			b = AppendUvarint(b, uint64(*(*uint32)(ptr)))
		case opU64:
			b = AppendUvarint(b, *(*uint64)(ptr))
		case opI16:
			b = AppendUvarint(b, zigzag(int64(*(*int16)(ptr))))
		case opI32:
			b = AppendUvarint(b, zigzag(int64(*(*int32)(ptr))))
		case opI64:
			b = AppendUvarint(b, zigzag(*(*int64)(ptr)))
		case opF32:
			b = binary.LittleEndian.AppendUint32(b, *(*uint32)(ptr))
		case opF64:
			b = binary.LittleEndian.AppendUint64(b, *(*uint64)(ptr))
		case opString:
			b = AppendString(b, *(*string)(ptr))
		case opArray:
			n := o.n
			if o.counted {
				n = o.count(base)
			}
			b = o.elem.appendN(b, ptr, n)
		case opSlice:
			// Any slice has the layout of a []byte: a data pointer, and
			// the length and capacity in elements.
			s := *(*[]byte)(ptr)
			b = AppendUvarint(b, uint64(len(s)))
			b = o.elem.appendN(b, unsafe.Pointer(unsafe.SliceData(s)), len(s))
		case opMap:
			b = o.appendMap(b, ptr)
		}
	}
	return b
}

// appendN appends the encodings of the n values of p's type from base on.
func (p *plan) appendN(b []byte, base unsafe.Pointer, n int) []byte {
	if p.flat {
		return append(b, unsafe.Slice((*byte)(base), uintptr(n)*p.size)...)
	}
	switch p.scalar {
	case opU32:
		for _, v := range unsafe.Slice((*uint32)(base), n) {
			b = AppendUvarint(b, uint64(v))
		}
		return b
	case opU64:
		for _, v := range unsafe.Slice((*uint64)(base), n) {
			b = AppendUvarint(b, v)
		}
		return b
	}
	for i := range n {
		b = p.append(b, unsafe.Add(base, uintptr(i)*p.size))
	}
	return b
}

// appendMap appends the map at ptr: its length, then its entries in the
// order of their keys' encodings.
func (o *op) appendMap(b []byte, ptr unsafe.Pointer) []byte {
	// A map value is one pointer; a copy of it is the same map. The copy
	// keeps ptr itself away from reflect, so that the value encoded does
	// not escape to the heap.
	h := *(*unsafe.Pointer)(ptr)
	m := reflect.NewAt(o.typ, unsafe.Pointer(&h)).Elem()
	b = AppendUvarint(b, uint64(m.Len()))
	if m.Len() == 0 {
		return b
	}
	type entry struct{ key, end int } // the key ends at key, the value at end
	var (
		buf     []byte
		entries []entry
		k       = reflect.New(o.typ.Key()).Elem()
		v       = reflect.New(o.typ.Elem()).Elem()
	)
	for it := m.MapRange(); it.Next(); {
		k.SetIterKey(it)
		v.SetIterValue(it)
		buf = o.elem.append(buf, k.Addr().UnsafePointer())
		key := len(buf)
		buf = o.val.append(buf, v.Addr().UnsafePointer())
		entries = append(entries, entry{key, len(buf)})
	}
	start := func(i int) int {
		if i == 0 {
			return 0
		}
		return entries[i-1].end
	}
	order := make([]int, len(entries))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int {
		return bytes.Compare(buf[start(i):entries[i].key], buf[start(j):entries[j].key])
	})
	for _, i := range order {
		b = append(b, buf[start(i):entries[i].end]...)
	}
	return b
}

// read sets the value at base, whatever it held, to the one encoded at
// the start of b (every field but blank ones is written), and returns
// the rest of b. Like
// every codec's Read, it trusts b and panics on bytes that are not an
// encoding (model.DecodeState turns that into an error).
func (p *plan) read(b []byte, base unsafe.Pointer) []byte {
	if p.flat {
		copy(unsafe.Slice((*byte)(base), p.size), b[:p.size])
		return b[p.size:]
	}
	for i := range p.ops {
		o := &p.ops[i]
		ptr := unsafe.Add(base, o.off)
		var v uint64
		switch o.kind {
		case opBool:
			*(*bool)(ptr) = b[0] != 0
			b = b[1:]
		case opU8:
			*(*uint8)(ptr) = b[0]
			b = b[1:]
		case opU16:
			v, b = ReadUvarint(b)
			*(*uint16)(ptr) = uint16(v)
		case opU32:
			v, b = ReadUvarint(b)
			*(*uint32)(ptr) = uint32(v)
		case opU64:
			*(*uint64)(ptr), b = ReadUvarint(b)
		case opI16:
			v, b = ReadUvarint(b)
			*(*int16)(ptr) = int16(unzigzag(v))
		case opI32:
			v, b = ReadUvarint(b)
			*(*int32)(ptr) = int32(unzigzag(v))
		case opI64:
			v, b = ReadUvarint(b)
			*(*int64)(ptr) = unzigzag(v)
		case opF32:
			*(*uint32)(ptr) = binary.LittleEndian.Uint32(b)
			b = b[4:]
		case opF64:
			*(*uint64)(ptr) = binary.LittleEndian.Uint64(b)
			b = b[8:]
		case opString:
			*(*string)(ptr), b = ReadString(b)
		case opArray:
			if o.counted {
				b = o.readCounted(b, base, ptr)
			} else {
				b = o.elem.readN(b, ptr, o.n)
			}
		case opSlice:
			b = o.readSlice(b, ptr)
		case opMap:
			b = o.readMap(b, ptr)
		}
	}
	return b
}

// count is the number of elements of the counted array op o of the
// value at base: its count field's value, within 0 and the array's length.
func (o *op) count(base unsafe.Pointer) int {
	ptr := unsafe.Add(base, o.lenOff)
	var v int64
	switch o.lenKind {
	case reflect.Int8:
		v = int64(*(*int8)(ptr))
	case reflect.Int16:
		v = int64(*(*int16)(ptr))
	case reflect.Int32:
		v = int64(*(*int32)(ptr))
	case reflect.Int64:
		v = *(*int64)(ptr)
	case reflect.Uint8:
		v = int64(*(*uint8)(ptr))
	case reflect.Uint16:
		v = int64(*(*uint16)(ptr))
	case reflect.Uint32:
		v = int64(*(*uint32)(ptr))
	default: // Uint64
		v = int64(min(*(*uint64)(ptr), uint64(o.n)))
	}
	return int(min(max(v, 0), int64(o.n)))
}

// readCounted reads the counted array op o of the value at base, at ptr,
// and sets the elements from its count on to zero.
func (o *op) readCounted(b []byte, base, ptr unsafe.Pointer) []byte {
	n := o.count(base)
	b = o.elem.readN(b, ptr, n)
	if n == o.n {
		return b
	}
	if o.elem.pointers {
		// (Through reflect, so that the pointers cleared are seen by the
		// collector.)
		for i := n; i < o.n; i++ {
			reflect.NewAt(o.typ.Elem(), unsafe.Add(ptr, uintptr(i)*o.elem.size)).Elem().SetZero()
		}
		return b
	}
	clear(unsafe.Slice((*byte)(unsafe.Add(ptr, uintptr(n)*o.elem.size)), uintptr(o.n-n)*o.elem.size))
	return b
}

// readSlice reads a slice written by append into the slice at ptr.
func (o *op) readSlice(b []byte, ptr unsafe.Pointer) []byte {
	v, b := ReadUvarint(b)
	if v == 0 {
		*(*[]byte)(ptr) = nil // equal to empty, and it encodes alike
		return b
	}
	// Every element of a type with operations takes a byte at least: a
	// longer length is not an encoding.
	if v > math.MaxInt32 || v > uint64(len(b)) && len(o.elem.ops) > 0 {
		panic(fmt.Sprintf("slice of %d elements in %d bytes", v, len(b)))
	}
	n := int(v)
	s := reflect.MakeSlice(o.typ, n, n)
	b = o.elem.readN(b, s.UnsafePointer(), n)
	// Any slice has the layout of a []byte (see append).
	*(*[]byte)(ptr) = unsafe.Slice((*byte)(s.UnsafePointer()), n)
	return b
}

// readN reads n values of p's type into the memory from base on.
func (p *plan) readN(b []byte, base unsafe.Pointer, n int) []byte {
	var v uint64
	switch {
	case len(p.ops) == 0:
		return b
	case p.flat:
		size := uintptr(n) * p.size
		copy(unsafe.Slice((*byte)(base), size), b[:size])
		return b[size:]
	case p.scalar == opU32:
		dst := unsafe.Slice((*uint32)(base), n)
		for i := range dst {
			v, b = ReadUvarint(b)
			dst[i] = uint32(v)
		}
		return b
	case p.scalar == opU64:
		dst := unsafe.Slice((*uint64)(base), n)
		for i := range dst {
			dst[i], b = ReadUvarint(b)
		}
		return b
	}
	for i := range n {
		b = p.read(b, unsafe.Add(base, uintptr(i)*p.size))
	}
	return b
}

// readMap reads a map written by appendMap into the map at ptr.
func (o *op) readMap(b []byte, ptr unsafe.Pointer) []byte {
	v, b := ReadUvarint(b)
	if v == 0 {
		*(*unsafe.Pointer)(ptr) = nil // equal to empty, and it encodes alike
		return b
	}
	if v > uint64(len(b)) {
		panic(fmt.Sprintf("map of %d entries in %d bytes", v, len(b)))
	}
	m := reflect.MakeMapWithSize(o.typ, int(v))
	for range v {
		key := reflect.New(o.typ.Key()).Elem()
		b = o.elem.read(b, key.Addr().UnsafePointer())
		val := reflect.New(o.typ.Elem()).Elem()
		b = o.val.read(b, val.Addr().UnsafePointer())
		m.SetMapIndex(key, val)
	}
	*(*unsafe.Pointer)(ptr) = m.UnsafePointer()
	return b
}

func zigzag(v int64) uint64   { return uint64(v<<1) ^ uint64(v>>63) }
func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// planError is a type that cannot be encoded, and where it was met.
type planError struct {
	path string       // "Queue[].Owner", "" for the root
	typ  reflect.Type // the type that cannot be encoded
	why  string       // what is wrong, when it is not the type itself (a tag)
}

// builder makes the plan of one root type and of the types under it.
type builder struct {
	plans map[reflect.Type]*plan // made or in the making (a type under itself, through a slice or map)
}

// planOf returns the plan of t, reached at path.
func (bd *builder) planOf(t reflect.Type, path string) (*plan, *planError) {
	if p, ok := bd.plans[t]; ok {
		return p, nil
	}
	p := &plan{size: t.Size()}
	bd.plans[t] = p
	if err := bd.addOps(p, t, 0, path); err != nil {
		return nil, err
	}
	p.scalar = opNone
	if len(p.ops) == 1 && p.ops[0].off == 0 {
		switch k := p.ops[0].kind; {
		case k == opU8 && p.size == 1, k == opU32 && p.size == 4, k == opU64 && p.size == 8:
			p.scalar = k
		}
	}
	p.flat = p.bytesOnly()
	p.pointers = p.holdsPointers()
	return p, nil
}

// holdsPointers reports whether p's type holds pointers: a string, a slice
// or a map among its operations. (Blank fields, which have none, hold only
// zeros.)
func (p *plan) holdsPointers() bool {
	for _, o := range p.ops {
		switch {
		case o.kind == opString, o.kind == opSlice, o.kind == opMap:
			return true
		case o.kind == opArray && o.elem.pointers:
			return true
		}
	}
	return false
}

// bytesOnly reports whether p's operations encode each byte of the value
// as itself, in the order of memory, with no gap: bytes, and arrays of
// flat types. The encoding is then the value's memory (plan.flat). An
// empty type is not flat: it has no operations to copy.
func (p *plan) bytesOnly() bool {
	next := uintptr(0)
	for _, o := range p.ops {
		if o.off != next {
			return false
		}
		switch {
		case o.kind == opU8:
			next++
		case o.kind == opArray && !o.counted && o.elem.flat:
			next += uintptr(o.n) * o.elem.size
		default:
			return false
		}
	}
	return len(p.ops) > 0 && next == p.size
}

// addOps appends to p the operations encoding a value of type t at offset
// off; path names it for errors.
func (bd *builder) addOps(p *plan, t reflect.Type, off uintptr, path string) *planError {
	add := func(k opKind) { p.ops = append(p.ops, op{kind: k, off: off}) }
	switch t.Kind() {
	case reflect.Bool:
		add(opBool)
	case reflect.Int8, reflect.Uint8:
		add(opU8)
	case reflect.Uint16:
		add(opU16)
	case reflect.Uint32:
		add(opU32)
	case reflect.Uint64, reflect.Uint, reflect.Uintptr:
		if t.Size() == 4 {
			add(opU32)
		} else {
			add(opU64)
		}
	case reflect.Int16:
		add(opI16)
	case reflect.Int32:
		add(opI32)
	case reflect.Int64, reflect.Int:
		if t.Size() == 4 {
			add(opI32)
		} else {
			add(opI64)
		}
	case reflect.Float32:
		add(opF32)
	case reflect.Float64:
		add(opF64)
	case reflect.Complex64:
		p.ops = append(p.ops, op{kind: opF32, off: off}, op{kind: opF32, off: off + 4})
	case reflect.Complex128:
		p.ops = append(p.ops, op{kind: opF64, off: off}, op{kind: opF64, off: off + 8})
	case reflect.String:
		add(opString)
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Name == "_" {
				continue // blank: padding, never set
			}
			if tag, ok := f.Tag.Lookup("coordcheck"); ok {
				if err := bd.addCounted(p, t, i, tag, off, joinPath(path, f.Name)); err != nil {
					return err
				}
				continue
			}
			if err := bd.addOps(p, f.Type, off+f.Offset, joinPath(path, f.Name)); err != nil {
				return err
			}
		}
	case reflect.Array:
		elem, err := bd.planOf(t.Elem(), path+"[]")
		if err != nil {
			return err
		}
		if t.Len() > 0 && len(elem.ops) > 0 {
			p.ops = append(p.ops, op{kind: opArray, off: off, n: t.Len(), elem: elem})
		}
	case reflect.Slice:
		elem, err := bd.planOf(t.Elem(), path+"[]")
		if err != nil {
			return err
		}
		p.ops = append(p.ops, op{kind: opSlice, off: off, elem: elem, typ: t})
	case reflect.Map:
		key, err := bd.planOf(t.Key(), path+"[key]")
		if err != nil {
			return err
		}
		val, err := bd.planOf(t.Elem(), path+"[]")
		if err != nil {
			return err
		}
		p.ops = append(p.ops, op{kind: opMap, off: off, elem: key, val: val, typ: t})
	default: // Pointer, Interface, Func, Chan, UnsafePointer
		return &planError{path: path, typ: t}
	}
	return nil
}

// addCounted appends to p the operation encoding field i of struct t (at
// offset off, path naming it), an array tagged coordcheck:"len=F": only
// its first F elements are part of the value (see the package's codec
// notes), F an integer field declared before it.
func (bd *builder) addCounted(p *plan, t reflect.Type, i int, tag string, off uintptr, path string) *planError {
	f := t.Field(i)
	bad := func(why string) *planError {
		return &planError{path: path, typ: f.Type, why: fmt.Sprintf("tag coordcheck:%q: %s", tag, why)}
	}
	name, ok := strings.CutPrefix(tag, "len=")
	if !ok {
		return bad(`the only tag is "len=F", F the field that counts the array's elements`)
	}
	if f.Type.Kind() != reflect.Array {
		return bad("the field is a " + f.Type.Kind().String() + ", not an array")
	}
	cf, ok := t.FieldByName(name)
	if !ok || len(cf.Index) != 1 || cf.Index[0] >= i || cf.Name == "_" {
		return bad("no field " + name + " before it in " + t.String())
	}
	if _, tagged := cf.Tag.Lookup("coordcheck"); tagged {
		return bad("field " + name + " is tagged itself")
	}
	switch cf.Type.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
	default:
		return bad("field " + name + " is a " + cf.Type.Kind().String() + ", not an integer")
	}
	elem, err := bd.planOf(f.Type.Elem(), path+"[]")
	if err != nil {
		return err
	}
	// The count's kind by its width: int, uint and uintptr are 4 or 8
	// bytes, by platform.
	kind, wide := cf.Type.Kind(), cf.Type.Size() == 8
	switch {
	case kind == reflect.Int && wide:
		kind = reflect.Int64
	case kind == reflect.Int:
		kind = reflect.Int32
	case (kind == reflect.Uint || kind == reflect.Uintptr) && wide:
		kind = reflect.Uint64
	case kind == reflect.Uint || kind == reflect.Uintptr:
		kind = reflect.Uint32
	}
	if f.Type.Len() > 0 && len(elem.ops) > 0 {
		p.ops = append(p.ops, op{kind: opArray, off: off + f.Offset, n: f.Type.Len(), elem: elem, typ: f.Type,
			counted: true, lenKind: kind, lenOff: off + cf.Offset})
	}
	return nil
}

// joinPath is the path of field name under path.
func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// plans caches the plan (or the error) of every root type asked for: a
// type is walked once per process.
var plans sync.Map // reflect.Type -> planned

type planned struct {
	p   *plan
	err *planError
}

// planFor returns the plan of root type t.
func planFor(t reflect.Type) (*plan, *planError) {
	if v, ok := plans.Load(t); ok {
		r := v.(planned)
		return r.p, r.err
	}
	p, err := (&builder{plans: map[reflect.Type]*plan{}}).planOf(t, "")
	v, _ := plans.LoadOrStore(t, planned{p, err})
	r := v.(planned)
	return r.p, r.err
}

// codecError is the error for a type that cannot be encoded: "state type
// foo.State field Queue[].Owner: type func() cannot be encoded".
func codecError(what string, root reflect.Type, err *planError) error {
	where := ""
	if err.path != "" {
		where = " field " + err.path
	}
	if err.why != "" {
		return fmt.Errorf("%s type %s%s: %s", what, root, where, err.why)
	}
	return fmt.Errorf("%s type %s%s: type %s cannot be encoded (%s has no canonical value; "+
		"keep states and messages to integers, bools, floats, strings, arrays, slices, maps and structs, "+
		"or write the codec: model.Codec)",
		what, root, where, err.typ, kindName(err.typ))
}

// kindName is "a pointer", "an interface", ... for an unencodable type.
func kindName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer, reflect.UnsafePointer:
		return "a pointer"
	case reflect.Interface:
		return "an interface"
	case reflect.Func:
		return "a func"
	case reflect.Chan:
		return "a channel"
	}
	return "a " + t.Kind().String()
}
