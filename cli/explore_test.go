package cli

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// get fetches url's body.
func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, url)
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return string(b)
}

// explore runs the explore command with args, calls visit with the
// address it prints, and stops it.
func explore(t *testing.T, visit func(url string), args ...string) (int, string, string) {
	t.Helper()
	exploreServe = func(url string) <-chan struct{} {
		stop := make(chan struct{})
		visit(url)
		close(stop)
		return stop
	}
	defer func() { exploreServe = nil }()
	return runCmd(append([]string{"explore"}, args...)...)
}

// explore serves the initial world on 127.0.0.1, and -cex opens at the
// counterexample's last step, where its property fails.
func TestExplore(t *testing.T) {
	code, out, errs := explore(t, func(url string) {
		require.True(t, strings.HasPrefix(url, "http://127.0.0.1:"), url)
		page := get(t, url)
		require.Contains(t, page, `<span id="depth">step 0</span>`)
		require.Contains(t, page, `<a class="action input" href="?path=0" data-index="0">input p0 request</a>`)
		require.Contains(t, get(t, url+"static/explore.css"), "a.action")
	}, "maekawa", "-n", "3")
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "exploring maekawa n=3 requesters=all rounds=1 sets=all  network=fifo faults=none at http://127.0.0.1:")

	code, out, errs = explore(t, func(url string) {
		require.True(t, strings.HasSuffix(url, "/?path=0.0.0.0.0.0.0.0.0.0.0.1.0.0.0"), url)
		page := get(t, url)
		require.Contains(t, page, `<span id="depth">step 15</span>`)
		require.Contains(t, page, `violated here: <b>no-deadlock</b>`)
	}, "-cex", "../counterexamples/maekawa/deadlock-n3-all.cex")
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "exploring maekawa")

	code, out, errs = explore(t, func(url string) {
		require.Contains(t, get(t, url), `violated here: <b>no-deadlock</b>`)
	}, "maekawa", "-n", "3", "-check")
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, "check: no-deadlock violated after 15 steps; opening there")

	code, _, errs = runCmd("explore", "maekawa", "-cex", "x.cex")
	require.Equal(t, 2, code)
	require.Contains(t, errs, "give a protocol or -cex FILE, not both")
	code, _, errs = runCmd("explore", "nosuch")
	require.Equal(t, 2, code)
	require.Contains(t, errs, "unknown protocol")
}
