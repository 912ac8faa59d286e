// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/rules"
)

// TestAll checks every rule's ID, default severity and documentation link
// against the table in the issue that specifies them.
func TestAll(t *testing.T) {
	want := map[string]lint.Severity{
		"queuecap_zero_surplus":                 lint.Error,
		"queuecap_insufficient_headroom":        lint.Warning,
		"queuecap_depth_only_scaling":           lint.Warning,
		"queuecap_retention_shorter_than_drain": lint.Warning,
		"queuecap_visibility_timeout_too_short": lint.Warning,
		"queuecap_missing_dead_letter_queue":    lint.Warning,
		"queuecap_depth_alarm_after_sla":        lint.Warning,
		"queuecap_metastable_retry_storm":       lint.Warning,
	}
	all := rules.All()
	if len(all) != len(want) {
		t.Fatalf("%d rules, want %d", len(all), len(want))
	}
	for _, r := range all {
		t.Run(r.Name(), func(t *testing.T) {
			sev, ok := want[r.Name()]
			if !ok {
				t.Fatalf("unexpected rule %s", r.Name())
			}
			if r.DefaultSeverity() != sev {
				t.Errorf("severity %s, want %s", r.DefaultSeverity(), sev)
			}
			if !r.EnabledByDefault() {
				t.Error("disabled by default")
			}
			if !strings.HasSuffix(r.Link(), "/docs/rules/"+r.Name()+".md") {
				t.Errorf("link %s", r.Link())
			}
			if r.Summary() == "" {
				t.Error("no summary")
			}
			// The page is carried in the binary, for SARIF's rule help.
			d, ok := r.(lint.DocumentedRule)
			if !ok {
				t.Fatal("carries no documentation page")
			}
			if page, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "rules", r.Name()+".md")); err != nil || d.Doc() != string(page) {
				t.Errorf("Doc() is not docs/rules/%s.md (%v)", r.Name(), err)
			}
		})
	}
}
