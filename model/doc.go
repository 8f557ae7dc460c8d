// Package model is the vocabulary of coordcheck: node ids, events, effects,
// the per-node Protocol contract, the global World (node states, network,
// crashed nodes), global actions as values, canonical encodings and
// fingerprints.
//
// A protocol is a pure, per-node transition function. Init and Step never do
// I/O, never read a clock, never draw random numbers and never mutate their
// input; all nondeterminism (which message is delivered, which input happens,
// which fault strikes) is chosen by the checker through System.Actions.
//
// States and messages are encoded canonically, for fingerprints and for
// the engine, which keeps states as bytes. The encoding is derived from
// the types (CodecOf: plain values, structs, arrays, slices, maps), unless
// the protocol writes its own (Codec, StateCodec, MsgCodec) for speed; a
// type with no canonical value (a pointer, an interface, a func) is an
// error of NewSystem that names the field.
//
// The lecture notes' system model is the default: reliable channels, FIFO
// per ordered pair of nodes (seed 000, "system model"; SPIN anchor section 1).
package model
