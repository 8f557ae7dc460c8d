package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/counterexamples"
	"github.com/coordcheck/coordcheck/internal/clip"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols"
	"github.com/coordcheck/coordcheck/viz"
)

// exploreServe, when set (by tests), is called with the explorer's
// address once it listens, and its return closes the server; otherwise
// the server runs until SIGINT or SIGTERM.
var exploreServe func(url string) <-chan struct{}

const exploreUsage = `usage: coordcheck explore PROTOCOL [protocol parameters] [flags]
       coordcheck explore -cex FILE [flags]

Serves a web page on 127.0.0.1 that walks the protocol's state space by
hand: the initial world, the enabled actions (click one to take it), the
nodes, the network and which properties hold. The path taken is in the
page's address (?path=3.0.5), to share or to come back to.

flags:
  -port N          the port to listen on (default 0: any free port; the
                   address is printed)
  -cex FILE        explore the system a counterexample file records and
                   open at its last step, where its property fails
  -check           check the protocol first (BFS) and open at the
                   counterexample's last step, if there is one
  -max-memory MB   -check: the search's memory bound (default 2000)
  -timeout D       -check: the search's time bound (default 1m)
  -network, -faults, -timers, -ordering, -app-msgs: as for check
`

func cmdExplore(args []string, stdout io.Writer) (int, error) {
	fs := flag.NewFlagSet("explore", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	name, rest := "", args
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		name, rest = args[0], args[1:]
	}
	var entry protocols.Entry
	params := map[string]*string{}
	if name != "" {
		var ok bool
		if entry, ok = protocols.Lookup(name); !ok {
			return 0, usageError("%s", (&protocols.UnknownError{Name: name}).Error())
		}
		for _, p := range entry.Params {
			params[p.Name] = fs.String(p.Name, p.Default, p.Doc)
		}
	}
	port := fs.Int("port", 0, "the port to listen on (0: any free port)")
	cex := fs.String("cex", "", "explore this counterexample file's system, opening at its last step")
	check := fs.Bool("check", false, "check first and open at the counterexample")
	maxMem := fs.Uint64("max-memory", 2000, "-check: stop when the search holds this many MB")
	timeout := fs.Duration("timeout", time.Minute, "-check: stop after this long")
	network := fs.String("network", "fifo", "network semantics: fifo, unordered")
	faults := fs.String("faults", "none", "fault budget")
	timers := fs.String("timers", "default", "timer semantics: default, free, perfect")
	ordering := fs.Bool("ordering", false, "track happened-before between requests")
	appMsgs := fs.Int("app-msgs", 0, "application messages the workload may send")
	if err := fs.Parse(rest); err != nil {
		if err == flag.ErrHelp {
			fmt.Fprint(stdout, exploreUsage)
			return 0, nil
		}
		return 0, usageError("explore: %s", flagUsageErr(fs, err))
	}
	if fs.NArg() > 0 {
		return 0, usageError("explore: unexpected argument %s", clip.Quote(fs.Arg(0)))
	}
	if *port < 0 || *port > 65535 {
		return 0, usageError("explore: -port %d: want 0 to 65535", *port)
	}
	var target checker.Target
	var title string
	var lines []string
	switch {
	case *cex != "" && name != "":
		return 0, usageError("explore: give a protocol or -cex FILE, not both (the file names its protocol)")
	case *cex != "" && *check:
		return 0, usageError("explore: -check has no effect with -cex (the file is the counterexample)")
	case *cex != "":
		fh, err := os.Open(*cex)
		if err != nil {
			return 0, usageError("%v", err)
		}
		f, err := counterexamples.Parse(fh)
		fh.Close()
		if err != nil {
			return 0, usageError("%s: %v", *cex, err)
		}
		if target, err = counterexamples.Target(f); err != nil {
			return 0, usageError("%s: %v", *cex, err)
		}
		title, lines = counterexamples.Title(f), f.Actions
	case name == "":
		return 0, usageError("explore needs a protocol or -cex FILE (protocols: %s)", strings.Join(protocols.Names(), ", "))
	default:
		var cfg model.Config
		var err error
		if cfg.Network, err = model.ParseNetwork(*network); err != nil {
			return 0, usageError("%v", err)
		}
		if cfg.Faults, err = model.ParseFaults(*faults); err != nil {
			return 0, usageError("-faults: %v", err)
		}
		if cfg.Timers, err = model.ParseTimerMode(*timers); err != nil {
			return 0, usageError("-timers: %v", err)
		}
		cfg.Ordering, cfg.AppMsgs = *ordering, *appMsgs
		given := map[string]string{}
		fs.Visit(func(f *flag.Flag) {
			if _, ok := params[f.Name]; ok {
				given[f.Name] = f.Value.String()
			}
		})
		var values protocols.Values
		if target, values, err = entry.BuildWith(given, cfg); err != nil {
			return 0, usageError("%s: %v", name, err)
		}
		title = counterexamples.Title(counterexamples.FromTrace(name, values.Map(), cfg, &checker.Trace{}))
		if *check {
			rep := target.Check(checker.Options{MaxMemory: *maxMem << 20, Timeout: *timeout})
			switch {
			case rep.Error != "":
				return 0, usageError("%s: %s", name, rep.Error)
			case rep.Counterexample != nil:
				for _, st := range rep.Counterexample.Steps {
					lines = append(lines, st.Action)
				}
				fmt.Fprintf(stdout, "check: %s violated after %d steps; opening there\n", rep.Counterexample.Property, len(lines))
			default:
				fmt.Fprintf(stdout, "check: %s, no counterexample; opening at the initial world\n", rep.Verdict)
			}
		}
	}
	ex, ok := target.(checker.Explorable)
	if !ok {
		return 0, usageError("explore: %s cannot be explored", title)
	}
	start := ""
	if lines != nil {
		path, err := viz.PathOf(ex.Explore(), lines)
		if err != nil {
			return 0, usageError("explore: the counterexample no longer applies: %v", err)
		}
		start = "?path=" + viz.FormatPath(path)
	}
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", *port))
	if err != nil {
		return 0, usageError("explore: -port %d: %v", *port, err)
	}
	url := "http://" + ln.Addr().String() + "/" + start
	srv := &http.Server{Handler: (&viz.Explorer{Title: title, Start: ex.Explore}).Handler(), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stdout, "exploring %s at %s (Ctrl-C stops)\n", title, url)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	var stop <-chan struct{}
	if exploreServe != nil {
		stop = exploreServe(url)
	} else {
		var unlisten func()
		stop, unlisten = stopOnSignal()
		defer unlisten()
	}
	select {
	case <-stop:
	case err := <-done:
		return 0, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return 0, err
	}
	return 0, nil
}
