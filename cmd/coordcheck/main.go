// Command coordcheck checks the coordination algorithms of distributed
// systems: it explores every interleaving of a protocol's messages and
// inputs, checks safety properties and deadlock freedom, and prints (and
// stores) a shortest counterexample when one fails.
//
// Usage:
//
//	coordcheck list                      protocols, their parameters and properties
//	coordcheck check PROTOCOL [flags]    check one protocol (exhaustive BFS by default)
//	coordcheck replay [flags] FILE       replay a counterexample file
//	coordcheck costs FAMILY [-n N]       measure message counts and delays
//	coordcheck lincheck [flags] FILE     check a recorded history for linearizability
//	coordcheck run PROTOCOL [flags]      run a protocol for real over TCP and judge the observed run
//	coordcheck explore PROTOCOL [flags]  walk the state space by hand in a local web page
//	coordcheck merge [-json] FILE...     combine the -json reports of a sharded random or swarm run
//
// Exit codes: 0 every property holds within the bounds; 1 a property is
// violated; 2 bad usage, parameters or file; 3 inconclusive (a bound was
// reached first, or a linearizability check timed out).
//
// The command line is package cli; a program of one's own can run it on
// its own protocols too (see package cli).
package main

import (
	"os"

	"github.com/coordcheck/coordcheck/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
