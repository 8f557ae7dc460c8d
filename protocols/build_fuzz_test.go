package protocols

import (
	"strings"
	"testing"

	"github.com/coordcheck/coordcheck/model"
)

// FuzzBuild: any value of any parameter of any protocol, under any
// network, fault budget and timer mode, builds a target or fails with one
// line naming what is wrong, never a panic.
func FuzzBuild(f *testing.F) {
	for i, e := range All() {
		for j, p := range e.Params {
			f.Add(uint8(i), uint8(j), p.Default, uint8(0))
			f.Add(uint8(i), uint8(j), "0", uint8(1))
			f.Add(uint8(i), uint8(j), "64", uint8(2))
			f.Add(uint8(i), uint8(j), "-1", uint8(7))
		}
	}
	f.Add(uint8(0), uint8(0), "p1+p2", uint8(0))
	f.Add(uint8(0), uint8(0), "0,1;1,2;0,2", uint8(0))
	f.Fuzz(func(t *testing.T, which, param uint8, value string, cfgBits uint8) {
		entries := All()
		e := entries[int(which)%len(entries)]
		given := map[string]string{}
		if len(e.Params) > 0 {
			given[e.Params[int(param)%len(e.Params)].Name] = value
		}
		var cfg model.Config
		if cfgBits&1 != 0 {
			cfg.Network = model.Unordered
		}
		if cfgBits&2 != 0 {
			cfg.Faults, _ = model.ParseFaults("crash=1,restart=1,drop=1,dup=1,partition=1")
		}
		cfg.Timers = model.TimerMode(cfgBits >> 2 % 3)
		if cfgBits&32 != 0 {
			cfg.AppMsgs = 1
		}
		cfg.Ordering = cfgBits&64 != 0
		_, _, err := e.BuildWith(given, cfg)
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, "\n") || len(msg) > 600 {
				t.Fatalf("%s %v: error is not one short line: %q", e.Name, given, msg)
			}
		}
	})
}
