// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/formatter"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/rules"
)

// TestSkipOncePerReason: the three rules that read a queue's supply skip
// a Lambda consumer without per_consumer_rate for one reason at one
// place: that is one skip naming the three, not three (issue 22, item 4).
func TestSkipOncePerReason(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"main.tf": `resource "aws_sqs_queue" "q" {
  name                       = "q"
  visibility_timeout_seconds = 60
  redrive_policy             = jsonencode({ deadLetterTargetArn = "arn:aws:sqs:eu-west-1:1:dlq", maxReceiveCount = 3 })
  tags = {
    "queuecap:arrival_rate" = 100
    "queuecap:max_backlog"  = 100000
    "queuecap:rto_seconds"  = 600
  }
}

resource "aws_lambda_function" "f" {
  function_name                  = "f"
  timeout                        = 10
  reserved_concurrent_executions = 20
}

resource "aws_lambda_event_source_mapping" "m" {
  event_source_arn = aws_sqs_queue.q.arn
  function_name    = aws_lambda_function.f.arn
}
`})
	res, err := lint.Run(lint.Options{Dirs: []string{dir}, Config: &lint.Config{}, Rules: rules.All()})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"queuecap_insufficient_headroom", "queuecap_retention_shorter_than_drain", "queuecap_zero_surplus"}
	if len(res.Skipped) != 1 || !strings.HasPrefix(res.Skipped[0].Reason, "per_consumer_rate is not declared for aws_lambda_function.f") ||
		res.Skipped[0].Rule != want[0] || !slices.Equal(res.Skipped[0].Rules, want) {
		t.Fatalf("skips %+v, want one for the three rules", res.Skipped)
	}
	var b strings.Builder
	if err := formatter.Write(&b, "default", res, formatter.Options{ShowSkipped: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "(queuecap_insufficient_headroom, queuecap_retention_shorter_than_drain, queuecap_zero_surplus)\n") || !strings.Contains(b.String(), "1 check skipped") {
		t.Errorf("default output:\n%s", b.String())
	}
}
