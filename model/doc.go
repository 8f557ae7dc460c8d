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
// The lecture notes' system model is the default: reliable channels, FIFO
// per ordered pair of nodes (seed 000, "system model"; SPIN anchor section 1).
package model
