// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/rules"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/runner"
)

// writeFiles writes files (path relative to dir → content) under dir.
var writeFiles = lint.WriteFiles

// lintDir runs every rule over dir.
func lintDir(t testing.TB, opts lint.Options) *lint.Result {
	t.Helper()
	if opts.Rules == nil {
		opts.Rules = rules.All()
	}
	res, err := runner.Run(opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// slaAlarm has one queuecap_depth_alarm_after_sla finding at line 10
// (the threshold), with the given text in place of line 9 and after the
// threshold's value on line 10.
func slaAlarm(line9, line10Suffix string) string {
	return `resource "aws_sqs_queue" "orders" {
  name = "orders"
  tags = { "queuecap:arrival_rate" = 5000, "queuecap:sla_seconds" = 10 }
}

resource "aws_cloudwatch_metric_alarm" "depth" {
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  ` + line9 + `
  threshold           = 100000 ` + line10Suffix + `
  comparison_operator = "GreaterThanThreshold"
  dimensions          = { QueueName = aws_sqs_queue.orders.name }
}
`
}
