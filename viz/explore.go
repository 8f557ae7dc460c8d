package viz

import (
	"embed"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"

	"github.com/coordcheck/coordcheck/checker"
)

// Explorer serves a web page that walks a target's state space by hand:
// it starts at the initial world, lists the enabled actions, follows the
// one clicked, and shows the nodes, the network and which properties
// hold. The path taken is the page's address (?path=3.0.5: the indices
// of the actions taken, each in the list of the world it was taken in),
// so a page can be shared, reloaded, or left with the browser's back
// button; the server keeps no state.
type Explorer struct {
	// Title names what is explored ("maekawa n=3 ...").
	Title string
	// Start returns a new exploration at the initial world.
	Start func() checker.Exploration
}

//go:embed explore.html.tmpl
var exploreTmpl string

//go:embed static
var static embed.FS

var explorePage = template.Must(template.New("explore").Parse(exploreTmpl))

// Handler serves the explorer: the page at /, its style sheet under
// /static/.
func (e *Explorer) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /static/", http.FileServerFS(static))
	mux.HandleFunc("GET /{$}", e.page)
	return mux
}

// exploreStep is one action taken on the path.
type exploreStep struct {
	N      int
	Action string
	Href   string // the page at the world after it
}

// exploreAction is an action enabled in the world shown.
type exploreAction struct {
	Index  int
	Action string
	Kind   string // its first word: deliver, input, fire, crash...
	Href   string
}

func (e *Explorer) page(w http.ResponseWriter, r *http.Request) {
	path, err := ParsePath(r.URL.Query().Get("path"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	ex := e.Start()
	var steps []exploreStep
	views := []checker.View{ex.View()}
	for i, k := range path {
		enabled := ex.Enabled()
		if k >= len(enabled) {
			http.Error(w, fmt.Sprintf("step %d: action %d is not enabled (%d actions are)", i+1, k, len(enabled)), http.StatusBadRequest)
			return
		}
		steps = append(steps, exploreStep{N: i + 1, Action: enabled[k], Href: "?path=" + FormatPath(path[:i+1])})
		ex.Take(k)
		views = append(views, ex.View())
	}
	var actions []exploreAction
	for i, a := range ex.Enabled() {
		kind, _, _ := strings.Cut(a, " ")
		actions = append(actions, exploreAction{Index: i, Action: a, Kind: kind, Href: "?path=" + FormatPath(append(path[:len(path):len(path)], i))})
	}
	props := ex.Properties()
	violated := ""
	for _, p := range props {
		if p.Status == "violated" && violated == "" {
			violated = p.Name
		}
	}
	back := ""
	if len(path) > 0 {
		back = "?path=" + FormatPath(path[:len(path)-1])
	}
	tr := ex.Trace()
	lines := make([]string, len(tr.Steps))
	for i, st := range tr.Steps {
		lines[i] = st.Action
	}
	data := map[string]any{
		"SVG":      template.HTML(lay(tr, views).draw(lines, -1, tr.Property)),
		"Title":    e.Title,
		"Path":     FormatPath(path),
		"Depth":    len(path),
		"Steps":    steps,
		"Back":     back,
		"World":    ex.View(),
		"Props":    props,
		"Violated": violated,
		"Actions":  actions,
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := explorePage.Execute(w, data); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// ParsePath reads an explorer path, "3.0.5" ("" is the initial world).
func ParsePath(s string) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	var path []int
	for _, f := range strings.Split(s, ".") {
		k, err := strconv.Atoi(f)
		if err != nil || k < 0 {
			return nil, fmt.Errorf("path %q: %q is not an action's index", clipText(s, 60), clipText(f, 20))
		}
		path = append(path, k)
	}
	return path, nil
}

// FormatPath writes an explorer path: the indices joined by dots.
func FormatPath(path []int) string {
	parts := make([]string, len(path))
	for i, k := range path {
		parts[i] = strconv.Itoa(k)
	}
	return strings.Join(parts, ".")
}

// PathOf finds the explorer path of a list of action lines (a
// counterexample's): the index of each among the actions enabled where it
// is taken.
func PathOf(ex checker.Exploration, lines []string) ([]int, error) {
	var path []int
	for i, line := range lines {
		enabled := ex.Enabled()
		k := -1
		for j, a := range enabled {
			if a == strings.Join(strings.Fields(line), " ") {
				k = j
				break
			}
		}
		if k < 0 {
			return nil, fmt.Errorf("step %d: %s is not enabled", i+1, line)
		}
		path = append(path, k)
		ex.Take(k)
	}
	return path, nil
}
