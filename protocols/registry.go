// Package protocols is the registry of the algorithms coordcheck ships:
// each entry names a protocol, documents its parameters and builds a
// checker.Target from parameter values. The command line and the replay
// of counterexample files both go through it.
package protocols

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/costs"
	"github.com/coordcheck/coordcheck/internal/clip"
	"github.com/coordcheck/coordcheck/invariants"
	"github.com/coordcheck/coordcheck/live"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/property"
)

// Param is one parameter of a protocol.
type Param struct {
	Name    string
	Default string
	Doc     string
}

// Entry describes one protocol of the registry.
type Entry struct {
	Name string
	// Doc is a one-line description, citing the notes.
	Doc    string
	Params []Param
	// Build makes the target for the given values (every parameter is
	// present, defaults filled in) and system configuration. It returns an
	// error naming what is wrong, and what is valid, for bad values.
	Build func(v Values, cfg model.Config) (checker.Target, error)
	// Family groups protocols that solve the same problem ("mutex",
	// "election"), for `coordcheck costs FAMILY`.
	Family string
	// Costs, when set, measures the protocol's costs for n processes by
	// running it, beside the notes' formulas: a table of package costs
	// (costs.LamportTable, ...).
	Costs func(n int) ([]costs.Row, error)
	// Live, when set, builds the runner of a live run (coordcheck run,
	// package live) itself; without it, a live run runs the target of
	// LiveBuild, judged by its properties.
	Live func(v Values) (live.Runner, error)
	// LiveTarget, when set, builds the target a live run is judged by and
	// its trace replays in, where it differs from Build's: a live run is
	// bounded by its duration, not by rounds (see mutex.Endless).
	LiveTarget func(v Values, cfg model.Config) (checker.Target, error)
}

var entries []Entry

// Register adds e to the registry, so that every command of package cli
// (list, check, replay, costs and, with Live set, run) serves it. The
// shipped protocols register from init functions; a user's own main
// registers theirs before it calls cli.Main. Like http.Handle, it panics
// on a programming error: an entry without a name or Build, or a name
// already taken.
func Register(e Entry) {
	if e.Name == "" || e.Build == nil {
		panic("protocols: Register needs an entry with a Name and a Build")
	}
	if _, ok := Lookup(e.Name); ok {
		panic("protocols: duplicate entry " + e.Name)
	}
	entries = append(entries, e)
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name < entries[j].Name })
}

// All returns every entry, sorted by name.
func All() []Entry { return slices.Clone(entries) }

// Names returns the names of all entries, sorted.
func Names() []string {
	var names []string
	for _, e := range entries {
		names = append(names, e.Name)
	}
	return names
}

// Lookup finds the entry called name.
func Lookup(name string) (Entry, bool) {
	for _, e := range entries {
		if e.Name == name {
			return e, true
		}
	}
	return Entry{}, false
}

// UnknownError is returned for a protocol name not in the registry.
type UnknownError struct{ Name string }

// Error lists the valid protocol names.
func (e *UnknownError) Error() string {
	return fmt.Sprintf("unknown protocol %s (valid: %s)", clip.Quote(e.Name), strings.Join(Names(), ", "))
}

// Values holds a value for every parameter of an entry, in the entry's
// parameter order.
type Values struct {
	names []string
	vals  []string
}

// Values returns the entry's defaults overridden by given (name to value).
// An unknown name is an error that lists the valid ones.
func (e Entry) Values(given map[string]string) (Values, error) {
	var v Values
	for _, p := range e.Params {
		v.names = append(v.names, p.Name)
		v.vals = append(v.vals, p.Default)
	}
	keys := make([]string, 0, len(given))
	for k := range given {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		i := slices.Index(v.names, k)
		if i < 0 {
			return Values{}, fmt.Errorf("protocol %s has no parameter %s (valid: %s)", e.Name, clip.Quote(k), strings.Join(v.names, ", "))
		}
		v.vals[i] = given[k]
	}
	return v, nil
}

// BuildWith is Values followed by the entry's Build; it returns the values
// used. Ordering asked of a protocol whose spec has no ordering property
// is an error: it could not take effect.
func (e Entry) BuildWith(given map[string]string, cfg model.Config) (checker.Target, Values, error) {
	v, err := e.Values(given)
	if err != nil {
		return nil, v, err
	}
	t, err := e.Build(v, cfg)
	if err != nil {
		return nil, v, err
	}
	if cfg.Ordering && !slices.Contains(t.PropertyNames(), invariants.HappenedBeforeOrderName) {
		return nil, v, fmt.Errorf("ordering has no effect: the protocol checks no %s property", invariants.HappenedBeforeOrderName)
	}
	return t, v, nil
}

// Get returns the value of parameter name ("" when there is none).
func (v Values) Get(name string) string {
	if i := slices.Index(v.names, name); i >= 0 {
		return v.vals[i]
	}
	return ""
}

// Int returns parameter name as an integer within [lo, hi].
func (v Values) Int(name string, lo, hi int) (int, error) {
	s := v.Get(name)
	x, err := strconv.Atoi(s)
	if err != nil || x < lo || x > hi {
		return 0, fmt.Errorf("parameter %s=%s: want an integer from %d to %d", name, clip.Quote(s), lo, hi)
	}
	return x, nil
}

// Choice returns the index of parameter name's value among choices, the
// words it may be.
func (v Values) Choice(name string, choices ...string) (int, error) {
	s := v.Get(name)
	if i := slices.Index(choices, s); i >= 0 {
		return i, nil
	}
	last := len(choices) - 1
	return 0, fmt.Errorf("parameter %s=%s: want %s or %s", name, clip.Quote(s), strings.Join(choices[:last], ", "), choices[last])
}

// On reads an on/off parameter: whether it is on.
func (v Values) On(name string) (bool, error) {
	i, err := v.Choice(name, "on", "off")
	return i == 0, err
}

// String renders the values as "n=3 rounds=1", in parameter order.
func (v Values) String() string {
	parts := make([]string, len(v.names))
	for i := range v.names {
		parts[i] = v.names[i] + "=" + v.vals[i]
	}
	return strings.Join(parts, " ")
}

// Map returns the values as a map from name to value.
func (v Values) Map() map[string]string {
	m := make(map[string]string, len(v.names))
	for i := range v.names {
		m[v.names[i]] = v.vals[i]
	}
	return m
}

// Common parameters.
var (
	paramN      = func(def string) Param { return Param{"n", def, "number of processes"} }
	paramRounds = Param{"rounds", "1", "critical sections each process enters (bounds the state space)"}
)

// Runner builds the protocol of values v for a live run (coordcheck run,
// package live): with the entry's Live hook if it has one, or else from
// the target Build makes under the checker's default configuration, so
// that the run is judged by the very properties the checker checks.
func (e Entry) Runner(v Values) (live.Runner, error) {
	if e.Live != nil {
		return e.Live(v)
	}
	return liveRunner(e.LiveBuild(v, model.Config{}))
}

// LiveBuild is the target a live run of values v is judged by, under cfg:
// LiveTarget's if the entry has one, else Build's. The run's trace
// replays in it.
func (e Entry) LiveBuild(v Values, cfg model.Config) (checker.Target, error) {
	if e.LiveTarget != nil {
		return e.LiveTarget(v, cfg)
	}
	return e.Build(v, cfg)
}

// liveRunner is the live runner of a target built by mutexSpec,
// electionSpec, mcastSpec or coordinationTarget, or the error that
// building it gave.
func liveRunner(t checker.Target, err error) (live.Runner, error) {
	if err != nil {
		return nil, err
	}
	r, ok := t.(live.Runnable)
	if !ok {
		return nil, fmt.Errorf("this protocol's target does not run live")
	}
	return r.Runner(), nil
}

// target is the spec of set, the properties p's package exports, on p's
// system under cfg, as a Target; or model.NewSystem's error (never a
// Target holding a nil spec).
func target[S, M any](p model.Protocol[S, M], cfg model.Config, set property.Set[S, M]) (checker.Target, error) {
	sp, err := checker.NewSpec(p, cfg, set)
	if err != nil {
		return nil, err
	}
	return live.Target(sp), nil
}
