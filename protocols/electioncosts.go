package protocols

import (
	"fmt"
	"strings"

	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/protocols/bully"
	"github.com/coordcheck/coordcheck/protocols/ringelection"
)

// costRow lays one figure of a measured election run beside the notes'
// formula: the figure, who started the run, the formula as the notes
// write it and its value for the size at hand; note says why they differ,
// when they do.
func costRow(metric string, got int, r costs.ElectionRun, detail, text string, want int, note string) CostRow {
	m := fmt.Sprintf("%d (%s starts", got, r.Initiator)
	if detail != "" {
		m += ": " + detail
	}
	row := CostRow{Metric: metric, Measured: m + ")", Formula: fmt.Sprintf("%s = %d", text, want), Matches: got == want}
	if !row.Matches {
		row.Note = note
	}
	return row
}

// breakdown lists the messages of r by kind: "6 ELECTION, 6 OK, 3 COORD";
// lost ones are named apart.
func breakdown(r costs.ElectionRun) string {
	var parts []string
	for _, k := range r.Kinds {
		if k.Sent > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", k.Sent, k.Kind))
		}
		if k.Lost > 0 {
			parts = append(parts, fmt.Sprintf("%d %s lost", k.Lost, k.Kind))
		}
	}
	return strings.Join(parts, ", ")
}

// bullyCosts measures the bully algorithm among n processes beside the
// notes' figures: seed 003 for a crashed coordinator, seed 001 for a sole
// election with every process up. Messages "received" are those that
// reach a live process; an ELECTION to the crashed coordinator is lost.
func bullyCosts(n int) ([]CostRow, error) {
	c, err := costs.Bully(n)
	if err != nil {
		return nil, err
	}
	el := bully.Election.String()
	cb, cw, sb, sw := c.CrashBest, c.CrashWorst, c.SoleBest, c.SoleWorst
	return []CostRow{
		costRow("coordinator crashed, best: messages received", cb.Sent(), cb, breakdown(cb),
			"N-2 COORD, the second-highest detects it (seed 003)", n-2, ""),
		costRow("coordinator crashed, best: completion time", cb.Time(), cb, "",
			"1 (seed 003)", 1,
			"the second-highest too sends an ELECTION to the crashed coordinator and waits out the round trip of its OK "+
				"before announcing, as in the textbook algorithm and the SPIN model; the notes let it announce at once"),
		costRow("coordinator crashed, worst: ELECTIONs sent", cw.Sent(el)+cw.Lost(el), cw, "",
			"(N-1)+(N-2)+...+1 = N(N-1)/2, the lowest detects it (seed 003)", n*(n-1)/2, ""),
		costRow("coordinator crashed, worst: messages received", cw.Sent(), cw, breakdown(cw),
			"(N-1)(N-2)/2 ELECTION + (N-1)(N-2)/2 OK + (N-2) COORD = N(N-2)", n*(n-2), ""),
		costRow("coordinator crashed, worst: completion time", cw.Time(), cw, "",
			"5 (seed 003)", 5,
			"an OK and the ELECTION it triggers leave in one step here, and a timeout lasts one round trip: "+
				"ELECTION 1 + ELECTION to the crashed one and its timeout 2 + COORD 1 = 4; the notes send the OK and the ELECTION one after the other"),
		costRow("sole election, best: messages", sb.Sent(), sb, breakdown(sb),
			"N-1 COORD, the highest starts (seed 001)", n-1, ""),
		costRow("sole election, worst: messages", sw.Sent(), sw, breakdown(sw),
			"sum_{i=1}^{N-1} ((N-i) ELECTION + (N-i) OK) + (N-1) COORD = N^2-1, the lowest starts (seed 001)", n*n-1, ""),
	}, nil
}

// ringCosts measures a ring election among n processes, with no failure
// and a sole initiator, beside the notes' figures (seed 001; seed 003,
// "Worst-Case Analysis"). Only ELECTION and COORD messages are counted, as
// in the notes; the enhanced ring's ACKs (every ELECTION and COORD is
// answered by the successor that takes it: this model's way to poll
// successors until one responds) show in the breakdown.
func ringCosts(n int, v ringelection.Variant) ([]CostRow, error) {
	c, err := costs.Ring(n, v)
	if err != nil {
		return nil, err
	}
	b, w, counted := c.Best, c.Worst, costs.RingCounted
	if v == ringelection.Enhanced {
		return []CostRow{
			costRow("messages, any initiator (least)", b.Sent(counted...), b, breakdown(b),
				"2N (N ELECTION + N COORD) always", 2*n, ""),
			costRow("messages, any initiator (most)", w.Sent(counted...), w, breakdown(w),
				"2N (N ELECTION + N COORD) always", 2*n, ""),
			costRow("completion time", w.Time(counted...), w, "", "2N sequential messages", 2*n, ""),
		}, nil
	}
	return []CostRow{
		costRow("best: messages", b.Sent(counted...), b, breakdown(b),
			"2N (N ELECTION + N COORD), the initiator has the highest id", 2*n, ""),
		costRow("best: completion time", b.Time(counted...), b, "", "2N", 2*n, ""),
		costRow("worst: messages", w.Sent(counted...), w, breakdown(w),
			"3N-1 (2N-1 ELECTION + N COORD), the initiator succeeds the highest id", 3*n-1, ""),
		costRow("worst: completion time", w.Time(counted...), w, "", "3N-1", 3*n-1, ""),
	}, nil
}
