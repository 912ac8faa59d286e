// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rates

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The default queries read the CloudWatch metrics as the two common
// exporters name them, either one, with no configuration:
//
//   - prometheus/cloudwatch_exporter names a metric
//     lower(namespace)_snake(MetricName)_statistic with "/" as "_"
//     (aws_sqs_number_of_messages_sent_sum, ecs_containerinsights_…) and
//     each dimension a snake_case label (queue_name); see its README.md and
//     CloudWatchCollector.java (toSnakeCase, safeName, the suffixes).
//   - YACE (prometheus-community/yet-another-cloudwatch-exporter) names it
//     the same way but with "aws_" before a namespace that lacks it
//     (aws_ecs_containerinsights_…), and each dimension a label
//     dimension_Name (dimension_QueueName), or dimension_snake_name with
//     -labels-snake-case; see pkg/promutil/migrate.go (BuildMetricName,
//     createPrometheusLabels).
//
// Both export a period's statistic as a gauge, not a counter: a Sum is the
// count over one CloudWatch period. cloudwatch_exporter stamps the sample
// with the period's CloudWatch timestamp (its start) by default, one
// sample a period; YACE stamps it when scraped, so Prometheus holds the
// same value several times, later than the period by YACE's delay (its
// addCloudwatchTimestamp: true stamps the period instead). The mean of the step's samples divided by the
// period is then the per-second rate over the step either way, where a
// sum_over_time or a rate() would count a repeated value again or read
// the gauge as a counter. The periods differ (60 s and 300 s by default),
// so each exporter's branch divides by its own unless period_seconds sets
// both. A branch is taken where the one before it has no sample (or
// on()), so a queue either exporter exports is read with no setting.

// promDimension is a CloudWatch dimension as each exporter labels it;
// its value is the placeholder's.
type promDimension struct {
	cloudwatchExporter, yace, yaceSnake string
	placeholder                         string
}

var (
	promQueueName  = promDimension{"queue_name", "dimension_QueueName", "dimension_queue_name", PlaceholderQueueName}
	promASGName    = promDimension{"auto_scaling_group_name", "dimension_AutoScalingGroupName", "dimension_auto_scaling_group_name", PlaceholderConsumerName}
	promECSCluster = promDimension{"cluster_name", "dimension_ClusterName", "dimension_cluster_name", PlaceholderClusterName}
	promECSService = promDimension{"service_name", "dimension_ServiceName", "dimension_service_name", PlaceholderConsumerName}
	promFunction   = promDimension{"function_name", "dimension_FunctionName", "dimension_function_name", PlaceholderConsumerName}
)

// promCloudWatch is a CloudWatch metric as the exporters export it.
type promCloudWatch struct {
	// cloudwatchExporter and yace are its names before the statistic.
	cloudwatchExporter, yace string
	dimensions               []promDimension
	// statistics are the suffixes read, in order of preference.
	statistics []string
	// over aggregates a step's samples; rate divides by the period.
	over string
	rate bool
}

// promSQS are the defaults of the queue's metrics. Visible is the
// Minimum where exported (the step's minimum, as Measure wants), else
// the Average or Maximum that most configurations export.
var promSQS = map[Metric]promCloudWatch{
	Sent:      {"aws_sqs_number_of_messages_sent", "aws_sqs_number_of_messages_sent", []promDimension{promQueueName}, []string{"sum"}, "avg_over_time", true},
	Deleted:   {"aws_sqs_number_of_messages_deleted", "aws_sqs_number_of_messages_deleted", []promDimension{promQueueName}, []string{"sum"}, "avg_over_time", true},
	Received:  {"aws_sqs_number_of_messages_received", "aws_sqs_number_of_messages_received", []promDimension{promQueueName}, []string{"sum"}, "avg_over_time", true},
	Visible:   {"aws_sqs_approximate_number_of_messages_visible", "aws_sqs_approximate_number_of_messages_visible", []promDimension{promQueueName}, []string{"minimum", "average", "maximum"}, "min_over_time", false},
	OldestAge: {"aws_sqs_approximate_age_of_oldest_message", "aws_sqs_approximate_age_of_oldest_message", []promDimension{promQueueName}, []string{"maximum"}, "max_over_time", false},
}

// promConsumers are the defaults of the consumers in service, by the
// consumer's kind: the step's average of the period's Average (the
// Maximum where that is all there is). Lambda's ConcurrentExecutions
// counts the invocations running, its consumers.
var promConsumers = map[string]promCloudWatch{
	KindASG: {"aws_autoscaling_group_in_service_instances", "aws_autoscaling_group_in_service_instances",
		[]promDimension{promASGName}, []string{"average", "maximum"}, "avg_over_time", false},
	KindECS: {"ecs_containerinsights_running_task_count", "aws_ecs_containerinsights_running_task_count",
		[]promDimension{promECSCluster, promECSService}, []string{"average", "maximum"}, "avg_over_time", false},
	KindLambda: {"aws_lambda_concurrent_executions", "aws_lambda_concurrent_executions",
		[]promDimension{promFunction}, []string{"average", "maximum"}, "avg_over_time", false},
}

// defaultQuery is the default query's template of a metric, for a
// consumer of a kind.
func (p *Prometheus) defaultQuery(m Metric, kind string) (string, error) {
	cw, ok := promSQS[m]
	if m == Consumers {
		if cw, ok = promConsumers[kind]; !ok {
			return "", fmt.Errorf("no default query for a consumer of kind %q (the defaults know %s, %s and %s): write a consumers query",
				kind, KindASG, KindECS, KindLambda)
		}
	}
	if !ok {
		return "", fmt.Errorf("no query for %s", m)
	}
	return cw.query(p.period), nil
}

// query is the metric's template: a branch per statistic and exporter,
// the first with a sample taken.
func (cw promCloudWatch) query(period time.Duration) string {
	exporters := []struct {
		name   string
		label  func(promDimension) string
		period time.Duration
	}{
		{cw.cloudwatchExporter, func(d promDimension) string { return d.cloudwatchExporter }, CloudWatchExporterPeriod},
		{cw.yace, func(d promDimension) string { return d.yace }, YACEPeriod},
		{cw.yace, func(d promDimension) string { return d.yaceSnake }, YACEPeriod},
	}
	var branches []string
	for _, stat := range cw.statistics {
		for _, e := range exporters {
			matchers := make([]string, len(cw.dimensions))
			for i, d := range cw.dimensions {
				matchers[i] = fmt.Sprintf(`%s="$%s"`, e.label(d), d.placeholder)
			}
			b := fmt.Sprintf("%s(%s_%s{%s}[$%s])", cw.over, e.name, stat, strings.Join(matchers, ", "), PlaceholderStep)
			if cw.rate {
				div := e.period
				if period > 0 {
					div = period
				}
				b += " / " + strconv.FormatFloat(div.Seconds(), 'f', -1, 64)
			}
			branches = append(branches, b)
		}
	}
	return strings.Join(branches, " or on() ")
}
