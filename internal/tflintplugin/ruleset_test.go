// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package tflintplugin_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/terraform-linters/tflint-plugin-sdk/tflint"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/rules"
	"github.com/queuecap/terraform-provider-queuecap/internal/tflintplugin"
)

// TestRuleSet: the ruleset tflint sees is queuecap's eight rules, by the
// same IDs, severities and pages, and queuecap_not_checked and
// queuecap_unused_ignore at notice, off by default; its version is the build's without the v.
func TestRuleSet(t *testing.T) {
	rs := tflintplugin.New("v1.2.3")
	if rs.RuleSetName() != "queuecap" || rs.RuleSetVersion() != "1.2.3" {
		t.Errorf("ruleset %q version %q, want queuecap 1.2.3", rs.RuleSetName(), rs.RuleSetVersion())
	}
	var want []string
	for _, r := range rules.All() {
		want = append(want, r.Name())
	}
	want = append(want, tflintplugin.NotChecked, tflintplugin.UnusedIgnore)
	if got := rs.RuleNames(); !slices.Equal(got, want) {
		t.Errorf("rule names %v, want %v", got, want)
	}
	byName := map[string]sdk.Rule{}
	for _, r := range rs.Rules {
		byName[r.Name()] = r
	}
	for _, r := range rules.All() {
		tr := byName[r.Name()]
		if tr.Link() != r.Link() || tr.Enabled() != r.EnabledByDefault() || !strings.EqualFold(tr.Severity().String(), r.DefaultSeverity().String()) {
			t.Errorf("%s: tflint sees link %s, enabled %v, severity %s; queuecap has %s, %v, %s",
				r.Name(), tr.Link(), tr.Enabled(), tr.Severity(), r.Link(), r.EnabledByDefault(), r.DefaultSeverity())
		}
	}
	for _, name := range []string{tflintplugin.NotChecked, tflintplugin.UnusedIgnore} {
		nc := byName[name]
		if nc.Severity() != sdk.NOTICE || nc.Enabled() {
			t.Errorf("%s: severity %s, enabled %v; want a notice, off by default", nc.Name(), nc.Severity(), nc.Enabled())
		}
		// The page and the section the link names exist.
		page, anchor, _ := strings.Cut(nc.Link()[strings.Index(nc.Link(), "/docs/")+1:], "#")
		src, err := os.ReadFile(filepath.Join("..", "..", page))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(strings.ToLower(string(src)), "\n## "+strings.ReplaceAll(anchor, "-", " ")+"\n") {
			t.Errorf("%s has no section for #%s", page, anchor)
		}
	}
}
