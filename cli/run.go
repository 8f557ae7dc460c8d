package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/coordcheck/coordcheck/internal/clip"
	"github.com/coordcheck/coordcheck/live"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols"
)

const runHelp = `usage: coordcheck run PROTOCOL [protocol parameters] [flags]

Runs the protocol for real, the very code 'check' explores: one goroutine per node
(or one OS process per node, -transport proc), messages in the protocol's own
encoding over TCP connections on 127.0.0.1 (or in memory), timers on the wall clock,
and a workload that takes every input the protocol enables (requests of the critical
section, multicasts, client operations). The runtime keeps what the checker's world
holds (messages in flight per link, timers, crashed nodes, the partition), so the run
is judged by the checker's own properties: mutual exclusion on the observed critical
sections, the protocol's invariants on snapshots of the run, and, when the run settles
(nothing can happen any more), its end-of-run properties (election safety, the
linearizability of the client history through porcupine, multicast agreement) and
its liveness; no-deadlock throughout. A run with a bounded workload ends when it
settles; one without runs for -duration.

flags:
  -duration D       how long the run lasts at most (default 5s, at most 1h)
  -transport T      tcp (default), mem, or proc (each node its own process, which a
                    crash kills and a restart starts again)
  -faults SPEC      the checker's faults, injected live: drop=K, dup=K (K a count or
                    inf; each message struck with -fault-rate while the budget lasts),
                    crash=K[@p1+p2] and restart=K (nodes, at evenly spaced times),
                    partition=K (the links between two groups cut both ways, a while),
                    delay=D (each message held up to D, links stay FIFO); default none
  -fault-rate P     chance that a message is dropped or duplicated while the budget
                    lasts (default 0.01)
  -hold D           how long a node stays in its critical section (default 100us:
                    one that takes no time leaves an overlap only microseconds to show)
  -think D          a node pauses up to D (drawn from the seed) before each input it
                    takes, so that clients interleave (default 0: at once)
  -timer D          how long an armed timer waits before it fires (default 10ms)
  -restart-within D a crashed node restarts, a partition heals, after a pause drawn
                    up to D (default half the time between two faults, at most 500ms)
  -seed N           seed of the fault injector and the chaos (default 1)
  -o FILE.edn       write the observed client history (coordination service) as Jepsen
                    EDN, which 'coordcheck lincheck -model kv' reads
  -html FILE        write porcupine's view of the observed client history
  -cex FILE         where to write the checker's counterexample of a violation, when
                    the run's trace replays to it (default: a file in the temp dir)

Exit codes: 0 the observed run satisfies the properties, 1 one is violated,
2 bad usage, 3 inconclusive (a property could not be judged: nothing it applies to
happened, or the run never ended for a property of the end of a run).
`

func cmdRun(args []string, stdout, stderr io.Writer) (int, error) {
	name, rest := splitProtocol(args)
	if name == "" {
		if hasHelp(args) {
			fmt.Fprintf(stdout, "%s\nprotocols: %s\n", runHelp, strings.Join(protocols.Names(), ", "))
			return 0, nil
		}
		return 0, usageError("run needs a protocol (valid: %s)", strings.Join(protocols.Names(), ", "))
	}
	entry, ok := protocols.Lookup(name)
	if !ok {
		return 0, usageError("%s", (&protocols.UnknownError{Name: name}).Error())
	}
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	params := map[string]*string{}
	for _, p := range entry.Params {
		params[p.Name] = fs.String(p.Name, p.Default, p.Doc)
	}
	duration := fs.Duration("duration", 5*time.Second, "how long the run lasts at most")
	transport := fs.String("transport", "tcp", "tcp, mem or proc")
	faults := fs.String("faults", "none", "faults")
	rate := fs.Float64("fault-rate", live.DefaultRate, "chance a message is struck")
	hold := fs.Duration("hold", 100*time.Microsecond, "time in the critical section")
	think := fs.Duration("think", 0, "bound of the pause before each input")
	timer := fs.Duration("timer", 10*time.Millisecond, "timer delay")
	seed := fs.Uint64("seed", 1, "fault injector seed")
	within := fs.Duration("restart-within", 0, "bound of the pause before a restart or a heal")
	edn := fs.String("o", "", "EDN history file")
	html := fs.String("html", "", "HTML visualization file")
	cex := fs.String("cex", "", "counterexample file")
	if err := fs.Parse(rest); err != nil {
		if err == flag.ErrHelp {
			printRunHelp(stdout, entry)
			return 0, nil
		}
		return 0, usageError("run %s: %s", name, flagUsageErr(fs, err))
	}
	if fs.NArg() > 0 {
		return 0, usageError("run %s: unexpected argument %s", name, clip.Quote(fs.Arg(0)))
	}
	given := map[string]string{}
	fs.Visit(func(f *flag.Flag) {
		if _, ok := params[f.Name]; ok {
			given[f.Name] = f.Value.String()
		}
	})
	if _, ok := given["rounds"]; ok && entry.Family == "mutex" {
		return 0, usageError("run %s: -rounds bounds the checker's state space; a live run requests for -duration", name)
	}
	if *duration <= 0 || *duration > time.Hour {
		return 0, usageError("run %s: -duration %s: want a duration from 1ns to 1h", name, duration)
	}
	if *hold < 0 || *hold > *duration {
		return 0, usageError("run %s: -hold %s: want a duration from 0 to the run's -duration", name, hold)
	}
	if *think < 0 || *think > *duration {
		return 0, usageError("run %s: -think %s: want a duration from 0 to the run's -duration", name, think)
	}
	if *timer <= 0 || *timer > time.Minute {
		return 0, usageError("run %s: -timer %s: want a duration from 1ns to 1m", name, timer)
	}
	if *within < 0 || *within > *duration {
		return 0, usageError("run %s: -restart-within %s: want a duration from 0 to the run's -duration", name, within)
	}
	cfg := live.RunConfig{Duration: *duration, Hold: *hold, Seed: *seed, TimerDelay: *timer, RestartWithin: *within, Think: *think}
	var ok2 bool
	if cfg.Transport, ok2 = live.ParseTransport(*transport); !ok2 {
		return 0, usageError("run %s: -transport %s (valid: tcp, mem, proc)", name, clip.Quote(*transport))
	}
	var err error
	if cfg.Faults, err = live.ParseFaults(*faults); err != nil {
		return 0, usageError("-faults: %v", err)
	}
	cfg.Faults.Rate = *rate
	values, runner, err := runnerOf(entry, given)
	if err != nil {
		return 0, err
	}
	if err := cfg.Faults.Check(runner.Nodes()); err != nil {
		return 0, usageError("-faults: %v", err)
	}
	if (cfg.Faults.Drop != 0 || cfg.Faults.Dup != 0) && cfg.Faults.Rate == 0 {
		return 0, usageError("-fault-rate 0: drop and dup would never strike")
	}
	if cfg.Transport == live.Proc {
		self, err := os.Executable()
		if err != nil {
			return 0, &exitError{2, fmt.Sprintf("run %s: -transport proc needs this program's path: %v", name, err)}
		}
		cfg.Node = nodeCommand(self, name, given)
	}

	var shown []string
	for _, p := range entry.Params {
		if p.Name != "rounds" || entry.Family != "mutex" {
			shown = append(shown, p.Name+"="+values.Get(p.Name))
		}
	}
	fmt.Fprintf(stdout, "run %s %s: %d nodes, transport %s, faults %s, at most %s\n",
		name, strings.Join(shown, " "), runner.Nodes(), cfg.Transport, cfg.Faults, cfg.Duration)
	term := isTerminal(stderr)
	cfg.ProgressEvery = min(time.Second, cfg.Duration/4)
	if term {
		cfg.ProgressEvery = 200 * time.Millisecond
	}
	cfg.Progress = func(p live.Progress) {
		line := fmt.Sprintf("  %5.1fs  %d steps  %d messages  %d critical sections  %d outputs", p.Elapsed.Seconds(), p.Steps, p.Sent, p.Entries, p.Outputs)
		if term {
			fmt.Fprintf(stderr, "\r%s ", line)
		} else {
			fmt.Fprintln(stderr, line)
		}
	}
	rep, err := runner.Run(cfg)
	if term {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if err != nil {
		return 0, &exitError{2, fmt.Sprintf("run %s: %v", name, err)}
	}
	printRunReport(stdout, entry, values, rep)
	code := runExitCode(rep)
	var late []string
	path := *cex
	if path == "" {
		path = filepath.Join(os.TempDir(), fmt.Sprintf("coordcheck-run-%s-seed%d.cex", name, *seed))
	}
	if c, err := judgeRun(stdout, entry, values, rep, path); err != nil {
		late = append(late, err.Error())
	} else if c == 1 {
		code = 1
	}
	if err := writeRunHistory(stdout, rep, *edn, *html); err != nil {
		late = append(late, err.Error())
	}
	for _, e := range late {
		fmt.Fprintln(stderr, "coordcheck: "+clip.Line(e))
	}
	return code, nil
}

// nodeCommand re-executes this program as one node of the run:
// `coordcheck node PROTOCOL -id N -addr A [parameters]`.
func nodeCommand(self, name string, given map[string]string) live.NodeCommand {
	return func(id model.NodeID, addr string) *exec.Cmd {
		args := []string{"node", name, "-id", strconv.Itoa(int(id)), "-addr", addr}
		for _, k := range sortedKeys(given) {
			args = append(args, "-"+k, given[k])
		}
		cmd := exec.Command(self, args...)
		cmd.Stderr = os.Stderr
		return cmd
	}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := range keys {
		for j := i + 1; j < len(keys); j++ {
			if keys[j] < keys[i] {
				keys[i], keys[j] = keys[j], keys[i]
			}
		}
	}
	return keys
}

// cmdNode is the hidden command a node process of `run -transport proc`
// runs: it builds the protocol from the same parameters and serves the
// runner's steps at -addr.
func cmdNode(args []string) (int, error) {
	name, rest := splitProtocol(args)
	entry, ok := protocols.Lookup(name)
	if !ok {
		return 0, usageError("%s", (&protocols.UnknownError{Name: name}).Error())
	}
	fs := flag.NewFlagSet("node", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	for _, p := range entry.Params {
		fs.String(p.Name, p.Default, p.Doc)
	}
	id := fs.Int("id", -1, "node id")
	addr := fs.String("addr", "", "runner address")
	if err := fs.Parse(rest); err != nil {
		return 0, usageError("node %s: %s", name, flagUsageErr(fs, err))
	}
	given := map[string]string{}
	fs.Visit(func(f *flag.Flag) {
		if f.Name != "id" && f.Name != "addr" {
			given[f.Name] = f.Value.String()
		}
	})
	_, runner, err := runnerOf(entry, given)
	if err != nil {
		return 0, err
	}
	if *id < 0 || *id >= runner.Nodes() {
		return 0, usageError("node %s: -id %d: want 0 to %d", name, *id, runner.Nodes()-1)
	}
	if err := runner.ServeNode(live.NodeArgs{ID: model.NodeID(*id), Addr: *addr}); err != nil {
		return 0, &exitError{1, fmt.Sprintf("node %s p%d: %v", name, *id, err)}
	}
	return 0, nil
}

// runnerOf is the live runner of entry with the parameters given, and
// their values; a bad value is bad usage.
func runnerOf(entry protocols.Entry, given map[string]string) (protocols.Values, live.Runner, error) {
	values, err := entry.Values(given)
	if err != nil {
		return values, nil, usageError("%s: %v", entry.Name, err)
	}
	runner, err := entry.Runner(values)
	if err != nil {
		return values, nil, usageError("%s: %v", entry.Name, err)
	}
	return values, runner, nil
}

// runExitCode is 1 when a verdict is a violation, 3 when a property could
// not be judged (an optional one aside), 0 otherwise.
func runExitCode(rep *live.Report) int {
	code := 0
	for _, v := range rep.Verdicts {
		switch {
		case !v.Holds:
			return 1
		case (v.Judged == 0 && !v.Optional) || (v.Skipped != "" && v.Judged > 0):
			code = 3
		}
	}
	return code
}
