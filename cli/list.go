package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols"
)

func cmdList(args []string, stdout io.Writer) (int, error) {
	if hasHelp(args) {
		fmt.Fprintln(stdout, "usage: coordcheck list\n\nLists the protocols, their parameters (with defaults) and the properties each checks.")
		return 0, nil
	}
	if len(args) > 0 {
		return 0, usageError("list takes no arguments")
	}
	for _, e := range protocols.All() {
		fmt.Fprintf(stdout, "%s\n    %s\n", e.Name, e.Doc)
		for _, p := range e.Params {
			fmt.Fprintf(stdout, "    -%-13s %-7s %s\n", p.Name, p.Default, p.Doc)
		}
		if t, _, err := e.BuildWith(nil, model.Config{}); err == nil {
			fmt.Fprintf(stdout, "    properties: %s\n", strings.Join(t.PropertyNames(), ", "))
		}
		fmt.Fprintln(stdout)
	}
	return 0, nil
}
