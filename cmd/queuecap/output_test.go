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

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
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
		if v := log.Runs[0].Tool.Driver.Version; v != lint.BuildVersion() {
			t.Errorf("tool.driver.version %q, want %q", v, lint.BuildVersion())
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
