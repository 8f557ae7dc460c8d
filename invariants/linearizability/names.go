package linearizability

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/coordcheck/coordcheck/model"
)

// NameClients names the rows of the visualization: names[c] is client c's
// name as the trace or the history file calls it ("p3", not porcupine's
// row number 0). Without names, porcupine numbers its rows.
func (r *Result) NameClients(names []string) { r.clients = names }

// RecordClientNames names the clients of a history read from a trace's
// records (FromRecords): the node that ran each, "p3", and after the
// node's k-th restart "p3 (restart k)", as each incarnation is a client.
func RecordClientNames(h *History) []string {
	names := make([]string, len(h.Processes))
	for i, p := range h.Processes {
		names[i] = model.NodeID(p % model.MaxNodes).String()
		if k := p / model.MaxNodes; k > 0 {
			names[i] += fmt.Sprintf(" (restart %d)", k)
		}
	}
	return names
}

// ProcessNames names the clients of a Jepsen history by their Jepsen
// process numbers.
func ProcessNames(processes []int64) []string {
	names := make([]string, len(processes))
	for i, p := range processes {
		names[i] = strconv.FormatInt(p, 10)
	}
	return names
}

// porcupineRowLabel is the statement of porcupine's script (v1.3.1) that
// labels the rows: a client's row by its number, an annotation tag's by
// the tag.
const porcupineRowLabel = "text.textContent = i < realClients ? i : sortedTags[i - realClients]"

// nameRows rewrites porcupine's page so that client rows carry names
// (a row without a name keeps its number). It fails when porcupine's
// script no longer has the statement it rewrites, so that an upgrade of
// porcupine cannot silently bring the numbers back.
func nameRows(page []byte, names []string) ([]byte, error) {
	if len(names) == 0 {
		return page, nil
	}
	if bytes.Count(page, []byte(porcupineRowLabel)) != 1 {
		return nil, fmt.Errorf("porcupine's visualization has changed: its row labels cannot be named")
	}
	js, err := json.Marshal(names)
	if err != nil {
		return nil, err
	}
	named := "text.textContent = i < realClients ? (" + string(js) + "[i] ?? i) : sortedTags[i - realClients]"
	return bytes.Replace(page, []byte(porcupineRowLabel), []byte(named), 1), nil
}
