package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"
)

// costs -html draws a chart per figure, and in each a measured series
// and a formula series per algorithm that reports the figure.
func TestCostsHTML(t *testing.T) {
	for _, c := range []struct {
		family string
		charts int
		algs   map[string][]string // a chart's title -> the algorithms it draws
	}{
		{"mutex", 6, map[string][]string{
			"messages per entry":               {"centralized", "lamport", "maekawa", "maekawa-df", "ricartagrawala", "voting"},
			"messages per exit, no contention": {"centralized", "lamport", "maekawa", "maekawa-df", "ricartagrawala", "tokenring", "voting"},
		}},
		{"election", 14, map[string][]string{
			"sole election, worst: messages": {"bully"},
			"changroberts, worst: messages":  {"ringelection"},
		}},
	} {
		path := filepath.Join(t.TempDir(), c.family+".html")
		code, out, errs := runCmd("costs", c.family, "-n", "5", "-html", path)
		require.Equal(t, 0, code, errs)
		require.Contains(t, out, "plots of the "+c.family+" costs against N written to "+path)
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		page := string(b)
		charts := regexp.MustCompile(`(?s)<svg class="chart line".*?</svg>`).FindAllString(page, -1)
		require.Len(t, charts, c.charts)
		seen := 0
		for _, chart := range charts {
			title := regexp.MustCompile(`<text class="title"[^>]*>([^<]*)</text>`).FindStringSubmatch(chart)[1]
			var measured, formula []string
			for _, m := range regexp.MustCompile(`<g class="series (measured|formula)" data-name="([^"]*)"`).FindAllStringSubmatch(chart, -1) {
				if m[1] == "measured" {
					measured = append(measured, m[2])
				} else {
					formula = append(formula, m[2])
				}
			}
			require.Equal(t, measured, formula, "%s: a formula's curve beside each measured series", title)
			if want, ok := c.algs[title]; ok {
				require.Equal(t, want, measured, "%s: one series per algorithm", title)
				seen++
			}
			// N from 3 to 8: six points on each measured line.
			require.Equal(t, 6*len(measured), len(regexp.MustCompile(`<circle `).FindAllString(chart, -1)), title)
		}
		require.Equal(t, len(c.algs), seen, "the charts named above are drawn")
	}
}
