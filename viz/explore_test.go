package viz_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols"
	"github.com/coordcheck/coordcheck/viz"
	"github.com/stretchr/testify/require"
)

func fetch(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

// The explorer's pages, without a browser: each property's status, the
// actions enabled, and bad paths refused in one line.
func TestExplorerPages(t *testing.T) {
	e, _ := protocols.Lookup("maekawa")
	target, _, err := e.BuildWith(map[string]string{"n": "3"}, model.Config{})
	require.NoError(t, err)
	ex := target.(checker.Explorable)
	srv := httptest.NewServer((&viz.Explorer{Title: "maekawa n=3", Start: ex.Explore}).Handler())
	defer srv.Close()

	code, page := fetch(t, srv.URL+"/")
	require.Equal(t, http.StatusOK, code)
	require.Equal(t, 3, strings.Count(page, `<a class="action input"`), "three processes may request")
	require.Contains(t, page, `<tr class="prop holds" data-prop="no-deadlock">`)
	require.Contains(t, page, `<tr class="prop cycles" data-prop="starvation-freedom">`)

	path, err := viz.PathOf(ex.Explore(), []string{"input p0 request", "deliver   p0->p0 REQ(ts=1)", "deliver p0->p0 GRANT"})
	require.NoError(t, err)
	require.Equal(t, "0.0.0", viz.FormatPath(path))
	code, page = fetch(t, srv.URL+"/?path=0.0.0")
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, page, `<span id="depth">step 3</span>`)
	require.Contains(t, page, `<code>WANTED clock=1 ts=1 grants=1/3 rounds=0 voted=p0</code>`)
	require.Contains(t, page, `<a id="back" href="?path=0.0">`)

	for url, want := range map[string]string{
		"/?path=0.9":   "step 2: action 9 is not enabled (5 actions are)",
		"/?path=0.x":   `path "0.x": "x" is not an action's index`,
		"/?path=0.-1":  `path "0.-1": "-1" is not an action's index`,
		"/nosuch/page": "404 page not found",
	} {
		code, page := fetch(t, srv.URL+url)
		require.NotEqual(t, http.StatusOK, code, url)
		require.Equal(t, want, strings.TrimSpace(page), url)
	}
	_, err = viz.PathOf(ex.Explore(), []string{"input p0 request", "deliver p1->p0 GRANT"})
	require.EqualError(t, err, "step 2: deliver p1->p0 GRANT is not enabled")
}
