package invariants

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
)

// mworld is a world of n processes whose history is given per process:
// "p0: mcast p0#1; deliver p0#1 | p1: deliver p0#1".
func mworld(n int, down uint64, hist string) *model.World[int, int] {
	w := &model.World[int, int]{Nodes: make([]int, n), Timers: make([]uint64, n), Down: down}
	for _, part := range strings.Split(hist, "|") {
		who, recs, ok := strings.Cut(part, ":")
		if !ok {
			continue
		}
		id, err := model.ParseNodeID(strings.TrimSpace(who))
		if err != nil {
			panic(err)
		}
		for _, r := range strings.Split(recs, ";") {
			w.History = append(w.History, model.Record{Node: id, Text: strings.TrimSpace(r)})
		}
	}
	return w
}

func TestMulticastSafety(t *testing.T) {
	cases := []struct {
		name string
		inv  checker.Invariant[int, int]
		hist string
		why  string // "" when it holds
	}{
		{"integrity holds", Integrity[int, int](), "p0: mcast p0#1; deliver p0#1 | p1: deliver p0#1", ""},
		{"delivered twice", Integrity[int, int](), "p0: mcast p0#1 | p1: deliver p0#1; deliver p0#1", "p1 delivered p0#1 twice"},
		{"never sent", Integrity[int, int](), "p0: mcast p0#1 | p1: deliver p0#2", "p1 delivered p0#2, which was never multicast"},
		{"numbers skipped", Integrity[int, int](), "p0: mcast p0#2", "p0 multicast p0#2, but its next multicast is p0#1"},
		{"not a record", Integrity[int, int](), "p0: sent m", `p0: record "sent m" is not a multicast record`},
		{"fifo holds", FIFOOrder[int, int](), "p0: mcast p0#1; mcast p0#2 | p1: deliver p0#1; deliver p0#2", ""},
		{"fifo broken", FIFOOrder[int, int](), "p0: mcast p0#1; mcast p0#2 | p1: deliver p0#2",
			"p1 delivered p0#2 before p0#1, which its sender multicast first"},
		// p1 delivers p0#1 and then multicasts p1#1: p2 must deliver p0#1 first.
		{"causal broken", CausalOrder[int, int](),
			"p0: mcast p0#1 | p1: deliver p0#1; mcast p1#1 | p2: deliver p1#1; deliver p0#1",
			"p2 delivered p1#1 before p0#1, whose multicast happened before p1#1's"},
		{"causal through a chain", CausalOrder[int, int](),
			"p0: mcast p0#1 | p1: deliver p0#1; mcast p1#1 | p2: deliver p0#1; deliver p1#1; mcast p2#1 | p3: deliver p2#1",
			"p3 delivered p2#1 before p0#1, whose multicast happened before p2#1's"},
		// p1 multicasts p1#1 before it delivers p0#1 (it may have received
		// p0#1 and held it back: that is no cause): concurrent.
		{"concurrent", CausalOrder[int, int](),
			"p0: mcast p0#1 | p1: mcast p1#1; deliver p0#1 | p2: deliver p1#1; deliver p0#1", ""},
		{"total holds", TotalOrder[int, int](),
			"p0: mcast p0#1; deliver p1#1; deliver p0#1 | p1: mcast p1#1; deliver p1#1; deliver p0#1 | p2: deliver p1#1", ""},
		{"total broken", TotalOrder[int, int](),
			"p0: mcast p0#1; deliver p0#1; deliver p1#1 | p1: mcast p1#1; deliver p1#1; deliver p0#1",
			"p0 delivered p0#1 before p1#1, p1 the other way round"},
		{"views hold", ViewSynchrony[int, int](),
			"p0: mcast p0#1; deliver p0#1 | p1: deliver p0#1; view 1 {p1,p2} | p2: deliver p0#1; view 1 {p1,p2}", ""},
		{"view sets differ", ViewSynchrony[int, int](),
			"p0: mcast p0#1; deliver p0#1 | p1: deliver p0#1; view 1 {p1,p2} | p2: view 1 {p1,p2}",
			"p1 and p2 both moved from view 0 to 1, but only one of them delivered p0#1 in view 0"},
		{"across a view change", ViewSynchrony[int, int](),
			"p0: mcast p0#1; deliver p0#1 | p1: view 1 {p1,p2}; deliver p0#1 | p2: view 1 {p1,p2}",
			"p1 delivered p0#1 in view 1, but it was multicast in view 0"},
		{"views disagree", ViewSynchrony[int, int](), "p1: view 1 {p1,p2} | p2: view 1 {p0,p2}",
			"view 1 has members {p0,p2} at p2 but {p1,p2} elsewhere"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ok, why := c.inv.Holds(mworld(4, 0, c.hist))
			require.Equal(t, c.why == "", ok, why)
			require.Equal(t, c.why, why)
		})
	}
}

func TestMulticastLiveness(t *testing.T) {
	hist := "p0: mcast p0#1; deliver p0#1 | p1: deliver p0#1 | p2: mcast p2#1"
	w := mworld(3, 0, hist)
	agree, valid := McastAgreement[int, int](), Validity[int, int]()
	require.False(t, agree.Pending(w, 0))
	require.True(t, agree.Pending(w, 2), "p2 has not delivered what p0 and p1 delivered")
	require.True(t, valid.Pending(w, 2), "p2 has not delivered its own p2#1")
	require.False(t, valid.Pending(w, 0))
	// Once p0 and p1 have crashed, no correct process delivered p0#1.
	require.False(t, agree.Pending(mworld(3, 0b011, hist), 2))

	aon := AllOrNone[int, int]()
	require.True(t, aon.Terminal)
	ok, why := aon.Holds(w)
	require.False(t, ok)
	require.Equal(t, "the run is over: p0 delivered p0#1, but p2, also alive, never will", why)
	ok, _ = aon.Holds(mworld(3, 0b100, hist))
	require.True(t, ok, "p2 crashed: p0 and p1 both delivered p0#1")
}

func TestMcastRecordsRoundTrip(t *testing.T) {
	for _, r := range []string{McastRecord(MsgID{2, 3}), DeliverRecord(MsgID{0, 1}), ViewRecord(4, 0b101), ViewRecord(1, 0)} {
		ev, err := ParseMcastRecord(r)
		require.NoError(t, err)
		var back string
		switch ev.Kind {
		case McastSend:
			back = McastRecord(ev.Msg)
		case McastDeliver:
			back = DeliverRecord(ev.Msg)
		case McastView:
			back = ViewRecord(ev.View, ev.Members)
		}
		require.Equal(t, r, back)
	}
	_, err := ParseMsgID("p9#1")
	require.Error(t, err)
}

// The quick reading of a record agrees with the general parser on every
// record it reads, and reads every record McastRecord and DeliverRecord
// write.
func TestQuickMcastRecordAgrees(t *testing.T) {
	read := 0
	for _, word := range []string{"mcast", "deliver", "view", "mcas", "deliverx"} {
		for _, id := range []string{"p", "q", "P", "p0", "p7", "p8", "p9", "p10", "x"} {
			for _, seq := range []string{"#0", "#1", "#8", "#9", "#01", "x1", "#", ""} {
				s := word + " " + id + seq
				ev, ok := quickMcastRecord(s)
				if !ok {
					continue
				}
				read++
				want, err := parseMcastRecord(s)
				require.NoError(t, err, s)
				require.Equal(t, want, ev, s)
			}
		}
	}
	for p := range model.NodeID(MaxMcastNodes) {
		for seq := uint8(1); seq <= MaxMcastSeq; seq++ {
			m := MsgID{p, seq}
			for _, s := range []string{McastRecord(m), DeliverRecord(m)} {
				ev, ok := quickMcastRecord(s)
				require.True(t, ok, s)
				require.Equal(t, m, ev.Msg, s)
			}
		}
	}
	require.Equal(t, 2*2*2, read, "mcast and deliver of p0 and p7, #1 and #8")
}

// The properties' kept splits of a history (sharedLogs) are one
// goroutine's at a time, and a property never reads the split of another
// history: goroutines judging different worlds, one after the other on
// the same goroutine too, each get their own world's verdict (and no
// race, under -race).
func TestMcastPropertiesConcurrently(t *testing.T) {
	worlds := []struct {
		w   *model.World[int, int]
		why string
	}{
		{mworld(2, 0, "p0: mcast p0#1; deliver p0#1 | p1: deliver p0#1"), ""},
		{mworld(2, 0, "p0: mcast p0#1 | p1: deliver p0#1; deliver p0#1"), "p1 delivered p0#1 twice"},
		{mworld(2, 0, "p0: mcast p0#1 | p1: deliver p0#2"), "p1 delivered p0#2, which was never multicast"},
		{mworld(3, 0, "p0: mcast p0#1 | p2: deliver p0#1"), ""},
	}
	inv := Integrity[int, int]()
	done := make(chan string)
	for g := range 4 {
		go func() {
			for i := range 2000 {
				c := worlds[(g+i)%len(worlds)]
				if ok, why := inv.Holds(c.w); ok != (c.why == "") || why != c.why {
					done <- why
					return
				}
			}
			done <- "ok"
		}()
	}
	for range 4 {
		require.Equal(t, "ok", <-done)
	}
}
