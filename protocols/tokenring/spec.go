package tokenring

import (
	"fmt"
	"strings"

	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/property"
)

// OneTokenName is the name of the OneToken and AtMostOneToken properties.
const OneTokenName = "one-token"

// count returns the tokens that grant the critical section (TOKEN, or
// PING) held by a process and in flight, and the pongs in flight.
func (p *Protocol) count(w *model.World[State, Msg]) (held, flying, pongs int) {
	for i := range w.Nodes {
		if w.Nodes[i].Token && !w.IsDown(model.NodeID(i)) {
			held++
		}
	}
	for _, e := range w.Net {
		switch {
		case e.App:
		case e.Msg.Kind == Token || e.Msg.Kind == Ping:
			flying++
		case e.Msg.Kind == Pong:
			pongs++
		}
	}
	return held, flying, pongs
}

// name is what the variant calls its tokens.
func (p *Protocol) name() string {
	if p.Variant == PingPong {
		return "ping"
	}
	return "token"
}

// OneToken is seed 000's safety argument made an invariant of the world
// on a reliable network: "only one token", held by a process or in flight;
// under PingPong, exactly one ping and one pong. It has the signature of an
// invariant's Holds function (package checker). A crashed process's token
// is gone.
func (p *Protocol) OneToken(w *model.World[State, Msg]) (bool, string) {
	return p.tokens(w, true)
}

// AtMostOneToken is OneToken where tokens may be lost (a lossy network, a
// crash, a partition): at most one token, and under PingPong at most one
// ping and one pong. A lost token is no violation of safety but of
// liveness (starvation freedom, or a deadlock) unless it is regenerated;
// a second token is, as it lets two processes in.
func (p *Protocol) AtMostOneToken(w *model.World[State, Msg]) (bool, string) {
	return p.tokens(w, false)
}

func (p *Protocol) tokens(w *model.World[State, Msg], exact bool) (bool, string) {
	held, flying, pongs := p.count(w)
	ok := func(k int) bool { return k == 1 || !exact && k == 0 }
	if !ok(held + flying) {
		return false, fmt.Sprintf("%d %ss: %d held, %d in flight", held+flying, p.name(), held, flying)
	}
	if p.Variant == PingPong && !ok(pongs) {
		return false, fmt.Sprintf("%d pongs in flight", pongs)
	}
	return true, ""
}

// Protocol implements model.DeadlockExplainer (checked by the compiler).
var _ model.DeadlockExplainer[State, Msg] = (*Protocol)(nil)

// ExplainDeadlock says why nothing can move while processes wait: no
// token is left to grant the critical section (and, under PingPong, no
// pong to regenerate it).
func (p *Protocol) ExplainDeadlock(w *model.World[State, Msg]) string {
	var waiting []string
	for i := range w.Nodes {
		if id := model.NodeID(i); !w.IsDown(id) && p.Waiting(id, w.Nodes[i]) {
			waiting = append(waiting, id.String())
		}
	}
	verb := "waits"
	if len(waiting) > 1 {
		verb = "wait"
	}
	held, flying, pongs := p.count(w)
	switch {
	case held+flying == 0 && p.Variant == PingPong && pongs == 0:
		return "ping and pong are both lost; " + joinAnd(waiting) + " " + verb + " for ever"
	case held+flying == 0:
		return "the " + p.name() + " is lost: no process holds it and none is in flight; " +
			joinAnd(waiting) + " " + verb + " for it for ever"
	}
	return "no action is enabled and " + joinAnd(waiting) + " still " + verb
}

func joinAnd(ws []string) string {
	if len(ws) <= 1 {
		return strings.Join(ws, "")
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " and " + ws[len(ws)-1]
}

// Protocol implements, through InCS, the hook the mutual-exclusion
// properties read (checked by the compiler).
var _ invariants.CriticalSection[State] = (*Protocol)(nil)

// Properties is what the notes claim for p (seeds 000 and 001, "Token ring
// algorithm"), checked under cfg: mutual exclusion, one token (at most one
// where cfg's faults may lose it, see Lossy), no deadlock and starvation
// freedom; with cfg.Ordering also the happened-before order of requests.
func Properties(p *Protocol, cfg model.Config) property.Set[State, Msg] {
	holds := p.OneToken
	if Lossy(cfg.Faults) {
		holds = p.AtMostOneToken
	}
	return invariants.MutexProperties[State, Msg](p, cfg.Ordering,
		property.Invariant[State, Msg]{Name: OneTokenName, Holds: holds})
}

// Lossy says whether faults may lose the token: drops, crashes or
// partitions.
func Lossy(f model.Faults) bool {
	return f.Budget[model.Drop] != 0 || f.Budget[model.Crash] != 0 || f.Budget[model.Partition] != 0
}
