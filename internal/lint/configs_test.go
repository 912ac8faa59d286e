// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
)

// TestConfigPerRoot: each root reads the nearest .queuecap.hcl from its
// folder up to the directory linted, with addresses relative to itself;
// --config serves the roots that have none; the working directory changes
// nothing.
func TestConfigPerRoot(t *testing.T) {
	queue := func(name string) string {
		return `resource "aws_sqs_queue" "q" {
  name = "` + name + `"
}

resource "aws_autoscaling_group" "w" {
  max_size = 25
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.q"
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = "400"
    propagate_at_launch = false
  }
}
`
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"stacks/a/main.tf":        queue("a"),
		"stacks/a/.queuecap.hcl":  "queue \"aws_sqs_queue.q\" {\n  arrival_rate = 10000\n}\n", // a's own: zero surplus
		"stacks/b/main.tf":        queue("b"),
		"stacks/.queuecap.hcl":    "queue \"aws_sqs_queue.q\" {\n  arrival_rate = 5000\n}\n", // b's, from its parent: a surplus
		"stacks/c/nested/main.tf": queue("c"),
		"fallback.hcl":            "queue \"aws_sqs_queue.q\" {\n  arrival_rate = 20000\n}\n",
	})
	fallback, diags := lint.LoadConfig(filepath.Join(dir, "fallback.hcl"), true, nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	run := func(t *testing.T, top string, cfg *lint.Config) map[string]string {
		res := lintDir(t, lint.Options{Dirs: []string{top}, Recursive: true, DiscoverConfig: true, Config: cfg})
		if len(res.Errors) > 0 {
			t.Fatalf("errors: %v", res.Errors)
		}
		got := map[string]string{}
		for _, is := range res.Issues {
			if is.Rule == "queuecap_zero_surplus" {
				rel, _ := filepath.Rel(dir, is.Range.Filename)
				got[filepath.ToSlash(rel)] = is.Message
			}
		}
		return got
	}
	t.Run("nearest file, then --config", func(t *testing.T) {
		got := run(t, dir, fallback)
		if !strings.Contains(got["stacks/a/main.tf"], "declared arrival rate 10,000") {
			t.Errorf("a: %q, want its own file's 10,000", got["stacks/a/main.tf"])
		}
		if _, ok := got["stacks/b/main.tf"]; ok {
			t.Errorf("b reads stacks/.queuecap.hcl (5000, a surplus), got %q", got["stacks/b/main.tf"])
		}
		// stacks/c/nested has stacks/.queuecap.hcl above it too.
		if _, ok := got["stacks/c/nested/main.tf"]; ok {
			t.Errorf("c: %q", got["stacks/c/nested/main.tf"])
		}
	})
	t.Run("files above the linted directory are not read", func(t *testing.T) {
		got := run(t, filepath.Join(dir, "stacks", "c"), fallback)
		if !strings.Contains(got["stacks/c/nested/main.tf"], "declared arrival rate 20,000") {
			t.Errorf("c linted alone: %q, want --config's 20,000", got["stacks/c/nested/main.tf"])
		}
	})
	t.Run("the working directory changes nothing", func(t *testing.T) {
		want := run(t, dir, fallback)
		wd, err := os.Getwd()
		if err != nil {
			t.Fatal(err)
		}
		t.Chdir(filepath.Join(dir, "stacks", "a"))
		got := run(t, dir, fallback)
		t.Chdir(wd)
		if len(got) != len(want) {
			t.Errorf("from stacks/a: %v; from %s: %v", got, wd, want)
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%s: %q from stacks/a, %q elsewhere", k, got[k], v)
			}
		}
	})
}
