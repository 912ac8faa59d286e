// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// fakePresence is a configuration: names to "set", "unknown" (set to a
// value not known yet, which may be null) or absent.
type fakePresence map[string]string

func (p fakePresence) IsSet(name string) bool        { return p[name] != "" }
func (p fakePresence) IsKnown(name string) bool      { return p[name] != "unknown" }
func (p fakePresence) Number(string) (float64, bool) { return 0, false }
func (p fakePresence) with(kv ...string) fakePresence {
	for i := 0; i < len(kv); i += 2 {
		p[kv[i]] = kv[i+1]
	}
	return p
}

// TestRulesJudgeOnlyWhatIsKnown: a rule across inputs fails only when
// its verdict holds whatever the inputs not known yet turn out to be.
func TestRulesJudgeOnlyWhatIsKnown(t *testing.T) {
	form := capacity.OneForm{Forms: [][]string{{"completion_rate"}, {"consumers", "per_consumer_rate"}}, What: "the fleet's completion rate", Noun: "completion rate"}
	also := capacity.AlsoRequires{Input: "visibility_margin", Needs: "max_processing_seconds"}
	for _, c := range []struct {
		name string
		rule capacity.Rule
		p    fakePresence
		want string // the field at fault, "-" for none named, "" for no error
	}{
		{"both forms set", form, fakePresence{}.with("completion_rate", "set", "consumers", "set", "per_consumer_rate", "set"), "completion_rate"},
		{"one form unknown beside the other", form, fakePresence{}.with("completion_rate", "unknown", "consumers", "set", "per_consumer_rate", "set"), ""},
		{"half a form, the other half unset", form, fakePresence{}.with("consumers", "set"), "consumers"},
		{"half a form unknown, the other half unset", form, fakePresence{}.with("consumers", "unknown"), ""},
		{"no form", form, fakePresence{}, "-"},
		{"only unknowns", form, fakePresence{}.with("completion_rate", "unknown"), ""},
		{"requires, set without", also, fakePresence{}.with("visibility_margin", "set"), "visibility_margin"},
		{"requires, unknown without", also, fakePresence{}.with("visibility_margin", "unknown"), ""},
		{"requires, set with unknown", also, fakePresence{}.with("visibility_margin", "set", "max_processing_seconds", "unknown"), ""},
	} {
		err := c.rule.Check(c.p)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v, want no error", c.name, err)
		case c.want != "" && err == nil:
			t.Errorf("%s: no error, want one", c.name)
		case c.want == "-" && err != nil && err.Field != "":
			t.Errorf("%s: error on %s, want none named", c.name, err.Field)
		case c.want != "" && c.want != "-" && err != nil && err.Field != c.want:
			t.Errorf("%s: error on %s (%v), want %s", c.name, err.Field, err, c.want)
		}
	}
}
