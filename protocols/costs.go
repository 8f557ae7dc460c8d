package protocols

import (
	"fmt"

	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
)

// CostRow is one line of a protocol's cost table: a metric, the figure the
// protocol's own code gave when run, the notes' formula for it, and a note
// where they differ.
type CostRow struct {
	Metric   string `json:"metric"`
	Measured string `json:"measured"`
	Formula  string `json:"formula"`
	Matches  bool   `json:"matches"`
	Note     string `json:"note,omitempty"`
}

// formula is a figure of the notes' tables: its text and, evaluated for
// the size at hand, the range it predicts.
type formula struct {
	text     string
	min, max int
	note     string // said when the measurement differs
}

func exact(text string, v int) formula { return formula{text: text, min: v, max: v} }

func (f formula) row(metric string, got costs.Range) CostRow {
	want := costs.Range{Min: f.min, Max: f.max}
	r := CostRow{Metric: metric, Measured: got.String(), Formula: fmt.Sprintf("%s = %s", f.text, want), Matches: got == want}
	if !r.Matches {
		r.Note = f.note
	}
	return r
}

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

// mutexCosts measures p and lays the figures beside the formulas.
func mutexCosts[S, M any, P mutexProtocol[S, M]](p P, f mutexFormulas) ([]CostRow, error) {
	sys, err := model.NewSystem[S, M](p, model.Config{})
	if err != nil {
		return nil, err
	}
	c, err := costs.Mutex(sys, p)
	if err != nil {
		return nil, err
	}
	exit := c.ExitMsgs
	rows := []CostRow{
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
