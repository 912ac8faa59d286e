// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
)

func TestIgnoreAnnotations(t *testing.T) {
	const rule = "queuecap_depth_alarm_after_sla"
	cases := []struct {
		name  string
		files map[string]string
		want  int // findings left
	}{
		{"no annotation", map[string]string{"main.tf": slaAlarm("", "")}, 1},
		{"same line", map[string]string{"main.tf": slaAlarm("", "# queuecap-ignore: "+rule)}, 0},
		{"line above", map[string]string{"main.tf": slaAlarm("# queuecap-ignore: "+rule, "")}, 0},
		{"two lines above does not count", map[string]string{"main.tf": slaAlarm("# queuecap-ignore: "+rule+"\n", "")}, 1},
		{"all", map[string]string{"main.tf": slaAlarm("", "# queuecap-ignore: all")}, 0},
		{"a list naming the rule", map[string]string{"main.tf": slaAlarm("# queuecap-ignore: queuecap_zero_surplus, "+rule, "")}, 0},
		{"a list without the rule", map[string]string{"main.tf": slaAlarm("# queuecap-ignore: queuecap_zero_surplus,queuecap_missing_dead_letter_queue", "")}, 1},
		{"another rule", map[string]string{"main.tf": slaAlarm("", "# queuecap-ignore: queuecap_zero_surplus")}, 1},
		{"with a reason", map[string]string{"main.tf": slaAlarm("", "# queuecap-ignore: "+rule+" # the SLA is advisory for this queue")}, 0},
		{"a reason does not name rules", map[string]string{"main.tf": slaAlarm("", "# queuecap-ignore: queuecap_zero_surplus # not "+rule)}, 1},
		{"double-slash comment", map[string]string{"main.tf": slaAlarm("", "// queuecap-ignore: "+rule)}, 0},
		{"block comment", map[string]string{"main.tf": slaAlarm("/* queuecap-ignore: "+rule+" */", "")}, 0},
		{"no colon is no annotation", map[string]string{"main.tf": slaAlarm("", "# queuecap-ignore "+rule)}, 1},
		{"file annotation at the top", map[string]string{"main.tf": "# queuecap-ignore-file: " + rule + "\n" + slaAlarm("", "")}, 0},
		{"file annotation after other leading comments", map[string]string{"main.tf": "# Orders pipeline.\n\n// Owned by the payments team.\n# queuecap-ignore-file: all # legacy, tracked in PAY-12\n" + slaAlarm("", "")}, 0},
		{"file annotation for another rule", map[string]string{"main.tf": "# queuecap-ignore-file: queuecap_zero_surplus\n" + slaAlarm("", "")}, 1},
		{"a # inside a string is not a comment", map[string]string{"main.tf": slaAlarm(`alarm_description   = "# queuecap-ignore: all"`, "")}, 1},
		{"an annotation inside a heredoc is not a comment", map[string]string{"main.tf": slaAlarm("", "") + "\nlocals {\n  doc = <<EOT\n# queuecap-ignore-file: all\nEOT\n}\n"}, 1},
		{"an interpolated string ending on the finding's line", map[string]string{"main.tf": slaAlarm(`alarm_description   = "depth of ${aws_sqs_queue.orders.name} # queuecap-ignore: all"`, "")}, 1},
		{"an annotation in another file", map[string]string{"main.tf": slaAlarm("", ""), "other.tf": "# queuecap-ignore-file: all\n"}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, c.files)
			res := lintDir(t, lint.Options{Dirs: []string{dir}})
			if len(res.Errors) > 0 {
				t.Fatalf("errors: %v", res.Errors)
			}
			if len(res.Issues) != c.want {
				t.Fatalf("%d issues, want %d: %+v", len(res.Issues), c.want, res.Issues)
			}
			for _, is := range res.Issues {
				if is.Rule != rule {
					t.Errorf("unexpected issue %s at %s", is.Rule, is.Range)
				}
			}
		})
	}
}

// TestIgnoreMistakes: an ignore comment that cannot work is an error at
// its place, and the finding it meant to silence is still reported.
func TestIgnoreMistakes(t *testing.T) {
	const rule = "queuecap_depth_alarm_after_sla"
	cases := []struct {
		name  string
		files map[string]string
		line  int    // of the error
		want  string // in its message
		// silenced: the finding is ignored all the same
		silenced bool
	}{
		{"a misspelled rule", map[string]string{"main.tf": slaAlarm("", "# queuecap-ignore: queuecap_depth_alarm_after_sl")}, 10,
			`queuecap-ignore names rule "queuecap_depth_alarm_after_sl", which does not exist; did you mean ` + rule + "?", false},
		{"a misspelled rule beside a right one", map[string]string{"main.tf": slaAlarm("# queuecap-ignore: queuecap_zero_surplu, "+rule, "")}, 9,
			`rule "queuecap_zero_surplu", which does not exist; did you mean queuecap_zero_surplus?`, true},
		{"a rule like none", map[string]string{"main.tf": slaAlarm("", "# queuecap-ignore: everything")}, 10,
			`rule "everything", which does not exist`, false},
		{"a file annotation below the first block", map[string]string{"main.tf": slaAlarm("", "") + "# queuecap-ignore-file: " + rule + "\n"}, 14,
			"queuecap-ignore-file must be at the top of the file", false},
		{"a malformed expiry", map[string]string{"main.tf": slaAlarm("", "# queuecap-ignore: "+rule+" # advisory exp:2027-31-03")}, 10,
			`expiry "exp:2027-31-03" is not a date: write exp:YYYY-MM-DD`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, c.files)
			res := lintDir(t, lint.Options{Dirs: []string{dir}})
			if len(res.Errors) != 1 || res.Errors[0].Range == nil || res.Errors[0].Range.Start.Line != c.line || !strings.Contains(res.Errors[0].Message, c.want) {
				t.Fatalf("errors %v, want one at line %d with %q", res.Errors, c.line, c.want)
			}
			if c.silenced && len(res.Issues) != 0 {
				t.Errorf("issues %+v, want none", res.Issues)
			}
			if !c.silenced && (len(res.Issues) != 1 || res.Issues[0].Rule != rule) {
				t.Errorf("issues %+v, want the %s finding", res.Issues, rule)
			}
		})
	}
	t.Run("all and a disabled rule are names", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"main.tf": slaAlarm("# queuecap-ignore: all", "# queuecap-ignore: queuecap_depth_only_scaling")})
		res := lintDir(t, lint.Options{Dirs: []string{dir}, Disable: []string{"queuecap_depth_only_scaling"}})
		if len(res.Errors) > 0 || len(res.Issues) > 0 {
			t.Errorf("errors %v, issues %+v; want none", res.Errors, res.Issues)
		}
	})
}

// TestIgnoreExpiry: an ignore works through its exp: day (UTC), then the
// finding comes back with a notice at the comment naming the day.
func TestIgnoreExpiry(t *testing.T) {
	const rule = "queuecap_depth_alarm_after_sla"
	comment := "# queuecap-ignore: " + rule + " # advisory until the SLA review exp:2027-03-31"
	src := slaAlarm("", comment)
	cases := []struct {
		now     string
		expired bool
	}{
		{"2026-12-02T17:00:00Z", false},
		{"2027-03-31T23:59:59Z", false},
		{"2027-03-31T23:30:00-02:00", true}, // 2027-04-01 01:30 UTC
		{"2027-04-01T00:00:00Z", true},
	}
	for _, c := range cases {
		t.Run(c.now, func(t *testing.T) {
			now, err := time.Parse(time.RFC3339, c.now)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"main.tf": src})
			res := lintDir(t, lint.Options{Dirs: []string{dir}, Now: func() time.Time { return now }})
			if len(res.Errors) > 0 {
				t.Fatalf("errors: %v", res.Errors)
			}
			if !c.expired {
				if len(res.Issues) != 0 {
					t.Errorf("issues %+v, want none", res.Issues)
				}
				return
			}
			if len(res.Issues) != 2 || res.Issues[0].Rule != rule || res.Issues[1].Rule != lint.UnusedIgnore {
				t.Fatalf("issues %+v, want the finding and the notice", res.Issues)
			}
			n := res.Issues[1]
			if n.Severity != lint.Notice || n.Range.Start != (lint.Pos{Line: 10, Column: 32}) || n.Range.End != (lint.Pos{Line: 10, Column: 32 + len(comment)}) ||
				n.Summary != "ignore of "+rule+" expired on 2027-03-31: its findings are reported again" {
				t.Errorf("notice %+v", n)
			}
			if res.Fails(lint.Warning) != true {
				t.Error("the finding back does not fail the run")
			}
		})
	}
}

// TestIgnoreModuleCall: an ignore on a module block's line, or the line
// above, covers the findings inside the modules the call reaches.
func TestIgnoreModuleCall(t *testing.T) {
	call := func(above, suffix string) string {
		return above + "\nmodule \"app\" { " + suffix + "\n  source = \"./modules/app\"\n  max    = 25\n  rate   = 10000\n}\n"
	}
	cases := []struct {
		name string
		main string
		want int
	}{
		{"none", call("", ""), 1},
		{"the line above", call("# queuecap-ignore: queuecap_zero_surplus # legacy fleet, OPS-9", ""), 0},
		{"the block's line", call("", "# queuecap-ignore: queuecap_zero_surplus"), 0},
		{"another rule", call("# queuecap-ignore: queuecap_insufficient_headroom", ""), 1},
		{"two lines above", call("# queuecap-ignore: queuecap_zero_surplus\n", ""), 1},
		{"through an outer call", "module \"outer\" { # queuecap-ignore: all\n  source = \"./modules/outer\"\n}\n", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{
				"main.tf":               c.main,
				"modules/app/main.tf":   workerModule,
				"modules/outer/main.tf": "module \"app\" {\n  source = \"../app\"\n  max    = 25\n  rate   = 10000\n}\n",
			})
			res := lintDir(t, lint.Options{Dirs: []string{dir}})
			if len(res.Errors) > 0 {
				t.Fatalf("errors: %v", res.Errors)
			}
			if got := len(zeroSurplus(res)); got != c.want {
				t.Errorf("%d zero surplus findings, want %d: %+v", got, c.want, res.Issues)
			}
		})
	}
}

// TestUnusedIgnores: with ReportUnusedIgnores, an ignore that silenced
// nothing is a notice at the comment naming the rules that found nothing;
// one naming a rule that did not run, or that skipped there, is not.
func TestUnusedIgnores(t *testing.T) {
	const rule = "queuecap_depth_alarm_after_sla"
	cases := []struct {
		name    string
		files   map[string]string
		disable []string
		want    []string // the notices' summaries, by line
	}{
		{"used", map[string]string{"main.tf": slaAlarm("", "# queuecap-ignore: "+rule)}, nil, nil},
		{"used by all", map[string]string{"main.tf": slaAlarm("", "# queuecap-ignore: all")}, nil, nil},
		{"another rule", map[string]string{"main.tf": slaAlarm("", "# queuecap-ignore: queuecap_zero_surplus")}, nil,
			[]string{"10: ignore of queuecap_zero_surplus suppresses nothing: remove it"}},
		{"one of a list", map[string]string{"main.tf": slaAlarm("# queuecap-ignore: queuecap_zero_surplus, "+rule, "")}, nil,
			[]string{"9: ignore of queuecap_zero_surplus suppresses nothing: remove it from the list"}},
		{"all, where nothing is found", map[string]string{"main.tf": slaAlarm("", ""), "other.tf": "# queuecap-ignore-file: all\n"}, nil,
			[]string{"1: ignore of all suppresses nothing: remove it"}},
		{"a rule that did not run", map[string]string{"main.tf": slaAlarm("", "# queuecap-ignore: queuecap_zero_surplus")}, []string{"queuecap_zero_surplus"}, nil},
		{"a rule that skipped there", map[string]string{"main.tf": "variable \"threshold\" {}\n" +
			strings.Replace(slaAlarm("", "# queuecap-ignore: "+rule), "100000", "var.threshold", 1)}, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, c.files)
			res := lintDir(t, lint.Options{Dirs: []string{dir}, Disable: c.disable, ReportUnusedIgnores: true})
			if len(res.Errors) > 0 {
				t.Fatalf("errors: %v", res.Errors)
			}
			var got []string
			for _, is := range res.Issues {
				if is.Rule == lint.UnusedIgnore {
					if is.Severity != lint.Notice {
						t.Errorf("severity %v", is.Severity)
					}
					got = append(got, fmt.Sprintf("%d: %s", is.Range.Start.Line, is.Summary))
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("notices %q, want %q", got, c.want)
			}
			described := slices.ContainsFunc(res.Rules, func(ri lint.RuleInfo) bool { return ri.Name == lint.UnusedIgnore && ri.Severity == lint.Notice })
			if described != (len(c.want) > 0) {
				t.Errorf("rules describe %s: %v, want %v", lint.UnusedIgnore, described, len(c.want) > 0)
			}
			if res.Fails(lint.Warning) && len(res.Issues) == len(got) {
				t.Error("a notice fails the run")
			}
		})
	}
	t.Run("off", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"main.tf": slaAlarm("", "# queuecap-ignore: queuecap_zero_surplus")})
		if res := lintDir(t, lint.Options{Dirs: []string{dir}}); len(res.Issues) != 1 {
			t.Errorf("issues %+v, want only the finding", res.Issues)
		}
	})
}

// TestIgnoresInInstalledModules: the ignore comments of an installed
// remote module, and of the local modules it calls, are not the user's to
// edit: no error and no notice is about them.
func TestIgnoresInInstalledModules(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"main.tf":                         "module \"workers\" {\n  source  = \"app.terraform.io/acme/workers/aws\"\n  version = \"1.0.0\"\n  max     = 25\n  rate    = 10000\n}\n",
		".terraform/modules/modules.json": `{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"workers","Source":"app.terraform.io/acme/workers/aws","Version":"1.0.0","Dir":".terraform/modules/workers"}]}`,
		".terraform/modules/workers/main.tf": strings.Replace(workerModule, "  max_size = var.max", "  # queuecap-ignore: queuecap_zero_surplu, queuecap_insufficient_headroom\n  max_size = var.max", 1) +
			"\nmodule \"sub\" {\n  source = \"./sub\"\n}\n",
		".terraform/modules/workers/sub/main.tf": "locals {}\n# queuecap-ignore-file: queuecap_zero_surplu\n",
	})
	res := lintDir(t, lint.Options{Dirs: []string{dir}, ReportUnusedIgnores: true})
	if len(res.Errors) > 0 {
		t.Errorf("errors: %v", res.Errors)
	}
	if slices.ContainsFunc(res.Issues, func(is lint.Issue) bool { return is.Rule == lint.UnusedIgnore }) {
		t.Errorf("notices about the module's comments: %+v", res.Issues)
	}
	if len(zeroSurplus(res)) != 1 {
		t.Errorf("findings %+v, want the zero surplus one", res.Issues)
	}
}
