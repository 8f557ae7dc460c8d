package linearizability

import (
	"fmt"

	"github.com/coordcheck/coordcheck/internal/clip"
)

// registerDecoder reads the events of the register and key-value
// specifications.
type registerDecoder struct{ spec Spec }

func (d registerDecoder) Shape(ev Event) error { return shapeOf(d.spec, ev) }

func (d registerDecoder) Input(ev Event) (Input, error) { return decodeInput(d.spec, ev) }

func (d registerDecoder) Output(in Input, invoke, done Event) (Output, error) {
	return decodeOutput(d.spec, in, invoke.Value, done)
}

func (registerDecoder) Unknown() Output { return Output{Unknown: true} }

// decodeInput reads the input of an :invoke event.
func decodeInput(spec Spec, ev Event) (Input, error) {
	if spec == SpecKVAppend {
		return decodeKVAppendInput(ev)
	}
	var in Input
	v := ev.Value
	if spec == SpecKV {
		key, x, err := splitKey(v)
		if err != nil {
			return in, err
		}
		in.Key, v = key, x
	}
	var err error
	switch ev.F {
	case "read":
		in.Op = Read
		if v.kind != ednNil {
			return in, fmt.Errorf(":invoke :read with value %s: want nil", v.short())
		}
	case "write":
		in.Op = Write
		in.Arg, err = decodeValue(spec, v)
	case "cas":
		in.Op = CAS
		if spec == SpecRegister {
			return in, fmt.Errorf(":cas is not an operation of the register model (use cas-register)")
		}
		if v.kind != ednVector || len(v.items) != 2 {
			return in, fmt.Errorf(":cas value %s: want [old new]", v.short())
		}
		if in.Arg, err = decodeValue(spec, v.items[0]); err == nil {
			in.New, err = decodeValue(spec, v.items[1])
		}
	}
	return in, err
}

// shapeOf refuses an event of the other history shape, naming the model
// that reads it: the :key shape with :get, :put and :append in a register
// or tuple-kv history, and the reverse.
func shapeOf(spec Spec, ev Event) error {
	if spec == SpecKVAppend {
		switch ev.F {
		case "get", "put", "append":
			return nil
		}
		return fmt.Errorf(":f :%s is not an operation of the kv-append model (want :get, :put or :append; :read, :write and :cas are -model %s)", ev.F, SpecCASRegister)
	}
	switch {
	case ev.HasKey:
		return fmt.Errorf(":key %s: an event of the key-value :key shape (use -model kv-append)", ev.Key.short())
	case ev.F == "get" || ev.F == "put" || ev.F == "append":
		return fmt.Errorf(":f :%s is an operation of the kv-append model (use -model kv-append)", ev.F)
	case ev.F != "read" && ev.F != "write" && ev.F != "cas":
		return fmt.Errorf(":f :%s: want :read, :write or :cas (register, cas-register, kv) or :get, :put or :append (kv-append)", ev.F)
	}
	return nil
}

// decodeKVAppendInput reads an :invoke of the kv-append shape:
// {:f :get|:put|:append, :key K, :value V}.
func decodeKVAppendInput(ev Event) (Input, error) {
	var in Input
	key, err := kvAppendKey(ev)
	if err != nil {
		return in, err
	}
	in.Key = key
	switch ev.F {
	case "get":
		in.Op = Get
		if ev.Value.kind != ednNil {
			return in, fmt.Errorf(":invoke :get with value %s: want nil", ev.Value.short())
		}
		return in, nil
	case "put":
		in.Op = Put
	case "append":
		in.Op = Append
	}
	in.Arg, err = decodeText(ev.Value)
	return in, err
}

// kvAppendKey returns the event's :key, refusing the tuple shape.
func kvAppendKey(ev Event) (string, error) {
	if !ev.HasKey {
		if _, _, err := splitKey(ev.Value); err == nil {
			return "", fmt.Errorf("value %s is a [key value] pair but the event has no :key: this line has the tuple shape of -model kv, the history mixes shapes", ev.Value.short())
		}
		return "", fmt.Errorf("no :key: the kv-append model reads {:f :get|:put|:append, :key K, :value V}")
	}
	switch k := ev.Key; k.kind {
	case ednKeyword, ednInt, ednString:
		return k.String(), nil
	}
	return "", fmt.Errorf(":key %s: want a keyword, an integer or a string", ev.Key.short())
}

// decodeText reads a kv-append value: a string, or an integer taken as
// its decimal text; nil is the empty string (a missing key reads as
// empty).
func decodeText(v EDN) (Value, error) {
	switch v.kind {
	case ednString:
		return Str(v.s), nil
	case ednInt:
		return Str(v.String()), nil
	case ednNil:
		return Str(""), nil
	}
	return Nil, fmt.Errorf("value %s: want a string", v.short())
}

// decodeOutput reads the output of an :ok completion ev of the invocation
// in, whose value was invoked.
func decodeOutput(spec Spec, in Input, invoked EDN, ev Event) (Output, error) {
	v := ev.Value
	if spec == SpecKVAppend && ev.HasKey {
		if key, err := kvAppendKey(ev); err != nil {
			return Output{}, err
		} else if key != in.Key {
			return Output{}, fmt.Errorf(":ok :%s of key %s, but it was invoked on key %s", in.Op, clip.String(key), clip.String(in.Key))
		}
	}
	if in.Op != Read && in.Op != Get {
		if v.String() != invoked.String() {
			return Output{}, fmt.Errorf(":ok :%s with value %s, but it was invoked with %s", in.Op, v.short(), invoked.short())
		}
		return Output{}, nil
	}
	if spec == SpecKVAppend {
		val, err := decodeText(v)
		return Output{Value: val}, err
	}
	if spec == SpecKV {
		key, x, err := splitKey(v)
		if err != nil {
			return Output{}, err
		}
		if key != in.Key {
			return Output{}, fmt.Errorf(":ok :read of key %s, but the read was invoked on key %s", clip.String(key), clip.String(in.Key))
		}
		v = x
	}
	val, err := decodeValue(spec, v)
	return Output{Value: val}, err
}

// splitKey splits a kv value [key value].
func splitKey(v EDN) (string, EDN, error) {
	if v.kind != ednVector || len(v.items) != 2 {
		return "", v, fmt.Errorf("value %s: want [key value] in a kv history", v.short())
	}
	switch k := v.items[0]; k.kind {
	case ednKeyword, ednInt, ednString:
		return k.String(), v.items[1], nil
	}
	return "", v, fmt.Errorf("key %s: want a keyword, an integer or a string", v.items[0].short())
}

// decodeValue reads a register value: an integer or nil.
func decodeValue(spec Spec, v EDN) (Value, error) {
	switch v.kind {
	case ednNil:
		return Nil, nil
	case ednInt:
		return Int(v.n), nil
	}
	if spec != SpecKV && v.kind == ednVector && len(v.items) == 2 {
		return Nil, fmt.Errorf("value %s: want an integer or nil ([key value] pairs need the kv model)", v.short())
	}
	return Nil, fmt.Errorf("value %s: want an integer or nil", v.short())
}
