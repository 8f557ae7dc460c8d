package live

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
)

// RecordKind says what a Record saw.
type RecordKind uint8

// The things an observer records.
const (
	RecInput   RecordKind = iota // the node took input Text
	RecEnter                     // the node's step put it in its critical section (InCS)
	RecExit                      // the node left its critical section (Text "crash" if by crashing)
	RecOutput                    // the node's step output Text (model.Out.Output)
	RecCrash                     // the node crashed
	RecRestart                   // the node restarted
)

var recordWords = [...]string{"input", "enter", "exit", "output", "crash", "restart"}

// String is the kind's word.
func (k RecordKind) String() string { return recordWords[k] }

// Record is one thing a node did, at a time on the observer's clock.
type Record struct {
	At   time.Duration // since the observer started, on its monotonic clock
	Node model.NodeID
	Kind RecordKind
	Text string
	// Step is the number of steps of the run's trace (Cluster.Trace)
	// taken when it was recorded: the step that did it is the last of
	// them.
	Step int
}

// Observer records what the nodes of a cluster did, on one monotonic
// clock read under one lock, so that its records are in real-time order:
// a node's step is recorded (under the node's lock) before the messages it
// sends leave, so what a message enables is recorded after what sent it.
type Observer struct {
	mu      sync.Mutex
	start   time.Time
	stopped time.Duration // when the record ended (0 while running)
	// ended is set with stopped, for the counts kept outside the lock
	// (Cluster.Sent): what happens after the record ended is not counted.
	ended   atomic.Bool
	recs    []Record
	entries []int // critical sections entered, per node
	nout    int   // outputs recorded
}

func newObserver(n int) *Observer {
	return &Observer{start: time.Now(), entries: make([]int, n)}
}

func (o *Observer) record(r Record) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.stopped > 0 {
		return
	}
	r.At = time.Since(o.start)
	o.recs = append(o.recs, r)
	switch r.Kind {
	case RecEnter:
		o.entries[r.Node]++
	case RecOutput:
		o.nout++
	}
}

func (o *Observer) end() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.stopped == 0 {
		o.stopped = time.Since(o.start)
		o.ended.Store(true)
	}
}

// Elapsed is the time the observer has been recording.
func (o *Observer) Elapsed() time.Duration {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.stopped > 0 {
		return o.stopped
	}
	return time.Since(o.start)
}

// Records returns a copy of the record so far.
func (o *Observer) Records() []Record {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.recs)
}

// Entries returns the critical sections each node has entered so far.
func (o *Observer) Entries() []int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.entries)
}

// Interval is one stay of a node in its critical section; Open when the
// record ended with the node still inside (Exit is then the end).
type Interval struct {
	Node        model.NodeID
	Enter, Exit time.Duration
	Open        bool
	// EnterStep is the number of steps of the run when it began.
	EnterStep int
}

// Intervals returns the critical-section intervals of the record, by
// entry time.
func (o *Observer) Intervals() []Interval {
	recs := o.Records()
	end := o.Elapsed()
	inside := map[model.NodeID]int{} // node -> index of its open interval
	var ivs []Interval
	for _, r := range recs {
		switch r.Kind {
		case RecEnter:
			inside[r.Node] = len(ivs)
			ivs = append(ivs, Interval{Node: r.Node, Enter: r.At, Open: true, EnterStep: r.Step})
		case RecExit:
			if k, ok := inside[r.Node]; ok {
				ivs[k].Exit, ivs[k].Open = r.At, false
				delete(inside, r.Node)
			}
		}
	}
	for _, k := range inside {
		ivs[k].Exit = end
	}
	return ivs
}

// Latencies returns, for every critical section entered, the time from
// the node's request input to its entry, sorted.
func (o *Observer) Latencies(request model.Input) []time.Duration {
	asked := map[model.NodeID]time.Duration{}
	var lat []time.Duration
	for _, r := range o.Records() {
		switch {
		case r.Kind == RecInput && r.Text == string(request):
			asked[r.Node] = r.At
		case r.Kind == RecEnter:
			if t, ok := asked[r.Node]; ok {
				lat = append(lat, r.At-t)
				delete(asked, r.Node)
			}
		case r.Kind == RecCrash:
			delete(asked, r.Node)
		}
	}
	slices.Sort(lat)
	return lat
}

// pending returns, for every node whose last request has not been
// followed by an entry, the time of that request.
func (o *Observer) pending(request model.Input) map[model.NodeID]time.Duration {
	asked := map[model.NodeID]time.Duration{}
	for _, r := range o.Records() {
		switch {
		case r.Kind == RecInput && r.Text == string(request):
			asked[r.Node] = r.At
		case r.Kind == RecEnter || r.Kind == RecCrash:
			delete(asked, r.Node)
		}
	}
	return asked
}

// Verdict is the judgement of one property on an observed run.
type Verdict struct {
	Property string
	Holds    bool
	// Judged is how many things the property was judged on (critical
	// sections); a verdict on nothing is no verdict.
	Judged int
	// Violations counts the violations, First describes the first.
	Violations int
	First      string
	// Step is the number of steps of the run's trace after which the
	// first violation was seen (0: not known).
	Step int
	// Of says what Judged counts ("observed critical sections",
	// "snapshots"); Skipped, when set, says why nothing was judged.
	Of, Skipped string
	// Optional marks a verdict whose absence is no defect of the run (a
	// liveness property of a run that never settles: a finite run cannot
	// show it broken).
	Optional bool
}

// MutualExclusion judges the record by the checker's mutual-exclusion
// property (invariants.MutualExclusion: at most one live node is in its
// critical section) on the observed intervals: no two overlap in real
// time. A node leaves by exiting or by crashing.
func (o *Observer) MutualExclusion() Verdict {
	ivs := o.Intervals()
	v := Verdict{Property: invariants.MutualExclusionName, Holds: true, Judged: len(ivs), Of: "observed critical sections"}
	var last Interval // the interval that ends last among those begun
	for i, iv := range ivs {
		if i > 0 && iv.Enter < last.Exit {
			v.Holds = false
			v.Violations++
			if v.First == "" {
				v.Step = iv.EnterStep
				v.First = fmt.Sprintf("%s entered at %s while %s was inside (%s to %s)",
					iv.Node, fmtAt(iv.Enter), last.Node, fmtAt(last.Enter), fmtAt(last.Exit))
			}
		}
		if i == 0 || iv.Exit > last.Exit {
			last = iv
		}
	}
	return v
}

func fmtAt(d time.Duration) string { return fmt.Sprintf("%.6fs", d.Seconds()) }

// outputs counts the outputs recorded so far.
func (o *Observer) outputs() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.nout
}
