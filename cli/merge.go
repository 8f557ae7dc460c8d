package cli

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/internal/clip"
)

// cmdMerge combines the -json reports of the shards of one random or
// swarm run (check -shard i/n) into the verdict of the unsharded run, with
// its exit code: violated when some shard found a failing walk, with the
// counterexample the unsharded run would give; inconclusive otherwise.
// Reports of different systems or runs, and shard indices given twice or
// missing, are bad usage (exit 2).
func cmdMerge(args []string, stdout io.Writer) (int, error) {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "print one JSON object instead of text")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fmt.Fprintln(stdout, "usage: coordcheck merge [-json] FILE...\n\nCombines the check -json reports of the shards of one random or swarm run\n(check -mode swarm -shard i/n -json, i = 0..n-1) into the unsharded run's verdict.\nexit codes: 1 some walk failed, 3 none did (random search proves nothing), 2 bad or mismatched reports")
			return 0, nil
		}
		return 0, usageError("merge: %s", flagErr(err))
	}
	if fs.NArg() == 0 {
		return 0, usageError("merge needs the shards' report files (check -shard i/n -json > FILE)")
	}
	var reps []*checker.Report
	var first checkJSON
	for i, path := range fs.Args() {
		data, err := os.ReadFile(path)
		if err != nil {
			return 0, usageError("merge: %v", err)
		}
		var cj checkJSON
		dec := json.NewDecoder(bytes.NewReader(data))
		if err := dec.Decode(&cj); err != nil {
			return 0, usageError("merge: %s is not a check -json report: %s", path, clip.String(err.Error()))
		}
		if cj.Report == nil || cj.Identity == "" {
			return 0, usageError("merge: %s is not a check -json report (no identity)", path)
		}
		if i == 0 {
			first = cj
		} else if cj.Identity != first.Identity {
			a, b := identityDiff(first.Identity, cj.Identity)
			return 0, usageError("merge: %s and %s are not shards of one run: %s vs %s",
				fs.Arg(0), path, clip.Quote(a), clip.Quote(b))
		}
		reps = append(reps, cj.Report)
	}
	rep, err := checker.MergeShards(reps, fs.Args())
	if err != nil {
		return 0, usageError("merge: %v", err)
	}
	code := rep.Verdict.ExitCode()
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		out := checkJSON{first.Protocol, first.Params, first.Network, first.Faults, first.Mode, first.Identity, rep, code}
		return code, enc.Encode(out)
	}
	fmt.Fprintf(stdout, "coordcheck merge: %d shards of %s\n", len(reps), first.Identity)
	fmt.Fprintf(stdout, "properties: %s\n", strings.Join(rep.Properties, ", "))
	if rep.Counterexample != nil {
		fmt.Fprintln(stdout)
		printTrace(stdout, rep.Counterexample)
	}
	fmt.Fprintln(stdout)
	printSummary(stdout, rep, false)
	if rep.FailingWalk != nil {
		fmt.Fprintf(stdout, "failing walk %d: %d steps, shrunk to %d (check it alone with -walk %d instead of -shard)\n",
			*rep.FailingWalk, rep.ShrunkFrom, len(rep.Counterexample.Steps), *rep.FailingWalk)
	}
	return code, nil
}

// identityDiff returns the first words in which two identities differ
// (the protocol, or one key=value setting).
func identityDiff(a, b string) (string, string) {
	wa, wb := strings.Fields(a), strings.Fields(b)
	for i := range max(len(wa), len(wb)) {
		x, y := "", ""
		if i < len(wa) {
			x = wa[i]
		}
		if i < len(wb) {
			y = wb[i]
		}
		if x != y {
			return x, y
		}
	}
	return a, b
}
