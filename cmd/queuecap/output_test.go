// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

// TestForce: --force exits 0 on findings, and 1 on errors still.
func TestForce(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		args  []string
		code  int
	}{
		{"a warning", map[string]string{"main.tf": warningTF}, []string{"lint", "--force"}, 0},
		{"an error finding", map[string]string{"main.tf": errorTF}, []string{"lint", "--format", "sarif", "--force"}, 0},
		{"a parse error", map[string]string{"main.tf": warningTF, "broken.tf": "resource \"aws_sqs_queue\" \"a\" {\n  name = \n}\n"}, []string{"lint", "--force"}, 1},
		{"a bad flag", map[string]string{"main.tf": warningTF}, []string{"lint", "--force", "--format", "yaml"}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, c.files)
			code, stdout, stderr := cli(t, dir, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.code, stdout, stderr)
			}
			if c.code != 0 {
				return
			}
			if slices.Contains(c.args, "sarif") {
				// A SARIF report lists every rule that ran even with no
				// result: count the results.
				var got sarifOut
				if err := json.Unmarshal([]byte(stdout), &got); err != nil || len(got.Runs) != 1 || len(got.Runs[0].Results) == 0 {
					t.Errorf("--force hid the findings (%v): %q", err, stdout)
				}
			} else if !strings.Contains(stdout, "queuecap_") {
				t.Errorf("--force hid the findings: %q", stdout)
			}
		})
	}
}

type sarifOut struct {
	Version string
	Runs    []struct {
		Tool    struct{ Driver struct{ Version string } }
		Results []struct {
			RuleID              string
			PartialFingerprints map[string]string
		}
	}
}

// TestOutput: --output FILE gets the chosen format, standard output the
// default one, and the exit code is the run's.
func TestOutput(t *testing.T) {
	t.Run("sarif to a file, the default format to standard output", func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir, map[string]string{"main.tf": errorTF})
		code, stdout, stderr := cli(t, dir, "lint", "--format", "sarif", "--output", "report.sarif")
		if code != exitFindings {
			t.Errorf("exit %d, want %d: %s", code, exitFindings, stderr)
		}
		if !strings.HasPrefix(stdout, "Error: max_size 25 cannot drain any backlog: raise it to 26 (queuecap_zero_surplus)") || !strings.Contains(stdout, "1 issue(s) found: 1 error") {
			t.Errorf("standard output is not the default format:\n%s", stdout)
		}
		var log sarifOut
		readJSON(t, filepath.Join(dir, "report.sarif"), &log)
		if log.Version != "2.1.0" || len(log.Runs) != 1 || len(log.Runs[0].Results) != 1 {
			t.Fatalf("report.sarif: %+v", log)
		}
		if v := log.Runs[0].Tool.Driver.Version; v != model.BuildVersion() {
			t.Errorf("tool.driver.version %q, want %q", v, model.BuildVersion())
		}
		if res := log.Runs[0].Results[0]; res.RuleID != "queuecap_zero_surplus" || len(res.PartialFingerprints["queuecap/v1"]) != 32 {
			t.Errorf("result %+v", res)
		}
	})
	t.Run("the config's format", func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir, map[string]string{"main.tf": warningTF, ".queuecap.hcl": "config {\n  format = \"gitlab\"\n}\n"})
		code, stdout, _ := cli(t, dir, "lint", "--output", "gl-code-quality-report.json")
		if code != exitFindings || !strings.HasPrefix(stdout, "Warning: ") {
			t.Errorf("exit %d, standard output:\n%s", code, stdout)
		}
		var report []struct {
			CheckName string `json:"check_name"`
		}
		readJSON(t, filepath.Join(dir, "gl-code-quality-report.json"), &report)
		if len(report) != 1 || report[0].CheckName != "queuecap_missing_dead_letter_queue" {
			t.Errorf("report %+v", report)
		}
	})
	t.Run("relative to the working directory, not --chdir", func(t *testing.T) {
		plan, err := filepath.Abs("../../internal/lint/testdata/plans/zero_surplus.json")
		if err != nil {
			t.Fatal(err)
		}
		config, work := t.TempDir(), t.TempDir()
		code, _, stderr := cli(t, work, "lint", "--plan", plan, "--chdir", config, "--format", "json", "--output", "out.json")
		if code != exitFindings {
			t.Errorf("exit %d: %s", code, stderr)
		}
		if _, err := os.Stat(filepath.Join(config, "out.json")); err == nil {
			t.Error("out.json was written into the --chdir directory")
		}
		var res struct{ Issues []any }
		readJSON(t, filepath.Join(work, "out.json"), &res)
		if len(res.Issues) == 0 {
			t.Error("no issues in out.json")
		}
	})
	t.Run("with --explain", func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir, map[string]string{"main.tf": errorTF})
		code, stdout, _ := cli(t, dir, "lint", "--explain", "--format", "json", "--output", "linked.json")
		if code != exitOK || strings.HasPrefix(stdout, "{") || !strings.Contains(stdout, "aws_sqs_queue.orders") {
			t.Errorf("exit %d, standard output is not the text explanation:\n%s", code, stdout)
		}
		var doc struct{ Roots []any }
		readJSON(t, filepath.Join(dir, "linked.json"), &doc)
		if len(doc.Roots) != 1 {
			t.Errorf("linked.json has %d roots", len(doc.Roots))
		}
	})
	t.Run("a file that cannot be written", func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir, map[string]string{"main.tf": warningTF})
		path := filepath.Join("no", "such", "dir", "report.sarif")
		code, stdout, stderr := cli(t, dir, "lint", "--format", "sarif", "--output", path)
		if code != exitError || !strings.Contains(stderr, "Error: --output: ") || !strings.Contains(stderr, path) {
			t.Errorf("exit %d, stderr %q: want 1 and an error naming %s", code, stderr, path)
		}
		if !strings.HasPrefix(stdout, "Warning: ") {
			t.Errorf("standard output lost the default format:\n%s", stdout)
		}
	})
	t.Run("an empty report replaces an old one", func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir, map[string]string{"main.tf": `resource "aws_sqs_queue" "a" {}`, "report.json": "old and longer than the new report"})
		if code, _, stderr := cli(t, dir, "lint", "--format", "gitlab", "--output", "report.json"); code != exitOK {
			t.Errorf("exit %d: %s", code, stderr)
		}
		if b, err := os.ReadFile(filepath.Join(dir, "report.json")); err != nil || string(b) != "[]\n" {
			t.Errorf("report.json %q (%v), want []", b, err)
		}
	})
}

// TestOutputFormats: --output FORMAT=FILE, repeatable, writes each report
// from the one run; "-" is standard output, which then gets nothing else.
func TestOutputFormats(t *testing.T) {
	t.Run("every report of one run", func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir, map[string]string{"main.tf": errorTF})
		code, stdout, stderr := cli(t, dir, "lint", "--output", "github=-", "--output", "sarif=report.sarif",
			"--output", "default=log.txt", "--output=json=report.json")
		if code != exitFindings || stderr != "" {
			t.Errorf("exit %d, stderr %q; want %d and none", code, stderr, exitFindings)
		}
		if !strings.HasPrefix(stdout, "::error file=main.tf,line=13,") || strings.Count(stdout, "\n") != 1 {
			t.Errorf("standard output is not the github format alone:\n%s", stdout)
		}
		var log sarifOut
		readJSON(t, filepath.Join(dir, "report.sarif"), &log)
		if len(log.Runs) != 1 || len(log.Runs[0].Results) != 1 || log.Runs[0].Results[0].RuleID != "queuecap_zero_surplus" {
			t.Errorf("report.sarif: %+v", log)
		}
		var res struct{ Issues []struct{ Rule string } }
		readJSON(t, filepath.Join(dir, "report.json"), &res)
		if len(res.Issues) != 1 || res.Issues[0].Rule != "queuecap_zero_surplus" {
			t.Errorf("report.json: %+v", res)
		}
		b, err := os.ReadFile(filepath.Join(dir, "log.txt"))
		if err != nil || !strings.HasPrefix(string(b), "Error: max_size 25 cannot drain any backlog") || strings.Contains(string(b), "\x1b[") {
			t.Errorf("log.txt is not the default format without colors (%v):\n%s", err, b)
		}
	})
	t.Run("--format goes to standard output when no bare FILE takes it", func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir, map[string]string{"main.tf": errorTF})
		code, stdout, _ := cli(t, dir, "lint", "--format", "compact", "--output", "checkstyle=report.xml")
		if code != exitFindings || !strings.HasPrefix(stdout, "main.tf:13:3: Error - ") {
			t.Errorf("exit %d, standard output is not the compact format:\n%s", code, stdout)
		}
		if b, err := os.ReadFile(filepath.Join(dir, "report.xml")); err != nil || !strings.Contains(string(b), "<checkstyle") {
			t.Errorf("report.xml (%v):\n%s", err, b)
		}
	})
	t.Run("a bare - is --format's format on standard output", func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir, map[string]string{"main.tf": errorTF})
		code, stdout, _ := cli(t, dir, "lint", "--format", "json", "--output", "-")
		var res struct{ Issues []any }
		if err := json.Unmarshal([]byte(stdout), &res); code != exitFindings || err != nil || len(res.Issues) != 1 {
			t.Errorf("exit %d, %v: standard output is not the JSON of one issue:\n%s", code, err, stdout)
		}
	})
	t.Run("with --explain", func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir, map[string]string{"main.tf": errorTF})
		code, stdout, _ := cli(t, dir, "lint", "--explain", "--output", "mermaid=-", "--output", "json=linked.json")
		if code != exitOK || !strings.HasPrefix(stdout, "**Root module `.`**") {
			t.Errorf("exit %d, standard output is not the mermaid explanation:\n%s", code, stdout)
		}
		var doc struct{ Roots []any }
		readJSON(t, filepath.Join(dir, "linked.json"), &doc)
		if len(doc.Roots) != 1 {
			t.Errorf("linked.json has %d roots", len(doc.Roots))
		}
	})
	t.Run("a file that cannot be written does not stop the others", func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir, map[string]string{"main.tf": warningTF})
		code, stdout, stderr := cli(t, dir, "lint", "--output", "sarif=no/such/dir/a.sarif", "--output", "json=b.json", "--output", "github=-")
		if code != exitError || !strings.Contains(stderr, "Error: --output: ") || !strings.Contains(stderr, "no/such/dir/a.sarif") {
			t.Errorf("exit %d, stderr %q: want 1 and an error naming the file", code, stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "b.json")); err != nil || !strings.HasPrefix(stdout, "::warning ") {
			t.Errorf("the other reports were not written (%v): standard output %q", err, stdout)
		}
	})
	// Usage errors: one line on standard error, nothing linted or written.
	for _, c := range []struct {
		name   string
		args   []string
		stderr string
	}{
		{"a misspelled format", []string{"--output", "sarf=a.sarif"},
			`Error: --output sarf=a.sarif: unknown format "sarf": did you mean sarif? (valid formats are default, compact, json, sarif, checkstyle, junit, github, gitlab, markdown)`},
		{"an unknown format", []string{"--output", "yaml=a.yaml"},
			`Error: --output yaml=a.yaml: unknown format "yaml": valid formats are default, compact, json, sarif, checkstyle, junit, github, gitlab, markdown`},
		{"a findings format with --explain", []string{"--explain", "--output", "sarif=a.sarif"},
			`Error: --output sarif=a.sarif: unknown format "sarif" with --explain: valid formats are text, json, mermaid`},
		{"no format", []string{"--output", "=a.sarif"}, `Error: --output =a.sarif: no format before "=": give FORMAT=FILE, or ./FILE for a file whose name holds "="`},
		{"no file", []string{"--output", "sarif="}, `Error: --output sarif=: no file after "=" (- is standard output)`},
		{"two reports to one file", []string{"--output", "sarif=a", "--output", "json=./a"}, "Error: --output sarif=a and --output json=./a both write to ./a"},
		{"a bare FILE and another to it", []string{"--format", "sarif", "--output", "a.sarif", "--output", "json=a.sarif"}, "Error: --output a.sarif and --output json=a.sarif both write to a.sarif"},
		{"two reports to standard output", []string{"--output", "github=-", "--output", "compact=-"}, "Error: --output github=- and --output compact=- both write to standard output"},
		{"--format with nowhere to go", []string{"--format", "json", "--output", "github=-"},
			"Error: --format json has nowhere to go: --output github=- takes standard output; write it with --output json=FILE"},
		{"a misspelled --format", []string{"--format", "jsn"}, `Error: unknown format "jsn": did you mean json? (valid formats are default, compact, json, sarif, checkstyle, junit, github, gitlab, markdown)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, map[string]string{"main.tf": errorTF})
			code, stdout, stderr := cli(t, dir, append([]string{"lint"}, c.args...)...)
			if code != exitError || stdout != "" || stderr != c.stderr+"\n" {
				t.Errorf("exit %d, stdout %q, stderr %q; want 1, nothing and %q", code, stdout, stderr, c.stderr)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Errorf("%d files in the directory, want main.tf alone", len(entries))
			}
		})
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v\n%s", path, err, b)
	}
}
