package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/counterexamples"
	"github.com/coordcheck/coordcheck/internal/clip"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols"
	"github.com/coordcheck/coordcheck/viz"
)

// checkJSON is the one object `check -json` prints.
type checkJSON struct {
	Protocol string            `json:"protocol"`
	Params   map[string]string `json:"params"`
	Network  string            `json:"network"`
	Faults   string            `json:"faults"`
	Mode     string            `json:"mode"`
	// Identity names the system and the search (the protocol, its
	// parameters, the configuration and the flags that shape the walks),
	// so that merge combines only shards of one run.
	Identity string `json:"identity"`
	*checker.Report
	ExitCode int `json:"exit_code"`
}

// cmdCheck is `coordcheck check`: its flags (checkFlags), the check they
// configure (configure), the search (run) and the report (render).
func cmdCheck(args []string, stdout, stderr io.Writer) (int, error) {
	name, rest := splitProtocol(args)
	if name == "" {
		if hasHelp(args) {
			printCheckHelp(stdout, protocols.Entry{})
			return 0, nil
		}
		return 0, usageError("check needs a protocol (valid: %s)", strings.Join(protocols.Names(), ", "))
	}
	entry, ok := protocols.Lookup(name)
	if !ok {
		return 0, usageError("%s", (&protocols.UnknownError{Name: name}).Error())
	}
	f := newCheckFlags(entry)
	if err := f.fs.Parse(rest); err != nil {
		if err == flag.ErrHelp {
			printCheckHelp(stdout, entry)
			return 0, nil
		}
		return 0, usageError("check %s: %s", name, flagUsageErr(f.fs, err))
	}
	if f.fs.NArg() > 0 {
		return 0, usageError("check %s: unexpected argument %s", name, clip.Quote(f.fs.Arg(0)))
	}
	c, err := f.configure(name, entry, stderr)
	if err != nil {
		return 0, err
	}
	rep, err := c.run(stderr)
	if err != nil {
		return 0, err
	}
	return c.render(rep, stdout, stderr)
}

// checkFlags are the flags of `check`: the protocol's parameters, then
// the common ones.
type checkFlags struct {
	fs                       *flag.FlagSet
	params                   map[string]*string
	network, faults, timers  *string
	ordering                 *bool
	appMsgs                  *int
	mode                     *string
	seed                     *uint64
	walks, walk              *int
	shard                    *string
	symmetry, por, sleep     *bool
	bitstate                 *uint64
	spill, spillDir          *string
	maxStates                *uint64
	maxDepth                 *int
	maxMem                   *uint64
	timeout                  *time.Duration
	exhaust, liveness        *bool
	skip, out, html, history *string
	asJSON, strict           *bool
	cpuProfile               *string
	workers                  *int
	ckf                      checkpointFlags
}

func newCheckFlags(entry protocols.Entry) *checkFlags {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := &checkFlags{fs: fs, params: map[string]*string{}}
	for _, p := range entry.Params {
		f.params[p.Name] = fs.String(p.Name, p.Default, p.Doc)
	}
	f.network = fs.String("network", "fifo", "network semantics: fifo, unordered")
	f.faults = fs.String("faults", "none", "fault budget, e.g. crash=1,restart=1,drop=1,dup=1,partition=1")
	f.timers = fs.String("timers", "default", "timer semantics: default, free, perfect")
	f.ordering = fs.Bool("ordering", false, "track happened-before between requests and check that they are granted in that order")
	f.appMsgs = fs.Int("app-msgs", 0, "application messages the workload may send between nodes (relate requests causally)")
	f.mode = fs.String("mode", "bfs", "search: bfs (shortest counterexample), dfs, random, swarm")
	f.seed = fs.Uint64("seed", 1, "random and swarm: the seed of every walk's stream")
	f.walks = fs.Int("walks", checker.DefaultWalks, "random and swarm: the number of walks")
	f.walk = fs.Int("walk", -1, "random and swarm: run only this walk (to replay it)")
	f.shard = fs.String("shard", "", "random and swarm: run only shard i/n of the walks (walk k is shard k mod n; merge combines the -json reports)")
	f.maxStates = fs.Uint64("max-states", 0, "stop after this many distinct states (0: no bound)")
	f.maxDepth = fs.Int("max-depth", 0, "do not expand states deeper than this (0: no bound)")
	f.maxMem = fs.Uint64("max-memory", defaultMaxMemoryMB(), "stop when the search holds this many MB (default: 3/4 of the memory available at start)")
	f.timeout = fs.Duration("timeout", 0, "stop after this long, e.g. 30s (0: no bound)")
	f.exhaust = fs.Bool("exhaust", false, "keep going after a violation and count every violating state")
	f.liveness = fs.Bool("liveness", true, "check liveness properties too (keeps the state graph in memory)")
	f.skip = fs.String("skip", "", "comma-separated properties not to check")
	f.out = fs.String("o", "", "write the counterexample to this file")
	f.html = fs.String("html", "", "write the counterexample's sequence diagram (or, without one, the report) here, one HTML file (default for a linearizability violation: next to -o FILE)")
	f.history = fs.String("history", "", "write the client history of a linearizability violation here as Jepsen EDN, for lincheck -model kv")
	f.asJSON = fs.Bool("json", false, "print one JSON object instead of text")
	f.strict = fs.Bool("strict", false, "a pass with a warning (a fault that never fired, a property whose premise never held) is inconclusive: exit 3")
	f.cpuProfile = fs.String("cpuprofile", "", "write a CPU profile of the search to this file (for go tool pprof)")
	f.symmetry = fs.Bool("symmetry", false, "bfs and dfs: store one state per renaming of the protocol's interchangeable nodes (safety only)")
	f.por = fs.Bool("por", false, "bfs and dfs: expand only a persistent set of actions in each state (deadlocks and terminal properties only)")
	f.sleep = fs.Bool("sleep", true, "bfs, safety only (-liveness=false): leave out the transitions sleep sets show lead to states already generated (the same states, fewer transitions)")
	f.bitstate = fs.Uint64("bitstate", 0, "bfs: a bit array of this many MB replaces the visited set (supertrace); never reports a pass; safety and deadlock only")
	f.spill = fs.String("spill", "auto", "bfs: write the frontier to disk: auto (once it outgrows a sixteenth of -max-memory), always, never")
	f.spillDir = fs.String("spill-dir", "", "where -spill writes (default: the system's temporary directory)")
	f.workers = fs.Int("workers", 0, "goroutines to search on: BFS, random and swarm (0: one per core)")
	fs.StringVar(&f.ckf.path, "checkpoint", "", "BFS: write the search state to this file now and then, and when stopped early")
	fs.DurationVar(&f.ckf.every, "checkpoint-every", checker.DefaultCheckpointEvery, "how often to write -checkpoint")
	fs.StringVar(&f.ckf.resume, "resume", "", "BFS: continue the search from this checkpoint file")
	return f
}

// setting is the check's configuration as the flags say it: the same
// words a counterexample file's header holds, parsed by the same code.
func (f *checkFlags) setting(name string) protocols.Setting {
	st := protocols.Setting{Protocol: name, Params: map[string]string{}, Network: *f.network, Faults: *f.faults,
		Timers: *f.timers, Ordering: *f.ordering, AppMsgs: *f.appMsgs}
	f.fs.Visit(func(fl *flag.Flag) {
		if _, ok := f.params[fl.Name]; ok {
			st.Params[fl.Name] = fl.Value.String()
		}
	})
	if *f.skip != "" {
		st.Skip = strings.Split(*f.skip, ",")
	}
	return st
}

// settingError is a Setting's error as the command line says it, naming
// the flag at fault.
func settingError(name string, err error) error {
	var se *protocols.SettingError
	if !errors.As(err, &se) {
		return usageError("%v", err)
	}
	switch se.Key {
	case "faults", "timers", "skip":
		return usageError("-%s: %v", se.Key, se.Err)
	case "params":
		return usageError("%s: %v", name, se.Err)
	}
	return usageError("%v", se.Err)
}

// checkRun is one configured check, ready to run.
type checkRun struct {
	*checkFlags
	name    string
	entry   protocols.Entry
	cfg     model.Config
	values  protocols.Values
	skipped []string
	target  checker.Target
	opts    checker.Options
	// identity names the system checked, for checkpoints and merge.
	identity string
}

// configure turns the flags into a check: the setting (through the
// registry), the search options, and every refusal of what cannot take
// effect or could not be written, before the search.
func (f *checkFlags) configure(name string, entry protocols.Entry, stderr io.Writer) (*checkRun, error) {
	if err := validateCheckValues(*f.walks, *f.walk, *f.maxDepth, *f.workers, *f.appMsgs, f.timeout.String(), *f.timeout < 0); err != nil {
		return nil, err
	}
	st := f.setting(name)
	if _, err := st.Config(); err != nil { // the system's words first, then the mode, then the protocol's
		return nil, settingError(name, err)
	}
	c := &checkRun{checkFlags: f, name: name, entry: entry, skipped: st.Skip}
	c.opts = checker.Options{MaxStates: *f.maxStates, MaxDepth: *f.maxDepth, MaxMemory: *f.maxMem << 20,
		Timeout: *f.timeout, Exhaust: *f.exhaust, SkipLiveness: !*f.liveness, Workers: *f.workers,
		Symmetry: *f.symmetry, POR: *f.por, Sleep: *f.sleep, Bitstate: *f.bitstate << 20}
	var err error
	if c.opts.Strategy, err = checker.ParseStrategy(*f.mode); err != nil {
		return nil, usageError("%v", err)
	}
	if c.opts.Spill, err = checker.ParseSpillMode(*f.spill); err != nil {
		return nil, usageError("-spill: %v", err)
	}
	if c.opts.SpillDir = *f.spillDir; c.opts.SpillDir != "" {
		if st, err := os.Stat(c.opts.SpillDir); err != nil || !st.IsDir() {
			return nil, usageError("-spill-dir %s: not a directory", c.opts.SpillDir)
		}
	}
	c.opts.Seed, c.opts.Walks = *f.seed, *f.walks
	if *f.walk >= 0 {
		c.opts.Walk = f.walk
	}
	if *f.shard != "" {
		sh, err := checker.ParseShard(*f.shard)
		if err != nil {
			return nil, usageError("-shard: %v", err)
		}
		c.opts.Shard = &sh
	}
	if c.target, c.values, c.cfg, err = st.Build(); err != nil {
		return nil, settingError(name, err)
	}
	// Refuse what cannot take effect, and outputs that could not be
	// written, before the search (validate.go).
	if err := validateCheck(newCheckRequest(name, c.opts.Strategy, f.fs, c.target)); err != nil {
		return nil, err
	}
	for _, o := range []struct{ flag, path string }{{"o", *f.out}, {"html", *f.html}, {"history", *f.history}} {
		if o.path != "" {
			if err := checkWritable(o.flag, o.path); err != nil {
				return nil, err
			}
		}
	}
	identity := fmt.Sprintf("%s %s network=%s faults=%s timers=%s ordering=%v app-msgs=%d skip=%s",
		name, c.values, c.cfg.Network, c.cfg.Faults, c.cfg.Timers, c.cfg.Ordering, c.cfg.AppMsgs, *f.skip)
	if *f.symmetry {
		identity += " symmetry=true" // a reduced search's states are representatives
	}
	if *f.por {
		identity += " por=true" // a reduced search's states are some of all
	}
	c.identity = identity
	if *f.sleep && f.given("sleep") {
		if err := c.target.SleepError(c.opts); err != nil {
			return nil, usageError("-sleep has no effect: %v", err)
		}
	}
	if err := f.ckf.apply(&c.opts, c.target, identity, stderr); err != nil {
		return nil, usageError("%v", err)
	}
	return c, nil
}

// run searches: within the memory budget, stopped by a signal, showing
// progress on a terminal, profiled when asked.
func (c *checkRun) run(stderr io.Writer) (*checker.Report, error) {
	opts := c.opts
	restore := memoryBudget(&opts)
	defer restore()
	if need := checker.MinMemory(c.target, opts); opts.MaxMemory > 0 && need+opts.MemoryReserve >= opts.MaxMemory {
		return nil, usageError("-max-memory %d: too small: the search needs %.1f MB for its initial state and empty tables, and this process %.1f MB besides",
			*c.maxMem, float64(need)/(1<<20), float64(opts.MemoryReserve)/(1<<20))
	}
	stop, unlisten := stopOnSignal()
	defer unlisten()
	opts.Stop = stop
	if isTerminal(stderr) {
		opts.Progress = func(p checker.Progress) {
			if p.Walks > 0 {
				fmt.Fprintf(stderr, "\r%s walks  %s steps  %s distinct states  depth %d   ",
					group(p.Walks), group(p.Transitions), group(p.States), p.Depth)
				return
			}
			spilled := ""
			if p.Spilled > 0 {
				spilled = fmt.Sprintf("  spilled %.0f MB", float64(p.Spilled)/(1<<20))
			}
			fmt.Fprintf(stderr, "\r%s states  %s/s  depth %d  queue %s%s   ",
				group(p.States), group(uint64(float64(p.States)/p.Elapsed.Seconds())), p.Depth, group(uint64(p.Frontier)), spilled)
		}
	}
	if *c.cpuProfile != "" {
		f, err := os.Create(*c.cpuProfile)
		if err != nil {
			return nil, usageError("-cpuprofile: %v", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return nil, usageError("-cpuprofile: %v", err)
		}
	}
	// Reports drawn or printed as JSON carry the states of each BFS level.
	recordLevels := func(*checker.Report) {}
	if *c.html != "" || *c.asJSON {
		recordLevels = checker.RecordLevels(&opts)
	}
	searchStarted()
	rep := c.target.Check(opts)
	recordLevels(rep)
	if *c.cpuProfile != "" {
		pprof.StopCPUProfile()
	}
	if opts.Progress != nil {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if rep.Error != "" {
		return nil, usageError("%s: %s", c.name, rep.Error)
	}
	if *c.strict {
		applyStrict(rep)
	}
	if c.ckf.path != "" && rep.Liveness == "graph" {
		fmt.Fprintln(stderr, "coordcheck: the state graph may have cycles, so the liveness check kept it and wrote no checkpoint once it started again (-liveness=false checkpoints throughout)")
	}
	return rep, nil
}

// render writes the counterexample file, then the report (text or JSON)
// and the files that go with it, and returns the verdict's exit code.
func (c *checkRun) render(rep *checker.Report, stdout, stderr io.Writer) (int, error) {
	code := rep.Verdict.ExitCode()
	// A file that cannot be written after all (checkWritable said it
	// could) loses no verdict: the report is printed, the error follows
	// on stderr, and the exit code stays the verdict's.
	var lateErrs []string
	written := false
	if *c.out != "" && rep.Counterexample != nil {
		f := counterexamples.FromTrace(c.name, c.values.Map(), c.cfg, rep.Counterexample)
		f.Skip = c.skipped
		if err := writeFileAtomic(*c.out, f.Write); err != nil {
			lateErrs = append(lateErrs, fmt.Sprintf("writing %s: %v", *c.out, err))
		} else {
			written = true
		}
	}
	defer func() {
		for _, e := range lateErrs {
			fmt.Fprintln(stderr, "coordcheck: "+clip.Line(e))
		}
	}()
	if *c.asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		runID := fmt.Sprintf("%s mode=%s seed=%d walks=%d max-depth=%d liveness=%v exhaust=%v",
			c.identity, *c.mode, *c.seed, *c.walks, *c.maxDepth, *c.liveness, *c.exhaust)
		if err := enc.Encode(checkJSON{c.name, c.values.Map(), c.cfg.Network.String(), c.cfg.Faults.String(), *c.mode, runID, rep, code}); err != nil {
			return 0, err
		}
		return code, nil
	}
	fmt.Fprintf(stdout, "coordcheck check %s %s  network=%s faults=%s mode=%s\n", c.name, c.values, c.cfg.Network, c.cfg.Faults, *c.mode)
	fmt.Fprintf(stdout, "properties: %s\n", strings.Join(rep.Properties, ", "))
	if rep.Counterexample != nil {
		fmt.Fprintln(stdout)
		printTrace(stdout, rep.Counterexample)
	}
	fmt.Fprintln(stdout)
	printSummary(stdout, rep, *c.exhaust)
	if rep.FailingWalk != nil {
		depth := ""
		if *c.maxDepth > 0 {
			depth = fmt.Sprintf(" -max-depth %d", *c.maxDepth)
		}
		if !*c.liveness {
			depth += " -liveness=false"
		}
		if *c.skip != "" {
			depth += " -skip " + *c.skip
		}
		fmt.Fprintf(stdout, "failing walk %d: %d steps, shrunk to %d; replay it with:\n  coordcheck check %s%s -mode %s -seed %d -walk %d%s\n",
			*rep.FailingWalk, rep.ShrunkFrom, len(rep.Counterexample.Steps), c.name, flagsOf(c.values, c.entry, c.cfg), *c.mode, *c.seed, *rep.FailingWalk, depth)
	}
	if written {
		fmt.Fprintf(stdout, "counterexample written to %s (replay: coordcheck replay %s)\n", *c.out, *c.out)
	}
	f := counterexamples.FromTrace(c.name, c.values.Map(), c.cfg, &checker.Trace{})
	f.Skip = c.skipped
	title := counterexamples.Title(f)
	var summary strings.Builder
	printSummary(&summary, rep, *c.exhaust)
	// The page's counts, without times or memory: the same check draws
	// the same page.
	counts := fmt.Sprintf("states %s  transitions %s  depth %d", group(rep.States), group(rep.Transitions), rep.Depth)
	if rep.Walks > 0 {
		counts = fmt.Sprintf("walks %s  steps %s  distinct states seen %s  max depth %d  seed %d",
			group(rep.Walks), group(rep.Transitions), group(rep.States), rep.Depth, rep.Seed)
	}
	if rep.Counterexample == nil && *c.html != "" {
		err := writeFileAtomic(*c.html, func(w io.Writer) error {
			return viz.WriteReportHTML(w, title, lastLine(summary.String()), counts, rep)
		})
		if err != nil {
			lateErrs = append(lateErrs, fmt.Sprintf("writing the report: %v", err))
		} else {
			fmt.Fprintf(stdout, "report written to %s\n", *c.html)
		}
	}
	if err := writeVisualization(stdout, func() (*viz.Diagram, error) {
		d, err := viz.New(c.target, title, rep.Counterexample)
		if err == nil {
			d.Summary, d.Charts = counts, viz.SearchCharts(rep)
		}
		return d, err
	}, rep.Counterexample, *c.html, *c.out); err != nil {
		lateErrs = append(lateErrs, fmt.Sprintf("writing the visualization: %v", err))
	}
	if err := writeHistory(stdout, rep.Counterexample, *c.history); err != nil {
		lateErrs = append(lateErrs, fmt.Sprintf("writing the history: %v", err))
	}
	return code, nil
}

// flagsOf renders the protocol parameters that differ from their defaults
// and the system configuration as command-line flags.
func flagsOf(v protocols.Values, e protocols.Entry, cfg model.Config) string {
	var b strings.Builder
	for _, p := range e.Params {
		if x := v.Get(p.Name); x != p.Default {
			fmt.Fprintf(&b, " -%s %s", p.Name, x)
		}
	}
	if cfg.Network != model.FIFO {
		fmt.Fprintf(&b, " -network %s", cfg.Network)
	}
	if cfg.Faults.Any() {
		fmt.Fprintf(&b, " -faults %s", cfg.Faults)
	}
	if cfg.Timers != model.TimersDefault {
		fmt.Fprintf(&b, " -timers %s", cfg.Timers)
	}
	if cfg.Ordering {
		b.WriteString(" -ordering")
	}
	if cfg.AppMsgs > 0 {
		fmt.Fprintf(&b, " -app-msgs %d", cfg.AppMsgs)
	}
	return b.String()
}

// splitProtocol finds the protocol name: the first argument, or else a
// last argument that names a registered protocol ("check -n 3 maekawa").
func splitProtocol(args []string) (string, []string) {
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		return args[0], args[1:]
	}
	if k := len(args) - 1; k > 0 {
		if _, ok := protocols.Lookup(args[k]); ok {
			return args[k], args[:k]
		}
	}
	return "", args
}

func hasHelp(args []string) bool {
	for _, a := range args {
		if a == "-h" || a == "-help" || a == "--help" {
			return true
		}
	}
	return false
}

func printCheckHelp(w io.Writer, e protocols.Entry) {
	fmt.Fprintln(w, "usage: coordcheck check PROTOCOL [flags]")
	fmt.Fprintln(w)
	if e.Name != "" {
		fmt.Fprintf(w, "%s: %s\n\nprotocol parameters:\n", e.Name, e.Doc)
		for _, p := range e.Params {
			fmt.Fprintf(w, "  -%-12s %s (default %s)\n", p.Name, p.Doc, p.Default)
		}
	} else {
		fmt.Fprintf(w, "protocols: %s ('coordcheck list' shows their parameters)\n", strings.Join(protocols.Names(), ", "))
	}
	fmt.Fprint(w, `
search flags:
  -mode MODE           bfs (default; finds a shortest counterexample), dfs,
                       random (random walks), swarm (walks with varied biases)
  -seed S -walks N     random and swarm: seed and number of walks (default 1, 10000)
  -walk K              random and swarm: run only walk K (replays a failing walk)
  -shard I/N           random and swarm: run only the walks k with k mod N = I
                       (0 <= I < N); 'coordcheck merge' combines the N shards'
                       -json reports into the unsharded run's verdict
  -network fifo|unordered
                       channel semantics (default fifo: reliable, FIFO per link)
  -faults SPEC         fault budget per execution (default none), comma-separated:
                       crash=N[@p2+p3] restart=N drop=N|inf dup=N partition=N
  -ordering            track happened-before between requests; check that they
                       are granted in that order (at most 8 processes)
  -app-msgs N          application messages the workload may send between
                       processes, to relate requests causally (default 0)
  -timers MODE         default (the protocol's assumption), free (a timer may fire
                       at any time), perfect (only when no reply can still arrive)
  -max-states N        stop after N distinct states (0: no bound)
  -max-depth N         do not expand states deeper than N (0: no bound;
                       random and swarm: the length of each walk, default 200)
  -max-memory MB       stop when the process would hold more than this (default
                       3/4 of the memory available at start; 0: no bound); a
                       bound too small for the initial state is bad usage (exit 2)
  -timeout D           stop after D, e.g. 30s or 5m (0: no bound)
  -exhaust             keep going after a violation; count every violating state
  -liveness=false      check safety only (liveness keeps the whole state graph)
  -skip P,Q            do not check these properties (to reach the one behind them)
  -o FILE              write the counterexample file
  -html FILE           write the counterexample as a sequence diagram: one
                       self-contained HTML file (a linearizability violation's
                       carries porcupine's view of the history; default for
                       one: FILE.html next to -o FILE); without one, the
                       report; both with the states per BFS level
  -history FILE        write the client history of a linearizability
                       violation as Jepsen EDN, which lincheck -model kv reads
  -json                print one JSON object (verdict, counts, coverage, timing, trace)
  -strict              a pass with a warning (a configured fault that never fired,
                       a property whose premise never held) exits 3, inconclusive
  -symmetry            bfs and dfs: store one state per renaming of the protocol's
                       interchangeable nodes (e.g. centralized's clients); safety
                       only (-liveness=false); refused where it would be unsound
  -por                 bfs and dfs: expand only a persistent set of actions (one
                       node's, that nothing else can interfere with) in each
                       state; checks deadlocks and terminal properties only
  -sleep               bfs safety searches (-liveness=false), on by default: in
                       each state, leave out the actions of the nodes in its
                       sleep set, whose successors the search has generated
                       already (actions of two nodes that do not message each
                       other commute). The same states, depths, violations and
                       counterexamples, fewer transitions; -sleep=false takes
                       every transition
  -bitstate MB         bfs: a bit array of MB megabytes replaces the visited set
                       (supertrace, 3 bits a state): for spaces whose fingerprints
                       do not fit; it may miss states, so it never passes: exit 3
                       with its estimated coverage, or 1 with a real violation;
                       safety and deadlock only (liveness needs the exact search)
  -spill MODE          bfs: keep the states waiting to be expanded in files
                       instead of memory: auto (default: once they would take
                       more than a sixteenth of -max-memory), always, never;
                       the result is the same, only the memory differs
  -spill-dir DIR       where -spill writes its files, unlinked as soon as made
                       (default: the system's temporary directory)
  -workers N           goroutines to search on, for BFS, random and swarm
                       (default 0: one per core); any number gives the same result
  -cpuprofile FILE     write a CPU profile of the search (go tool pprof FILE)
  -checkpoint FILE     BFS: write the search state to FILE (atomically) every
                       -checkpoint-every (default 1m) and when stopped early
  -resume FILE         BFS: continue from a checkpoint of the same check; the
                       result is that of a search never stopped

exit codes: 0 pass, 1 violated, 2 bad usage, 3 inconclusive (a bound was reached)
`)
}

// writeFileAtomic writes path through write, to path.tmp first and then
// renamed, so that a failed write leaves no half-written file.
func writeFileAtomic(path string, write func(io.Writer) error) error {
	tmp := path + ".tmp"
	fh, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if err := write(fh); err != nil {
		fh.Close()
		os.Remove(tmp)
		return err
	}
	if err := fh.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// defaultMaxMemoryMB is 3/4 of the memory available when coordcheck
// starts, so that a search that outgrows the machine stops with a verdict
// (inconclusive) instead of being killed; 8 GB when it cannot be read.
func defaultMaxMemoryMB() uint64 {
	data, err := os.ReadFile("/proc/meminfo")
	if err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if rest, ok := strings.CutPrefix(line, "MemAvailable:"); ok {
				var kb uint64
				if _, err := fmt.Sscan(rest, &kb); err == nil && kb > 0 {
					return kb / 1024 * 3 / 4
				}
			}
		}
	}
	return 8 << 10
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// lastLine is the last line of a printed summary: its verdict.
func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	return s[strings.LastIndex(s, "\n")+1:]
}

// given reports whether flag name was given on the command line.
func (f *checkFlags) given(name string) bool {
	found := false
	f.fs.Visit(func(fl *flag.Flag) { found = found || fl.Name == name })
	return found
}
