package protocols

import (
	"fmt"
	"slices"
	"strings"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/internal/clip"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/property"
	"github.com/coordcheck/coordcheck/protocols/multicast"
)

// Parameters shared by the multicast entries.
var (
	paramMsgs     = Param{"msgs", "2", fmt.Sprintf("multicasts each process may make (K, 1 to %d)", multicast.MaxMsgs)}
	paramSenders  = Param{"senders", "2", "how many processes multicast: p0 .. p(senders-1), or all"}
	paramWorkload = Param{"workload", "free", "free: any process multicasts at will; causal: a process other than p0 " +
		"multicasts only after delivering another's message (multicasts become causally related)"}
	paramProps = Param{"props", "claimed", "properties to check, comma-separated, or claimed: those the notes claim " +
		"for the protocol (valid: " + strings.Join(invariants.McastReports, ", ") + ", and view-synchrony for view-synchronous protocols)"}
)

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

// mcastEntry is the entry of multicast protocol name: the family's
// parameters, then its own, and build (an mcastBuild).
func mcastEntry(name, doc string, build func(Values, model.Config) (checker.Target, error),
	table func(n int) ([]costs.Row, error), own ...Param) Entry {
	return Entry{Name: name, Doc: doc, Params: mcastParams(own...), Build: build, Family: "multicast", Costs: table}
}

// mcastBuild is the Build of a multicast entry: it reads the workload,
// makes the protocol with newP (which reads the protocol's own
// parameters, if any) and gives it mcastSpec.
func mcastBuild[S, M any, P model.Protocol[S, M]](newP func(n int, wl multicast.Workload, v Values) (P, error),
	views bool, props func(P, ...string) property.Set[S, M]) func(Values, model.Config) (checker.Target, error) {
	return func(v Values, cfg model.Config) (checker.Target, error) {
		n, wl, err := mcastWorkload(v)
		if err != nil {
			return nil, err
		}
		p, err := newP(n, wl, v)
		if err != nil {
			return nil, err
		}
		return mcastSpec(p, cfg, v, views, props)
	}
}

// plain is the newP of mcastBuild for a protocol with no parameters of
// its own.
func plain[P any](newP func(int, multicast.Workload) P) func(int, multicast.Workload, Values) (P, error) {
	return func(n int, wl multicast.Workload, _ Values) (P, error) { return newP(n, wl), nil }
}

// mcastSpec is the spec of a multicast protocol p: the properties its
// package's Properties gives for the names -props asks (none: those the
// notes claim for it). Asking for a property the protocol does not report
// (views: it records view installations, so it reports view-synchrony
// too), or restarts (processes are crash-stop: a restarted sender would
// reuse its numbers), is an error.
func mcastSpec[S, M any, P model.Protocol[S, M]](p P, cfg model.Config, v Values, views bool,
	props func(P, ...string) property.Set[S, M]) (checker.Target, error) {
	if cfg.Faults.Budget[model.Restart] != 0 {
		return nil, fmt.Errorf("multicast processes are crash-stop: -faults restart is not supported")
	}
	reports := slices.Clone(invariants.McastReports)
	if views {
		reports = append(reports, invariants.ViewSynchronyName)
	}
	var names []string
	if s := v.Get("props"); s != "claimed" {
		names = strings.Split(s, ",")
		for _, name := range names {
			if !slices.Contains(reports, name) {
				return nil, fmt.Errorf("parameter props: this protocol does not report %s (valid: %s)", clip.Quote(name), strings.Join(reports, ", "))
			}
		}
	}
	return target(p, cfg, props(p, names...))
}
