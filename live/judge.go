package live

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
)

// judge holds the verdicts of one run as they are reached: the spec's
// invariants on every snapshot, and at the end of a settled run its
// end-of-run invariants, its liveness and no-deadlock.
type judge[S, M any] struct {
	c      *Cluster[S, M]
	sp     *checker.Spec[S, M] // nil: no-deadlock only
	byNode bool
	invs   []Verdict // per sp.Invariants; Property "" when not judged here
	lives  []Verdict // per sp.Liveness
	dead   *Verdict
	snaps  int

	settledAt time.Duration

	// elections, for an election protocol: a span during which some live
	// node is electing (invariants.Elector).
	emu       sync.Mutex
	electing  func(model.NodeID, S) bool
	inElect   uint64
	elections []time.Duration // each election's length; the last may be open
	began     time.Duration
}

func newJudge[S, M any](c *Cluster[S, M], sp *checker.Spec[S, M]) *judge[S, M] {
	j := &judge[S, M]{c: c, sp: sp}
	if e, ok := c.p.(interface{ Electing(model.NodeID, S) bool }); ok {
		j.electing = e.Electing
	}
	_, waits := c.p.(model.Waiter[S])
	if sp == nil {
		if waits {
			j.dead = &Verdict{Property: checker.DeadlockProperty, Holds: true, Of: "looks"}
		}
		return j
	}
	j.byNode = sp.System.Config.HistoryByNode
	for _, inv := range sp.Invariants {
		v := Verdict{Property: inv.Name, Holds: true, Of: "snapshots"}
		if inv.Terminal {
			v.Of = "ends of runs"
		}
		if inv.Name == invariants.MutualExclusionName && c.inCS != nil {
			v.Property = "" // judged on the observed intervals, a finer grain
		}
		j.invs = append(j.invs, v)
	}
	for _, l := range sp.Liveness {
		j.lives = append(j.lives, Verdict{Property: l.Name, Holds: true, Of: "ends of runs"})
	}
	if sp.Deadlock && waits {
		j.dead = &Verdict{Property: checker.DeadlockProperty, Holds: true, Of: "looks"}
	}
	return j
}

// onStep counts elections (n.mu held).
func (j *judge[S, M]) onStep(id model.NodeID, s S) {
	if j.electing == nil {
		return
	}
	j.emu.Lock()
	defer j.emu.Unlock()
	before := j.inElect != 0
	if j.electing(id, s) {
		j.inElect |= 1 << id
	} else {
		j.inElect &^= 1 << id
	}
	now := j.c.obs.Elapsed()
	switch after := j.inElect != 0; {
	case !before && after:
		j.began = now
		j.elections = append(j.elections, 0)
	case before && !after:
		j.elections[len(j.elections)-1] = now - j.began
	}
}

// monitor calls cfg.Progress as asked and judges a snapshot of the run
// every MonitorEvery until deadline; once the chaos loop is done it also
// looks for the end of the run (nothing can happen any more), judges it
// and ends the run early. It reports whether the run settled.
func (j *judge[S, M]) monitor(cfg RunConfig, deadline time.Time, chaosDone <-chan struct{}) bool {
	every := cfg.ProgressEvery
	if every <= 0 {
		every = 200 * time.Millisecond
	}
	next := time.Now().Add(every)
	tick := time.NewTicker(MonitorEvery)
	defer tick.Stop()
	for now := time.Now(); now.Before(deadline); now = <-tick.C {
		if cfg.Progress != nil && !now.Before(next) {
			cfg.Progress(j.c.progress())
			next = now.Add(every)
		}
		done := false
		select {
		case <-chaosDone:
			done = true
		default:
		}
		if j.look(done) {
			return true
		}
	}
	<-chaosDone // done by the deadline
	return j.look(true)
}

// look judges the cluster's world now; when last, it also judges the end
// of the run if the world is quiet, and reports so.
func (j *judge[S, M]) look(last bool) bool {
	var w *model.World[S, M]
	var quiet bool
	var steps int
	j.c.withAll(func() {
		w = j.c.world(j.byNode)
		quiet = j.c.quiet(w)
		steps = j.c.Steps()
	})
	j.snaps++
	j.judgeWorld(w, steps, false)
	if !last {
		return false
	}
	if j.dead != nil {
		j.dead.Judged++
	}
	if !quiet {
		return false
	}
	j.settledAt = j.c.obs.Elapsed()
	j.judgeWorld(w, steps, true)
	var lives []checker.Liveness[S, M]
	if j.sp != nil {
		lives = j.sp.Liveness
	}
	for i, l := range lives {
		v := &j.lives[i]
		v.Judged++
		for k := range w.Nodes {
			id := model.NodeID(k)
			if !w.IsDown(id) && l.Pending(w, id) {
				j.fail(v, steps, fmt.Sprintf("at the end of the run (nothing can happen any more) %s still waits for it", id))
				break
			}
		}
	}
	if j.dead != nil {
		if waiter, ok := j.c.p.(model.Waiter[S]); ok {
			var ids []string
			for k := range w.Nodes {
				id := model.NodeID(k)
				if !w.IsDown(id) && waiter.Waiting(id, w.Nodes[k]) {
					ids = append(ids, id.String())
				}
			}
			if len(ids) > 0 {
				why := strings.Join(ids, ", ") + " still wait"
				if ex, ok := j.c.p.(model.DeadlockExplainer[S, M]); ok {
					why = ex.ExplainDeadlock(w)
				}
				j.fail(j.dead, steps, fmt.Sprintf("at %s nothing is in flight, no timer can fire, no input is enabled, and %s",
					fmtAt(j.settledAt), why))
			}
		}
	}
	return true
}

// judgeWorld judges the invariants of w (the end-of-run ones when end).
func (j *judge[S, M]) judgeWorld(w *model.World[S, M], steps int, end bool) {
	if j.sp == nil {
		return
	}
	for i := range j.sp.Invariants {
		inv := &j.sp.Invariants[i]
		v := &j.invs[i]
		if v.Property == "" || inv.Terminal != end {
			continue
		}
		if inv.Premise != nil && !inv.Premise(w) {
			continue
		}
		v.Judged++
		if inv.Judge != nil {
			switch verdict, why := inv.Judge(w); verdict {
			case checker.Violated:
				j.fail(v, steps, why)
			case checker.Inconclusive:
				v.Skipped = why
			}
			continue
		}
		if ok, why := inv.Holds(w); !ok {
			j.fail(v, steps, why)
		}
	}
}

// fail records a violation in v.
func (j *judge[S, M]) fail(v *Verdict, steps int, why string) {
	v.Holds = false
	v.Violations++
	if v.First == "" {
		v.First, v.Step = why, steps
	}
}

// verdicts appends the judge's verdicts to the observer's.
func (j *judge[S, M]) verdicts(vs []Verdict) []Verdict {
	for i, v := range j.invs {
		if v.Property == "" {
			continue
		}
		if v.Judged == 0 {
			switch {
			case j.sp.Invariants[i].Terminal:
				v.Skipped = "the run never ended (it did not settle by its duration)"
			case j.sp.Invariants[i].PremiseDoc != "":
				v.Skipped = "it never applied: no " + j.sp.Invariants[i].PremiseDoc + " in any snapshot"
			default:
				v.Skipped = "no snapshot was taken"
			}
		}
		vs = append(vs, v)
	}
	if j.dead != nil {
		vs = append(vs, *j.dead)
	}
	for _, v := range j.lives {
		if v.Judged == 0 {
			v.Optional = true
			v.Skipped = "the run never ended (a finite run that goes on cannot show it broken)"
		}
		vs = append(vs, v)
	}
	return vs
}

// Work is what the nodes did, by the observer's records.
type Work struct {
	// Multicasts counts the multicasts made; Deliveries the messages each
	// node delivered; DeliveryLatencies the time from a multicast to its
	// delivery at each other node, sorted.
	Multicasts        int
	Deliveries        []int
	DeliveryLatencies []time.Duration
	// Elections counts the spans in which some node was electing;
	// ElectionTimes their lengths, sorted (open ones left out).
	Elections     int
	ElectionTimes []time.Duration
	// Ops counts the client operations each node completed (ok, fail or
	// info); OpLatencies the time from invocation to completion, sorted.
	Ops         []int
	OpLatencies []time.Duration
}

// TotalDeliveries sums Deliveries.
func (w Work) TotalDeliveries() int { return sum(w.Deliveries) }

// TotalOps sums Ops.
func (w Work) TotalOps() int { return sum(w.Ops) }

func sum(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}

// work reads what the nodes did from their outputs.
func (j *judge[S, M]) work(outs []Record) Work {
	n := len(j.c.nodes)
	w := Work{Deliveries: make([]int, n), Ops: make([]int, n)}
	sent := map[invariants.MsgID]time.Duration{}
	invoked := map[model.NodeID]time.Duration{}
	for _, r := range outs {
		word, _, _ := strings.Cut(r.Text, " ")
		switch word {
		case "mcast", "deliver":
			ev, err := invariants.ParseMcastRecord(r.Text)
			if err != nil {
				continue
			}
			if ev.Kind == invariants.McastSend {
				w.Multicasts++
				sent[ev.Msg] = r.At
			} else {
				w.Deliveries[r.Node]++
				if t, ok := sent[ev.Msg]; ok && ev.Msg.Sender != r.Node {
					w.DeliveryLatencies = append(w.DeliveryLatencies, r.At-t)
				}
			}
		case "invoke":
			invoked[r.Node] = r.At
		case "ok", "fail", "info":
			w.Ops[r.Node]++
			if t, ok := invoked[r.Node]; ok {
				w.OpLatencies = append(w.OpLatencies, r.At-t)
				delete(invoked, r.Node)
			}
		}
	}
	j.emu.Lock()
	w.Elections = len(j.elections)
	for k, d := range j.elections {
		if d > 0 || (k < len(j.elections)-1) || j.inElect == 0 {
			w.ElectionTimes = append(w.ElectionTimes, d)
		}
	}
	j.emu.Unlock()
	slices.Sort(w.DeliveryLatencies)
	slices.Sort(w.OpLatencies)
	slices.Sort(w.ElectionTimes)
	return w
}
