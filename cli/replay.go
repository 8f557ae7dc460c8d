package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/coordcheck/coordcheck/counterexamples"
	"github.com/coordcheck/coordcheck/internal/clip"
	"github.com/coordcheck/coordcheck/viz"
)

func cmdReplay(args []string, stdout io.Writer) (int, error) {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "print one JSON object instead of text")
	html := fs.String("html", "", "write the replayed counterexample's sequence diagram here, one HTML file")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fmt.Fprintln(stdout, "usage: coordcheck replay [-json] [-html OUT.html] FILE\n\nReplays a counterexample file by value and reports whether its violation still occurs;\n-html writes it as a sequence diagram (one self-contained HTML file).\nexit codes: 1 the violation occurs, 0 no property is violated at the end, 2 bad file or a step no longer applies")
			return 0, nil
		}
		return 0, usageError("replay: %s", flagErr(err))
	}
	if fs.NArg() != 1 {
		return 0, usageError("replay needs one counterexample file")
	}
	path := fs.Arg(0)
	fh, err := os.Open(path)
	if err != nil {
		return 0, usageError("%v", err)
	}
	defer fh.Close()
	f, err := counterexamples.Parse(fh)
	if err != nil {
		return 0, usageError("%s: %v", path, err)
	}
	if err := validateReplay(*html); err != nil {
		return 0, err
	}
	res, err := counterexamples.Replay(f)
	if err != nil {
		var le *counterexamples.LineError
		if errors.As(err, &le) && le.Reason != "" {
			return 0, usageError("%s:%d: %s: %s", path, le.Line, clip.Quote(le.Action), le.Reason)
		}
		if errors.As(err, &le) {
			return 0, usageError("%s:%d: %s no longer applies (the protocol has changed?)", path, le.Line, clip.Quote(le.Action))
		}
		return 0, usageError("%s: %v", path, err)
	}
	code := 0
	if res.Trace.Property != "" {
		code = 1
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return code, enc.Encode(map[string]any{"file": path, "protocol": f.Protocol, "params": f.Params,
			"recorded_property": f.Property, "reproduced": res.Reproduced, "final_matches": res.FinalMatches,
			"trace": res.Trace, "exit_code": code})
	}
	cfg, _ := f.Config()
	fmt.Fprintf(stdout, "replay %s: %s %s network=%s faults=%s, %d steps\n\n", path, f.Protocol, counterexamples.FormatParams(f.Params), cfg.Network, cfg.Faults, len(f.Actions))
	printTrace(stdout, res.Trace)
	fmt.Fprintln(stdout)
	switch {
	case res.Reproduced && res.FinalMatches:
		fmt.Fprintf(stdout, "reproduced: %s is violated, final state as recorded\n", f.Property)
	case res.Reproduced:
		fmt.Fprintf(stdout, "reproduced: %s is violated, but the final state differs from the recorded one\n", f.Property)
	case res.Trace.Property != "":
		fmt.Fprintf(stdout, "not reproduced: the file records %s, but the replay violates %s\n", f.Property, res.Trace.Property)
	default:
		fmt.Fprintf(stdout, "not reproduced: no property is violated after the replay (the file records %s)\n", f.Property)
	}
	if err := writeVisualization(stdout, func() (*viz.Diagram, error) { return counterexamples.Diagram(f, res.Trace) }, res.Trace, *html, ""); err != nil {
		return 0, usageError("writing the visualization: %v", err)
	}
	return code, nil
}
