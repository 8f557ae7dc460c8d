package live

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

// RunConfig is a bounded live run: how long, on which links, with which
// faults and workload.
type RunConfig struct {
	Duration  time.Duration // how long the workload runs at most (required)
	Transport Transport
	Faults    Faults
	Seed      uint64        // the fault injector's and the chaos loop's stream
	Hold      time.Duration // how long a node stays in its critical section
	// Think bounds the pause, drawn from the seeded stream, a node takes
	// before each input it gives (clients that do not all hurry at once).
	Think      time.Duration
	TimerDelay time.Duration // see Options
	// MaxTrace bounds the steps kept as the checker's action lines
	// (Report.Trace); 0: DefaultMaxTrace.
	MaxTrace int
	// Node starts a node's process for Transport Proc.
	Node NodeCommand
	// RestartWithin bounds the pause, drawn from the seeded stream, after
	// which a crashed node restarts and a partition heals (default half
	// the time between two chaos events, at most 500ms).
	RestartWithin time.Duration
	// Progress, when set, is called about every ProgressEvery (default
	// 200ms) while the run lasts.
	Progress      func(Progress)
	ProgressEvery time.Duration
}

// DefaultMaxTrace is the number of steps a run keeps as action lines
// unless told otherwise.
const DefaultMaxTrace = 200_000

// Progress is a run's state, for a progress line.
type Progress struct {
	Elapsed time.Duration
	Entries int   // critical sections entered, all nodes
	Sent    int64 // protocol messages sent
	Steps   int   // steps taken, all nodes
	Outputs int   // outputs recorded (deliveries, operations, ...)
}

// Report is what a run did and the observer's verdicts.
type Report struct {
	Nodes   int
	Elapsed time.Duration
	// Settled is set when the run ended because nothing could happen any
	// more (the checker's end of a run), at SettledAt.
	Settled   bool
	SettledAt time.Duration
	Entries   []int           // critical sections entered, per node
	Latencies []time.Duration // request to entry, sorted
	Sent      int64           // protocol messages sent
	Steps     int             // steps taken
	Faults    FaultCounts
	Records   int
	// Work is what the nodes did, by what the observer saw.
	Work Work
	// Verdicts are the observer's judgements: mutual exclusion on the
	// observed intervals for a protocol with critical sections, the
	// spec's invariants on snapshots of the run and, once it settled, its
	// end-of-run properties and liveness; then no-deadlock.
	Verdicts []Verdict
	// Waiting are the nodes still waiting (model.Waiter) when the run
	// ended, and since when their request had been pending (0 if they
	// never requested).
	Waiting []Pending
	// Outputs are the nodes' outputs in the order observed (a client
	// history, deliveries), with their times.
	Outputs []Record
	// Trace is the run's steps as the checker's action lines, whole
	// unless TraceCut.
	Trace    []string
	TraceCut bool
	// Rejoins are the restarts, each with the steps the node took after
	// it (within the trace kept).
	Rejoins []Rejoin
	// Processes counts, with Transport Proc, the node processes started
	// and those killed by a crash.
	Processes struct{ Started, Killed int }
}

// Rejoin is a node's restart and what it did after.
type Rejoin struct {
	Node       model.NodeID
	Crashed    time.Duration // when it crashed, last before
	At         time.Duration
	StepsAfter int
}

// Pending is a node still waiting when a run ended.
type Pending struct {
	Node  model.NodeID
	Since time.Duration // on the observer's clock
}

// TotalEntries sums Entries.
func (r *Report) TotalEntries() int {
	t := 0
	for _, e := range r.Entries {
		t += e
	}
	return t
}

// Violated returns the first violated verdict, or nil.
func (r *Report) Violated() *Verdict {
	for i := range r.Verdicts {
		if !r.Verdicts[i].Holds {
			return &r.Verdicts[i]
		}
	}
	return nil
}

// Runner is a protocol ready to run live, its types hidden, for the
// registry and the command line.
type Runner interface {
	// Nodes is the number of nodes.
	Nodes() int
	// Run runs the cluster for cfg.Duration under the workload and faults
	// of cfg, then stops it and reports. Its error is for a run that could
	// not start (a transport that cannot listen) or a bad cfg.
	Run(cfg RunConfig) (*Report, error)
	// ServeNode is a node process's side of Transport Proc (NodeProcess).
	ServeNode(args NodeArgs) error
}

// NewRunner returns a Runner for p, judged by mutual exclusion on the
// observed intervals (if p has critical sections) and no-deadlock. Its
// workload, on every node, takes the inputs p enables as soon as they
// are, preferring the weakly fair ones (model.FairInputs: enter, exit),
// so that a mutual-exclusion protocol keeps requesting its critical
// section; a node in its critical section stays Hold before it leaves.
func NewRunner[S, M any](p model.Protocol[S, M]) Runner { return &runner[S, M]{p: p} }

// NewSpecRunner returns a Runner for the system and properties of sp, as
// the checker checks them: the spec's invariants on snapshots of the run
// (each a world of the model: Snapshot), those of the end of a run
// (Terminal) and its liveness once the run has settled, no-deadlock if the
// spec checks it, and mutual exclusion on the observed intervals besides.
// Its workload is NewRunner's. Timers are perfect if the spec's are.
func NewSpecRunner[S, M any](sp *checker.Spec[S, M]) Runner {
	return &runner[S, M]{p: sp.System.P, sp: sp}
}

type runner[S, M any] struct {
	p  model.Protocol[S, M]
	sp *checker.Spec[S, M]
}

func (r *runner[S, M]) Nodes() int { return r.p.Nodes() }

func (r *runner[S, M]) Run(cfg RunConfig) (*Report, error) {
	if cfg.Duration <= 0 {
		return nil, errors.New("live: a run needs a positive duration")
	}
	if err := cfg.Faults.Check(r.p.Nodes()); err != nil {
		return nil, err
	}
	if cfg.MaxTrace == 0 {
		cfg.MaxTrace = DefaultMaxTrace
	}
	opts := Options{TimerDelay: cfg.TimerDelay, Transport: cfg.Transport, Faults: cfg.Faults, Seed: cfg.Seed,
		MaxTrace: cfg.MaxTrace, Node: cfg.Node}
	if r.sp != nil {
		opts.PerfectTimers = r.sp.System.Config.Timers == model.TimersPerfect
	}
	c, err := Start(r.p, opts)
	if err != nil {
		return nil, err
	}
	j := newJudge(c, r.sp)
	c.onStep = j.onStep
	deadline := time.Now().Add(cfg.Duration)
	var wg sync.WaitGroup
	for i := range r.p.Nodes() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.workload(model.NodeID(i), deadline, cfg.Hold, cfg.Think)
		}()
	}
	chaosDone := make(chan struct{})
	go func() {
		defer close(chaosDone)
		c.chaos(cfg.Faults, cfg.Duration, deadline, cfg.RestartWithin)
	}()
	settled := j.monitor(cfg, deadline, chaosDone)
	c.Stop()
	wg.Wait()
	<-chaosDone
	rep := c.report(r.judgesIntervals())
	rep.Settled = settled
	if settled {
		rep.SettledAt = j.settledAt
	}
	rep.Work = j.work(rep.Outputs)
	rep.Verdicts = j.verdicts(rep.Verdicts)
	rep.Trace, rep.TraceCut = c.trace, c.traceCut
	crashed := map[model.NodeID]time.Duration{}
	for _, rec := range c.obs.Records() {
		switch rec.Kind {
		case RecCrash:
			crashed[rec.Node] = rec.At
		case RecRestart:
			rep.Rejoins = append(rep.Rejoins, Rejoin{Node: rec.Node, Crashed: crashed[rec.Node], At: rec.At,
				StepsAfter: stepsOf(rep.Trace, rec.Step, rec.Node)})
		}
	}
	if c.procs != nil {
		rep.Processes.Started, rep.Processes.Killed = c.procs.counts()
	}
	return rep, nil
}

// stepsOf counts the steps of node id in trace after its first k.
func stepsOf(trace []string, k int, id model.NodeID) int {
	n := 0
	for _, l := range trace[min(k, len(trace)):] {
		word, rest, _ := strings.Cut(l, " ")
		actor, _, _ := strings.Cut(rest, " ")
		if word == "deliver" {
			_, actor, _ = strings.Cut(actor, "->")
		}
		if (word == "deliver" || word == "fire" || word == "input") && actor == id.String() {
			n++
		}
	}
	return n
}

// MonitorEvery is how often a run judges a snapshot and looks for its
// end.
const MonitorEvery = 20 * time.Millisecond

// workload drives node id until deadline (see NewRunner).
func (c *Cluster[S, M]) workload(id model.NodeID, deadline time.Time, hold, think time.Duration) {
	fair, _ := c.p.(model.FairInputs)
	n := c.nodes[id]
	for time.Now().Before(deadline) {
		var in model.Input
		var inside bool
		err := c.await(n, deadline, func() bool {
			if n.down {
				return false
			}
			ins := c.p.Inputs(id, n.state, nil)
			if len(ins) == 0 {
				return false
			}
			in, inside = ins[0], n.inCS
			if fair != nil {
				if k := slices.IndexFunc(ins, func(x model.Input) bool { return fair.FairInput(id, x) }); k >= 0 {
					in = ins[k]
				}
			}
			return true
		})
		if err != nil {
			return
		}
		if hold > 0 && inside {
			time.Sleep(min(hold, time.Until(deadline)))
		}
		if think > 0 {
			time.Sleep(min(time.Duration(c.inj.intn(int(think)+1)), time.Until(deadline)))
		}
		// The input may have been disabled meanwhile (by a crash): then
		// wait a little, and look again.
		if errors.Is(c.Input(id, in, min(50*time.Millisecond, time.Until(deadline))), ErrStopped) {
			return
		}
	}
}

// chaos crashes f.Crash nodes and splits the network f.Partition times,
// at evenly spaced times of the run: each crash strikes a live node the
// stream chooses among those allowed to crash, restarted (while
// f.Restart lasts) after a pause the stream draws up to within (default
// half the gap, at most 500ms); each partition puts p0 and a random part
// of the others apart from the rest, and heals after such a pause.
func (c *Cluster[S, M]) chaos(f Faults, d time.Duration, deadline time.Time, within time.Duration) {
	events := f.Crash + f.Partition
	if events == 0 {
		return
	}
	start := deadline.Add(-d)
	gap := d / time.Duration(events+1)
	if within <= 0 {
		within = min(gap/2, 500*time.Millisecond)
	}
	pause := func() time.Duration { return time.Duration(c.inj.intn(int(within) + 1)) }
	restarts, crashes, parts := f.Restart, f.Crash, f.Partition
	for k := range events {
		if !c.sleepUntil(start.Add(gap*time.Duration(k+1)), deadline) {
			return
		}
		// Crashes and partitions take turns while both last.
		if parts > 0 && (crashes == 0 || k%2 == 1) {
			parts--
			n := len(c.nodes)
			if n < 2 {
				continue
			}
			// p0 and any part of the others but all of them.
			group := 1 | uint64(c.inj.intn(1<<(n-1)-1))<<1
			c.Partition(group)
			if !c.sleepUntil(time.Now().Add(pause()), deadline) {
				c.Heal()
				return
			}
			c.Heal()
			continue
		}
		crashes--
		var up []model.NodeID
		for i, n := range c.nodes {
			n.mu.Lock()
			if !n.down && (f.CrashNodes == 0 || f.CrashNodes&(1<<i) != 0) {
				up = append(up, model.NodeID(i))
			}
			n.mu.Unlock()
		}
		if len(up) == 0 {
			continue
		}
		id := up[c.inj.intn(len(up))]
		c.Crash(id)
		if restarts == 0 {
			continue
		}
		// A budgeted restart is made, at the deadline at the latest,
		// unless the cluster stops.
		at := time.Now().Add(pause())
		if last := deadline.Add(-time.Millisecond); at.After(last) {
			at = last
		}
		if !c.sleepUntil(at, deadline) && c.stopped() {
			return
		}
		restarts--
		_ = c.Restart(id) // a process that cannot start stays down, and the report says so
	}
}

// stopped reports whether the cluster has stopped.
func (c *Cluster[S, M]) stopped() bool {
	select {
	case <-c.stop:
		return true
	default:
		return false
	}
}

// sleepUntil sleeps until t; it returns false, early, if t is past the
// deadline or the cluster stops.
func (c *Cluster[S, M]) sleepUntil(t, deadline time.Time) bool {
	if !t.Before(deadline) {
		return false
	}
	timer := time.NewTimer(time.Until(t))
	defer timer.Stop()
	select {
	case <-c.stop:
		return false
	case <-timer.C:
		return true
	}
}

func (c *Cluster[S, M]) progress() Progress {
	total := 0
	for _, e := range c.obs.Entries() {
		total += e
	}
	return Progress{Elapsed: c.obs.Elapsed(), Entries: total, Sent: c.Sent(), Steps: c.Steps(), Outputs: c.obs.outputs()}
}

// judgesIntervals reports whether the run is judged by mutual exclusion
// on the observed critical sections: a protocol with critical sections
// whose spec (if it has one) checks mutual exclusion.
func (r *runner[S, M]) judgesIntervals() bool {
	if _, ok := r.p.(interface{ InCS(model.NodeID, S) bool }); !ok {
		return false
	}
	if r.sp == nil {
		return true
	}
	return slices.Contains(r.sp.PropertyNames(), invariants.MutualExclusionName)
}

// report gathers what the stopped cluster did.
func (c *Cluster[S, M]) report(intervals bool) *Report {
	recs := c.obs.Records()
	r := &Report{
		Nodes:   len(c.nodes),
		Elapsed: c.obs.Elapsed(),
		Entries: c.obs.Entries(),
		Sent:    c.Sent(),
		Steps:   c.Steps(),
		Faults:  c.Faults(),
		Records: len(recs),
	}
	for _, rec := range recs {
		if rec.Kind == RecOutput {
			r.Outputs = append(r.Outputs, rec)
		}
	}
	if c.inCS != nil {
		r.Latencies = c.obs.Latencies(mutex.Request)
	}
	if intervals {
		r.Verdicts = append(r.Verdicts, c.obs.MutualExclusion())
	}
	if w, ok := c.p.(model.Waiter[S]); ok {
		since := c.obs.pending(mutex.Request)
		for i := range c.nodes {
			id := model.NodeID(i)
			if !c.nodes[i].down && w.Waiting(id, c.State(id)) {
				r.Waiting = append(r.Waiting, Pending{Node: id, Since: since[id]})
			}
		}
	}
	return r
}

// Percentile returns the p-th percentile (0 to 100) of sorted durations,
// 0 for none.
func Percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	k := int(p / 100 * float64(len(sorted)-1))
	return sorted[k]
}

// String is a one-line summary of the faults that struck.
func (f FaultCounts) String() string {
	var parts []string
	add := func(k int64, what string) {
		if k > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", what, k))
		}
	}
	add(f.Dropped, "dropped")
	add(f.Duplicated, "duplicated")
	add(f.Delayed, "delayed")
	add(f.Crashes, "crashes")
	add(f.Restarts, "restarts")
	add(f.Partitions, "partitions")
	add(f.Cut, "sent across a cut")
	add(f.Lost, "lost to crashes and cuts")
	if len(parts) == 0 {
		return "none struck"
	}
	return strings.Join(parts, ", ")
}
