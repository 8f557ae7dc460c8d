package protocols

import (
	"fmt"
	"github.com/coordcheck/coordcheck/internal/clip"
	"slices"
	"strings"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/live"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols/multicast"
)

// Parameters shared by the multicast entries.
var (
	paramMsgs     = Param{"msgs", "2", fmt.Sprintf("multicasts each process may make (K, 1 to %d)", multicast.MaxMsgs)}
	paramSenders  = Param{"senders", "2", "how many processes multicast: p0 .. p(senders-1), or all"}
	paramWorkload = Param{"workload", "free", "free: any process multicasts at will; causal: a process other than p0 " +
		"multicasts only after delivering another's message (multicasts become causally related)"}
	paramProps = Param{"props", "claimed", "properties to check, comma-separated, or claimed: those the notes claim " +
		"for the protocol (valid: " + strings.Join(mcastProps, ", ") + ", and view-synchrony for view-synchronous protocols)"}
)

// mcastProps are the properties every multicast protocol reports (its
// records let the checker judge them), in checking order.
var mcastProps = []string{
	invariants.IntegrityName, invariants.FIFOOrderName, invariants.CausalOrderName, invariants.TotalOrderName,
	invariants.AllOrNoneName, invariants.ValidityName, invariants.McastAgreementName,
}

// mcastParams are the parameters of a multicast entry: -n, -msgs,
// -workload, -props, then the protocol's own.
func mcastParams(own ...Param) []Param {
	return append([]Param{paramN("3"), paramMsgs, paramSenders, paramWorkload, paramProps}, own...)
}

// mcastWorkload reads -n, -msgs, -senders and -workload.
func mcastWorkload(v Values) (n int, wl multicast.Workload, err error) {
	if n, err = v.Int("n", 2, multicast.MaxNodes); err != nil {
		return
	}
	if wl.Msgs, err = v.Int("msgs", 1, multicast.MaxMsgs); err != nil {
		return
	}
	wl.Senders = n
	if v.Get("senders") != "all" {
		if wl.Senders, err = v.Int("senders", 1, n); err != nil {
			return
		}
	}
	var ok bool
	if wl.Causal, ok = multicast.ParseWorkload(v.Get("workload")); !ok {
		err = fmt.Errorf("parameter workload=%s: want free or causal", clip.Quote(v.Get("workload")))
	}
	return
}

// mcastFamily describes a multicast protocol to mcastSpec: the properties
// the notes claim for it (checked by default), and whether it records view
// installations (only then may view-synchrony be asked).
type mcastFamily struct {
	claims []string
	views  bool
}

// mcastSpec is the spec of a multicast protocol: the properties of
// invariants/multicast.go named by -props (default: the claimed ones),
// over the history the protocol records. It turns on cfg.History, kept
// per node (see invariants/multicast.go). Asking for a property the
// protocol does not report, or restarts (processes are crash-stop: a
// restarted sender would reuse its numbers), is an error.
func mcastSpec[S, M any](p model.Protocol[S, M], cfg model.Config, v Values, fam mcastFamily) (checker.Target, error) {
	if cfg.Faults.Budget[model.Restart] != 0 {
		return nil, fmt.Errorf("multicast processes are crash-stop: -faults restart is not supported")
	}
	reports := slices.Clone(mcastProps)
	if fam.views {
		reports = append(reports, invariants.ViewSynchronyName)
	}
	props := fam.claims
	if s := v.Get("props"); s != "claimed" {
		props = strings.Split(s, ",")
		for _, name := range props {
			if !slices.Contains(reports, name) {
				return nil, fmt.Errorf("parameter props: this protocol does not report %s (valid: %s)", clip.Quote(name), strings.Join(reports, ", "))
			}
		}
	}
	cfg.History, cfg.HistoryByNode = true, true
	sys, err := model.NewSystem(p, cfg)
	if err != nil {
		return nil, err
	}
	sp := &checker.Spec[S, M]{System: sys}
	for _, name := range append(slices.Clone(mcastProps), invariants.ViewSynchronyName) {
		if !slices.Contains(props, name) {
			continue
		}
		switch name {
		case invariants.IntegrityName:
			sp.Invariants = append(sp.Invariants, invariants.Integrity[S, M]())
		case invariants.FIFOOrderName:
			sp.Invariants = append(sp.Invariants, invariants.FIFOOrder[S, M]())
		case invariants.CausalOrderName:
			sp.Invariants = append(sp.Invariants, invariants.CausalOrder[S, M]())
		case invariants.TotalOrderName:
			sp.Invariants = append(sp.Invariants, invariants.TotalOrder[S, M]())
		case invariants.ViewSynchronyName:
			sp.Invariants = append(sp.Invariants, invariants.ViewSynchrony[S, M]())
		case invariants.AllOrNoneName:
			sp.Invariants = append(sp.Invariants, invariants.AllOrNone[S, M]())
		case invariants.ValidityName:
			sp.Liveness = append(sp.Liveness, invariants.Validity[S, M]())
		case invariants.McastAgreementName:
			sp.Liveness = append(sp.Liveness, invariants.McastAgreement[S, M]())
		}
	}
	return live.Target(sp), nil
}
