// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules_test

import (
	"fmt"
	"testing"
)

// depthAlarmOn is a queue with the given tags and a notifying depth alarm:
// the threshold is on line 10, the QueueName dimension on line 14.
func depthAlarmOn(tags, comparison, threshold, queueName string) string {
	return fmt.Sprintf(`resource "aws_sqs_queue" "orders" {
  name = "orders"
  tags = { %s }
}

resource "aws_cloudwatch_metric_alarm" "depth" {
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  comparison_operator = %q
  threshold           = %s
  evaluation_periods  = 1
  period              = 60
  statistic           = "Maximum"
  dimensions          = { QueueName = %s }
  alarm_actions       = ["arn:aws:sns:eu-west-1:123456789012:oncall"]
}
`, tags, comparison, threshold, queueName)
}

const alarmThresholds = `
data "queuecap_alarm_thresholds" "orders" {
  arrival_rate      = 5000
  sla_seconds       = 10
  per_consumer_rate = 100
  rto_seconds       = 1800
  queue_name        = "orders"
}
`

// alarmPlan is the alarm_plan function given the queue's name before
// apply, with optional retries.
func alarmPlan(retries string) string {
	return `
locals {
  plan = provider::queuecap::alarm_plan({
    arrival_rate      = 5000
    sla_seconds       = 10
    per_consumer_rate = 100
    rto_seconds       = 1800
    queue_name        = aws_sqs_queue.orders.name` + retries + `
  })
  alarms = { for a in local.plan.alarms : a.name => a }
}
`
}

func TestDepthAlarmAfterSLA(t *testing.T) {
	sla := `"queuecap:arrival_rate" = 5000, "queuecap:sla_seconds" = 10`
	ref := "aws_sqs_queue.orders.name"
	late := issue{
		Message: "threshold 100,000 exceeds the SLA depth 5,000 msg/s × 10 s = 50,000 messages (Little's law): when it fires, a message arriving behind 100,000 messages already waits 100,000 / 5,000 = 20 s, over the 10 s SLA",
		Start:   at(10, 3), End: at(10, 31),
		Facts: facts("threshold", 100000, "arrival_rate", 5000, "sla_seconds", 10, "sla_max_depth", 50000, "wait_seconds", 20),
	}
	runRuleCases(t, "queuecap_depth_alarm_after_sla", []ruleCase{
		{
			name:   "threshold past the SLA depth",
			files:  map[string]string{"main.tf": depthAlarmOn(sla, "GreaterThanThreshold", "100000", ref)},
			issues: []issue{late},
		},
		{
			name:  "threshold at the SLA depth",
			files: map[string]string{"main.tf": depthAlarmOn(sla, "GreaterThanOrEqualToThreshold", "50000", ref)},
		},
		{
			// 0.7 × 3 is 2.0999999999999996 in float64.
			name:  "threshold at the SLA depth, in decimal rates",
			files: map[string]string{"main.tf": depthAlarmOn(`"queuecap:arrival_rate" = 0.7, "queuecap:sla_seconds" = 3`, "GreaterThanOrEqualToThreshold", "2.1", ref)},
		},
		{
			name: "threshold from the queuecap_sla_depth data source",
			files: map[string]string{"main.tf": depthAlarmOn(sla, "GreaterThanThreshold", "data.queuecap_sla_depth.orders.max_depth", ref) + `
data "queuecap_sla_depth" "orders" {
  arrival_rate = 5000
  sla_seconds  = 10
}
`},
		},
		{
			name:  "threshold from queuecap_alarm_thresholds",
			files: map[string]string{"main.tf": depthAlarmOn(sla, "GreaterThanThreshold", "data.queuecap_alarm_thresholds.orders.alarms[0].threshold", ref) + alarmThresholds},
		},
		{
			// Twice the generated threshold: the linter computes the data
			// source and sees 100000.
			name:   "twice the queuecap_alarm_thresholds threshold",
			files:  map[string]string{"main.tf": depthAlarmOn(sla, "GreaterThanThreshold", "2 * data.queuecap_alarm_thresholds.orders.max_depth", ref) + alarmThresholds},
			issues: []issue{{Summary: "threshold 100,000 fires after the 10 s SLA is already missed: lower it to 50,000, the SLA depth", Message: late.Message, Start: at(10, 3), End: at(10, 76), Facts: late.Facts}},
		},
		{
			name:  "threshold from alarm_plan",
			files: map[string]string{"main.tf": depthAlarmOn(sla, "GreaterThanThreshold", `local.alarms["depth_above_sla"].threshold`, ref) + alarmPlan("")},
		},
		{
			name:   "twice the alarm_plan threshold",
			files:  map[string]string{"main.tf": depthAlarmOn(sla, "GreaterThanThreshold", "2 * local.plan.max_depth", ref) + alarmPlan("")},
			issues: []issue{{Message: late.Message, Start: at(10, 3), End: at(10, 49), Facts: late.Facts}},
		},
		{
			// 5,000 × (1 + 0.2 × 2) = 7,000 msg/s: the call declares the
			// retries, and its threshold counts them as the rule does.
			name:  "threshold from alarm_plan with retries",
			files: map[string]string{"main.tf": depthAlarmOn(sla, "GreaterThanThreshold", `local.alarms["depth_above_sla"].threshold`, ref) + alarmPlan("\n    retry_rate        = 0.2\n    avg_retries       = 2")},
		},
		{
			name:  "twice the alarm_plan threshold with retries",
			files: map[string]string{"main.tf": depthAlarmOn(sla, "GreaterThanThreshold", "2 * local.plan.max_depth", ref) + alarmPlan("\n    retry_rate        = 0.2\n    avg_retries       = 2")},
			issues: []issue{{
				Message: "threshold 140,000 exceeds the SLA depth 5,000 × (1 + 0.2 × 2) = 7,000 msg/s × 10 s = 70,000 messages (Little's law): when it fires, a message arriving behind 140,000 messages already waits 140,000 / 7,000 = 20 s, over the 10 s SLA",
				Start:   at(10, 3), End: at(10, 49),
				Facts: facts("threshold", 140000, "arrival_rate", 5000, "retry_rate", 0.2, "avg_retries", 2, "effective_arrival_rate", 7000, "sla_seconds", 10, "sla_max_depth", 70000, "wait_seconds", 20),
			}},
		},
		{
			// The dimension comes from alarm_plan, which also names the
			// dead-letter queue (unknown before apply): it leads to the
			// queue alone.
			name: "dimensions from alarm_plan beside an unknown dead-letter queue name",
			files: map[string]string{"main.tf": depthAlarmOn(sla, "GreaterThanThreshold", "2 * local.plan.max_depth", `local.alarms["depth_above_sla"].dimensions.QueueName`) +
				alarmPlan("\n    dead_letter_queue_name = aws_sqs_queue.dlq.name") + "\nresource \"aws_sqs_queue\" \"dlq\" {\n  name_prefix = \"orders-dlq-\"\n}\n"},
			issues: []issue{{Message: late.Message, Start: at(10, 3), End: at(10, 49), Facts: late.Facts}},
		},
		{
			// 7,457.8 × (1 + 0.437 × 5.079013207) msg/s × 493 s is
			// 11,837,226.6241909566 messages, 11,837,226.624191 to 15
			// digits, the data source's max_depth; from λ_eff written to 15
			// digits first (24,010.6016717869 msg/s) the rule's was
			// 11,837,226.6241909, and it flagged the threshold.
			name: "threshold from queuecap_alarm_thresholds with retries, λ_eff of more than 15 digits",
			files: map[string]string{"main.tf": depthAlarmOn(`"queuecap:arrival_rate" = 7457.8, "queuecap:sla_seconds" = 493, "queuecap:retry_rate" = 0.437, "queuecap:avg_retries" = 5.079013207`,
				"GreaterThanThreshold", "data.queuecap_alarm_thresholds.orders.max_depth", ref) + `
data "queuecap_alarm_thresholds" "orders" {
  arrival_rate      = 7457.8
  retry_rate        = 0.437
  avg_retries       = 5.079013207
  sla_seconds       = 493
  per_consumer_rate = 100
  rto_seconds       = 1800
  queue_name        = "orders"
}
`},
		},
		{
			name:  "retries declared, threshold without them",
			files: map[string]string{"main.tf": depthAlarmOn(sla+`, "queuecap:retry_rate" = 0.2, "queuecap:avg_retries" = 2`, "GreaterThanThreshold", "100000", ref)},
			issues: []issue{{
				Message: "threshold 100,000 exceeds the SLA depth 5,000 × (1 + 0.2 × 2) = 7,000 msg/s × 10 s = 70,000 messages (Little's law): when it fires, a message arriving behind 100,000 messages already waits 100,000 / 7,000 = 14.29 s, over the 10 s SLA",
				Start:   at(10, 3), End: at(10, 31),
				Facts: facts("threshold", 100000, "arrival_rate", 5000, "retry_rate", 0.2, "avg_retries", 2, "effective_arrival_rate", 7000, "sla_seconds", 10, "sla_max_depth", 70000, "wait_seconds", 14.2857142857143),
			}},
		},
		{
			name:   "queue named literally",
			files:  map[string]string{"main.tf": depthAlarmOn(sla, "GreaterThanThreshold", "100000", `"orders"`)},
			issues: []issue{late},
		},
		{
			name:  "an alarm on another queue",
			files: map[string]string{"main.tf": depthAlarmOn(sla, "GreaterThanThreshold", "100000", `"invoices"`)},
			skips: []skip{{Reason: `alarm aws_cloudwatch_metric_alarm.depth reads SQS metrics, but its queue is "invoices", which matches no aws_sqs_queue in the linted configuration (is it defined elsewhere?), so it is not checked against the queue`, Line: 14}},
		},
		{
			name:  "no SLA declared",
			files: map[string]string{"main.tf": depthAlarmOn(`"queuecap:arrival_rate" = 5000`, "GreaterThanThreshold", "100000", ref)},
		},
		{
			name:  "an empty-queue alarm",
			files: map[string]string{"main.tf": depthAlarmOn(sla, "LessThanThreshold", "100000", ref)},
		},
		{
			name:  "threshold unknown before apply",
			files: map[string]string{"main.tf": depthAlarmOn(sla, "GreaterThanThreshold", "var.threshold", ref) + "variable \"threshold\" {\n  type = number\n}\n"},
			skips: []skip{{Reason: "threshold of aws_cloudwatch_metric_alarm.depth comes from var.threshold, which has no value here (set it with --var, a tfvars file or TF_VAR_threshold)", Line: 10}},
		},
		{
			name:  "arrival rate unknown before apply",
			files: map[string]string{"main.tf": depthAlarmOn(`"queuecap:arrival_rate" = var.rate, "queuecap:sla_seconds" = 10`, "GreaterThanThreshold", "100000", ref) + "variable \"rate\" {}\n"},
			skips: []skip{{Reason: "arrival_rate of aws_sqs_queue.orders is not known before apply", Line: 3}},
		},
		{
			name:   "SLA declared in .queuecap.hcl",
			files:  map[string]string{"main.tf": depthAlarmOn(`"queuecap:arrival_rate" = 5000`, "GreaterThanThreshold", "100000", ref)},
			config: "queue \"aws_sqs_queue.orders\" {\n  sla_seconds = 10\n}\n",
			issues: []issue{late},
		},
		{
			name: "sibling modules that read each other's outputs",
			files: map[string]string{
				"main.tf": `module "queue" {
  source          = "./queue"
  alarm_topic_arn = module.alarms.topic_arn
}

module "alarms" {
  source     = "./alarms"
  queue_name = module.queue.name
}
`,
				"queue/main.tf": `variable "alarm_topic_arn" {}

resource "aws_sqs_queue" "this" {
  name = "orders"
  tags = { "queuecap:arrival_rate" = 5000, "queuecap:sla_seconds" = 10, "alerts" = var.alarm_topic_arn }
}

output "name" {
  value = aws_sqs_queue.this.name
}
`,
				"alarms/main.tf": `variable "queue_name" {}

resource "aws_sns_topic" "alerts" {
  name = "alerts"
}

resource "aws_cloudwatch_metric_alarm" "depth" {
  metric_name         = "ApproximateNumberOfMessagesVisible"
  comparison_operator = "GreaterThanThreshold"
  threshold           = 100000
  dimensions          = { QueueName = var.queue_name }
  alarm_actions       = [aws_sns_topic.alerts.arn]
}

output "topic_arn" {
  value = aws_sns_topic.alerts.arn
}
`,
			},
			issues: []issue{{
				Message: "threshold 100,000 exceeds the SLA depth 5,000 msg/s × 10 s = 50,000 messages (Little's law): when it fires, a message arriving behind 100,000 messages already waits 100,000 / 5,000 = 20 s, over the 10 s SLA",
				File:    "alarms/main.tf",
				Start:   at(10, 3), End: at(10, 31),
				Facts: facts("threshold", 100000, "arrival_rate", 5000, "sla_seconds", 10, "sla_max_depth", 50000, "wait_seconds", 20),
			}},
		},
		{
			name: "alarm in a module given the queue name",
			files: map[string]string{
				"main.tf": `resource "aws_sqs_queue" "orders" {
  name = "orders"
  tags = { "queuecap:arrival_rate" = 5000, "queuecap:sla_seconds" = 10 }
}

module "alarms" {
  source     = "./alarms"
  queue_name = aws_sqs_queue.orders.name
  threshold  = 60000
}
`,
				"alarms/main.tf": `variable "queue_name" {
  type = string
}

variable "threshold" {
  type = number
}

resource "aws_cloudwatch_metric_alarm" "depth" {
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  comparison_operator = "GreaterThanThreshold"
  threshold           = var.threshold
  dimensions          = { QueueName = var.queue_name }
}
`,
			},
			issues: []issue{{
				Message: "threshold 60,000 exceeds the SLA depth 5,000 msg/s × 10 s = 50,000 messages (Little's law): when it fires, a message arriving behind 60,000 messages already waits 60,000 / 5,000 = 12 s, over the 10 s SLA",
				File:    "alarms/main.tf",
				Start:   at(13, 3), End: at(13, 38),
				Facts: facts("threshold", 60000, "arrival_rate", 5000, "sla_seconds", 10, "sla_max_depth", 50000, "wait_seconds", 12),
			}},
		},
	})
}

// TestDepthAlarmAtTheSLADepthOfManyDigits: queuecap_alarm_thresholds sets
// its depth threshold to λ × (1 + r × a) × SLA from the exact λ_eff,
// rounded once; the rule holds a threshold to the same. From λ_eff already
// rounded to 15 digits (157,285.229757527 × 1.154 has 18), its SLA depth
// was the threshold less 1e-8, and the threshold "fires after the 305.4 s
// SLA is already missed".
func TestDepthAlarmAtTheSLADepthOfManyDigits(t *testing.T) {
	tags := `"queuecap:arrival_rate" = 157285.229757527, "queuecap:sla_seconds" = 305.4`
	retries := `, "queuecap:retry_rate" = 0.22, "queuecap:avg_retries" = 0.7`
	thresholds := func(retries string) string {
		return `
data "queuecap_alarm_thresholds" "orders" {
  arrival_rate      = 157285.229757527
  sla_seconds       = 305.4
  per_consumer_rate = 245.218
  rto_seconds       = 2301` + retries + `
}
`
	}
	runRuleCases(t, "queuecap_depth_alarm_after_sla", []ruleCase{
		{
			name:  "the retries declared on the queue",
			files: map[string]string{"main.tf": depthAlarmOn(tags+retries, "GreaterThanThreshold", "data.queuecap_alarm_thresholds.orders.max_depth", "aws_sqs_queue.orders.name") + thresholds("\n  retry_rate        = 0.22\n  avg_retries       = 0.7")},
		},
		{
			name:  "the retries of the threshold's data source",
			files: map[string]string{"main.tf": depthAlarmOn(tags, "GreaterThanThreshold", "data.queuecap_alarm_thresholds.orders.max_depth", "aws_sqs_queue.orders.name") + thresholds("\n  retry_rate        = 0.22\n  avg_retries       = 0.7")},
		},
	})
}
