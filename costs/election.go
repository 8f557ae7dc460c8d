package costs

// The costs of leader-election algorithms as the notes count them (seed
// 001, "Comparison of election algorithms"; seed 003, "Analysis"): the
// messages one election run sends, and its completion time in message
// transmission times, for a given initiator. Round r delivers every
// message in flight at its start, then fires the timers that are due: a
// timer is due once it has been armed for its delay (a timeout is as long
// as the round trip it waits for) and the system enables it (under
// perfect timers, once no reply can still arrive).

import (
	"fmt"

	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
)

// ElectionScenario is one election run to measure.
type ElectionScenario[S, M any] struct {
	System *model.System[S, M]
	// Setup is applied before time 0 and not counted: the failure the run
	// reacts to (the coordinator crashes), or the initiator's crash before
	// a restart.
	Setup []model.Action
	// Start is the initiator's first action, at time 0.
	Start model.Action
	// Kind names a message's kind in the counts: "ELECTION".
	Kind func(m M) string
	// Delay is how many transmission times timer t of a node waits once
	// armed; negative: it never fires in this run (a failure detector of
	// a process that is not the initiator).
	Delay func(node model.NodeID, t model.TimerID) int
}

// KindStats are the figures of one kind of message.
type KindStats struct {
	Kind string
	// Sent counts the messages put on the network; Lost those sent to a
	// crashed process (lost at the send, not in Sent).
	Sent, Lost int
	// Last is the round in which the last one was delivered.
	Last int
}

// ElectionRun is what one election scenario measured.
type ElectionRun struct {
	Initiator model.NodeID
	// Kinds holds the figures per kind, in the order kinds first appear.
	Kinds []KindStats
	// Leader is the coordinator every live process decided on.
	Leader model.NodeID
}

func (r *ElectionRun) stats(kind string) *KindStats {
	for i := range r.Kinds {
		if r.Kinds[i].Kind == kind {
			return &r.Kinds[i]
		}
	}
	r.Kinds = append(r.Kinds, KindStats{Kind: kind})
	return &r.Kinds[len(r.Kinds)-1]
}

// sum adds f over the given kinds, or over all kinds when none is given.
func (r ElectionRun) sum(kinds []string, f func(KindStats) int) int {
	t := 0
	for _, k := range r.Kinds {
		if len(kinds) == 0 || contains(kinds, k.Kind) {
			t += f(k)
		}
	}
	return t
}

// Sent is the number of messages of the given kinds (all when none) that
// reached the network.
func (r ElectionRun) Sent(kinds ...string) int {
	return r.sum(kinds, func(k KindStats) int { return k.Sent })
}

// Lost is the number of messages of the given kinds (all when none) sent
// to a crashed process.
func (r ElectionRun) Lost(kinds ...string) int {
	return r.sum(kinds, func(k KindStats) int { return k.Lost })
}

// Time is the completion time: the round of the last delivery of a
// message of the given kinds (all when none).
func (r ElectionRun) Time(kinds ...string) int {
	t := 0
	for _, k := range r.Kinds {
		if len(kinds) == 0 || contains(kinds, k.Kind) {
			t = max(t, k.Last)
		}
	}
	return t
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Extremes returns the run with the least and the one with the greatest
// cost; ties go to the earlier run.
func Extremes(runs []ElectionRun, cost func(ElectionRun) int) (best, worst ElectionRun) {
	for i, r := range runs {
		if i == 0 || cost(r) < cost(best) {
			best = r
		}
		if i == 0 || cost(r) > cost(worst) {
			worst = r
		}
	}
	return best, worst
}

// Election runs sc in synchronous rounds until no message is in flight
// and no timer is pending, and checks that the run ended as an election
// must (invariants.RunEnded, every live process decided on the highest
// live one). initiator only labels the run.
func Election[S, M any](sc ElectionScenario[S, M], e invariants.Elector[S, M], initiator model.NodeID) (ElectionRun, error) {
	run := ElectionRun{Initiator: initiator}
	limit := 8*sc.System.N()*sc.System.N() + 16
	sys := sc.System
	w := sys.Init()
	var next model.World[S, M]
	for _, a := range sc.Setup { // before time 0, not counted
		sys.Apply(w, a, &next)
		w.CopyFrom(&next)
	}
	d := NewRounds(sys, w) // whatever is armed now was armed at time 0
	d.Delay = sc.Delay
	d.Sent = func(_ model.Action, to model.NodeID, m M) bool {
		k := run.stats(sc.Kind(m))
		if d.W.IsDown(to) {
			k.Lost++
		} else {
			k.Sent++
		}
		return false
	}
	d.Delivering = func(m M) { run.stats(sc.Kind(m)).Last = d.Round }
	if err := d.Apply(sc.Start); err != nil {
		return run, err
	}
	if _, err := d.FireDue(limit); err != nil {
		return run, err
	}
	for len(w.Net) > 0 || d.Armed() {
		if d.Round >= limit {
			return run, fmt.Errorf("the election started by %s is not over after %d rounds", initiator, limit)
		}
		if _, err := d.Deliver(); err != nil {
			return run, err
		}
		if _, err := d.FireDue(limit); err != nil {
			return run, err
		}
	}
	if !invariants.RunEnded(e, w) {
		return run, fmt.Errorf("the election started by %s stopped before its end", initiator)
	}
	best, _ := invariants.HighestLive(e, w)
	for i := range w.Nodes {
		id := model.NodeID(i)
		if w.IsDown(id) {
			continue
		}
		if l, ok := e.Leader(id, w.Nodes[i]); !ok || l != best {
			return run, fmt.Errorf("the election started by %s ended with %s not deciding on %s", initiator, id, best)
		}
	}
	run.Leader = best
	return run, nil
}
