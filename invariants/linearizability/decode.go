package linearizability

import "fmt"

// decodeInput reads the input of an :invoke of function f with value v.
func decodeInput(spec Spec, f string, v edn) (Input, error) {
	var in Input
	if spec == SpecKV {
		key, x, err := splitKey(v)
		if err != nil {
			return in, err
		}
		in.Key, v = key, x
	}
	var err error
	switch f {
	case "read":
		in.Op = Read
		if v.kind != ednNil {
			return in, fmt.Errorf(":invoke :read with value %s: want nil", v)
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
			return in, fmt.Errorf(":cas value %s: want [old new]", v)
		}
		if in.Arg, err = decodeValue(spec, v.items[0]); err == nil {
			in.New, err = decodeValue(spec, v.items[1])
		}
	}
	return in, err
}

// decodeOutput reads the output of an :ok completion with value v of the
// invocation in, whose value was invoked.
func decodeOutput(spec Spec, in Input, invoked, v edn) (Output, error) {
	if in.Op != Read {
		if v.String() != invoked.String() {
			return Output{}, fmt.Errorf(":ok :%s with value %s, but it was invoked with %s", in.Op, v, invoked)
		}
		return Output{}, nil
	}
	if spec == SpecKV {
		key, x, err := splitKey(v)
		if err != nil {
			return Output{}, err
		}
		if key != in.Key {
			return Output{}, fmt.Errorf(":ok :read of key %s, but the read was invoked on key %s", key, in.Key)
		}
		v = x
	}
	val, err := decodeValue(spec, v)
	return Output{Value: val}, err
}

// splitKey splits a kv value [key value].
func splitKey(v edn) (string, edn, error) {
	if v.kind != ednVector || len(v.items) != 2 {
		return "", v, fmt.Errorf("value %s: want [key value] in a kv history", v)
	}
	switch k := v.items[0]; k.kind {
	case ednKeyword, ednInt, ednString:
		return k.String(), v.items[1], nil
	}
	return "", v, fmt.Errorf("key %s: want a keyword, an integer or a string", v.items[0])
}

// decodeValue reads a register value: an integer or nil.
func decodeValue(spec Spec, v edn) (Value, error) {
	switch v.kind {
	case ednNil:
		return Nil, nil
	case ednInt:
		return Int(v.n), nil
	}
	if spec != SpecKV && v.kind == ednVector && len(v.items) == 2 {
		return Nil, fmt.Errorf("value %s: want an integer or nil ([key value] pairs need the kv model)", v)
	}
	return Nil, fmt.Errorf("value %s: want an integer or nil", v)
}
