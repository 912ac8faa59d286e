// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
)

// TestConfigIgnores: an ignore block of .queuecap.hcl silences the
// findings of its rule whose every instance's address matches address and
// whose file matches path (relative to the block's file); unused and
// expired blocks are notices at the block, an unknown rule an error.
func TestConfigIgnores(t *testing.T) {
	const rule = "queuecap_depth_alarm_after_sla"
	block := func(body string) string {
		return "ignore {\n" + body + "\n  reason = \"advisory SLA, see OPS-4\"\n}\n"
	}
	cases := []struct {
		name    string
		config  string
		files   map[string]string
		kept    []string // rules of the findings left
		notices []string // summaries, by line
		err     string   // in the one error
		address string   // of the last finding left, when set
	}{
		{name: "an address", config: block(`rule = "` + rule + `"` + "\naddress = \"aws_cloudwatch_metric_alarm.depth\"")},
		{name: "an address glob", config: block(`rule = "` + rule + `"` + "\naddress = \"aws_cloudwatch_metric_alarm.*\"")},
		{name: "all", config: block("rule = \"all\"\naddress = \"aws_cloudwatch_metric_alarm.*\"")},
		{name: "another address", config: block(`rule = "` + rule + `"` + "\naddress = \"aws_cloudwatch_metric_alarm.age\""), kept: []string{rule},
			notices: []string{"1: ignore block for " + rule + " suppresses nothing: remove it"}},
		{name: "another rule", config: block("rule = \"queuecap_zero_surplus\"\naddress = \"aws_cloudwatch_metric_alarm.*\""), kept: []string{rule},
			notices: []string{"1: ignore block for queuecap_zero_surplus suppresses nothing: remove it"}},
		{name: "a path", config: block(`rule = "` + rule + `"` + "\npath = \"*.tf\"")},
		{name: "a path and an address, both matching", config: block(`rule = "` + rule + `"` + "\npath = \"**/main.tf\"\naddress = \"aws_cloudwatch_metric_alarm.depth\"")},
		{name: "a path and an address, one matching", config: block(`rule = "` + rule + `"` + "\npath = \"main.tf\"\naddress = \"aws_sqs_queue.*\""), kept: []string{rule},
			notices: []string{"1: ignore block for " + rule + " suppresses nothing: remove it"}},
		{name: "another path", config: block(`rule = "` + rule + `"` + "\npath = \"legacy/**\""), kept: []string{rule},
			notices: []string{"1: ignore block for " + rule + " suppresses nothing: remove it"}},
		{name: "a path under a folder", config: block(`rule = "` + rule + `"` + "\npath = \"legacy/**\""), files: map[string]string{"legacy/main.tf": slaAlarm("", "")}},
		{name: "expired", config: block(`rule = "` + rule + `"` + "\naddress = \"aws_cloudwatch_metric_alarm.depth\"\nexpires = \"2026-11-30\""), kept: []string{rule},
			notices: []string{"1: ignore block for " + rule + " expired on 2026-11-30: its findings are reported again"}},
		{name: "not expired yet", config: block(`rule = "` + rule + `"` + "\naddress = \"aws_cloudwatch_metric_alarm.depth\"\nexpires = \"2026-12-02\"")},
		{name: "an unknown rule", config: block("rule = \"queuecap_depth_alarm_after_slo\"\naddress = \"aws_cloudwatch_metric_alarm.depth\""), kept: []string{rule},
			err: `:2:8: ignore block names rule "queuecap_depth_alarm_after_slo", which does not exist; did you mean ` + rule + "?"},
		{name: "inside a module", config: block("rule = \"queuecap_zero_surplus\"\naddress = \"module.app.*\""), files: map[string]string{
			"main.tf": "module \"app\" {\n  source = \"./modules/app\"\n  max    = 25\n  rate   = 10000\n}\n", "modules/app/main.tf": workerModule},
			kept: []string{"queuecap_missing_dead_letter_queue"}},
		{name: "one instance of two", config: block("rule = \"queuecap_zero_surplus\"\naddress = \"module.app[\\\"a\\\"].*\""), files: map[string]string{
			"main.tf":             "module \"app\" {\n  for_each = toset([\"a\", \"b\"])\n  source = \"./modules/app\"\n  max    = 25\n  rate   = 10000\n}\n",
			"modules/app/main.tf": workerModule}, kept: []string{"queuecap_missing_dead_letter_queue", "queuecap_zero_surplus"}, address: `module.app["b"].aws_autoscaling_group.w`},
	}
	now := time.Date(2026, 12, 2, 17, 0, 0, 0, time.UTC)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			files := c.files
			if files == nil {
				files = map[string]string{"main.tf": slaAlarm("", "")}
			}
			writeFiles(t, dir, files)
			writeFiles(t, dir, map[string]string{".queuecap.hcl": c.config})
			cfg, diags := lint.LoadConfig(filepath.Join(dir, ".queuecap.hcl"), true, nil)
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			root := dir
			if _, ok := files["legacy/main.tf"]; ok {
				root = filepath.Join(dir, "legacy")
			}
			res := lintDir(t, lint.Options{Dirs: []string{root}, Config: cfg, ReportUnusedIgnores: true, Now: func() time.Time { return now }})
			var kept, notices []string
			for _, is := range res.Issues {
				if is.Rule == lint.UnusedIgnore {
					if is.Severity != lint.Notice || !strings.HasSuffix(is.Range.Filename, ".queuecap.hcl") {
						t.Errorf("notice %+v", is)
					}
					notices = append(notices, fmt.Sprintf("%d: %s", is.Range.Start.Line, is.Summary))
				} else {
					kept = append(kept, is.Rule)
				}
			}
			if !slices.Equal(kept, c.kept) || !slices.Equal(notices, c.notices) {
				t.Errorf("findings %q, notices %q; want %q, %q", kept, notices, c.kept, c.notices)
			}
			if last := len(res.Issues) - 1; c.address != "" && (last < 0 || res.Issues[last].Address != c.address || len(res.Issues[last].Instances) > 1) {
				t.Errorf("findings %+v, want the last of %s alone", res.Issues, c.address)
			}
			switch {
			case c.err == "" && len(res.Errors) > 0:
				t.Errorf("errors: %v", res.Errors)
			case c.err != "" && (len(res.Errors) != 1 || !strings.Contains(res.Errors[0].String(), c.err)):
				t.Errorf("errors %v, want one with %q", res.Errors, c.err)
			}
		})
	}
}

// TestConfigIgnoreMistakes: an ignore block without a rule, a reason or
// anything to match, or with a malformed expiry, is an error at its place.
func TestConfigIgnoreMistakes(t *testing.T) {
	cases := []struct{ name, body, want string }{
		{"no rule", "address = \"aws_sqs_queue.q\"\nreason = \"x\"", ":1,1-7: Incomplete ignore block; an ignore block needs rule"},
		{"no reason", "rule = \"all\"\naddress = \"aws_sqs_queue.q\"", ":1,1-7: Incomplete ignore block; an ignore block needs a reason"},
		{"a blank reason", "rule = \"all\"\naddress = \"aws_sqs_queue.q\"\nreason = \" \"", ":1,1-7: Incomplete ignore block; an ignore block needs a reason"},
		{"nothing to match", "rule = \"all\"\nreason = \"x\"", ":1,1-7: Incomplete ignore block; an ignore block needs address"},
		// An empty glob would match nothing to narrow by: the block would
		// accept every finding of its rule.
		{"an empty address", "rule = \"all\"\naddress = \"\"\nreason = \"x\"", ":1,1-7: Incomplete ignore block; an ignore block needs address"},
		{"an empty path", "rule = \"all\"\npath = \"\"\nreason = \"x\"", ":1,1-7: Incomplete ignore block; an ignore block needs address"},
		{"a malformed expiry", "rule = \"all\"\naddress = \"aws_sqs_queue.q\"\nreason = \"x\"\nexpires = \"31/03/2027\"", ":5,11-23: Invalid value for expires; expires must be a date, YYYY-MM-DD"},
		{"an unknown attribute", "rule = \"all\"\naddress = \"aws_sqs_queue.q\"\nreason = \"x\"\nrules = [\"all\"]", `An argument named "rules" is not expected here`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{".queuecap.hcl": "ignore {\n" + c.body + "\n}\n"})
			_, diags := lint.LoadConfig(filepath.Join(dir, ".queuecap.hcl"), true, nil)
			if len(diags) != 1 || !strings.Contains(diags.Error(), c.want) {
				t.Errorf("diagnostics %v, want one with %q", diags, c.want)
			}
		})
	}
}
