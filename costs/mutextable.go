package costs

import (
	"fmt"
	"strconv"

	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/centralized"
	"github.com/coordcheck/coordcheck/protocols/lamport"
	"github.com/coordcheck/coordcheck/protocols/maekawa"
	"github.com/coordcheck/coordcheck/protocols/maekawadf"
	ra "github.com/coordcheck/coordcheck/protocols/ricartagrawala"
	"github.com/coordcheck/coordcheck/protocols/tokenring"
	"github.com/coordcheck/coordcheck/protocols/voting"
)

// mutexFormulas are the notes' figures for one mutual-exclusion algorithm.
type mutexFormulas struct {
	enter, exit, exitOneWaiter, exitAllWaiting, client, sync formula
}

// mutexProtocol is what a mutual-exclusion protocol implements to be
// measured.
type mutexProtocol[S, M any] interface {
	model.Protocol[S, M]
	invariants.CriticalSection[S]
	model.Waiter[S]
}

// mutexTable measures p and lays the figures beside the formulas.
func mutexTable[S, M any, P mutexProtocol[S, M]](p P, f mutexFormulas) ([]Row, error) {
	sys, err := model.NewSystem[S, M](p, model.Config{})
	if err != nil {
		return nil, err
	}
	c, err := Mutex(sys, p)
	if err != nil {
		return nil, err
	}
	exit := c.ExitMsgs
	rows := []Row{
		f.enter.row("messages per entry", c.EnterMsgs),
		f.exit.row("messages per exit, no contention", exit),
		f.exitOneWaiter.row("messages from exit to next entry, one waiting", c.SyncExitMsgs),
		f.exitAllWaiting.row("messages of the exit step, all waiting", c.ExitAllWaiting),
		f.client.row("client delay (latencies)", c.ClientDelay),
		f.sync.row("synchronization delay (latencies)", c.SyncDelay),
	}
	if c.Perpetual {
		rows[1].Note = "the token keeps circulating: counted are the messages of the exit step itself"
	}
	return rows, nil
}

// CentralizedTable measures the centralized algorithm (a coordinator and
// n clients) beside seed 000's table.
func CentralizedTable(n int) ([]Row, error) {
	return mutexTable[centralized.State, centralized.Msg](centralized.New(n, 2), mutexFormulas{
		enter:          exact("2 (request + grant)", 2),
		exit:           exact("1 (release)", 1),
		exitOneWaiter:  exact("2 (release + grant)", 2),
		exitAllWaiting: exact("1", 1),
		client:         exact("2 (request + grant)", 2),
		sync:           exact("2 (release + grant)", 2),
	})
}

// LamportTable measures Lamport's algorithm among n sites beside seed
// 002's table.
func LamportTable(n int) ([]Row, error) {
	return mutexTable[lamport.State, lamport.Msg](lamport.New(n, 2), mutexFormulas{
		enter:          exact("2(N-1) (requests + replies; 3(N-1) per CS)", 2*(n-1)),
		exit:           exact("N-1 (releases)", n-1),
		exitOneWaiter:  exact("N-1 (releases)", n-1),
		exitAllWaiting: exact("N-1", n-1),
		client:         exact("2 (request + reply)", 2),
		sync:           exact("T: 1 (the release)", 1),
	})
}

// RicartAgrawalaTable measures the Ricart-Agrawala algorithm among n
// processes beside seed 000's table.
func RicartAgrawalaTable(n int) ([]Row, error) {
	return mutexTable[ra.State, ra.Msg](ra.New(n, 2), mutexFormulas{
		enter: exact("2(N-1)", 2*(n-1)),
		exit: formula{text: "N-1", min: n - 1, max: n - 1,
			note: "the notes count the worst case, all N-1 others waiting; an exit replies only to deferred requests"},
		exitOneWaiter:  exact("1 (the deferred reply)", 1),
		exitAllWaiting: exact("N-1", n-1),
		client:         exact("2", 2),
		sync:           exact("1 (the reply of the process in the CS)", 1),
	})
}

// TokenRingTable measures the plain ring beside seed 000's table (and seed
// 001's and 002's, which agree with it).
func TokenRingTable(n int) ([]Row, error) {
	return mutexTable[tokenring.State, tokenring.Msg](tokenring.New(n, 2), mutexFormulas{
		enter: formula{text: "0 (has the token) .. N (through the ring)", min: 0, max: n,
			note: "the token starts in flight from p0 and never rests at a process that does not want it: " +
				"the farthest process waits for N-1 forwards, the N-th hop was sent before its request"},
		exit:           exact("1", 1),
		exitOneWaiter:  formula{text: "1 (successor) .. N-1 (predecessor)", min: 1, max: n - 1},
		exitAllWaiting: exact("1", 1),
		client: formula{text: "0 (has the token) .. N (just sent it)", min: 0, max: n,
			note: "the token never rests at a process that does not want it, so the notes' best case, " +
				"already holding it, never occurs: the best is its successor's 1 latency"},
		sync: formula{text: "1 (successor) .. N-1 (predecessor)", min: 1, max: n - 1},
	})
}

// VotingTable measures Lin's voting with option B (Yield) among n processes
// and n coordinators, the notes' N, beside seed 001's comparison table:
// bandwidth 3N + f(k) per critical section with k Yield rounds ({N request
// + N vote} + Σ_i {C_i yield + [C_i, 2C_i] vote} + N release), client
// delay a round trip (N request + N vote), synchronization delay a round
// trip (N release + M vote).
func VotingTable(n int) ([]Row, error) {
	p := voting.New(n, n, 2, voting.OptionYield)
	tie := "with an even N the waiting process counts the new votes one by one against the old ones, " +
		"reaches a tie (N/2 each) and yields once: k = 1"
	return mutexTable[voting.State, voting.Msg](p, mutexFormulas{
		enter:          exact("2N (N request + N vote)", 2*n),
		exit:           exact("N (release)", n),
		exitOneWaiter:  formula{text: "2N + f(k), k = 0 (N release + N vote)", min: 2 * n, max: 2 * n, note: tie + ": N/2 yields and N/2 votes more"},
		exitAllWaiting: exact("N (release)", n),
		client:         exact("2 (round trip: N request + N vote)", 2),
		sync:           formula{text: "2 (round trip: N release + M vote)", min: 2, max: 2, note: tie + ": one more round trip"},
	})
}

// MaekawaTable measures Maekawa's original algorithm with the voting sets
// of maekawaSets beside seed 000's table.
func MaekawaTable(n int) ([]Row, error) {
	sets := maekawaSets(n)
	p, err := maekawa.New(n, 2, sets)
	if err != nil {
		return nil, err
	}
	return mutexTable[maekawa.State, maekawa.Msg](p, maekawaFormulas(sets))
}

// MaekawaDFTable lays the measured costs beside the notes' figures: those
// of Maekawa's algorithm (seed 000) where nobody contends, as the deadlock
// handling then sends nothing, and seed 002's bounds per critical section
// when every process contends: 3√N messages, at most 5√N with FAILED,
// INQUIRE and YIELD, where K = |V_i| stands for √N.
func MaekawaDFTable(n int) ([]Row, error) {
	sets := maekawaSets(n)
	p, err := maekawadf.New(n, 2, sets, maekawadf.AllFixes)
	if err != nil {
		return nil, err
	}
	rows, err := mutexTable[maekawadf.State, maekawadf.Msg](p, maekawaFormulas(sets))
	if err != nil {
		return nil, err
	}
	// Everyone contends: the run of maekawadf.Contention with the
	// requests of higher priority delivered first, and last.
	once, err := maekawadf.New(n, 1, sets, maekawadf.AllFixes)
	if err != nil {
		return nil, err
	}
	k := sets[0].Len()
	var all, extra [2]float64 // per critical section: every message; FAILED, INQUIRE and YIELD
	for i, lowFirst := range []bool{false, true} {
		t, err := MaekawaContention(once, lowFirst)
		if err != nil {
			return nil, err
		}
		all[i] = float64(t.Total()) / float64(n)
		extra[i] = float64(t[maekawadf.Fail]+t[maekawadf.Inquire]+t[maekawadf.Yield]) / float64(n)
	}
	return append(rows,
		within("messages per CS, all N contending", all, "3K..5K (seed 002: 3√N, at most 5√N)", 3*k, 5*k),
		within("FAILED+INQUIRE+YIELD per CS, all N contending", extra, "at most 2K (seed 002: 5√N - 3√N)", 0, 2*k),
	), nil
}

// maekawaSets are the voting sets of the cost tables, the notes' sets of size
// K ~ 2 sqrt(N): the grid when N is a square, the projective plane for 7,
// everyone otherwise.
func maekawaSets(n int) []maekawa.Set {
	sets, err := maekawa.GridSets(n)
	switch {
	case n == 7:
		return maekawa.PlaneSets()
	case err != nil:
		return maekawa.AllSets(n)
	}
	return sets
}

// maekawaFormulas are the notes' figures for Maekawa's algorithm with the
// voting sets sets (seed 000): 2K messages to enter, K to exit, K releases
// and a vote from each shared voter between an exit and the next entry.
func maekawaFormulas(sets []maekawa.Set) mutexFormulas {
	k := sets[0].Len()
	lo, hi := len(sets), 0 // voters a waiting process shares with the one that exits
	for a := range sets {
		for b := range sets {
			if a != b {
				x := (sets[a] & sets[b]).Len()
				lo, hi = min(lo, x), max(hi, x)
			}
		}
	}
	return mutexFormulas{
		enter:          formula{text: "2K", min: 2 * k, max: 2 * k},
		exit:           exact("K", k),
		exitOneWaiter:  formula{text: "K + |Va∩Vb| (releases + votes)", min: k + lo, max: k + hi},
		exitAllWaiting: exact("K", k),
		client:         exact("2", 2),
		sync:           exact("2 (release + vote)", 2),
	}
}

// within is a cost row for a bound of the notes: it matches when every
// measured figure (per critical section, so not always whole) lies in
// [lo, hi].
func within(metric string, got [2]float64, text string, lo, hi int) Row {
	a, b := min(got[0], got[1]), max(got[0], got[1])
	measured := num(a)
	if b != a {
		measured += ".." + num(b)
	}
	r := Row{Metric: metric, Measured: measured, Formula: fmt.Sprintf("%s = %d..%d", text, lo, hi),
		Matches: float64(lo) <= a && b <= float64(hi)}
	if !r.Matches {
		r.Note = "outside the notes' bounds"
	}
	return r
}

// num renders x with at most two decimals: "11", "11.57".
func num(x float64) string { return strconv.FormatFloat(float64(int(x*100+0.5))/100, 'f', -1, 64) }
