// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
)

// dynamicPolicy is a queue, an auto scaling group and a target tracking
// policy whose customized metric is built in dynamic blocks over
// local.queries, as modules write them: metrics is the HCL of that list.
func dynamicPolicy(metrics string) string {
	return fmt.Sprintf(`resource "aws_sqs_queue" "orders" {
  name           = "orders"
  redrive_policy = jsonencode({ deadLetterTargetArn = "arn:aws:sqs:eu-west-1:1:orders-dlq", maxReceiveCount = 5 })
  tags           = { "queuecap:arrival_rate" = 1000 }
}

resource "aws_autoscaling_group" "workers" {
  name     = "workers"
  min_size = 1
  max_size = 20
  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = 100
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
}

locals {
  queries = %s
}

resource "aws_autoscaling_policy" "backlog" {
  name                   = "backlog"
  autoscaling_group_name = aws_autoscaling_group.workers.name
  policy_type            = "TargetTrackingScaling"
  target_tracking_configuration {
    target_value = 100
    customized_metric_specification {
      dynamic "metrics" {
        for_each = local.queries
        iterator = m
        content {
          id          = m.value.id
          expression  = m.value.expression
          return_data = m.value.return_data
          dynamic "metric_stat" {
            for_each = m.value.metric == null ? [] : [m.value.metric]
            content {
              stat = "Sum"
              metric {
                metric_name = metric_stat.value.name
                namespace   = metric_stat.value.namespace
              }
            }
          }
        }
      }
    }
  }
}
`, metrics)
}

// TestDynamicBlocks: dynamic blocks are expanded as Terraform expands
// them, their iterators in scope, so a policy built in them is judged like
// one written out; null arguments in their content are unset; a for_each
// not known before apply leaves the check skipped.
func TestDynamicBlocks(t *testing.T) {
	perInstance := `[
    { id = "visible", expression = null, return_data = false, metric = { name = "ApproximateNumberOfMessagesVisible", namespace = "AWS/SQS" } },
    { id = "in_service", expression = null, return_data = false, metric = { name = "GroupInServiceInstances", namespace = "AWS/AutoScaling" } },
    { id = "backlog", expression = "visible / in_service", return_data = true, metric = null },
  ]`
	depthOnly := `[
    { id = "visible", expression = null, return_data = true, metric = { name = "ApproximateNumberOfMessagesVisible", namespace = "AWS/SQS" } },
  ]`
	for _, tc := range []struct {
		name, queries string
		files         map[string]string
		rules, skips  []string
	}{
		{name: "backlog per instance", queries: perInstance},
		{name: "depth alone", queries: depthOnly, rules: []string{"queuecap_depth_only_scaling"}},
		{name: "for_each not known before apply", queries: `terraform_data.q.output`, files: map[string]string{"q.tf": "resource \"terraform_data\" \"q\" {}\n"},
			skips: []string{"queuecap_depth_only_scaling: the metric aws_autoscaling_policy.backlog tracks is not known before apply"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{"main.tf": dynamicPolicy(tc.queries)}
			for k, v := range tc.files {
				files[k] = v
			}
			writeFiles(t, dir, files)
			res := lintDir(t, lint.Options{Dirs: []string{dir}, Config: &lint.Config{}})
			var rules, skips []string
			for _, is := range res.Issues {
				rules = append(rules, is.Rule)
			}
			for _, s := range res.Skipped {
				skips = append(skips, s.Rule+": "+s.Reason)
			}
			if !slices.Equal(rules, tc.rules) || !slices.Equal(skips, tc.skips) || len(res.Errors) > 0 {
				t.Errorf("findings %v, skips %q, errors %v; want %v and %q", rules, skips, res.Errors, tc.rules, tc.skips)
			}
		})
	}
}
