// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
)

// cli runs the command in dir (the working directory, where .queuecap.hcl
// is looked up) and returns the exit code and output.
func cli(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	if dir != "" {
		t.Chdir(dir)
	}
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// exitCode is the exit code of a command that ran: 0 for a nil error,
// the process's code for an exit error; any other error ends the test.
func exitCode(t *testing.T, err error) int {
	t.Helper()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		return exit.ExitCode()
	}
	t.Fatal(err)
	return -1
}

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Configurations with one finding of a known severity.
const (
	// warningTF has one queuecap_missing_dead_letter_queue warning.
	warningTF = `resource "aws_sqs_queue" "orders" {
  name = "orders"
}

resource "aws_lambda_function" "worker" {
  function_name = "worker"
}

resource "aws_lambda_event_source_mapping" "orders" {
  event_source_arn        = aws_sqs_queue.orders.arn
  function_name           = aws_lambda_function.worker.arn
  function_response_types = ["ReportBatchItemFailures"]
}
`
	// errorTF has one queuecap_zero_surplus error, the worked example,
	// with max_size from var.max_size (default 25).
	errorTF = `variable "max_size" {
  type    = number
  default = 25
}

resource "aws_sqs_queue" "orders" {
  name           = "orders"
  tags           = { "queuecap:arrival_rate" = 10000 }
  redrive_policy = jsonencode({ deadLetterTargetArn = "arn:aws:sqs:eu-west-1:1:dlq", maxReceiveCount = 3 })
}

resource "aws_autoscaling_group" "workers" {
  max_size = var.max_size
  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = "400"
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
}
`
)

type jsonOut struct {
	Issues []struct {
		Rule     string             `json:"rule"`
		Severity string             `json:"severity"`
		Message  string             `json:"message"`
		Facts    map[string]float64 `json:"facts"`
		// Fingerprint, Address and Subject are on every finding.
		Fingerprint string `json:"fingerprint"`
		Address     string `json:"address"`
		Subject     string `json:"subject"`
		Range       struct {
			Filename string `json:"filename"`
			Start    struct{ Line, Column int }
		} `json:"range"`
	} `json:"issues"`
	Errors []struct {
		Message string `json:"message"`
		Range   *struct {
			Filename string `json:"filename"`
			Start    struct{ Line, Column int }
		} `json:"range"`
	} `json:"errors"`
	Skipped []json.RawMessage `json:"skipped"`
}

func decode(t *testing.T, out string) jsonOut {
	t.Helper()
	var j jsonOut
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return j
}

func TestExitCodes(t *testing.T) {
	cases := []struct {
		name   string
		files  map[string]string
		env    map[string]string
		args   []string
		code   int
		stdout string // substring of stdout
		stderr string // substring of stderr
		noOut  bool   // nothing on stdout
		noErr  bool   // nothing on stderr
	}{
		// Clean, but not checked: nothing consumes the queue, and the
		// output says so rather than nothing.
		{name: "clean", files: map[string]string{"main.tf": `resource "aws_sqs_queue" "a" {}`}, args: []string{"lint"}, code: 0, stdout: "1 check skipped: --show-skipped lists them"},
		{name: "a warning fails by default", files: map[string]string{"main.tf": warningTF}, args: []string{"lint", "--format", "compact"}, code: 2,
			stdout: "main.tf:1:1: Warning - in aws_sqs_queue.orders: no redrive_policy: a message that always fails is received 2,880 times a day; add a dead-letter queue — aws_sqs_queue.orders is consumed by aws_lambda_function.worker but has no redrive_policy"},
		{name: "an error finding", files: map[string]string{"main.tf": errorTF}, args: []string{"lint", "--format=compact"}, code: 2,
			stdout: "main.tf:13:3: Error - in aws_autoscaling_group.workers: max_size 25 cannot drain any backlog: raise it to 26 — max_size 25 × 400 msg/s = 10,000 msg/s does not exceed the declared arrival rate 10,000 msg/s: surplus 0 msg/s, any backlog never drains (queuecap_zero_surplus)"},
		{name: "only warnings below an error threshold", files: map[string]string{"main.tf": warningTF}, args: []string{"lint", "--minimum-failure-severity", "error"}, code: 0},
		{name: "an error at an error threshold", files: map[string]string{"main.tf": errorTF}, args: []string{"lint", "--minimum-failure-severity=error"}, code: 2},
		{name: "notice threshold", files: map[string]string{"main.tf": warningTF}, args: []string{"lint", "--minimum-failure-severity", "notice"}, code: 2},
		{name: "a rule disabled", files: map[string]string{"main.tf": warningTF}, args: []string{"lint", "--disable-rule", "queuecap_missing_dead_letter_queue"}, code: 0},
		{name: "unknown format", files: map[string]string{"main.tf": warningTF}, args: []string{"lint", "--format", "yaml"}, code: 1,
			stderr: `unknown format "yaml": valid formats are default, compact, json, sarif, checkstyle, junit, github, gitlab`, noOut: true},
		{name: "bad flag", args: []string{"lint", "--colour"}, code: 1, stderr: "Error: unknown flag --colour: did you mean --color? (see 'queuecap lint --help')\n", noOut: true},
		{name: "a misspelled flag", args: []string{"lint", "--recusive"}, code: 1, stderr: "unknown flag --recusive: did you mean --recursive?", noOut: true},
		{name: "a short form", files: map[string]string{"main.tf": errorTF}, args: []string{"lint", "-f", "compact"}, code: 2, stdout: "main.tf:13:3: Error - in aws_autoscaling_group.workers: max_size 25 cannot drain"},
		{name: "flags after the directory", files: map[string]string{"main.tf": errorTF}, args: []string{"lint", ".", "--format=compact"}, code: 2, stdout: "main.tf:13:3: Error - in aws_autoscaling_group.workers: max_size 25 cannot drain"},
		{name: "a flag without its value", args: []string{"lint", "--format"}, code: 1, stderr: "flag --format needs a value", noOut: true},
		{name: "a flag before the command", args: []string{"--no-color", "lint"}, code: 1, stderr: "Error: --no-color comes before the command; flags follow it, as in 'queuecap lint --no-color'", noOut: true},
		{name: "a misspelled command", args: []string{"lnt"}, code: 1, stderr: `unknown command "lnt": did you mean lint?`, noOut: true},
		{name: "help for a command", args: []string{"help", "lint"}, code: 0, stdout: "Usage: queuecap lint [flags] [DIR|FILE ...]"},
		{name: "help for an unknown command", args: []string{"help", "sise"}, code: 1, stderr: `unknown command "sise": did you mean size?`, noOut: true},
		{name: "--version on a command", args: []string{"lint", "--version"}, code: 0, stdout: "queuecap "},
		{name: "-h", args: []string{"size", "-h"}, code: 0, stdout: "Usage: queuecap size"},
		{name: "bad severity", args: []string{"lint", "--minimum-failure-severity", "fatal"}, code: 1, stderr: `unknown severity "fatal"`},
		{name: "unknown rule", args: []string{"lint", "--enable-rule", "queuecap_nope"}, code: 1, stderr: `unknown rule ID "queuecap_nope" in --enable-rule`},
		{name: "malformed --var", args: []string{"lint", "--var", "max_size"}, code: 1, stderr: `invalid --var "max_size"`},
		{name: "a --var for an undeclared variable", files: map[string]string{"main.tf": errorTF}, args: []string{"lint", "--var", "max_sise=30"}, code: 1, noOut: true,
			stderr: "Error: Value for undeclared variable: --var sets var.max_sise, but the root module does not declare it; to use this value, add a variable block to the configuration\n"},
		{name: "a --var of the wrong type", files: map[string]string{"main.tf": errorTF}, args: []string{"lint", "--format", "compact", "--var", "max_size=many"}, code: 1,
			stdout: `main.tf:1:1: Error - Invalid value for input variable: unsuitable value for var.max_size set using --var="max_size=..." (declared at main.tf:1): a number is required; the root module is not checked until the value fits`},
		{name: "a terraform.tfvars value of the wrong type", files: map[string]string{"main.tf": errorTF, "terraform.tfvars": "max_size = \"many\"\n"}, args: []string{"lint", "--format", "compact"}, code: 1,
			stdout: `terraform.tfvars:1:12: Error - Invalid value for input variable: unsuitable value for var.max_size set in terraform.tfvars:1 (declared at main.tf:1): a number is required`},
		{name: "a TF_VAR_ value of the wrong type", files: map[string]string{"main.tf": errorTF}, env: map[string]string{"TF_VAR_max_size": "many"}, args: []string{"lint", "--format", "compact"}, code: 1,
			stdout: `main.tf:1:1: Error - Invalid value for input variable: unsuitable value for var.max_size set using the TF_VAR_max_size environment variable (declared at main.tf:1): a number is required`},
		{name: "a TF_VAR_ for an undeclared variable is ignored", files: map[string]string{"main.tf": errorTF}, env: map[string]string{"TF_VAR_max_sise": "30"}, args: []string{"lint", "--format", "compact"}, code: 2,
			stdout: "max_size 25 × 400 msg/s"},
		{name: "a tfvars value for an undeclared variable is skipped", files: map[string]string{"main.tf": errorTF, "terraform.tfvars": "max_sise = 30\n"}, args: []string{"lint", "--format", "json"}, code: 2,
			stdout: `"reason":"terraform.tfvars sets var.max_sise, but the root module does not declare it: the value is not used; declare the variable with a variable block, or remove the value"`},
		{name: "missing directory", args: []string{"lint", "--format", "compact", "nowhere"}, code: 1, stderr: "Error: nowhere: no such file or directory\n", noOut: true},
		{name: "a configuration file stands for its folder", files: map[string]string{"main.tf": warningTF}, args: []string{"lint", "--format", "compact", "main.tf"}, code: 2, stdout: "main.tf:1:1: Warning"},
		{name: "a file that is no configuration", files: map[string]string{"main.tf": warningTF, "notes.txt": "x\n"}, args: []string{"lint", "--format", "compact", "notes.txt"}, code: 1,
			stderr: "notes.txt is neither a directory nor a .tf, .tf.json, .tofu, .tofu.json, .tfvars, .tfvars.json or .queuecap.hcl file", noOut: true},
		{name: "missing --config", args: []string{"lint", "--config", "absent.hcl"}, code: 1, stderr: "absent.hcl"},
		{name: "invalid config", files: map[string]string{".queuecap.hcl": "config {\n  colour = true\n}\n"}, args: []string{"lint"}, code: 1, stderr: `.queuecap.hcl:2,3-9: Unsupported argument; An argument named "colour" is not expected here.`},
		{name: "unknown rule in the config", files: map[string]string{".queuecap.hcl": "rule \"queuecap_nope\" {\n  enabled = true\n}\n"}, args: []string{"lint"}, code: 1, stderr: `unknown rule ID "queuecap_nope" in .queuecap.hcl:1,1-21`},
		{name: "help", args: []string{"lint", "--help"}, code: 0, stdout: "Usage: queuecap lint", noErr: true},
		{name: "version", args: []string{"version"}, code: 0, stdout: "queuecap "},
		{name: "no command", args: nil, code: 1, stderr: "Usage: queuecap <command>"},
		{name: "unknown command", args: []string{"check"}, code: 1, stderr: `unknown command "check"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, c.files)
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			code, stdout, stderr := cli(t, dir, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.code, stdout, stderr)
			}
			if !strings.Contains(stdout, c.stdout) {
				t.Errorf("stdout %q does not contain %q", stdout, c.stdout)
			}
			if !strings.Contains(stderr, c.stderr) {
				t.Errorf("stderr %q does not contain %q", stderr, c.stderr)
			}
			if c.noOut && stdout != "" {
				t.Errorf("stdout %q, want none", stdout)
			}
			if c.noErr && stderr != "" {
				t.Errorf("stderr %q, want none", stderr)
			}
		})
	}
}

func TestParseErrorOtherFilesStillLinted(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"broken.tf": "resource \"aws_sqs_queue\" \"a\" {\n  name = \n}\n",
		"main.tf":   warningTF,
	})
	code, stdout, _ := cli(t, dir, "lint", "--format", "compact")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if !strings.Contains(stdout, "broken.tf:2:10: Error - Invalid expression") {
		t.Errorf("no file:line:col parse error in %q", stdout)
	}
	if !strings.Contains(stdout, "main.tf:1:1: Warning - in aws_sqs_queue.orders: no redrive_policy:") {
		t.Errorf("main.tf was not linted: %q", stdout)
	}

	code, stdout, _ = cli(t, "", "lint", "--format", "json")
	j := decode(t, stdout)
	if code != 1 || len(j.Errors) != 1 || len(j.Issues) != 1 {
		t.Fatalf("exit %d, %s", code, stdout)
	}
	if e := j.Errors[0]; e.Range == nil || e.Range.Filename != "broken.tf" || e.Range.Start.Line != 2 || e.Range.Start.Column != 10 {
		t.Errorf("error range %+v", e.Range)
	}
}

func TestJSONNeverNull(t *testing.T) {
	for _, files := range []map[string]string{nil, {"main.tf": `resource "aws_sqs_queue" "a" {}`}, {"main.tf": warningTF}, {"main.tf": "resource {"}} {
		dir := t.TempDir()
		write(t, dir, files)
		_, stdout, _ := cli(t, dir, "lint", "--format", "json")
		if strings.Contains(stdout, "null") {
			t.Errorf("null in %s", stdout)
		}
		var raw map[string]json.RawMessage
		if err := json.Unmarshal([]byte(stdout), &raw); err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{"issues", "errors", "skipped"} {
			if !strings.HasPrefix(string(raw[key]), "[") {
				t.Errorf("%s is %s", key, raw[key])
			}
		}
		for _, is := range decode(t, stdout).Issues {
			if is.Facts == nil {
				t.Errorf("issue without facts: %s", stdout)
			}
		}
	}
}

// TestVariablePrecedence: default < TF_VAR_max_size < terraform.tfvars <
// *.auto.tfvars in name order < --var and --var-file in command-line order,
// as Terraform.
func TestVariablePrecedence(t *testing.T) {
	all := map[string]string{
		"main.tf":          errorTF,
		"terraform.tfvars": "max_size = 24\n",
		"a.auto.tfvars":    "max_size = 23\n",
		"b.auto.tfvars":    "max_size = 22\n",
		"one.tfvars":       "max_size = 21\n",
		"two.tfvars":       "max_size = 20\n",
	}
	autoFiles := []string{"terraform.tfvars", "a.auto.tfvars", "b.auto.tfvars"}
	cases := []struct {
		name  string
		drop  []string
		env   string // TF_VAR_max_size
		flags []string
		want  float64
	}{
		{name: "default", drop: autoFiles, want: 25},
		{name: "TF_VAR_ over the default", drop: autoFiles, env: "15", want: 15},
		{name: "terraform.tfvars over TF_VAR_", drop: []string{"a.auto.tfvars", "b.auto.tfvars"}, env: "15", want: 24},
		{name: "auto.tfvars over terraform.tfvars, later names win", want: 22},
		{name: "a single auto.tfvars", drop: []string{"b.auto.tfvars"}, want: 23},
		{name: "--var-file over auto.tfvars", flags: []string{"--var-file", "one.tfvars"}, want: 21},
		{name: "later --var-file wins", flags: []string{"--var-file", "two.tfvars", "--var-file", "one.tfvars"}, want: 21},
		{name: "--var over everything before it", env: "15", flags: []string{"--var-file", "one.tfvars", "--var", "max_size=19"}, want: 19},
		{name: "--var over TF_VAR_", drop: autoFiles, env: "15", flags: []string{"--var", "max_size=19"}, want: 19},
		{name: "later --var wins", flags: []string{"--var", "max_size=18", "--var", "max_size=17"}, want: 17},
		{name: "a --var-file after a --var wins", flags: []string{"--var", "max_size=16", "--var-file", "two.tfvars"}, want: 20},
		{name: "a bad TF_VAR_ that loses is never read", drop: autoFiles, env: "many", flags: []string{"--var", "max_size=19"}, want: 19},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, all)
			for _, f := range c.drop {
				os.Remove(filepath.Join(dir, f))
			}
			if c.env != "" {
				t.Setenv("TF_VAR_max_size", c.env)
			}
			_, stdout, stderr := cli(t, dir, append([]string{"lint", "--format", "json"}, c.flags...)...)
			j := decode(t, stdout)
			if len(j.Issues) != 1 || len(j.Errors) != 0 {
				t.Fatalf("issues: %s %s", stdout, stderr)
			}
			if got := j.Issues[0].Facts["max_consumers"]; got != c.want {
				t.Errorf("max_size %v, want %v", got, c.want)
			}
		})
	}

	t.Run("a --var-file that does not parse", func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir, map[string]string{"main.tf": errorTF, "bad.tfvars": "max_size = \n"})
		code, stdout, _ := cli(t, dir, "lint", "--format", "compact", "--var-file", "bad.tfvars")
		if code != 1 || !strings.Contains(stdout, "bad.tfvars:1:") {
			t.Errorf("exit %d: %s", code, stdout)
		}
	})
	t.Run("a missing --var-file", func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir, map[string]string{"main.tf": errorTF})
		code, stdout, _ := cli(t, dir, "lint", "--format", "compact", "--var-file", "absent.tfvars")
		if code != 1 || !strings.Contains(stdout, "absent.tfvars") {
			t.Errorf("exit %d: %s", code, stdout)
		}
	})
}

// TestFlagsOverrideConfig: .queuecap.hcl sets defaults, flags override
// only what they set.
func TestFlagsOverrideConfig(t *testing.T) {
	config := `config {
  format                   = "json"
  minimum_failure_severity = "error"
  recursive                = true
}
`
	files := map[string]string{".queuecap.hcl": config, "nested/main.tf": warningTF}
	cases := []struct {
		name   string
		args   []string
		code   int
		isJSON bool
		issues int
	}{
		{"config alone", []string{"lint"}, 0, true, 1},
		{"--format overrides format only", []string{"lint", "--format", "compact"}, 0, false, 1},
		{"--minimum-failure-severity overrides it only", []string{"lint", "--minimum-failure-severity", "warning"}, 2, true, 1},
		{"--recursive=false overrides recursive only", []string{"lint", "--recursive=false"}, 0, true, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, files)
			code, stdout, stderr := cli(t, dir, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d: %s %s", code, c.code, stdout, stderr)
			}
			if got := strings.HasPrefix(stdout, "{"); got != c.isJSON {
				t.Errorf("json %v, want %v: %s", got, c.isJSON, stdout)
			}
			if n := strings.Count(stdout, "has no redrive_policy"); n != c.issues {
				t.Errorf("%d issues, want %d: %s", n, c.issues, stdout)
			}
		})
	}

	t.Run("--config elsewhere", func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir, map[string]string{"conf/lint.hcl": "rule \"queuecap_missing_dead_letter_queue\" {\n  enabled = false\n}\n", "main.tf": warningTF})
		code, stdout, _ := cli(t, dir, "lint", "--config", "conf/lint.hcl")
		if code != 0 || strings.Contains(stdout, "redrive_policy") {
			t.Errorf("exit %d: %s", code, stdout)
		}
	})
	t.Run("an unknown format in the config", func(t *testing.T) {
		dir := t.TempDir()
		write(t, dir, map[string]string{".queuecap.hcl": "config {\n  format = \"xml\"\n}\n"})
		code, _, stderr := cli(t, dir, "lint")
		if code != 1 || !strings.Contains(stderr, `unknown format "xml"`) {
			t.Errorf("exit %d: %s", code, stderr)
		}
	})
}

func TestFlagsAndDirsInAnyOrder(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"a/main.tf": warningTF, "b/main.tf": warningTF})
	code, stdout, _ := cli(t, dir, "lint", "a", "--format", "compact", "b", "--no-color")
	if code != 2 || strings.Count(stdout, "has no redrive_policy") != 2 {
		t.Errorf("exit %d: %s", code, stdout)
	}
	for _, want := range []string{"a/main.tf:1:1", "b/main.tf:1:1"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %s in %s", want, stdout)
		}
	}
}

// TestLintPlanErrors: a --plan that cannot be linted is one error, exit 1.
func TestLintPlanErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"missing file", []string{"--plan", filepath.Join(dir, "nope.json")}, "cannot read the plan"},
		{"not a plan", []string{"--plan", write("state.json", `{"format_version":"1.0","values":{}}`)}, "not a plan: this is the JSON of a state"},
		{"truncated", []string{"--plan", write("cut.json", `{"format_version":"1.2","planned_values":{"root_`)}, "truncated"},
		{"unsupported format_version", []string{"--plan", write("v2.json", `{"format_version":"2.0","planned_values":{}}`)}, "unsupported plan format version"},
		{"a binary plan without terraform or tofu", []string{"--plan", write("tfplan", "PK\x03\x04rest of a zip")}, "neither terraform nor tofu is on PATH"},
		{"directories with --plan", []string{"--plan", "x.json", "."}, "--plan lints a plan, not directories"},
		{"--var with --plan", []string{"--plan", "x.json", "--var", "a=1"}, "do not apply to --plan"},
	}
	t.Setenv("PATH", t.TempDir())
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if code := run(append([]string{"lint"}, tt.args...), &stdout, &stderr); code != exitError {
				t.Errorf("exit %d, want %d; stderr %s", code, exitError, stderr.String())
			}
			if got := stderr.String(); !strings.Contains(got, tt.want) || strings.Count(got, "Error:") != 1 {
				t.Errorf("stderr %q, want one error saying %q", got, tt.want)
			}
		})
	}
}

// TestLintPlan: `queuecap lint --plan` on a plan's JSON, with its
// configuration directory (whose .queuecap.hcl declares the backlog) and
// without it.
func TestLintPlan(t *testing.T) {
	plan, err := filepath.Abs("../../internal/lint/testdata/plans/zero_surplus.json")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("../../internal/lint/plantest/testdata/zero_surplus/main.tf")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, content := range map[string]string{
		"main.tf":       string(src),
		".queuecap.hcl": "queue \"aws_sqs_queue.orders\" {\n  max_backlog = 1000000\n}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	type result struct {
		Issues []struct {
			Rule, Address, Subject, Fingerprint string
			Range                               struct{ Filename string }
		}
	}
	lintJSON := func(t *testing.T, args ...string) result {
		t.Helper()
		var stdout, stderr bytes.Buffer
		if len(args) == 0 || args[0] != dir {
			args = append([]string{"--plan", plan}, args...)
		}
		if code := run(append([]string{"lint", "--format", "json"}, args...), &stdout, &stderr); code != exitFindings {
			t.Fatalf("exit %d, want %d; stderr %s", code, exitFindings, stderr.String())
		}
		var res result
		if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
			t.Fatal(err)
		}
		for _, is := range res.Issues {
			if is.Fingerprint == "" || is.Address == "" || is.Subject == "" {
				t.Errorf("%s: fingerprint %q, address %q, subject %q: want all three", is.Rule, is.Fingerprint, is.Address, is.Subject)
			}
		}
		return res
	}

	t.Run("with the configuration", func(t *testing.T) {
		var got, fingerprints []string
		for _, is := range lintJSON(t, "--chdir", dir).Issues {
			got = append(got, is.Rule+" "+filepath.Base(is.Range.Filename)+" "+is.Address)
			fingerprints = append(fingerprints, is.Fingerprint)
		}
		// The same findings from the configuration alone are the same
		// findings: one baseline serves both.
		var hcl []string
		for _, is := range lintJSON(t, dir).Issues {
			hcl = append(hcl, is.Fingerprint)
		}
		if !slices.Equal(fingerprints, hcl) {
			t.Errorf("fingerprints from the plan %q, from the configuration %q", fingerprints, hcl)
		}
		want := []string{
			"queuecap_retention_shorter_than_drain main.tf aws_sqs_queue.orders",
			"queuecap_zero_surplus main.tf aws_autoscaling_group.workers",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
	t.Run("a baseline", func(t *testing.T) {
		// Written from the configuration with the plan's variables, it
		// serves the plan linted with the configuration; written from a
		// plan without it, the same plan. (With the variable's default,
		// max_size 20, the findings' numbers differ: new findings.)
		base := filepath.Join(t.TempDir(), "baseline.json")
		for _, tt := range []struct{ write, apply []string }{
			{[]string{"--var", "max_size=25", dir}, []string{"--plan", plan, "--chdir", dir}},
			{[]string{"--plan", plan}, []string{"--plan", plan}},
		} {
			var stdout, stderr bytes.Buffer
			if code := run(append([]string{"lint", "--write-baseline", base}, tt.write...), &stdout, &stderr); code != exitOK {
				t.Fatalf("%q: exit %d; stderr %s", tt.write, code, stderr.String())
			}
			stdout.Reset()
			if code := run(append([]string{"lint", "--format", "json", "--baseline", base}, tt.apply...), &stdout, &stderr); code != exitOK {
				t.Errorf("%q: exit %d, want %d; stdout %s stderr %s", tt.apply, code, exitOK, stdout.String(), stderr.String())
			}
			if !strings.Contains(stdout.String(), `"issues":[]`) || strings.Contains(stdout.String(), `"baseline_suppressed":0`) {
				t.Errorf("%q: %s", tt.apply, stdout.String())
			}
		}
	})
	t.Run("without it", func(t *testing.T) {
		t.Chdir(t.TempDir())
		res := lintJSON(t)
		if len(res.Issues) != 1 || res.Issues[0].Range.Filename != "aws_autoscaling_group.workers" {
			t.Errorf("got %+v", res.Issues)
		}
	})
}

// queuecap lint collects garbage less often than Go's default, within a
// memory limit, unless GOGC and GOMEMLIMIT say otherwise.
func TestTuneGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	tuneGC(func(string) (string, bool) { return "", false })
	if got := debug.SetGCPercent(100); got != lintGCPercent {
		t.Errorf("without GOGC: GC percent %d, want %d", got, lintGCPercent)
	}
	if got := debug.SetMemoryLimit(math.MaxInt64); got != lintMemoryLimit {
		t.Errorf("without GOMEMLIMIT: memory limit %d, want %d", got, lintMemoryLimit)
	}
	tuneGC(func(name string) (string, bool) { return "150", name == "GOGC" || name == "GOMEMLIMIT" })
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set: GC percent %d, want it left alone (100)", got)
	}
	if got := debug.SetMemoryLimit(math.MaxInt64); got != math.MaxInt64 {
		t.Errorf("with GOMEMLIMIT set: memory limit %d, want it left alone", got)
	}
}
