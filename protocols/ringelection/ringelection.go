// Package ringelection holds the ring election algorithms of seed 001
// ("Ring-based algorithms"; seed 003, 1.2): processes are organized in a
// logical unidirectional ring, p_i sending to p_(i+1) mod N.
//
// Ids follow the SPIN anchor model ../shared/bench/spin/models/changroberts.pml:
// ID(p_i) = N-i, so ids decrease along the direction of the messages (the
// O(N^2) worst case of Chang-Roberts) and the highest id, N, is p0.
// Messages and states show ids, as the notes' examples do ("Election: 4").
//
// Two variants:
//
//   - ChangRoberts (changroberts.go): each process only knows its
//     successor; any non-participant may start an election at any time, so
//     several elections may run at once; redundant election messages are
//     killed off. A crash during the election loses liveness.
//   - Enhanced (enhanced.go): the election message collects the ids of the
//     processes it passes; a process sends to its closest live successor,
//     polling successors until one answers, so a crashed process is
//     skipped.
package ringelection

import (
	"fmt"
	"strings"

	"github.com/coordcheck/coordcheck/internal/clip"
	"github.com/coordcheck/coordcheck/model"
)

// Variant selects the ring algorithm.
type Variant uint8

// The variants.
const (
	ChangRoberts Variant = iota // Chang and Roberts' ring algorithm
	Enhanced                    // the enhanced ring, with the list of ids
)

// String is the variant's name on the command line.
func (v Variant) String() string {
	if v == Enhanced {
		return "enhanced"
	}
	return "changroberts"
}

// ParseVariant reads a variant name.
func ParseVariant(s string) (Variant, error) {
	switch s {
	case "changroberts", "cr":
		return ChangRoberts, nil
	case "enhanced":
		return Enhanced, nil
	}
	return 0, fmt.Errorf("parameter variant=%s: want changroberts or enhanced", clip.Quote(s))
}

// Protocol is a ring election among N processes.
type Protocol struct {
	N       int
	Variant Variant
	// Initiators is the set of processes that may start an election
	// spontaneously (bit i for p_i); zero means every process, as in the
	// SPIN model.
	Initiators uint64
}

// New returns the ring election of the given variant for n processes.
func New(n int, v Variant) *Protocol { return &Protocol{N: n, Variant: v} }

// ParseInitiators reads a set of initiators: "all", or node ids joined
// by '+': "p1+p3".
func ParseInitiators(spec string, n int) (uint64, error) {
	if spec == "all" || spec == "" {
		return 0, nil
	}
	var set uint64
	for _, part := range strings.Split(spec, "+") {
		id, err := model.ParseNodeID(strings.TrimSpace(part))
		if err != nil || int(id) >= n {
			return 0, fmt.Errorf("parameter initiators=%s: %s is not a process (want all, or ids like p1+p3 from p0 to p%d)", clip.Quote(spec), clip.Quote(part), n-1)
		}
		set |= 1 << id
	}
	return set, nil
}

// Start is the input that makes a process initiate an election ("when P
// notes that the coordinator is not responding").
const Start model.Input = "start"

// State is one process's state.
type State struct {
	// Participant: the process has started or forwarded an election
	// (Chang-Roberts: "Q becomes a participant on forwarding an
	// Election"); a participant does not start another one.
	Participant bool
	// Leader is the id of the coordinator the process has decided on, 0
	// while it has not decided.
	Leader uint8
	// Done (Chang-Roberts): the process has passed on the COORD message;
	// it takes no further part (SPIN's valid end state).
	Done bool
	// Next (enhanced) is the successor the process sends to: the closest
	// one it believes alive.
	Next model.NodeID
	// Unacked (enhanced) are the messages sent to Next and not yet
	// answered, oldest first. Step never appends to it in place.
	Unacked []Msg
}

// Kind is a message type.
type Kind uint8

// The messages.
const (
	// Election carries an id (Chang-Roberts) or the list of ids of the
	// processes it has passed (enhanced).
	Election Kind = iota
	// Coordinator announces the leader's id; in the enhanced ring it also
	// collects the ids of the processes it passes.
	Coordinator
	// Ack is the answer to a poll (enhanced): the successor has the
	// message.
	Ack
)

// Msg is a message.
type Msg struct {
	Kind Kind
	ID   uint8  // Chang-Roberts ELECTION: the candidate; COORD: the leader
	List string // enhanced: the ids passed, one byte each, in order
}

// ID is the id of process p_i: N-i.
func (p *Protocol) ID(i model.NodeID) int { return p.N - int(i) }

// node is the process whose id is id.
func (p *Protocol) node(id uint8) model.NodeID { return model.NodeID(p.N - int(id)) }

// succ is the successor of i on the ring.
func (p *Protocol) succ(i model.NodeID) model.NodeID { return model.NodeID((int(i) + 1) % p.N) }

// Nodes is N.
func (p *Protocol) Nodes() int { return p.N }

// Init: not a participant, no leader; the enhanced ring starts with the
// ring successor as Next.
func (p *Protocol) Init(self model.NodeID, _ *model.Out[Msg]) State {
	if p.Variant == Enhanced {
		return State{Next: p.succ(self)}
	}
	return State{}
}

// Inputs offers Start to a process that is not a participant yet (and,
// in Chang-Roberts, not done): any such process among the Initiators may
// initiate at any time.
func (p *Protocol) Inputs(self model.NodeID, s State, dst []model.Input) []model.Input {
	if !s.Participant && !s.Done && (p.Initiators == 0 || p.Initiators&(1<<self) != 0) {
		dst = append(dst, Start)
	}
	return dst
}

// Step dispatches to the variant's rules.
func (p *Protocol) Step(self model.NodeID, s State, ev model.Event[Msg], out *model.Out[Msg]) State {
	if p.Variant == Enhanced {
		return p.stepEnhanced(self, s, ev, out)
	}
	return p.stepChangRoberts(self, s, ev, out)
}

// Leader: the process has decided once it knows the leader's id.
func (p *Protocol) Leader(_ model.NodeID, s State) (model.NodeID, bool) {
	if s.Leader == 0 {
		return 0, false
	}
	return p.node(s.Leader), true
}

// Protocol implements model.Waiter (checked by the compiler).
var _ model.Waiter[State] = (*Protocol)(nil)

// Waiting: a participant waits until the election is over for it: in
// Chang-Roberts until it is done (SPIN's end state); in the enhanced ring
// until it has decided and every message it sent is answered. A process
// that has not heard of an election yet does not wait.
func (p *Protocol) Waiting(_ model.NodeID, s State) bool {
	if p.Variant == Enhanced {
		return (s.Participant && s.Leader == 0) || len(s.Unacked) > 0
	}
	return s.Participant && !s.Done
}

// Electing: the run is not over for the process: it has not decided yet
// (any process may still start or join an election), or, in the enhanced
// ring, some message it sent is unanswered; in Chang-Roberts, until it is
// done.
func (p *Protocol) Electing(_ model.NodeID, s State) bool {
	if p.Variant == Enhanced {
		return s.Leader == 0 || len(s.Unacked) > 0
	}
	return !s.Done
}

// ElectionMsg: every message of the algorithm belongs to an election.
func (p *Protocol) ElectionMsg(Msg) bool { return true }
