package live

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/mutex"
)

// RunConfig is a bounded live run: how long, on which links, with which
// faults and workload.
type RunConfig struct {
	Duration   time.Duration // how long the workload runs (required)
	Transport  Transport
	Faults     Faults
	Seed       uint64        // the fault injector's and the chaos loop's stream
	Hold       time.Duration // how long a node stays in its critical section
	TimerDelay time.Duration // see Options
	// Progress, when set, is called about every ProgressEvery (default
	// 200ms) while the run lasts.
	Progress      func(Progress)
	ProgressEvery time.Duration
}

// Progress is a run's state, for a progress line.
type Progress struct {
	Elapsed time.Duration
	Entries int   // critical sections entered, all nodes
	Sent    int64 // protocol messages sent
}

// Report is what a run did and the observer's verdicts.
type Report struct {
	Nodes     int
	Elapsed   time.Duration
	Entries   []int           // critical sections entered, per node
	Latencies []time.Duration // request to entry, sorted
	Sent      int64           // protocol messages sent
	Faults    FaultCounts
	Records   int
	// Verdicts are the observer's judgements: mutual exclusion for a
	// protocol with critical sections, then no-deadlock (Judged counts
	// the times it looked).
	Verdicts []Verdict
	// Waiting are the nodes still waiting (model.Waiter) when the run
	// ended, and since when their request had been pending (0 if they
	// never requested).
	Waiting []Pending
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

// Runner is a protocol ready to run live, its types hidden, for the
// registry and the command line.
type Runner interface {
	// Nodes is the number of nodes.
	Nodes() int
	// Run runs the cluster for cfg.Duration under the workload and faults
	// of cfg, then stops it and reports. Its error is for a run that could
	// not start (a transport that cannot listen) or a bad cfg.
	Run(cfg RunConfig) (*Report, error)
}

// NewRunner returns a Runner for p. Its workload, on every node, takes
// the inputs p enables as soon as they are, preferring the weakly fair
// ones (model.FairInputs: enter, exit), so that a mutual-exclusion
// protocol keeps requesting its critical section; a node in its critical
// section stays Hold before it leaves.
func NewRunner[S, M any](p model.Protocol[S, M]) Runner { return &runner[S, M]{p: p} }

type runner[S, M any] struct{ p model.Protocol[S, M] }

func (r *runner[S, M]) Nodes() int { return r.p.Nodes() }

func (r *runner[S, M]) Run(cfg RunConfig) (*Report, error) {
	if cfg.Duration <= 0 {
		return nil, errors.New("live: a run needs a positive duration")
	}
	if err := cfg.Faults.Check(r.p.Nodes()); err != nil {
		return nil, err
	}
	c, err := Start(r.p, Options{TimerDelay: cfg.TimerDelay, Transport: cfg.Transport, Faults: cfg.Faults, Seed: cfg.Seed})
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(cfg.Duration)
	var wg sync.WaitGroup
	for i := range r.p.Nodes() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.workload(model.NodeID(i), deadline, cfg.Hold)
		}()
	}
	chaosDone := make(chan struct{})
	go func() {
		defer close(chaosDone)
		if cfg.Faults.Crash > 0 {
			c.chaos(cfg.Faults, cfg.Duration, deadline)
		}
	}()
	dead := c.monitor(cfg, deadline, chaosDone)
	c.Stop()
	wg.Wait()
	<-chaosDone
	rep := c.report()
	rep.Verdicts = append(rep.Verdicts, dead)
	return rep, nil
}

// MonitorEvery is how often a run looks for a deadlock.
const MonitorEvery = 20 * time.Millisecond

// monitor calls cfg.Progress as asked and looks for a deadlock
// (Quiescent) until deadline, or until it finds one: then nothing can
// happen any more, and the run ends early. A node down with a restart to
// come is no deadlock, so it looks only once the chaos loop is done.
func (c *Cluster[S, M]) monitor(cfg RunConfig, deadline time.Time, chaosDone <-chan struct{}) Verdict {
	v := Verdict{Property: checker.DeadlockProperty, Holds: true}
	every := cfg.ProgressEvery
	if every <= 0 {
		every = 200 * time.Millisecond
	}
	next := time.Now().Add(every)
	tick := time.NewTicker(MonitorEvery)
	defer tick.Stop()
	for now := time.Now(); now.Before(deadline); now = <-tick.C {
		if cfg.Progress != nil && !now.Before(next) {
			cfg.Progress(c.progress())
			next = now.Add(every)
		}
		select {
		case <-chaosDone:
		default:
			continue
		}
		if c.deadlocked(&v) {
			return v
		}
	}
	<-chaosDone // done by the deadline
	c.deadlocked(&v)
	return v
}

// deadlocked looks for a deadlock once, and records it in v.
func (c *Cluster[S, M]) deadlocked(v *Verdict) bool {
	v.Judged++
	w, dead := c.Quiescent()
	if dead {
		v.Holds, v.Violations = false, 1
		v.First = fmt.Sprintf("at %s nothing is in flight, no timer is armed, no input is enabled, and %s",
			fmtAt(c.obs.Elapsed()), c.explain(w))
	}
	return dead
}

// explain says why the deadlocked world w is stuck, in the protocol's
// words when it has them (model.DeadlockExplainer), as the checker does.
func (c *Cluster[S, M]) explain(w *model.World[S, M]) string {
	if ex, ok := c.p.(model.DeadlockExplainer[S, M]); ok {
		return ex.ExplainDeadlock(w)
	}
	waiter := c.p.(model.Waiter[S])
	var ids []string
	for i := range w.Nodes {
		id := model.NodeID(i)
		if w.Down&(1<<i) == 0 && waiter.Waiting(id, w.Nodes[i]) {
			ids = append(ids, id.String())
		}
	}
	return strings.Join(ids, ", ") + " still wait"
}

// workload drives node id until deadline (see NewRunner).
func (c *Cluster[S, M]) workload(id model.NodeID, deadline time.Time, hold time.Duration) {
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
		// The input may have been disabled meanwhile (by a crash): then
		// wait a little, and look again.
		if errors.Is(c.Input(id, in, min(50*time.Millisecond, time.Until(deadline))), ErrStopped) {
			return
		}
	}
}

// inside reports whether node id is in its critical section.
func (c *Cluster[S, M]) inside(id model.NodeID) bool {
	n := c.nodes[id]
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.inCS
}

// chaos crashes f.Crash nodes at evenly spaced times of the run, each
// chosen from the stream among the live nodes allowed to crash, and
// restarts each, while f.Restart lasts, after a pause.
func (c *Cluster[S, M]) chaos(f Faults, d time.Duration, deadline time.Time) {
	start := deadline.Add(-d)
	gap := d / time.Duration(f.Crash+1)
	restarts := f.Restart
	for k := range f.Crash {
		if !c.sleepUntil(start.Add(gap*time.Duration(k+1)), deadline) {
			return
		}
		var up []model.NodeID
		for i, n := range c.nodes {
			id := model.NodeID(i)
			n.mu.Lock()
			if !n.down && (f.CrashNodes == 0 || f.CrashNodes&(1<<i) != 0) {
				up = append(up, id)
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
		if !c.sleepUntil(time.Now().Add(min(gap/2, 500*time.Millisecond)), deadline) {
			return
		}
		restarts--
		c.Restart(id)
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
	return Progress{Elapsed: c.obs.Elapsed(), Entries: total, Sent: c.Sent()}
}

// report gathers what the stopped cluster did and judges it.
func (c *Cluster[S, M]) report() *Report {
	r := &Report{
		Nodes:   len(c.nodes),
		Elapsed: c.obs.Elapsed(),
		Entries: c.obs.Entries(),
		Sent:    c.Sent(),
		Faults:  c.Faults(),
		Records: len(c.obs.Records()),
	}
	if c.inCS != nil {
		r.Latencies = c.obs.Latencies(mutex.Request)
		r.Verdicts = append(r.Verdicts, c.obs.MutualExclusion())
	}
	if w, ok := c.p.(model.Waiter[S]); ok {
		since := c.obs.pending(mutex.Request)
		for i := range c.nodes {
			id := model.NodeID(i)
			if w.Waiting(id, c.State(id)) {
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
	return fmt.Sprintf("dropped %d, duplicated %d, delayed %d, lost at down nodes %d, crashes %d, restarts %d",
		f.Dropped, f.Duplicated, f.Delayed, f.Lost, f.Crashes, f.Restarts)
}
