package costs

import "fmt"

// Row is one line of a protocol's cost table: a metric, the figure the
// protocol's own code gave when run, the notes' formula for it, and a note
// where they differ. Each protocol's table (LamportTable, BullyTable,
// NackTable, ...) makes its rows; `coordcheck costs` renders them.
type Row struct {
	Metric   string `json:"metric"`
	Measured string `json:"measured"`
	Formula  string `json:"formula"`
	Matches  bool   `json:"matches"`
	Note     string `json:"note,omitempty"`
}

// formula is a figure of the notes' tables: its text and, evaluated for
// the size at hand, the range it predicts.
type formula struct {
	text     string
	min, max int
	note     string // said when the measurement differs
}

// exact is a formula that predicts the one value v.
func exact(text string, v int) formula { return formula{text: text, min: v, max: v} }

// row lays got, measured for metric, beside f.
func (f formula) row(metric string, got Range) Row {
	want := Range{Min: f.min, Max: f.max}
	r := Row{Metric: metric, Measured: got.String(), Formula: fmt.Sprintf("%s = %s", f.text, want), Matches: got == want}
	if !r.Matches {
		r.Note = f.note
	}
	return r
}
