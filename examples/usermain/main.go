// Command usermain is coordcheck's command line on a protocol of one's own
// (package askmutex): it registers the protocol, then runs the same
// commands, flags, files and exit codes as coordcheck itself:
//
//	go run ./examples/usermain check askmutex -rounds 2
package main

import (
	"os"

	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/cli"
	"github.com/coordcheck/coordcheck/examples/usermain/askmutex"
	"github.com/coordcheck/coordcheck/model"
	"github.com/coordcheck/coordcheck/protocols"
)

func init() {
	protocols.Register(protocols.Entry{
		Name:   "askmutex",
		Doc:    "two processes, one token, asked for when wanted",
		Params: []protocols.Param{{Name: "rounds", Default: "1", Doc: "critical sections each process enters"}},
		Build: func(v protocols.Values, cfg model.Config) (checker.Target, error) {
			r, err := v.Int("rounds", 1, 9)
			if err != nil {
				return nil, err
			}
			p := &askmutex.Protocol{Rounds: uint8(r)}
			return checker.NewSpec(p, cfg, askmutex.Properties(p))
		},
	})
}

func main() { os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr)) }
