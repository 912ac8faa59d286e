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

// uncheckedQueue is a queue whose consumer's size is not known before
// apply (a variable without a value): its capacity is not checked, and no
// finding fails the run at --minimum-failure-severity error.
const uncheckedQueue = `resource "aws_sqs_queue" "orders" {
  name           = "orders"
  redrive_policy = "{}"
  tags           = { "queuecap:arrival_rate" = 100 }
}

variable "max" {
  type = number
}

resource "aws_autoscaling_group" "w" {
  name     = "w"
  min_size = 1
  max_size = var.max
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = "10"
    propagate_at_launch = false
  }
}
`

// TestFailOnSkipped: a run whose only queue with a consumer was not
// checked says so in its summary and its JSON, exits 0 by default and 2
// with --fail-on-skipped or fail_on_skipped = true; --force still wins.
func TestFailOnSkipped(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(uncheckedQueue), 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"lint", "--no-color", "--minimum-failure-severity", "error"}
	code, stdout, stderr := cli(t, dir, append(base, ".")...)
	if code != exitOK || !strings.Contains(stdout, "Checked 0 of 1 queue with a consumer; not checked: aws_sqs_queue.orders\n") {
		t.Fatalf("exit %d, stderr %q:\n%s", code, stderr, stdout)
	}
	if code, _, _ := cli(t, "", append(base, "--fail-on-skipped", ".")...); code != exitFindings {
		t.Errorf("--fail-on-skipped: exit %d, want %d", code, exitFindings)
	}
	if code, _, _ := cli(t, "", append(base, "--fail-on-skipped", "--force", ".")...); code != exitOK {
		t.Errorf("--fail-on-skipped --force: exit %d, want 0", code)
	}
	if err := os.WriteFile(filepath.Join(dir, ".queuecap.hcl"), []byte("config {\n  fail_on_skipped = true\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := cli(t, "", append(base, ".")...); code != exitFindings {
		t.Errorf("fail_on_skipped = true: exit %d, want %d (%s)", code, exitFindings, stderr)
	}
	if code, _, _ := cli(t, "", append(base, "--fail-on-skipped=false", ".")...); code != exitOK {
		t.Errorf("--fail-on-skipped=false over the config: exit %d, want 0", code)
	}
	_, stdout, _ = cli(t, "", "lint", "--format", "json", "--minimum-failure-severity", "error", ".")
	var out struct {
		Queues struct {
			WithConsumer int      `json:"with_consumer"`
			Checked      int      `json:"checked"`
			NotChecked   []string `json:"not_checked"`
		} `json:"queues"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	if out.Queues.WithConsumer != 1 || out.Queues.Checked != 0 || len(out.Queues.NotChecked) != 1 || out.Queues.NotChecked[0] != "aws_sqs_queue.orders" {
		t.Errorf("JSON queues %+v", out.Queues)
	}
}
