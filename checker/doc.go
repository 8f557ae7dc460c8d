// Package checker explores the global state space of a model.System and
// checks properties on it.
//
// One engine serves every search order: it pops an encoded state from a
// frontier, decodes it, checks the invariants, enumerates the enabled
// actions (a state with none, in which some node waits, is a deadlock),
// and pushes every successor not seen before. BFS uses a queue, which
// makes the first counterexample a shortest one; DFS uses a stack. A
// plain BFS (no liveness check, checkpoint or bound on the states) runs
// in ordered batches on any number of workers (ordered.go): the workers
// take runs of the queue in order, expand them side by side, and look
// their successors up in the visited set one batch after another, in
// order, as the one-worker search does; the other BFS on several cores
// run level by level (levels.go). Both use the same expander and
// reproduce the one-worker search exactly: the same counts, parents and
// counterexamples. Random and swarm walks (walk.go) share the actions,
// properties and replayer, and run side by side in walk order.
//
// Liveness is checked under weak fairness. While every step shows the
// state graph acyclic (a protocol's variant falls, or BFS goes a level
// deeper), only terminal states can starve and no graph is kept;
// otherwise the graph is kept and searched for fair cycles (liveness.go).
//
// Visited states are kept as 64-bit fingerprints (DFS and the state-graph
// search also keep their parent's; BFS finds a counterexample's path by
// searching again, trace.go), and a counterexample is rebuilt by
// replaying actions from the initial state. The frontier keeps states as
// packed canonical bytes, in memory or, once it outgrows its share of a
// memory bound, in files read back in order (spill.go). Since a state lives only as its encoding, a codec that drops or misplaces
// a field would silently check another protocol: before searching, Check
// runs a self-check of the codec on the first states (selfcheck.go) and
// refuses to search, naming the field at fault, when it fails.
//
// Verdicts are three: Pass (every property holds in the whole reachable
// space), Violated (with a counterexample), and Inconclusive (a bound on
// states, depth, memory or time was reached first). A bound reached is
// never a pass.
package checker
