package protocols

import (
	"github.com/coordcheck/coordcheck/checker"
	"github.com/coordcheck/coordcheck/model"
)

// Setting is one check's configuration as words: the protocol, the
// parameters given (the others take their defaults), the network, fault
// budget and timer semantics, the causality options and the properties
// left out. It is what the command line's flags and a counterexample
// file's header both say, parsed by the one Config and Build below.
type Setting struct {
	Protocol string
	Params   map[string]string
	Network  string
	// Faults is the fault budget ("none", "crash=1,restart=1") and Timers
	// the timer semantics ("default", "free", "perfect").
	Faults string
	Timers string
	// Ordering and AppMsgs are the causality options (model.Config).
	Ordering bool
	AppMsgs  int
	// Skip names the properties not to check (-skip).
	Skip []string
}

// SettingError is an error in one key of a Setting ("network",
// "faults", "timers", "params", "skip"); it reads as the error itself,
// and Key lets the command line name its flag.
type SettingError struct {
	Key string
	Err error
}

func (e *SettingError) Error() string { return e.Err.Error() }

// Unwrap is the error itself.
func (e *SettingError) Unwrap() error { return e.Err }

// Config is the system configuration the setting says.
func (s *Setting) Config() (model.Config, error) {
	var cfg model.Config
	var err error
	if cfg.Network, err = model.ParseNetwork(s.Network); err != nil {
		return cfg, &SettingError{"network", err}
	}
	if cfg.Faults, err = model.ParseFaults(s.Faults); err != nil {
		return cfg, &SettingError{"faults", err}
	}
	if cfg.Timers, err = model.ParseTimerMode(s.Timers); err != nil {
		return cfg, &SettingError{"timers", err}
	}
	cfg.Ordering, cfg.AppMsgs = s.Ordering, s.AppMsgs
	return cfg, nil
}

// Build makes the target the setting says, through the registry: the
// protocol's entry built with the parameters under Config, without the
// skipped properties; it returns the parameter values used and the
// configuration too. An unknown protocol is an *UnknownError.
func (s *Setting) Build() (checker.Target, Values, model.Config, error) {
	e, ok := Lookup(s.Protocol)
	if !ok {
		return nil, Values{}, model.Config{}, &UnknownError{Name: s.Protocol}
	}
	cfg, err := s.Config()
	if err != nil {
		return nil, Values{}, cfg, err
	}
	t, v, err := e.BuildWith(s.Params, cfg)
	if err != nil {
		return nil, v, cfg, &SettingError{"params", err}
	}
	if len(s.Skip) > 0 {
		if t, err = t.Without(s.Skip); err != nil {
			return nil, v, cfg, &SettingError{"skip", err}
		}
	}
	return t, v, cfg, nil
}
