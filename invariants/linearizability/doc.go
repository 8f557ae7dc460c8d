// Package linearizability checks client histories against sequential
// specifications with porcupine (github.com/anishathalye/porcupine).
//
// A history is a set of operations, each with the client that issued it,
// its call and return times, its input and its output. It is linearizable
// when every operation can be given a single instant between its call and
// its return such that, taken in the order of those instants, the
// operations are a legal run of the sequential specification.
//
// The package has three layers:
//
//   - [Model] and [Operation], typed views of porcupine's Model and
//     Operation, and [Check], which returns a three-valued [Verdict]:
//     [Linearizable], [NotLinearizable] or [Unknown] (the check timed out;
//     never a pass), with porcupine's HTML visualization of the result.
//   - The specifications of Jepsen's register workloads: [Register],
//     [CASRegister] and [KV], over [Value], [Input] and [Output].
//   - [ParseJepsen], a strict reader of Jepsen histories (one EDN map per
//     line, or Jepsen's log lines), which pairs invocations with their
//     completions the way Jepsen and Knossos do: a :fail operation did not
//     happen and is dropped; an :info operation may or may not have taken
//     effect, so it stays pending until the end of the history and its
//     output is unknown.
package linearizability
