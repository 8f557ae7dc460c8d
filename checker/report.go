package checker

import (
	"time"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/property"
)

// Verdict is the outcome of a check (property.Verdict).
type Verdict = property.Verdict

// The three verdicts (see package property).
const (
	// Pass: every property holds in the whole reachable state space.
	Pass = property.Pass
	// Violated: a property fails; the report carries a counterexample.
	Violated = property.Violated
	// Inconclusive: a bound was reached before the space was exhausted.
	Inconclusive = property.Inconclusive
)

// Report is the result of a check.
type Report struct {
	Verdict Verdict `json:"verdict"`
	// Bound names the bound that stopped the search early ("max-states
	// 1000000"), or is empty.
	Bound string `json:"bound,omitempty"`
	// States is the number of distinct states reached; Transitions the
	// number of actions taken (edges explored); Depth the largest depth.
	States      uint64 `json:"states"`
	Transitions uint64 `json:"transitions"`
	// Slept counts the transitions sleep sets left out (Options.Sleep):
	// each into a state the search had generated already.
	Slept   uint64        `json:"slept,omitempty"`
	Depth   int           `json:"depth"`
	Elapsed time.Duration `json:"elapsed_ns"`
	// StatesPerSecond is States divided by Elapsed.
	StatesPerSecond float64 `json:"states_per_second"`
	// TableBytes is the memory of the visited set; FrontierBytes the peak
	// memory of the states waiting to be expanded.
	TableBytes    uint64 `json:"table_bytes"`
	FrontierBytes uint64 `json:"frontier_bytes"`
	// PeakBytes is the most memory the search held at once by its own
	// account (see Options.MaxMemory), as seen when it checked its bounds.
	PeakBytes uint64 `json:"peak_bytes"`
	// SpilledBytes is what the search wrote of its frontier to disk
	// (Options.Spill), over the whole search: the states waiting to be
	// expanded. Parallel BFS also spills its workers' buffers of new
	// states, not counted here: their size depends on how the workers
	// shared the levels out, and the report does not.
	SpilledBytes uint64 `json:"spilled_bytes,omitempty"`
	// Properties lists the properties checked.
	Properties []string `json:"properties"`
	// ViolationCounts counts violating states per property, in the order of
	// Properties; with Options.Exhaust every one is counted.
	ViolationCounts []PropertyCount `json:"violation_counts,omitempty"`
	// Counterexample is the first violation found (a shortest one for BFS).
	Counterexample *Trace `json:"counterexample,omitempty"`
	// Liveness says how the liveness properties were checked: "acyclic"
	// when the state graph has no cycle, so that only terminal states can
	// leave a node pending and the graph was not kept; "graph" when the
	// graph was kept and searched for fair cycles; empty when liveness was
	// not checked.
	Liveness string `json:"liveness,omitempty"`
	// Error, when set, says why no search was made: the protocol's codec
	// failed the self-check Check runs first (see CodecError), or the
	// options cannot apply (Options.Symmetry). The verdict is then
	// Inconclusive.
	Error string `json:"error,omitempty"`
	// Symmetry is the number of interchangeable nodes whose renamings the
	// search identified (Options.Symmetry); 0 when it did not reduce.
	Symmetry int `json:"symmetry,omitempty"`
	// POR says that the search expanded persistent sets (Options.POR).
	POR bool `json:"por,omitempty"`

	// Coverage counts the actions taken by kind, in a fixed order (see
	// coverage.go for what a count means); NeverFired lists the kinds the
	// configuration asks for (faults, application messages) that never
	// fired; Premises says whether each property's premise held in some
	// explored state; Warnings says, one line each, why a pass may be
	// vacuous (a fault never fired, a premise never held).
	Coverage   []KindCount   `json:"coverage"`
	NeverFired []string      `json:"never_fired"`
	Premises   []PremiseSeen `json:"premises,omitempty"`
	Warnings   []string      `json:"warnings,omitempty"`

	// Random and swarm search: the seed, the walks run, the steps per
	// second, the index of the walk that failed (-1 when none) and the
	// length of its trace before shrinking.
	Seed           uint64  `json:"seed,omitempty"`
	Walks          uint64  `json:"walks,omitempty"`
	StepsPerSecond float64 `json:"steps_per_second,omitempty"`
	FailingWalk    *int    `json:"failing_walk,omitempty"`
	// Levels, when recorded (RecordLevels), counts a BFS's states level
	// by level.
	Levels []LevelCount `json:"levels,omitempty"`
	// FailingWalkLengths is how long the failing walks of a random or
	// swarm search were, before shrinking: how many walks failed after
	// each number of steps, shortest first.
	FailingWalkLengths []LengthCount `json:"failing_walk_lengths,omitempty"`
	ShrunkFrom         int           `json:"shrunk_from,omitempty"`
	// Shard says which shard of a run the report covers (Options.Shard),
	// and Failures lists that shard's failing walks, for MergeShards.
	Shard    *ShardInfo    `json:"shard,omitempty"`
	Failures []WalkFailure `json:"failures,omitempty"`
}

// PropertyCount is the number of violating states of one property.
type PropertyCount struct {
	Property string `json:"property"`
	States   uint64 `json:"states"`
}

// BytesPerState is the memory the search held per distinct state.
func (r *Report) BytesPerState() float64 {
	if r.States == 0 {
		return 0
	}
	return float64(r.TableBytes+r.FrontierBytes) / float64(r.States)
}

// Trace is a counterexample: the actions from the initial world to a world
// that violates Property.
type Trace struct {
	Property string `json:"property"`
	// Detail says how the final world violates the property.
	Detail string `json:"detail"`
	Steps  []Step `json:"steps"`
	// Loop, for a liveness violation, is the index of the first step of
	// the cycle: Steps[*Loop:] repeat forever. Nil for a finite trace.
	Loop *int `json:"loop,omitempty"`
	// Final is the violating world, one line per node and per link.
	Final []string `json:"final"`
	// History is the final world's history of outputs (model.Config.History).
	History []model.Record `json:"history,omitempty"`
}

// Step is one action of a trace with what it did.
type Step struct {
	// Action is the action's line, as in counterexample files.
	Action string `json:"action"`
	// Node is the node that acted, and State its state afterwards.
	Node  string `json:"node"`
	State string `json:"state"`
	// Sends lists the messages the action sent ("p0->p1 REQ(ts=1)").
	Sends []string `json:"sends,omitempty"`
	// Outputs lists the outcomes the action recorded (model.Out.Output:
	// "deliver p0#1"), so that a chart shows them where they happen.
	Outputs []string `json:"outputs,omitempty"`
}
