// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/rules"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/runner"
)

// TestTagNumbersValid: a queuecap:* tag whose value is known but no valid
// rate (not a number, not finite, out of its range) is an error at the
// value, once however many instances carry it, with HCL and with a plan;
// it used to read as "not known before apply" (issue 28, item 7).
func TestTagNumbersValid(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"main.tf": `resource "aws_sqs_queue" "q" {
  count = 3
  name  = "q"
  tags = {
    "queuecap:arrival_rate" = "NaN"
    "queuecap:max_backlog"  = "1e400"
    "queuecap:rto_seconds"  = "-5"
    "queuecap:sla_seconds"  = "${"x"}${"y"}"
    "queuecap:sla_second"   = "60"
    "queuecap:arrival-rate" = "2500"
    "queuecap:owner"        = "team-a"
    Name                    = "not a rate"
  }
}
resource "aws_autoscaling_group" "w" {
  name     = "w"
  min_size = 1
  max_size = 4
  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = "Inf"
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.q[0]"
    propagate_at_launch = false
  }
}
resource "aws_ecs_service" "s" {
  name          = "s"
  desired_count = 2
  tags = {
    "queuecap:per_consumer_rate" = 400
    "queuecap:arrival_rate"      = "  12.5 "
  }
}
`})
	want := []string{ // sorted
		"main.tf:10:31: Invalid queuecap tag: tag queuecap:arrival-rate is not a tag queuecap reads; did you mean queuecap:arrival_rate? A misspelt rate",
		"main.tf:11:31: Invalid queuecap tag: tag queuecap:owner is not a tag queuecap reads. A misspelt rate is not declared, so no rule that needs it checks this resource. queuecap reads queuecap:queue, queuecap:arrival_rate, ",
		"main.tf:21:27: Invalid queuecap tag: tag queuecap:per_consumer_rate must be a finite number, got +Inf",
		"main.tf:5:31: Invalid queuecap tag: tag queuecap:arrival_rate must be a number, got \"NaN\"",
		"main.tf:6:31: Invalid queuecap tag: tag queuecap:max_backlog must be a finite number within the float64 range",
		"main.tf:7:31: Invalid queuecap tag: tag queuecap:rto_seconds value must be",
		"main.tf:8:31: Invalid queuecap tag: tag queuecap:sla_seconds must be a number, got \"xy\"",
		"main.tf:9:31: Invalid queuecap tag: tag queuecap:sla_second is not a tag queuecap reads; did you mean queuecap:sla_seconds?",
	}
	res := lintDir(t, lint.Options{Dirs: []string{dir}, Config: &lint.Config{}})
	var got []string
	for _, e := range res.Errors {
		got = append(got, strings.TrimPrefix(e.String(), dir+string(filepath.Separator)))
	}
	slices.Sort(got)
	if len(got) != len(want) {
		t.Fatalf("errors:\n%s\nwant %d", strings.Join(got, "\n"), len(want))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("error %d:\n%s\nwant it to start\n%s", i, got[i], want[i])
		}
	}
	for _, s := range res.Skipped {
		if strings.Contains(s.Reason, "not known before apply") {
			t.Errorf("a known tag read as unknown: %s", s.Reason)
		}
	}

	// The same tags in a plan's values.
	const plan = `{
  "format_version": "1.2",
  "planned_values": {"root_module": {"resources": [
    {"address": "aws_sqs_queue.q", "mode": "managed", "type": "aws_sqs_queue", "name": "q",
     "values": {"name": "q", "tags": {"queuecap:arrival_rate": "NaN"}}},
    {"address": "aws_autoscaling_group.w", "mode": "managed", "type": "aws_autoscaling_group", "name": "w",
     "values": {"name": "w", "max_size": 4, "min_size": 1,
                "tag": [{"key": "queuecap:queue", "value": "aws_sqs_queue.q", "propagate_at_launch": false},
                        {"key": "queuecap:per_consumer_rate", "value": "-Inf", "propagate_at_launch": false}]}}
  ]}}
}`
	p, err := lint.ReadPlan([]byte(plan))
	if err != nil {
		t.Fatal(err)
	}
	res, err = runner.Run(lint.Options{Dirs: []string{t.TempDir()}, Config: &lint.Config{}, Rules: rules.All(), Plan: p})
	if err != nil {
		t.Fatal(err)
	}
	got = got[:0]
	for _, e := range res.Errors {
		got = append(got, e.String())
	}
	slices.Sort(got)
	if len(got) != 2 || !strings.HasPrefix(got[0], "aws_autoscaling_group.w: Invalid queuecap tag: tag queuecap:per_consumer_rate must be a finite number, got -Inf") ||
		!strings.HasPrefix(got[1], "aws_sqs_queue.q: Invalid queuecap tag: tag queuecap:arrival_rate must be a number, got \"NaN\"") {
		t.Errorf("plan errors:\n%s", strings.Join(got, "\n"))
	}
}
