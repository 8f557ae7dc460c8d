package costs

import (
	"fmt"
	"strings"

	"github.com/coordcheck/coordcheck/protocols/bully"
	"github.com/coordcheck/coordcheck/protocols/ringelection"
)

// electionRow lays one figure of a measured election run beside the notes'
// formula: the figure, who started the run, the formula as the notes
// write it and its value for the size at hand; note says why they differ,
// when they do.
func electionRow(metric string, got int, r ElectionRun, detail, text string, want int, note string) Row {
	m := fmt.Sprintf("%d (%s starts", got, r.Initiator)
	if detail != "" {
		m += ": " + detail
	}
	row := Row{Metric: metric, Measured: m + ")", Formula: fmt.Sprintf("%s = %d", text, want), Matches: got == want}
	if !row.Matches {
		row.Note = note
	}
	return row
}

// breakdown lists the messages of r by kind: "6 ELECTION, 6 OK, 3 COORD";
// lost ones are named apart.
func breakdown(r ElectionRun) string {
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

// BullyTable measures the bully algorithm among n processes beside the
// notes' figures: seed 003 for a crashed coordinator, seed 001 for a sole
// election with every process up. Messages "received" are those that
// reach a live process; an ELECTION to the crashed coordinator is lost.
func BullyTable(n int) ([]Row, error) {
	c, err := Bully(n)
	if err != nil {
		return nil, err
	}
	el := bully.Election.String()
	cb, cw, sb, sw := c.CrashBest, c.CrashWorst, c.SoleBest, c.SoleWorst
	return []Row{
		electionRow("coordinator crashed, best: messages received", cb.Sent(), cb, breakdown(cb),
			"N-2 COORD, the second-highest detects it (seed 003)", n-2, ""),
		electionRow("coordinator crashed, best: completion time", cb.Time(), cb, "",
			"1 (seed 003)", 1,
			"the second-highest too sends an ELECTION to the crashed coordinator and waits out the round trip of its OK "+
				"before announcing, as in the textbook algorithm and the SPIN model; the notes let it announce at once"),
		electionRow("coordinator crashed, worst: ELECTIONs sent", cw.Sent(el)+cw.Lost(el), cw, "",
			"(N-1)+(N-2)+...+1 = N(N-1)/2, the lowest detects it (seed 003)", n*(n-1)/2, ""),
		electionRow("coordinator crashed, worst: messages received", cw.Sent(), cw, breakdown(cw),
			"(N-1)(N-2)/2 ELECTION + (N-1)(N-2)/2 OK + (N-2) COORD = N(N-2)", n*(n-2), ""),
		electionRow("coordinator crashed, worst: completion time", cw.Time(), cw, "",
			"5 (seed 003)", 5,
			"an OK and the ELECTION it triggers leave in one step here, and a timeout lasts one round trip: "+
				"ELECTION 1 + ELECTION to the crashed one and its timeout 2 + COORD 1 = 4; the notes send the OK and the ELECTION one after the other"),
		electionRow("sole election, best: messages", sb.Sent(), sb, breakdown(sb),
			"N-1 COORD, the highest starts (seed 001)", n-1, ""),
		electionRow("sole election, worst: messages", sw.Sent(), sw, breakdown(sw),
			"sum_{i=1}^{N-1} ((N-i) ELECTION + (N-i) OK) + (N-1) COORD = N^2-1, the lowest starts (seed 001)", n*n-1, ""),
	}, nil
}

// ringTable measures a ring election among n processes, with no failure
// and a sole initiator, beside the notes' figures (seed 001; seed 003,
// "Worst-Case Analysis"). Only ELECTION and COORD messages are counted, as
// in the notes; the enhanced ring's ACKs (every ELECTION and COORD is
// answered by the successor that takes it: this model's way to poll
// successors until one responds) show in the breakdown.
func ringTable(n int, v ringelection.Variant) ([]Row, error) {
	c, err := Ring(n, v)
	if err != nil {
		return nil, err
	}
	b, w, counted := c.Best, c.Worst, RingCounted
	if v == ringelection.Enhanced {
		return []Row{
			electionRow("messages, any initiator (least)", b.Sent(counted...), b, breakdown(b),
				"2N (N ELECTION + N COORD) always", 2*n, ""),
			electionRow("messages, any initiator (most)", w.Sent(counted...), w, breakdown(w),
				"2N (N ELECTION + N COORD) always", 2*n, ""),
			electionRow("completion time", w.Time(counted...), w, "", "2N sequential messages", 2*n, ""),
		}, nil
	}
	return []Row{
		electionRow("best: messages", b.Sent(counted...), b, breakdown(b),
			"2N (N ELECTION + N COORD), the initiator has the highest id", 2*n, ""),
		electionRow("best: completion time", b.Time(counted...), b, "", "2N", 2*n, ""),
		electionRow("worst: messages", w.Sent(counted...), w, breakdown(w),
			"3N-1 (2N-1 ELECTION + N COORD), the initiator succeeds the highest id", 3*n-1, ""),
		electionRow("worst: completion time", w.Time(counted...), w, "", "3N-1", 3*n-1, ""),
	}, nil
}

// RingElectionTable measures both ring elections among n processes,
// Chang-Roberts's rows first, each metric named by its variant.
func RingElectionTable(n int) ([]Row, error) {
	cr, err := ringTable(n, ringelection.ChangRoberts)
	if err != nil {
		return nil, err
	}
	en, err := ringTable(n, ringelection.Enhanced)
	if err != nil {
		return nil, err
	}
	for i := range cr {
		cr[i].Metric = "changroberts, " + cr[i].Metric
	}
	for i := range en {
		en[i].Metric = "enhanced, " + en[i].Metric
	}
	return append(cr, en...), nil
}
