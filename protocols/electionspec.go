package protocols

import (
	"fmt"

	"github.com/coordcheck/coordcheck/internal/clip"
)

// paramAgreement chooses when agreement is judged.
func paramAgreement(def string) Param {
	return Param{"agreement", def, "when agreement is judged: end (the notes' safety, once an election run has ended, " +
		"as SPIN checks at quiescence) or always (also no two live processes follow two different live coordinators " +
		"in any state, which flags transient disagreement during a run)"}
}

// agreementAlways reads the agreement parameter.
func agreementAlways(v Values) (bool, error) {
	switch s := v.Get("agreement"); s {
	case "end":
		return false, nil
	case "always":
		return true, nil
	default:
		return false, fmt.Errorf("parameter agreement=%s: want end or always", clip.Quote(s))
	}
}
