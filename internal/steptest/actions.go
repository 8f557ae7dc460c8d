package steptest

import "github.com/coordcheck/coordcheck/checker"

// Actions lists the actions of a counterexample's steps, in order:
// "crash p2", "fire p1 detect", "p0 -> p1 ELECTION" (nil for none).
func Actions(tr *checker.Trace) []string {
	var as []string
	for _, s := range tr.Steps {
		as = append(as, s.Action)
	}
	return as
}
