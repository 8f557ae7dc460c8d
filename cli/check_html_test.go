package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/stretchr/testify/require"
)

// check -json and -html carry the states of each BFS level (on several
// workers, where the level-by-level search counts them exactly), and a
// pass's -html is a report page with that chart.
func TestCheckReportsLevels(t *testing.T) {
	code, out, errs := runCmd("check", "ricartagrawala", "-n", "3", "-json", "-workers", "2")
	require.Equal(t, 0, code, errs)
	var rep struct {
		States uint64
		Depth  int
		Levels []checker.LevelCount
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	require.Equal(t, uint64(2861), rep.States)
	require.Len(t, rep.Levels, rep.Depth+1)
	total := uint64(0)
	for i, l := range rep.Levels {
		require.Equal(t, i, l.Depth)
		total += l.States
	}
	require.Equal(t, rep.States, total)
	require.Equal(t, []checker.LevelCount{{Depth: 0, States: 1}, {Depth: 1, States: 3}, {Depth: 2, States: 9}, {Depth: 3, States: 28}}, rep.Levels[:4])

	// One worker counts the same levels.
	levels := rep.Levels
	code, out, errs = runCmd("check", "ricartagrawala", "-n", "3", "-json", "-workers", "1")
	require.Equal(t, 0, code, errs)
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	require.Equal(t, levels, rep.Levels)

	html := filepath.Join(t.TempDir(), "pass.html")
	code, out, errs = runCmd("check", "ricartagrawala", "-n", "3", "-html", html, "-workers", "2")
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "report written to "+html)
	b, err := os.ReadFile(html)
	require.NoError(t, err)
	require.Equal(t, 1, strings.Count(string(b), `data-bars="22">`), "a bar per level, 0 to 21")
	require.Contains(t, string(b), `<rect class="bar" data-label="3" data-value="28"`)
	require.Contains(t, string(b), "verdict: pass: mutual-exclusion, no-deadlock, starvation-freedom hold in all 2,861 reachable states")
}

// A swarm search's diagram carries the histogram of its failing walks'
// lengths, which add up to the failing walks it counts.
func TestSwarmHistogram(t *testing.T) {
	html := filepath.Join(t.TempDir(), "swarm.html")
	code, out, errs := runCmd("check", "maekawa", "-n", "3", "-mode", "swarm", "-walks", "200", "-exhaust", "-liveness=false", "-html", html)
	require.Equal(t, 1, code, errs)
	failing := regexp.MustCompile(`failing walks: (\d+) no-deadlock`).FindStringSubmatch(out)
	require.NotNil(t, failing, out)
	b, err := os.ReadFile(html)
	require.NoError(t, err)
	page := string(b)
	require.Contains(t, page, "failing walks by length")
	sum := 0
	for _, m := range regexp.MustCompile(`<rect class="bar" data-label="(\d+)" data-value="(\d+)"`).FindAllStringSubmatch(page, -1) {
		n, err := strconv.Atoi(m[2])
		require.NoError(t, err)
		sum += n
		require.GreaterOrEqual(t, len(m[1]), 2, "a walk to a Maekawa deadlock takes at least 15 steps")
	}
	require.Equal(t, strings.TrimSpace(failing[1]), strconv.Itoa(sum))
}
