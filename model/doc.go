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
//
// # Optional hooks
//
// Beyond Protocol, a protocol implements the hooks its properties and its
// system model need; the checker finds them by type assertion, so each
// protocol states the ones it implements with a compile-time assertion
// beside the method (var _ model.Waiter[State] = (*Protocol)(nil)), or,
// for methods it has from an embedded type (the mutual-exclusion
// protocols' FairInput and Waiting from mutex.Site, their {Kind, TS}
// message codec from mutex.KindTSCodec), beside its constructor; a
// misspelled method fails to build instead of being silently ignored.
// The hooks, and the shipped protocols that implement them:
//
//   - Waiter (Waiting: the node waits for something; a world with no
//     enabled action and a waiting node is a deadlock): every mutual
//     exclusion and election protocol and coordination.
//   - DeadlockExplainer (ExplainDeadlock: why a deadlock is stuck):
//     centralized, maekawa, maekawadf, tokenring.
//   - Restarter (Recover: the state a node restarts in): bully,
//     coordination.
//   - TimerGuard (TimerReady: when a timer may fire under perfect
//     timers): bully, ringelection, tokenring, coordination, and the
//     multicasts nack, reliable, viewsync.
//   - TimersGuard (ReadyTimers: every node's guards at once, when they
//     share one look at the world): bully.
//   - FairInputs (FairInput: the weakly fair inputs): centralized,
//     lamport, maekawa, maekawadf, ricartagrawala, tokenring, voting,
//     coordination.
//   - Ranked (Rank, Weight: a variant that shows every run ends):
//     maekawadf.
//   - AppCarrier (SendApp, ReceiveApp: protocol data on application
//     messages): lamport, ricartagrawala, voting.
//   - TimerNamer (TimerName: timers named in traces): bully,
//     ringelection, tokenring, coordination, and the multicasts
//     besteffort, causal, fifo, nack, reliable, viewsync.
//   - MsgKinder (MsgKind: a message's kind for coverage, without
//     formatting it): none yet.
//   - KindLister (ActionKinds: every kind of action, for coverage):
//     bully, centralized, lamport, maekawa, maekawadf, ricartagrawala,
//     tokenring.
//
// The properties of package invariants add two: CriticalSection (InCS),
// implemented by every mutual-exclusion protocol and coordination's lock
// clients, and Elector (Leader, ID, Electing, ElectionMsg), by bully and
// ringelection. isis and sequencer implement no hook.
package model
