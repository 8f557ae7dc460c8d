package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/coordcheck/coordcheck/checker"
)

// printCoverage renders the report's coverage: the actions taken by kind,
// a few to a line, the configured kinds that never fired, and the
// warnings of a possibly vacuous pass.
func printCoverage(w io.Writer, rep *checker.Report) {
	if len(rep.Coverage) > 0 {
		unit := "edges"
		if rep.Walks > 0 || rep.Seed != 0 {
			unit = "steps"
		}
		line := fmt.Sprintf("coverage (%s by kind):", unit)
		for i, c := range rep.Coverage {
			item := " " + c.Kind + " " + group(c.Count)
			if i < len(rep.Coverage)-1 {
				item += ","
			}
			if len(line)+len(item) > 100 {
				fmt.Fprintln(w, line)
				line = "  "
			}
			line += item
		}
		fmt.Fprintln(w, line)
	}
	if len(rep.NeverFired) > 0 {
		fmt.Fprintf(w, "never fired: %s\n", strings.Join(rep.NeverFired, ", "))
	}
	for _, wn := range rep.Warnings {
		fmt.Fprintf(w, "warning: %s\n", wn)
	}
}

// strictBound starts the bound of a pass made inconclusive by -strict.
const strictBound = "strict: "

// applyStrict turns a pass with warnings into an inconclusive verdict
// (-strict): the check may have tested nothing.
func applyStrict(rep *checker.Report) {
	if rep.Verdict == checker.Pass && len(rep.Warnings) > 0 {
		rep.Verdict = checker.Inconclusive
		rep.Bound = strictBound + rep.Warnings[0]
	}
}
