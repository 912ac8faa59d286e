// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// baselineOut is the JSON format's findings and what a baseline did.
type baselineOut struct {
	Issues []struct {
		Rule    string `json:"rule"`
		Address string `json:"address"`
	} `json:"issues"`
	Suppressed *int `json:"baseline_suppressed"`
	Fixed      []struct {
		Rule, Address, File, Summary, Fingerprint string
	} `json:"baseline_fixed"`
}

// TestBaseline is the workflow of docs/ci.md: write a baseline once, lint
// against it (nothing reported, exit 0), move the block (still nothing),
// change its number (a new finding, exit 2, and the old entry listed as
// fixed), and the errors of a baseline that cannot be read.
func TestBaseline(t *testing.T) {
	src, err := os.ReadFile("../../internal/lint/testdata/e2e/asg_zero_surplus/main.tf")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write(t, dir, map[string]string{"main.tf": string(src)})
	t.Chdir(dir)
	lint := func(t *testing.T, wantCode int, args ...string) (string, string) {
		t.Helper()
		code, stdout, stderr := cli(t, "", append([]string{"lint"}, args...)...)
		if code != wantCode {
			t.Fatalf("exit %d, want %d; stderr %s", code, wantCode, stderr)
		}
		return stdout, stderr
	}
	decodeOut := func(t *testing.T, stdout string) baselineOut {
		t.Helper()
		var out baselineOut
		if err := json.Unmarshal([]byte(stdout), &out); err != nil {
			t.Fatalf("%v: %s", err, stdout)
		}
		return out
	}

	lint(t, 2) // the finding fails the run
	lint(t, 0, "--write-baseline", "baseline.json")
	lint(t, 0, "--write-baseline", "again.json")
	first, _ := os.ReadFile("baseline.json")
	again, _ := os.ReadFile("again.json")
	if string(first) != string(again) || !strings.Contains(string(first), `"rule": "queuecap_zero_surplus"`) ||
		!strings.Contains(string(first), `"address": "aws_autoscaling_group.workers"`) || !strings.Contains(string(first), `"file": "main.tf"`) {
		t.Fatalf("baseline written twice:\n%s\nand\n%s", first, again)
	}

	t.Run("the same configuration", func(t *testing.T) {
		out := decodeOut(t, first2(lint(t, 0, "--baseline", "baseline.json", "--format", "json")))
		if len(out.Issues) != 0 || out.Suppressed == nil || *out.Suppressed != 1 || len(out.Fixed) != 0 {
			t.Errorf("got %+v", out)
		}
	})
	t.Run("moved down its file", func(t *testing.T) {
		write(t, dir, map[string]string{"main.tf": "# a comment\n\n\n" + string(src)})
		t.Cleanup(func() { write(t, dir, map[string]string{"main.tf": string(src)}) })
		lint(t, 0, "--baseline", "baseline.json")
	})
	t.Run("a changed number", func(t *testing.T) {
		write(t, dir, map[string]string{"main.tf": strings.Replace(string(src), "max_size            = 25", "max_size            = 24", 1)})
		t.Cleanup(func() { write(t, dir, map[string]string{"main.tf": string(src)}) })
		out := decodeOut(t, first2(lint(t, 2, "--baseline", "baseline.json", "--format", "json")))
		if len(out.Issues) != 1 || out.Issues[0].Rule != "queuecap_zero_surplus" || *out.Suppressed != 0 ||
			len(out.Fixed) != 1 || out.Fixed[0].Address != "aws_autoscaling_group.workers" || out.Fixed[0].File != "main.tf" {
			t.Errorf("got %+v", out)
		}
		stdout, _ := lint(t, 2, "--baseline", "baseline.json")
		if want := "Notice: fixed since the baseline, remove it from baseline.json: queuecap_zero_surplus in aws_autoscaling_group.workers (main.tf): max_size 25 cannot drain any backlog: raise it to 26 ["; !strings.Contains(stdout, want) {
			t.Errorf("default output lacks %q:\n%s", want, stdout)
		}
	})
	t.Run("the config's baseline, relative to the config file", func(t *testing.T) {
		write(t, dir, map[string]string{"ci/queuecap.hcl": "config {\n  baseline = \"../baseline.json\"\n}\n"})
		out := decodeOut(t, first2(lint(t, 0, "--config", "ci/queuecap.hcl", "--format", "json")))
		if *out.Suppressed != 1 {
			t.Errorf("got %+v", out)
		}
		// --write-baseline records every finding, the baseline's too.
		lint(t, 0, "--config", "ci/queuecap.hcl", "--write-baseline", "all.json")
		if all, _ := os.ReadFile("all.json"); string(all) != string(first) {
			t.Errorf("--write-baseline with a config baseline wrote\n%s", all)
		}
	})
	t.Run("errors", func(t *testing.T) {
		write(t, dir, map[string]string{"bad.json": "{}", "ci/missing.hcl": "config {\n  baseline = \"nope.json\"\n}\n"})
		for _, tt := range []struct {
			args []string
			want string
		}{
			{[]string{"--baseline", "missing.json"}, "Error: --baseline missing.json: Cannot read file: "},
			{[]string{"--baseline", "bad.json"}, "Error: --baseline bad.json: not a queuecap baseline: it has no \"version\""},
			{[]string{"--config", "ci/missing.hcl"}, "Error: baseline " + filepath.Join("ci", "nope.json") + ": "},
			{[]string{"--baseline", "baseline.json", "--write-baseline", "x.json"}, "Error: --baseline and --write-baseline: give one"},
		} {
			_, stderr := lint(t, 1, tt.args...)
			if !strings.HasPrefix(stderr, tt.want) || strings.Count(stderr, "Error:") != 1 {
				t.Errorf("%q: stderr %q, want one error starting %q", tt.args, stderr, tt.want)
			}
		}
	})
}

// first2 is the first of two results.
func first2(a, _ string) string { return a }
