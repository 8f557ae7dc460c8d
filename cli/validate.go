package cli

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/internal/clip"
	"github.com/coordcheck/coordcheck/invariants/linearizability"
)

// Refusing what cannot take effect. A flag that the chosen mode or
// protocol ignores would let a check pass without having done what was
// asked, so it is bad usage (exit 2, one line naming it). The settings of
// the system itself are refused below the command line, where replay and
// library users meet them too: node ids in -faults and in the protocol's
// parameters, -timers, -app-msgs and the node count by model.NewSystem
// (Config.Check); -ordering for a protocol with no happened-before
// property by the registry (Entry.BuildWith); -skip of a property the
// protocol does not report by checker.Spec.Without.

// walkModes are the modes that run random walks.
var walkModes = []checker.Strategy{checker.Random, checker.Swarm}

// flagRule says where one flag of check can take effect.
type flagRule struct {
	flag string
	// modes are the modes the flag applies to; nil: every mode.
	modes []checker.Strategy
	// needs, when set, says why the flag cannot take effect for this
	// request ("" when it can).
	needs func(r *checkRequest) string
}

// checkFlagRules is the table of check's flags against modes and
// protocols. A flag not listed applies to every mode and protocol:
// -network, -faults, -timers, -ordering, -app-msgs and the protocol's
// parameters (checked by the model and the registry, see above),
// -max-states, -max-depth (under random and swarm, the length of a walk),
// -max-memory, -timeout, -exhaust (under random and swarm it counts the
// failing walks), -skip, -o, -json and -cpuprofile.
var checkFlagRules = []flagRule{
	{flag: "seed", modes: walkModes},
	{flag: "walks", modes: walkModes, needs: func(r *checkRequest) string {
		return r.unlessGiven("walk", "only that walk runs")
	}},
	{flag: "walk", modes: walkModes},
	{flag: "shard", modes: walkModes, needs: func(r *checkRequest) string {
		return r.unlessGiven("walk", "only that walk runs")
	}},
	{flag: "exhaust", needs: func(r *checkRequest) string {
		return r.unlessGiven("walk", "one walk runs and stops at its violation")
	}},
	// DFS, and BFS keeping the state graph, run on one goroutine; whether
	// BFS keeps the graph is known only during the search.
	{flag: "workers", modes: []checker.Strategy{checker.BFS, checker.Random, checker.Swarm}},
	{flag: "liveness", needs: func(r *checkRequest) string {
		if len(r.liveness) == 0 {
			return fmt.Sprintf("%s checks no liveness property (it checks %s)", r.protocol, strings.Join(r.properties, ", "))
		}
		return ""
	}},
	// Checkpoints are written and resumed by BFS only (checkpoint.go).
	{flag: "checkpoint", modes: []checker.Strategy{checker.BFS}},
	{flag: "checkpoint-every", modes: []checker.Strategy{checker.BFS}, needs: func(r *checkRequest) string {
		if _, ok := r.given["checkpoint"]; !ok {
			return "no -checkpoint FILE is given"
		}
		return ""
	}},
	{flag: "resume", modes: []checker.Strategy{checker.BFS}},
	// BFS reads its frontier in order, a chunk at a time (checker/spill.go).
	{flag: "spill", modes: []checker.Strategy{checker.BFS}},
	{flag: "spill-dir", modes: []checker.Strategy{checker.BFS}, needs: func(r *checkRequest) string {
		if r.given["spill"] == "never" {
			return "with -spill never nothing is written"
		}
		return ""
	}},
	// The checker refuses the rest (checker/symmetry.go): liveness, a
	// property not declared symmetric, what the model cannot rename.
	{flag: "symmetry", modes: []checker.Strategy{checker.BFS, checker.DFS}},
	{flag: "por", modes: []checker.Strategy{checker.BFS, checker.DFS}},
	{flag: "history", needs: func(r *checkRequest) string {
		if !slices.Contains(r.properties, linearizability.PropertyName) {
			return fmt.Sprintf("%s does not check %s, so there is no client history to write", r.protocol, linearizability.PropertyName)
		}
		return ""
	}},
}

// checkRequest is what validateCheck judges: the flags given on the
// command line and what the protocol checks.
type checkRequest struct {
	protocol   string
	mode       checker.Strategy
	given      map[string]string // flag name to value, for the flags given
	properties []string          // the properties checked
	liveness   []string          // the liveness properties among them
}

// unlessGiven says why a flag cannot take effect when flag other is also
// given, or "" when it is not.
func (r *checkRequest) unlessGiven(other, why string) string {
	if v, ok := r.given[other]; ok {
		return fmt.Sprintf("with -%s %s %s", other, v, why)
	}
	return ""
}

// newCheckRequest collects the flags given in fs and the properties of
// target.
func newCheckRequest(protocol string, mode checker.Strategy, fs *flag.FlagSet, target checker.Target) *checkRequest {
	r := &checkRequest{protocol: protocol, mode: mode, given: map[string]string{}, properties: target.PropertyNames()}
	fs.Visit(func(f *flag.Flag) { r.given[f.Name] = f.Value.String() })
	if l, ok := target.(interface{ LivenessNames() []string }); ok {
		r.liveness = l.LivenessNames()
	}
	return r
}

// validateCheck refuses, with one line, the first flag of r that cannot
// take effect, in the order of checkFlagRules.
func validateCheck(r *checkRequest) error {
	for _, rule := range checkFlagRules {
		v, ok := r.given[rule.flag]
		if !ok {
			continue
		}
		if rule.modes != nil && !slices.Contains(rule.modes, r.mode) {
			var names []string
			for _, m := range rule.modes {
				names = append(names, m.String())
			}
			return usageError("%s has no effect under -mode %s (it applies to -mode %s)",
				flagText(rule.flag, v), r.mode, strings.Join(names, ", "))
		}
		if rule.needs != nil {
			if why := rule.needs(r); why != "" {
				return usageError("%s has no effect: %s", flagText(rule.flag, v), why)
			}
		}
	}
	return nil
}

// validateCheckValues refuses a value of check's numeric flags outside
// its range.
func validateCheckValues(walks, walk, maxDepth, workers, appMsgs int, timeout string, negativeTimeout bool) error {
	switch {
	case walks < 1:
		return usageError("-walks %d: want at least 1", walks)
	case walk < -1:
		return usageError("-walk %d: want a walk number, 0 or more", walk)
	case maxDepth < 0:
		return usageError("-max-depth %d: want 0 (no bound) or more", maxDepth)
	case workers < 0:
		return usageError("-workers %d: want 0 (one per core) or more", workers)
	case appMsgs < 0 || appMsgs > 255:
		return usageError("-app-msgs %d: want a count from 0 to 255", appMsgs)
	case negativeTimeout:
		return usageError("-timeout %s: want 0 (no bound) or more", timeout)
	}
	return nil
}

// flagText renders a flag as given: "-walk 5", "-exhaust",
// "-liveness=false".
func flagText(name, value string) string {
	switch value {
	case "true":
		return "-" + name
	case "false":
		return "-" + name + "=false"
	}
	return "-" + name + " " + value
}

// checkWritable refuses, before any search, an output path that could not
// be written at the end: its directory is missing or not writable, or it
// is a directory. It creates and removes path's temporary file (the one
// the output is written to before it is renamed into place).
func checkWritable(flagName, path string) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return usageError("-%s %s: is a directory", flagName, path)
	}
	tmp := path + ".tmp"
	_, statErr := os.Stat(tmp)
	fh, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE, 0o666)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return usageError("-%s %s: cannot write there: %v", flagName, path, err)
	}
	fh.Close()
	if statErr != nil { // it did not exist before: leave no trace
		os.Remove(tmp)
	}
	return nil
}

// validateReplay refuses a replay's -html that could not be written.
func validateReplay(html string) error {
	if html == "" {
		return nil
	}
	return checkWritable("html", html)
}

// flagParseError matches the flag package's errors that quote what was
// given: an invalid value, or a flag that is not defined.
var flagParseError = regexp.MustCompile(`^(invalid (?:boolean )?value )"((?s).*)"( for (?:flag )?-[^:]+: )((?s).*)$|^(flag provided but not defined: )((?s).*)$`)

// flagErr is the flag package's parse error with the value or flag it
// quotes cut to a readable length (see package clip), so that the flag's
// name and what is wrong stay on the line.
func flagErr(err error) string {
	m := flagParseError.FindStringSubmatch(err.Error())
	switch {
	case m == nil:
		return clip.Line(err.Error())
	case m[1] != "":
		v, uerr := strconv.Unquote(`"` + m[2] + `"`)
		if uerr != nil {
			v = m[2]
		}
		return m[1] + clip.Quote(v) + m[3] + clip.String(m[4])
	default:
		return m[5] + clip.String(m[6])
	}
}

// flagUsageErr is a flag parse error for one line: an unknown flag lists
// the valid ones; a bad value of a known flag does not (the list would
// bury the value's problem; -h gives it).
func flagUsageErr(fs *flag.FlagSet, err error) string {
	if !strings.Contains(err.Error(), "flag provided but not defined") {
		return flagErr(err)
	}
	var valid []string
	fs.VisitAll(func(f *flag.Flag) { valid = append(valid, "-"+f.Name) })
	return flagErr(err) + " (valid flags: " + strings.Join(valid, " ") + ")"
}
