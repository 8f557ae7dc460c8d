// Package cli is coordcheck's command line as a library: Main runs one
// command (list, check, replay, costs, lincheck, run, explore) on the protocols of
// the registry (package protocols), with the flags, files and exit codes
// of DESIGN.md. Command coordcheck is Main on the shipped protocols; a
// user's own main registers their protocols first (protocols.Register)
// and gets the same commands for them:
//
//	func main() {
//		protocols.Register(protocols.Entry{Name: "mymutex", ...})
//		os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
//	}
//
// Exit codes: 0 every property holds within the bounds; 1 a property is
// violated; 2 bad usage, parameters or file; 3 inconclusive (a bound was
// reached first, or a linearizability check timed out).
package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/coordcheck/coordcheck/internal/clip"
)

// exitError carries an exit code and a one-line message.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

func usageError(format string, args ...any) error {
	return &exitError{2, fmt.Sprintf(format, args...)}
}

const usage = `coordcheck: a model checker for distributed coordination algorithms

usage:
  coordcheck list                      list protocols, their parameters and properties
  coordcheck check PROTOCOL [flags]    check a protocol (exhaustive BFS by default)
  coordcheck replay [flags] FILE       replay a counterexample file
  coordcheck costs FAMILY [flags]      measure message counts and delays beside the notes' formulas
  coordcheck lincheck [flags] FILE     check a recorded Jepsen history for linearizability
  coordcheck run PROTOCOL [flags]      run a protocol for real (TCP on 127.0.0.1), with faults, and judge what happened
  coordcheck explore PROTOCOL [flags]  walk the state space by hand in a web page served on 127.0.0.1
  coordcheck merge [-json] FILE...     combine the shards' check -json reports (check -shard i/n) into one verdict

Run 'coordcheck COMMAND -h' for the flags of a command.
Exit codes: 0 pass, 1 violated, 2 bad usage or input, 3 inconclusive (bound reached).
`

// Main executes one command, args being the command line after the
// program's name, and returns its exit code.
func Main(args []string, stdout, stderr io.Writer) int { return run(args, stdout, stderr) }

// run executes one command and returns its exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var code int
	var err error
	switch args[0] {
	case "list":
		code, err = cmdList(args[1:], stdout)
	case "check":
		code, err = cmdCheck(args[1:], stdout, stderr)
	case "replay":
		code, err = cmdReplay(args[1:], stdout)
	case "costs":
		code, err = cmdCosts(args[1:], stdout)
	case "lincheck":
		code, err = cmdLincheck(args[1:], stdout)
	case "run":
		code, err = cmdRun(args[1:], stdout, stderr)
	case "node":
		// Hidden: a node process of run -transport proc (this very
		// program, re-executed).
		code, err = cmdNode(args[1:])
	case "explore":
		code, err = cmdExplore(args[1:], stdout)
	case "merge":
		code, err = cmdMerge(args[1:], stdout)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		err = usageError("unknown command %s (valid: list, check, replay, costs, lincheck, run, explore, merge)", clip.Quote(args[0]))
	}
	if err != nil {
		// One line of readable length, whatever the input quoted in it.
		var ee *exitError
		if errors.As(err, &ee) {
			if ee.msg != "" {
				fmt.Fprintln(stderr, "coordcheck: "+clip.Line(ee.msg))
			}
			return ee.code
		}
		fmt.Fprintln(stderr, "coordcheck: "+clip.Line(err.Error()))
		return 2
	}
	return code
}
