// Command mutate runs the mutation tester of package mutate on the
// protocols: each mutant of a protocol's transition functions is compiled
// through `go test -overlay` (the tree is never written) and must fail the
// protocol package's tests, or else the registry's tests of it. It prints a
// Markdown table of the catch rate per protocol and the survivors. Run it
// from the module root; see package mutate for the command lines.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/coordcheck/coordcheck/internal/mutate"
)

// protocols are the packages mutated by default, smallest first.
var protocols = []string{
	"centralized", "ricartagrawala", "lamport", "tokenring", "bully", "ringelection",
	"maekawa", "maekawadf", "voting", "coordination",
}

// registryRun selects the tests of package protocols that check a protocol
// through the registry: its costs against the notes, its entry, and its
// liveness verdicts. TestParallelBFSIsTheSameSearch is left out: it compares
// two engines on the same protocol, which a mutant changes alike.
const registryRun = "^(TestMutexCostsMatchTheNotes|TestElectionCostsMatchTheNotes|TestLivenessWithAndWithoutTheGraph|Test.*Entr(y|ies)|TestMaekawa.*)$"

func main() {
	pkgs := flag.String("pkg", strings.Join(protocols, ","), "comma-separated protocol packages under protocols/")
	maxFlag := flag.String("max", "60", "mutants per package at most, sampled with -seed (0: all); \"12,bully=20\" sets 12, and 20 for bully")
	seed := flag.Uint64("seed", 12, "the sampling seed")
	list := flag.Bool("list", false, "list the mutants, run nothing")
	timeout := flag.Duration("timeout", 60*time.Second, "test time per mutant and stage; a mutant that exceeds it is caught (as a timeout)")
	equivFile := flag.String("equivalent", "internal/mutate/testdata/equivalent.txt", "the list of equivalent mutants")
	logFile := flag.String("log", "", "append one JSON line per mutant run to this file")
	rerun := flag.String("rerun", "", "a -log of an earlier run: run again only the mutants that survived it and are not listed as equivalent (and those it lacks), take the others' outcomes from it")
	rerunTimeouts := flag.Bool("rerun-timeouts", false, "with -rerun, run its timeouts again too (with a longer -timeout, to tell a slow machine from an endless search)")
	only := flag.String("only", "", "run only the mutants whose key contains one of these comma-separated strings")
	flag.Parse()

	max, err := parseMax(*maxFlag)
	if err != nil {
		fail(err)
	}
	equiv, err := readEquivalent(*equivFile)
	if err != nil {
		fail(err)
	}
	earlier := map[string]result{}
	if *rerun != "" {
		if earlier, err = readLog(*rerun); err != nil {
			fail(err)
		}
	}
	var logw io.Writer = io.Discard
	if *logFile != "" {
		f, err := os.OpenFile(*logFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			fail(err)
		}
		defer f.Close()
		logw = f
	}
	tmp, err := os.MkdirTemp("", "mutate")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(tmp)

	var rows []row
	var survivors []result
	for _, pkg := range strings.Split(*pkgs, ",") {
		dir := filepath.Join("protocols", pkg)
		all, err := mutate.Package(dir)
		if err != nil {
			fail(err)
		}
		n, ok := max[pkg]
		if !ok {
			n = max[""]
		}
		ms := mutate.Sample(all, n, *seed)
		if *only != "" {
			ms = slices.DeleteFunc(ms, func(m mutate.Mutant) bool {
				for _, o := range strings.Split(*only, ",") {
					if strings.Contains(m.Key(), o) {
						return false
					}
				}
				return true
			})
		}
		if *list {
			for _, m := range ms {
				fmt.Printf("%s\t%s\n", m.Key(), m.Func)
			}
			continue
		}
		pkgRun, err := testNames(dir)
		if err != nil {
			fail(err)
		}
		r := row{pkg: pkg, sites: len(all), generated: len(ms)}
		for i, m := range ms {
			old, seen := earlier[m.Key()]
			var res result
			reuse := old.Outcome != survived && (old.Outcome != timedOut || !*rerunTimeouts)
			if old.Outcome == survived && equiv[m.Key()] != "" {
				reuse = true // an equivalent mutant survives any test
			}
			if seen && reuse {
				res = old
			} else {
				res = runMutant(tmp, dir, pkgRun, m, *timeout)
				res.Killed = seen && (old.Outcome == survived || old.Killed) && (res.Outcome == caught || res.Outcome == timedOut)
			}
			res.Equivalent = equiv[m.Key()]
			fmt.Fprintf(os.Stderr, "%s %d/%d %s: %s %s\n", pkg, i+1, len(ms), m.Key(), res.Outcome, res.Stage)
			line, _ := json.Marshal(res)
			fmt.Fprintf(logw, "%s\n", line)
			if res.Outcome == notCompiled {
				continue
			}
			r.compiled++
			switch {
			case res.Outcome == survived && res.Equivalent != "":
				r.equivalent++
			case res.Outcome == survived:
				survivors = append(survivors, res)
			default:
				r.caught++
				if res.Outcome == timedOut {
					r.timeouts++
				}
				if res.Killed {
					r.killed++
				}
			}
		}
		rows = append(rows, r)
	}
	if !*list {
		printReport(os.Stdout, rows, survivors)
	}
}

// The outcomes of a mutant.
const (
	notCompiled = "not compiled"
	caught      = "caught"
	timedOut    = "timeout"
	survived    = "survived"
)

// result is the run of one mutant.
type result struct {
	Key        string
	Func       string
	Outcome    string
	Stage      string `json:",omitempty"` // the package whose tests caught it
	Detail     string `json:",omitempty"` // the first failing test
	Equivalent string `json:",omitempty"` // the reason, if listed as equivalent
	Killed     bool   `json:",omitempty"` // it survived the -rerun log's run and is caught now
}

// row is one protocol's line of the table.
type row struct {
	pkg                                                              string
	sites, generated, compiled, caught, timeouts, killed, equivalent int
}

// runMutant applies m through an overlay and runs the package's tests, then,
// if it survives them, the registry's.
func runMutant(tmp, dir, pkgRun string, m mutate.Mutant, timeout time.Duration) result {
	res := result{Key: m.Key(), Func: m.Func}
	abs, err := filepath.Abs(m.File)
	if err != nil {
		fail(err)
	}
	mutant := filepath.Join(tmp, "mutant.go")
	if err := os.WriteFile(mutant, m.Src, 0o644); err != nil {
		fail(err)
	}
	overlay, _ := json.Marshal(map[string]map[string]string{"Replace": {abs: mutant}})
	ovFile := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ovFile, overlay, 0o644); err != nil {
		fail(err)
	}
	for _, stage := range []struct{ pkg, run string }{
		{"./" + filepath.ToSlash(dir) + "/", pkgRun},
		{"./protocols/", registryRun},
	} {
		out, code, killed := goTest(ovFile, stage.pkg, stage.run, timeout)
		switch {
		case bytes.Contains(out, []byte("[build failed]")) || bytes.Contains(out, []byte("[setup failed]")):
			res.Outcome = notCompiled
			return res
		case killed || bytes.Contains(out, []byte("panic: test timed out")):
			res.Outcome, res.Stage = timedOut, stage.pkg
			return res
		case code != 0:
			res.Outcome, res.Stage, res.Detail = caught, stage.pkg, firstFailure(out)
			return res
		}
	}
	res.Outcome = survived
	return res
}

// goTest runs one package's tests under the overlay, with vet off (a vet
// complaint is not a test catching the mutant) and the given time per test
// binary. It returns the output, the exit code, and whether the run
// outlived twice the timeout (compilation included) and was killed.
func goTest(overlay, pkg, run string, timeout time.Duration) ([]byte, int, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*timeout+60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "test", "-count=1", "-vet=off", "-failfast",
		"-overlay", overlay, "-timeout", timeout.String(), "-run", run, pkg)
	// A failing rapid test would write a fail file into the tree, and
	// replay it under the next mutant.
	cmd.Env = append(os.Environ(), "RAPID_NOFAILFILE=1")
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return out, -1, true
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return out, ee.ExitCode(), false
	}
	if err != nil {
		fail(err)
	}
	return out, 0, false
}

// firstFailure is the first "--- FAIL" or "panic:" line of a test output.
func firstFailure(out []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(l, "--- FAIL") || strings.HasPrefix(l, "panic:") {
			return l
		}
	}
	return ""
}

// testNames is a -run pattern matching exactly the Test functions of the
// package in dir.
func testNames(dir string) (string, error) {
	names, err := mutate.TestNames(dir)
	if err != nil {
		return "", err
	}
	if len(names) == 0 {
		return "", fmt.Errorf("%s has no tests", dir)
	}
	return "^(" + strings.Join(names, "|") + ")$", nil
}

// parseMax reads -max: a default and pkg=N overrides, comma-separated.
func parseMax(s string) (map[string]int, error) {
	m := map[string]int{"": 60}
	for _, f := range strings.Split(s, ",") {
		pkg, v, ok := strings.Cut(f, "=")
		if !ok {
			pkg, v = "", f
		}
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 {
			return nil, fmt.Errorf("-max %q: want N or pkg=N, comma-separated", s)
		}
		m[strings.TrimSpace(pkg)] = n
	}
	return m, nil
}

// readEquivalent reads the equivalent mutants: one per line, the mutant's
// key, " # ", and the reason. Blank lines and lines starting with # are
// comments.
func readEquivalent(name string) (map[string]string, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	m := map[string]string{}
	for i, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		key, reason, ok := strings.Cut(l, " # ")
		if !ok || strings.TrimSpace(reason) == "" {
			return nil, fmt.Errorf("%s:%d: want \"<mutant key> # <reason>\"", name, i+1)
		}
		m[strings.TrimSpace(key)] = strings.TrimSpace(reason)
	}
	return m, nil
}

// readLog reads a -log file; a later line on a mutant wins.
func readLog(name string) (map[string]result, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	m := map[string]result{}
	for i, l := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		var r result
		if err := json.Unmarshal(l, &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, i+1, err)
		}
		if old, ok := m[r.Key]; ok && old.Killed && r.Outcome != survived {
			r.Killed = true // a second rerun keeps the credit
		}
		m[r.Key] = r
	}
	return m, nil
}

// printReport prints the table and the survivors in Markdown.
func printReport(w io.Writer, rows []row, survivors []result) {
	fmt.Fprintln(w, "| protocol | sites | mutants run | compiled | caught (timeouts) | of which by new tests | equivalent | survivors | catch rate |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	var tot row
	for _, r := range rows {
		printRow(w, r.pkg, r)
		tot.sites += r.sites
		tot.generated += r.generated
		tot.compiled += r.compiled
		tot.caught += r.caught
		tot.timeouts += r.timeouts
		tot.killed += r.killed
		tot.equivalent += r.equivalent
	}
	if len(rows) > 1 {
		printRow(w, "**all**", tot)
	}
	fmt.Fprintln(w)
	if len(survivors) == 0 {
		fmt.Fprintln(w, "No survivors.")
		return
	}
	fmt.Fprintln(w, "Survivors:")
	fmt.Fprintln(w)
	slices.SortStableFunc(survivors, func(a, b result) int { return strings.Compare(a.Key, b.Key) })
	for _, s := range survivors {
		fmt.Fprintf(w, "- `%s` in %s\n", s.Key, s.Func)
	}
}

func printRow(w io.Writer, name string, r row) {
	live := r.compiled - r.equivalent
	rate := "-"
	if live > 0 {
		rate = fmt.Sprintf("%.1f%%", 100*float64(r.caught)/float64(live))
	}
	fmt.Fprintf(w, "| %s | %d | %d | %d | %d (%d) | %d | %d | %d | %s |\n",
		name, r.sites, r.generated, r.compiled, r.caught, r.timeouts, r.killed, r.equivalent, live-r.caught, rate)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "mutate:", err)
	os.Exit(2)
}
