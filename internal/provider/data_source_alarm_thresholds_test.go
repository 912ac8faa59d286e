// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
)

const alarmsAddr = "data.queuecap_alarm_thresholds.test"

func TestAlarmThresholdsDataSource(t *testing.T) {
	depthQuery := knownvalue.ObjectExact(map[string]knownvalue.Check{
		"id": knownvalue.StringExact("depth"), "expression": knownvalue.Null(), "label": knownvalue.StringExact("Visible messages"),
		"return_data": knownvalue.Bool(false),
		"metric": knownvalue.ObjectExact(map[string]knownvalue.Check{
			"metric_name": knownvalue.StringExact("ApproximateNumberOfMessagesVisible"), "namespace": knownvalue.StringExact("AWS/SQS"),
			"stat": knownvalue.StringExact("Maximum"), "period": knownvalue.Int64Exact(60),
			"dimensions": knownvalue.MapExact(map[string]knownvalue.Check{"QueueName": knownvalue.StringExact("orders")}),
		}),
	})
	unitTest(t,
		// SLA 10 s at 5,000 msg/s: depth alarm at 50,000 (Little's law); a
		// worker doing 10 msg/s targets 100 messages per instance (AWS's
		// 10 s latency / 0.1 s processing example).
		resource.TestStep{
			Config: `data "queuecap_alarm_thresholds" "test" {
  arrival_rate           = 5000
  sla_seconds            = 10
  per_consumer_rate      = 10
  rto_seconds            = 1800
  ttl_seconds            = 3600
  queue_name             = "orders"
  dead_letter_queue_name = "orders-dlq"
}`,
			ConfigStateChecks: expectValues(alarmsAddr, map[string]knownvalue.Check{
				"max_depth":                   num(50000),
				"oldest_message_age_seconds":  num(10),
				"sla_exceeds_ttl":             knownvalue.Bool(false),
				"backlog_per_consumer_target": num(100),
				"backlog_per_consumer_metric": knownvalue.StringExact("GroupInServiceInstances"),
				"projected_depth_expression":  knownvalue.StringExact("depth + RATE(depth) * 180"),
				"projected_depth_threshold":   num(50000),
				"drain_seconds_expression":    knownvalue.StringExact("IF(deleted - sent > 0, depth * PERIOD(deleted) / (deleted - sent), 0)"),
				"drain_seconds_threshold":     num(1800),
				"not_draining_expression":     knownvalue.StringExact("IF(deleted - sent <= 0 AND depth > 600, 1, 0)"),
				"not_draining_depth_floor":    num(600),
				"provisioning_lag_seconds":    num(180),
				"period_seconds":              num(60),
				"fleet":                       knownvalue.StringExact("ec2"),
				"alarms": knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"name": knownvalue.StringExact("depth_above_sla"), "comparison_operator": knownvalue.StringExact("GreaterThanThreshold"),
						"threshold": num(50000), "metric_name": knownvalue.StringExact("ApproximateNumberOfMessagesVisible"),
						"namespace": knownvalue.StringExact("AWS/SQS"), "statistic": knownvalue.StringExact("Maximum"), "period": knownvalue.Int64Exact(60),
						"dimensions":     knownvalue.MapExact(map[string]knownvalue.Check{"QueueName": knownvalue.StringExact("orders")}),
						"metric_queries": knownvalue.ListExact([]knownvalue.Check{}),
					}),
					knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"name": knownvalue.StringExact("oldest_message_above_sla"), "threshold": num(10),
						"metric_name": knownvalue.StringExact("ApproximateAgeOfOldestMessage"),
					}),
					knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"name": knownvalue.StringExact("projected_depth_above_sla"), "threshold": num(50000),
						"metric_name": knownvalue.Null(), "period": knownvalue.Null(), "dimensions": knownvalue.Null(),
						"metric_queries": knownvalue.ListExact([]knownvalue.Check{depthQuery, knownvalue.ObjectPartial(map[string]knownvalue.Check{
							"id": knownvalue.StringExact("projected"), "expression": knownvalue.StringExact("depth + RATE(depth) * 180"),
							"return_data": knownvalue.Bool(true), "metric": knownvalue.Null(),
						})}),
					}),
					knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"name": knownvalue.StringExact("drain_slower_than_rto"), "threshold": num(1800),
						"evaluation_periods": knownvalue.Int64Exact(3), "datapoints_to_alarm": knownvalue.Int64Exact(3),
						"metric_queries": knownvalue.ListSizeExact(4),
					}),
					knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"name": knownvalue.StringExact("not_draining"), "comparison_operator": knownvalue.StringExact("GreaterThanOrEqualToThreshold"),
						"threshold": num(1), "evaluation_periods": knownvalue.Int64Exact(15), "datapoints_to_alarm": knownvalue.Int64Exact(15),
					}),
					knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"name": knownvalue.StringExact("dead_letter_queue_not_empty"), "threshold": num(0),
						"dimensions": knownvalue.MapExact(map[string]knownvalue.Check{"QueueName": knownvalue.StringExact("orders-dlq")}),
					}),
				}),
			}),
		},
		// ECS, a 5-minute period, no lag; an SLA beyond the TTL; no queue
		// name leaves the dimensions empty; no dead-letter queue, no alarm.
		resource.TestStep{
			Config: `data "queuecap_alarm_thresholds" "test" {
  arrival_rate             = 200
  sla_seconds              = 900
  per_consumer_rate        = 2
  rto_seconds              = 3600
  ttl_seconds              = 600
  fleet                    = "ecs"
  period_seconds           = 300
  provisioning_lag_seconds = 0
}`,
			ConfigStateChecks: expectValues(alarmsAddr, map[string]knownvalue.Check{
				"max_depth":                   num(180000),
				"sla_exceeds_ttl":             knownvalue.Bool(true),
				"backlog_per_consumer_target": num(1800),
				"backlog_per_consumer_metric": knownvalue.StringExact("RunningTaskCount"),
				"projected_depth_expression":  knownvalue.StringExact("depth + RATE(depth) * 0"),
				"not_draining_depth_floor":    num(600),
				"alarms": knownvalue.ListPartial(map[int]knownvalue.Check{
					0: knownvalue.ObjectPartial(map[string]knownvalue.Check{"period": knownvalue.Int64Exact(300), "dimensions": knownvalue.MapExact(map[string]knownvalue.Check{})}),
					4: knownvalue.ObjectPartial(map[string]knownvalue.Check{"evaluation_periods": knownvalue.Int64Exact(3)}),
				}),
			}),
		},
		resource.TestStep{
			Config: `data "queuecap_alarm_thresholds" "test" {
  arrival_rate      = 200
  sla_seconds       = 10
  per_consumer_rate = 2
  rto_seconds       = 3600
}`,
			ConfigStateChecks: expectValues(alarmsAddr, map[string]knownvalue.Check{
				"sla_exceeds_ttl": knownvalue.Null(),
				"alarms":          knownvalue.ListSizeExact(5),
			}),
		},
	)
}

func TestAlarmThresholdsDataSourceInvalid(t *testing.T) {
	const base = "arrival_rate = 100\nsla_seconds = 10\nper_consumer_rate = 5\nrto_seconds = 600\n"
	cases := map[string]struct{ body, err string }{
		"bad fleet":      {base + `fleet = "lambda"`, `Attribute fleet value must be one of: ["ec2" "ecs"], got: "lambda"`},
		"bad period":     {base + "period_seconds = 45", `period_seconds must be 10, 20, 30 or a multiple of 60 up to 86400, as CloudWatch alarms require, got 45`},
		"negative lag":   {base + "provisioning_lag_seconds = -1", `Attribute provisioning_lag_seconds value must be at least 0, got: -1`},
		"zero rto":       {"arrival_rate = 100\nsla_seconds = 10\nper_consumer_rate = 5\nrto_seconds = 0", `Attribute rto_seconds value must be greater than 0, got: 0`},
		"missing μ":      {"arrival_rate = 100\nsla_seconds = 10\nrto_seconds = 60", `The argument "per_consumer_rate" is required`},
		"infinite sla":   {"arrival_rate = 100\nsla_seconds = 1/0\nper_consumer_rate = 5\nrto_seconds = 60", `Attribute sla_seconds must be a finite number within the float64 range`},
		"depth overflow": {"arrival_rate = 1e300\nsla_seconds = 1e300\nper_consumer_rate = 5\nrto_seconds = 60", `arrival_rate makes the maximum depth arrival_rate × sla_seconds overflow the float64 range`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			unitTest(t, resource.TestStep{
				Config:      "data \"queuecap_alarm_thresholds\" \"test\" {\n" + tc.body + "\n}",
				ExpectError: errorWords(tc.err),
			})
		})
	}
}
