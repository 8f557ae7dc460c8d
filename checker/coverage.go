package checker

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/coordcheck/coordcheck/internal/lines"
	"github.com/coordcheck/coordcheck/model"
)

// Coverage: against vacuous passes. Every search counts the actions it
// took by kind, and notes whether each property's premise ever held, so
// that a pass that checked nothing (a fault that never struck, a critical
// section nobody entered) says so.
//
// The kind of an action is its word and what it acts on, without the
// nodes: "input request", "deliver REQ", "fire timeout", "send APP",
// "crash", "drop", "partition", "heal". The kind of a delivered message is
// model.MsgKinder's when the protocol implements it, else the formatted
// message up to its first '(' or space ("REQ(ts=1)" is a REQ); an
// application message is an APP. Drops and duplications count as "drop"
// and "dup", whatever the message.
//
// What a count means: for BFS and DFS, the number of edges of the state
// graph explored with that kind (one per enabled action of every state
// expanded), so that the counts add up to Report.Transitions; for random
// and swarm search, the number of steps of that kind taken by the walks
// counted in the report, which also add up to Report.Transitions. Either
// way they are the same for any number of workers.

// KindCount is how often one kind of action was taken.
type KindCount struct {
	Kind  string `json:"kind"`
	Count uint64 `json:"count"`
}

// PremiseSeen says whether a property's premise held in some explored
// state.
type PremiseSeen struct {
	Property string `json:"property"`
	Premise  string `json:"premise"`
	Seen     bool   `json:"seen"`
}

// kindEntry is one interned kind.
type kindEntry struct {
	act  model.ActionKind
	name string
}

// kindTable interns the kinds of actions met by one goroutine and counts
// them. Kinds get small indices in the order they are first met; finding
// an action's index allocates only the first time its kind (for a
// delivery, the message's encoding) is met.
type kindTable struct {
	_      lines.Pad // a worker's: no other's memory on its lines
	kinds  []kindEntry
	counts []uint64
	byName map[string]int32
	inputs []inputKind
	timers []int32 // TimerID -> index+1 (0: not met yet)
	fixed  [model.ActApp + 1]int32
	appMsg int32            // "deliver APP", index+1
	msgs   map[uint64]int32 // a message encoding's key (msgKey) -> index
	recent [256]struct {
		fp  uint64
		idx int32 // index+1 (0: empty)
	}
	buf []byte
	// id tells this table's notes on the memo of steps (countStep) from
	// another's: never 0, and no two tables of the process share one
	// unless 2^32 were made between them.
	id uint64
	_  lines.Pad
}

// kindTables numbers the kind tables made (kindTable.id).
var kindTables atomic.Uint32

// newKindTableID is the id of a new kind table.
func newKindTableID() uint64 {
	for {
		if id := kindTables.Add(1); id != 0 {
			return uint64(id)
		}
	}
}

type inputKind struct {
	in  model.Input
	idx int32
}

// maxMsgCache bounds the cache of message encodings; beyond it, a message
// is formatted again each time it is delivered.
const maxMsgCache = 1 << 16

func newKindTable() *kindTable {
	return &kindTable{byName: map[string]int32{}, msgs: map[uint64]int32{}, id: newKindTableID()}
}

// intern returns the index of kind name, adding it when new.
func (t *kindTable) intern(act model.ActionKind, name string) int32 {
	if i, ok := t.byName[name]; ok {
		return i
	}
	i := int32(len(t.kinds))
	t.kinds = append(t.kinds, kindEntry{act, name})
	if len(t.counts) == cap(t.counts) {
		// Counted at every transition, by each worker in its own table:
		// on cache lines of its own (internal/lines).
		t.counts = grownOwn(t.counts, max(2*len(t.counts), 16))[:len(t.counts)]
	}
	t.counts = append(t.counts, 0)
	t.byName[name] = i
	return i
}

// count counts action a of world w.
func countAction[S, M any](t *kindTable, sys *model.System[S, M], w *model.World[S, M], a model.Action) {
	t.counts[kindIndex(t, sys, w, a, nil)]++
}

// count counts action a of the loaded state, whose messages' encodings
// it reads off the state's own (no message is encoded again).
func (x *expander[S, M]) count(t *kindTable, a model.Action) {
	t.counts[x.kindIndex(t, a)]++
}

// kindIndex is the index in t of the kind of action a of the loaded
// state, whose message it reads off the state's encoding.
func (x *expander[S, M]) kindIndex(t *kindTable, a model.Action) int32 {
	var msg []byte
	if a.Kind == model.ActDeliver {
		msg = x.ids.MsgAt(int(a.Slot))
	}
	return kindIndex(t, x.sys, &x.cur, a, msg)
}

// countTagged is count for a successor whose step left tag (successor.tag;
// Stepped.Tag), when it names one of t's kinds, and reports whether it
// did; countNoting counts the others. When the memo of steps served a
// step, the action's kind index is kept on the memo's entry (SetMemoTag),
// and comes back with the step, read off the entry while the step had it
// at hand, so that a step the memo serves again is counted without its
// message being read: its kind is a function of the step's key, as
// msgKey's is of the message (a collision of 64-bit keys could only
// misname a count). A tag of this table's id (never 0) was left by
// countNoting on a step the memo served (a step Apply took has no tag),
// so the tag alone is checked. (Small and not generic, it is inlined
// into the search's loop: the call of a generic method that did this was
// 15 M of centralized N=6 R=2's 7.0 G instructions.)
func (t *kindTable) countTagged(tag uint64) bool {
	if tag>>32 != t.id {
		return false
	}
	t.counts[uint32(tag)-1]++
	return true
}

// countNoting is count for the successor in slot at, leaving the kind's
// index on the memo's entry of its step (when the memo served it) for
// countTagged. It is kept out of the search's loop, which it seldom runs.
//
//go:noinline
func (x *expander[S, M]) countNoting(t *kindTable, a *model.Action, at int) {
	i := x.kindIndex(t, *a)
	if ref := x.slot[at].stepped.Ref(); ref != 0 {
		x.ids.SetMemoTag(ref, t.id<<32|uint64(i+1))
	}
	t.counts[i]++
}

// kindIndex is the index of a's kind in t; msg, when not nil, is the
// encoding of the message a delivers.
func kindIndex[S, M any](t *kindTable, sys *model.System[S, M], w *model.World[S, M], a model.Action, msg []byte) int32 {
	switch a.Kind {
	case model.ActInput:
		for _, k := range t.inputs {
			if k.in == a.Input {
				return k.idx
			}
		}
		i := t.intern(a.Kind, "input "+string(a.Input))
		t.inputs = append(t.inputs, inputKind{a.Input, i})
		return i
	case model.ActDeliver:
		e := &w.Net[a.Slot]
		if e.App {
			if t.appMsg == 0 {
				t.appMsg = t.intern(a.Kind, "deliver "+model.AppMsgText) + 1
			}
			return t.appMsg - 1
		}
		if msg == nil {
			t.buf = sys.Codec().AppendMsg(t.buf[:0], e.Msg)
			msg = t.buf
		}
		// The kind is a function of the message, which its encoding
		// determines: a small direct-mapped cache keyed by the encoding
		// sits in front of the map, and both in front of
		// model.MsgKinder or the formatting (a search delivers a few
		// kinds of messages millions of times).
		fp := msgKey(msg)
		c := &t.recent[(fp*0x9e3779b97f4a7c15)>>56]
		if c.fp == fp && c.idx > 0 {
			return c.idx - 1
		}
		i, ok := t.msgs[fp]
		if !ok {
			var name string
			if mk, ok := sys.P.(model.MsgKinder[M]); ok {
				name = mk.MsgKind(e.Msg)
			} else {
				name = msgKind(sys.FormatMsg(e.Msg))
			}
			i = t.intern(a.Kind, "deliver "+name)
			if len(t.msgs) < maxMsgCache {
				t.msgs[fp] = i
			}
		}
		c.fp, c.idx = fp, i+1
		return i
	case model.ActFire:
		for int(a.Timer) >= len(t.timers) {
			t.timers = append(t.timers, 0)
		}
		if t.timers[a.Timer] == 0 {
			name := "t" + strconv.Itoa(int(a.Timer))
			if tn, ok := sys.P.(model.TimerNamer); ok {
				name = tn.TimerName(a.Timer)
			}
			t.timers[a.Timer] = t.intern(a.Kind, "fire "+name) + 1
		}
		return t.timers[a.Timer] - 1
	}
	if int(a.Kind) < len(t.fixed) {
		if t.fixed[a.Kind] == 0 {
			name := a.Kind.String()
			if a.Kind == model.ActApp {
				name += " " + model.AppMsgText
			}
			t.fixed[a.Kind] = t.intern(a.Kind, name) + 1
		}
		return t.fixed[a.Kind] - 1
	}
	return t.intern(a.Kind, a.Kind.String())
}

// msgKey is the key of a message's encoding in a kind table: the bytes
// themselves when they fit in 7, else their fingerprint (a collision,
// about 2^-64 a pair, could only misname a count, never change a
// verdict).
func msgKey(b []byte) uint64 {
	if len(b) > 7 {
		return model.Fingerprint(b)
	}
	k := uint64(len(b)+1) << 56
	for i, c := range b {
		k |= uint64(c) << (8 * i)
	}
	return k
}

// msgKind is the kind of a formatted message: its text up to the first
// '(' or blank.
func msgKind(text string) string {
	if i := strings.IndexAny(text, "( \t"); i >= 0 {
		text = text[:i]
	}
	if text == "" {
		return "?"
	}
	return text
}

// addTo adds t's counts to dst, by name, and clears them.
func (t *kindTable) addTo(dst *kindTable) {
	for i, c := range t.counts {
		if c == 0 {
			continue
		}
		k := t.kinds[i]
		dst.counts[dst.intern(k.act, k.name)] += c
		t.counts[i] = 0
	}
}

// clearCounts forgets the counts, keeping the kinds.
func (t *kindTable) clearCounts() { clear(t.counts) }

// premise is a property's premise, as a search evaluates it.
type premise[S, M any] struct {
	prop, doc string
	holds     func(w *model.World[S, M]) bool
}

// premises lists the premises of the properties in props.
func (sp *Spec[S, M]) premises(props []string) []premise[S, M] {
	var ps []premise[S, M]
	for _, inv := range sp.Invariants {
		if inv.Premise != nil && slices.Contains(props, inv.Name) {
			ps = append(ps, premise[S, M]{inv.Name, inv.PremiseDoc, inv.Premise})
		}
	}
	for _, l := range sp.Liveness {
		if l.Premise != nil && slices.Contains(props, l.Name) {
			ps = append(ps, premise[S, M]{l.Name, l.PremiseDoc, l.Premise})
		}
	}
	return ps
}

// notePremises sets seen[i] for every premise not seen yet that holds in w.
func notePremises[S, M any](ps []premise[S, M], seen []bool, w *model.World[S, M]) {
	for i := range ps {
		if !seen[i] && ps[i].holds(w) {
			seen[i] = true
		}
	}
}

// coverageOrder sorts kinds for reports: by action word (inputs,
// deliveries, timers, application sends, then the faults), then by name.
func coverageOrder(a, b kindEntry) int {
	rank := func(k model.ActionKind) int {
		if k == model.ActApp {
			return int(model.ActFire) + 1 // after the timers, before the faults
		}
		if k > model.ActFire {
			return int(k) + 1
		}
		return int(k)
	}
	return cmp.Or(cmp.Compare(rank(a.act), rank(b.act)), cmp.Compare(a.name, b.name))
}

// Report.NeverFired lists the configured kinds first (the ones a pass
// warns about), then the protocol's declared kinds, in its order.

// configuredKinds are the kinds the configuration asks for, which a
// search should see fire: each fault with a budget (a partition's heal
// with it) and the application messages.
func configuredKinds(cfg model.Config) []kindEntry {
	var ks []kindEntry
	f := cfg.Faults.Budget
	for _, c := range []struct {
		fault model.FaultKind
		act   model.ActionKind
	}{{model.Crash, model.ActCrash}, {model.Restart, model.ActRestart}, {model.Drop, model.ActDrop},
		{model.Dup, model.ActDup}, {model.Partition, model.ActPartition}, {model.Partition, model.ActHeal}} {
		if f[c.fault] != 0 {
			ks = append(ks, kindEntry{c.act, c.act.String()})
		}
	}
	if cfg.AppMsgs > 0 {
		ks = append(ks, kindEntry{model.ActApp, model.ActApp.String() + " " + model.AppMsgText},
			kindEntry{model.ActDeliver, "deliver " + model.AppMsgText})
	}
	return ks
}

// fillCoverage writes the coverage of a search into rep, once its verdict
// is known: the counts of t, the configured kinds never taken, the
// premises, and for a pass the warnings (a violation or a bound speaks
// for itself: the search stopped before it could see everything).
func (sp *Spec[S, M]) fillCoverage(rep *Report, t *kindTable, ps []premise[S, M], seen []bool) {
	var kinds []kindEntry
	for i, k := range t.kinds {
		if t.counts[i] > 0 {
			kinds = append(kinds, k)
		}
	}
	slices.SortFunc(kinds, coverageOrder)
	rep.Coverage = make([]KindCount, 0, len(kinds))
	for _, k := range kinds {
		rep.Coverage = append(rep.Coverage, KindCount{k.name, t.counts[t.byName[k.name]]})
	}
	rep.NeverFired = []string{}
	for _, k := range configuredKinds(sp.System.Config) {
		if i, ok := t.byName[k.name]; !ok || t.counts[i] == 0 {
			rep.NeverFired = append(rep.NeverFired, k.name)
			if rep.Verdict != Pass {
				continue
			}
			what := "-app-msgs"
			if k.act.IsFault() {
				what = "-faults"
			}
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s never fired though %s asks for it: no explored execution exercises it", k.name, what))
		}
	}
	if kl, ok := sp.System.P.(model.KindLister); ok {
		// The protocol's own kinds: listed when they never fired, but no
		// warning (a configuration may well leave some out: one round
		// has no second request).
		for _, k := range kl.ActionKinds() {
			if i, ok := t.byName[k]; (!ok || t.counts[i] == 0) && !slices.Contains(rep.NeverFired, k) {
				rep.NeverFired = append(rep.NeverFired, k)
			}
		}
	}
	rep.Premises = make([]PremiseSeen, len(ps))
	for i, p := range ps {
		rep.Premises[i] = PremiseSeen{p.prop, p.doc, seen[i]}
		if !seen[i] && rep.Verdict == Pass {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s is vacuous here: no explored state has %s", p.prop, p.doc))
		}
	}
}

// notePremises notes, for parallel BFS, the premises that hold in state k
// of the level (the current world), keeping the first state of the level
// for each: the search may stop inside the level, and only the states a
// one-worker search would have popped count.
func (w *levelWorker[S, M]) notePremises(k uint64) {
	r := w.r
	for i := range r.prem {
		if !r.premSeen[i] && k < w.premK[i] && r.prem[i].holds(&w.x.cur) {
			w.premK[i] = k
		}
	}
}

// levelCoverage adds the coverage of a level, whose states up to popped
// a one-worker search would have popped, to the run's. When the level is
// cut (popped is not its last state), the workers' counts may include
// states past popped, so the actions of the states up to popped that were
// expanded (outdeg) are counted again on one worker: enumerating actions
// is enough, no successor is made. The error is a spilled level's that
// could not be read.
func (sp *Spec[S, M]) levelCoverage(ws []*levelWorker[S, M], lv *levelRun, popped uint64) error {
	r := ws[0].r
	for _, w := range ws {
		for i, k := range w.premK {
			if k <= popped {
				r.premSeen[i] = true
			}
			w.premK[i] = ^uint64(0)
		}
	}
	if popped+1 >= lv.level.n {
		for _, w := range ws {
			w.cov.addTo(r.cov)
		}
		return nil
	}
	for _, w := range ws {
		w.cov.clearCounts()
	}
	x := ws[0].x
	cur, err := lv.level.at(0)
	if err != nil {
		return err
	}
	for k := uint64(0); k <= popped; k++ {
		enc, err := cur.seek(k)
		if err != nil {
			return err
		}
		if lv.outdeg[k] == 0 {
			continue
		}
		x.load(0, enc, true) // no step is taken: the fingerprint is not needed
		for _, i := range x.awake {
			x.count(r.cov, x.acts[i])
		}
	}
	return nil
}

// kindIdxCount is a count of the kind at index idx of a walker's table.
type kindIdxCount struct {
	idx int32
	n   uint64
}

// notePremises notes the premises that hold in the walk's current world,
// skipping those this walk or an earlier batch has seen.
func (w *walker[S, M]) notePremises(res *walkResult) {
	for i := range w.prem {
		if !w.premSeen[i] && res.premMask&(1<<i) == 0 && w.prem[i].holds(&w.cur) {
			res.premMask |= 1 << i
		}
	}
}

// endWalk moves the walk's counts from the walker's table to res.
func (w *walker[S, M]) endWalk(res *walkResult) {
	for i, c := range w.cov.counts {
		if c > 0 {
			res.kinds = append(res.kinds, kindIdxCount{int32(i), c})
			w.cov.counts[i] = 0
		}
	}
}

// addCoverage adds a counted walk's coverage to the search's.
func (res *walkResult) addCoverage(cov *kindTable, premSeen []bool) {
	for _, kc := range res.kinds {
		k := res.tab.kinds[kc.idx]
		cov.counts[cov.intern(k.act, k.name)] += kc.n
	}
	for i := range premSeen {
		if res.premMask&(1<<i) != 0 {
			premSeen[i] = true
		}
	}
}
