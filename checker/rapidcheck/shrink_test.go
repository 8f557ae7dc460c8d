package rapidcheck_test

import (
	"flag"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/counterexamples"
	"github.com/coordcheck/coordcheck/internal/long"
	ra "github.com/coordcheck/coordcheck/protocols/ricartagrawala"
)

// The broken protocols of the repository: the eager Ricart-Agrawala of
// this package and the stored counterexamples' configurations. The first
// three run in every `go test`: their failures needed the replacing pass
// (another node's timer first; a drop for a delivery). The rest run with
// COORDCHECK_LONG (about 40 s).
var brokenFiles = []string{
	"bully/premature-timeout.cex",
	"tokenring/plain-token-lost.cex",
	"bully/restart-two-coordinators.cex",
	"ricartagrawala/dup-reply.cex",
	"maekawa/deadlock-n3-all.cex",
	"bully/restart-during-election.cex",
	"tokenring/timeout-two-tokens.cex",
	"tokenring/pingpong-overtaking.cex",
	"lamport/unordered-both-in-cs.cex",
	"maekawa-df/notes-double-yield.cex",
	"ringelection/changroberts-leader-crash.cex",
	"centralized/happened-before-order.cex",
}

func brokenTarget(t *testing.T, path string) checker.Target {
	fh, err := os.Open("../../counterexamples/" + path)
	require.NoError(t, err)
	defer fh.Close()
	f, err := counterexamples.Parse(fh)
	require.NoError(t, err)
	tg, err := counterexamples.Target(f)
	require.NoError(t, err)
	return tg
}

// bfsShortest is the length of BFS's shortest violation of prop alone.
func bfsShortest(t *testing.T, tg checker.Target, prop string) int {
	var others []string
	for _, p := range tg.PropertyNames() {
		if p != prop {
			others = append(others, p)
		}
	}
	only, err := tg.Without(others)
	require.NoError(t, err)
	rep := only.Check(checker.Options{SkipLiveness: true, Workers: 1, MaxStates: 2_000_000})
	require.Equal(t, checker.Violated, rep.Verdict, "BFS finds no violation of %s", prop)
	return len(rep.Counterexample.Steps)
}

var shrunkRE = regexp.MustCompile(`rapid's schedule: (\d+) steps; shrunk by coordcheck to (\d+)\)`)
var violatedRE = regexp.MustCompile(`counterexample: (\d+) steps to a violation of (\S+)`)

// seedResult is one failing seed: rapid's shrunk length, coordcheck's,
// and the property violated.
type seedResult struct {
	rapid, shrunk int
	prop          string
}

// rapidSeeds runs rapid on tg with seeds 1..20 and returns the failures.
func rapidSeeds(t *testing.T, tg checker.Target) []seedResult {
	defer flag.Set("rapid.seed", "0")
	var res []seedResult
	for seed := 1; seed <= 20; seed++ {
		require.NoError(t, flag.Set("rapid.seed", strconv.Itoa(seed)))
		r := runRecorded(t, tg)
		if !r.failed {
			continue
		}
		out := r.out.String()
		require.Equal(t, 1, strings.Count(out, "counterexample: "), "the trace is printed once:\n%s", out)
		m := shrunkRE.FindStringSubmatch(out)
		require.NotNil(t, m, out)
		v := violatedRE.FindStringSubmatch(out)
		require.NotNil(t, v, out)
		a, _ := strconv.Atoi(m[1])
		b, _ := strconv.Atoi(m[2])
		res = append(res, seedResult{a, b, v[2]})
	}
	return res
}

// TestShrunkFailuresAreNearShortest runs rapid with 20 fixed seeds on every
// broken protocol: each failure, shrunk by coordcheck, is at most 2 steps
// longer than BFS's shortest violation of the same property.
func TestShrunkFailuresAreNearShortest(t *testing.T) {
	type target struct {
		name string
		tg   checker.Target
	}
	targets := []target{{"eager ricartagrawala n=2", spec(eager{ra.New(2, 1)})}}
	files := brokenFiles
	if long.Enabled() {
		// Ricart-Agrawala's eager replies on three processes: a mutex
		// that needs two permissions, the case.
		targets = append(targets, target{"eager ricartagrawala n=3", spec(eager{ra.New(3, 1)})})
	} else {
		files = files[:3]
	}
	for _, f := range files {
		targets = append(targets, target{f, brokenTarget(t, f)})
	}
	for _, tc := range targets {
		t.Run(tc.name, func(t *testing.T) {
			shortest := map[string]int{}
			res := rapidSeeds(t, tc.tg)
			require.NotEmpty(t, res, "rapid found no failure in 20 seeds")
			var before, after []string
			for _, r := range res {
				if _, ok := shortest[r.prop]; !ok {
					shortest[r.prop] = bfsShortest(t, tc.tg, r.prop)
				}
				before = append(before, strconv.Itoa(r.rapid))
				after = append(after, strconv.Itoa(r.shrunk))
				require.LessOrEqual(t, r.shrunk, shortest[r.prop]+2, "%s: shrunk to %d steps, BFS's shortest is %d", r.prop, r.shrunk, shortest[r.prop])
			}
			if os.Getenv("SHRINK_TABLE") != "" {
				fmt.Printf("TABLE %s | %v | failed %d/20 | rapid %s | coordcheck %s\n", tc.name, shortest, len(res), strings.Join(before, " "), strings.Join(after, " "))
			}
		})
	}
}
