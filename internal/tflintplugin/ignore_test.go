// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package tflintplugin_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/tflintplugin"
)

// unusedIgnoreOn switches on queuecap_unused_ignore, which is off by
// default.
const unusedIgnoreOn = "rule \"queuecap_unused_ignore\" {\n  enabled = true\n}\n"

// TestIgnoreChecksUnderTflint: under tflint, a queuecap-ignore past its
// exp: date no longer silences its finding; queuecap_unused_ignore, when
// on, reports it and the ignores that silenced nothing, never tflint's
// own annotations of other rulesets' rules; a queuecap-ignore naming no
// rule is an error of the run, which queuecap_not_checked reports.
func TestIgnoreChecksUnderTflint(t *testing.T) {
	t.Parallel()
	root := func(comment string) string {
		return copyCase(t, "asg_zero_surplus", map[string][2]string{
			"main.tf": {"  max_size            = 25\n", comment + "\n  max_size            = 25\n"},
		}, nil)
	}
	cases := []struct {
		name    string
		comment string
		extra   string   // .tflint.hcl
		rules   []string // queuecap's findings
		message string   // in a finding's message
	}{
		{"expired", "  # queuecap-ignore: queuecap_zero_surplus # until the migration exp:2026-01-31", "",
			[]string{"queuecap_zero_surplus"}, ""},
		{"expired, said", "  # queuecap-ignore: queuecap_zero_surplus # until the migration exp:2026-01-31", unusedIgnoreOn,
			[]string{tflintplugin.UnusedIgnore, "queuecap_zero_surplus"}, "the ignore of queuecap_zero_surplus worked until the end of 2026-01-31 (UTC)"},
		{"not yet expired", "  # queuecap-ignore: queuecap_zero_surplus # until the migration exp:2999-01-31", unusedIgnoreOn, nil, ""},
		{"unused", "  # queuecap-ignore: queuecap_zero_surplus, queuecap_insufficient_headroom", unusedIgnoreOn,
			[]string{tflintplugin.UnusedIgnore}, "no finding of queuecap_insufficient_headroom is on this line or the next"},
		{"unused, off by default", "  # queuecap-ignore: queuecap_zero_surplus, queuecap_insufficient_headroom", "", nil, ""},
		{"tflint-ignore of another ruleset's rule", "  # tflint-ignore: terraform_naming_convention, queuecap_zero_surplus", unusedIgnoreOn, nil, ""},
		{"tflint-ignore all", "  # tflint-ignore: all", unusedIgnoreOn, nil, ""},
		{"an unknown rule", "  # queuecap-ignore: queuecap_zero_surplu", notCheckedOn,
			[]string{tflintplugin.NotChecked, "queuecap_zero_surplus"}, `queuecap-ignore names rule "queuecap_zero_surplu", which does not exist; did you mean queuecap_zero_surplus?`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := strings.Replace(pluginConfig(t, "", c.extra), notCheckedOn, "", 1)
			if c.extra == notCheckedOn {
				cfg = pluginConfig(t, "", "")
			}
			tf, _, errs := runTflint(t, run{dir: root(c.comment), config: cfg})
			if len(errs) > 0 {
				t.Fatalf("tflint errors: %v", errs)
			}
			if got := rulesOf(tf); !slices.Equal(got, c.rules) {
				t.Fatalf("tflint reports %v, want %v: %v", got, c.rules, tf)
			}
			if c.message != "" && !slices.ContainsFunc(tf, func(f finding) bool { return strings.Contains(f.Message, c.message) }) {
				t.Errorf("no finding says %q: %v", c.message, tf)
			}
		})
	}
	// exp: is queuecap's: a tflint-ignore in a module's file, which the
	// plugin applies, never expires, as tflint's in the root module do not.
	t.Run("tflint-ignore with an exp: date past", func(t *testing.T) {
		dir := copyCase(t, "modules_headroom", map[string][2]string{
			"modules/worker/main.tf": {"  max_size = ", "  # tflint-ignore: queuecap_insufficient_headroom # sized by hand exp:2026-01-31\n  max_size = "},
		}, nil)
		tf, _, errs := runTflint(t, run{dir: dir, config: strings.Replace(pluginConfig(t, "", unusedIgnoreOn), notCheckedOn, "", 1)})
		if len(errs) > 0 {
			t.Fatalf("tflint errors: %v", errs)
		}
		if len(tf) > 0 {
			t.Errorf("tflint reports %v, want nothing", tf)
		}
	})
	// tflint applies its annotations in the root module only, to the
	// plugin's notices too: in a module's file, only the plugin's
	// judgement keeps a tflint-ignore of all for other rulesets unsaid.
	t.Run("tflint-ignore all in a module where queuecap finds nothing", func(t *testing.T) {
		dir := copyCase(t, "modules_headroom", map[string][2]string{
			"modules/worker/main.tf": {"  max_size = ", "  # tflint-ignore: all # for another ruleset\n  # (max_size is two lines below)\n  max_size = "},
		}, nil)
		cfg := strings.Replace(pluginConfig(t, "", unusedIgnoreOn), notCheckedOn, "", 1)
		tf, _, errs := runTflint(t, run{dir: dir, config: cfg})
		if len(errs) > 0 {
			t.Fatalf("tflint errors: %v", errs)
		}
		if got := rulesOf(tf); !slices.Equal(got, []string{"queuecap_insufficient_headroom"}) {
			t.Errorf("tflint reports %v, want the headroom finding alone: %v", got, tf)
		}
	})
}
