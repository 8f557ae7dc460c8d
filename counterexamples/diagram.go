package counterexamples

import (
	"fmt"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/viz"
)

// Diagram is the sequence diagram of tr, the replay of f (package viz),
// titled with f's protocol and configuration.
func Diagram(f *File, tr *checker.Trace) (*viz.Diagram, error) {
	target, err := Target(f)
	if err != nil {
		return nil, err
	}
	return viz.New(target, Title(f), tr)
}

// Title names what f checked: "maekawa n=3 rounds=1 sets=all
// network=fifo faults=none", with the timers and causality options when
// they differ from the defaults.
func Title(f *File) string {
	cfg, err := f.Config()
	if err != nil {
		return f.Protocol + " " + FormatParams(f.Params)
	}
	s := fmt.Sprintf("%s %s  network=%s faults=%s", f.Protocol, FormatParams(f.Params), cfg.Network, cfg.Faults)
	if f.Timers != "" && f.Timers != "default" {
		s += " timers=" + f.Timers
	}
	if f.Ordering {
		s += " ordering"
	}
	if f.AppMsgs > 0 {
		s += fmt.Sprintf(" app-msgs=%d", f.AppMsgs)
	}
	return s
}
