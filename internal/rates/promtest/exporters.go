// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package promtest

import (
	"time"

	"github.com/queuecap/terraform-provider-queuecap/internal/rates"
	"github.com/queuecap/terraform-provider-queuecap/internal/rates/synth"
)

// Exporter is how an exporter of CloudWatch metrics names a queue's and
// its consumers' series, as read in its source (see
// prometheus_exporters.go), with the labels it adds.
type Exporter struct {
	Name           string
	Period, Scrape time.Duration
	sqs            map[rates.Metric]string
	queue          string
	consumers      map[string]func(rates.Consumer) (string, []synth.Label)
	extra          func(queue string) []synth.Label
}

var CloudWatchExporter = Exporter{
	Name: "cloudwatch_exporter", Period: time.Minute, Scrape: time.Minute,
	sqs: map[rates.Metric]string{
		rates.Sent:      "aws_sqs_number_of_messages_sent_sum",
		rates.Deleted:   "aws_sqs_number_of_messages_deleted_sum",
		rates.Received:  "aws_sqs_number_of_messages_received_sum",
		rates.Visible:   "aws_sqs_approximate_number_of_messages_visible_minimum",
		rates.OldestAge: "aws_sqs_approximate_age_of_oldest_message_maximum",
	},
	queue: "queue_name",
	consumers: map[string]func(rates.Consumer) (string, []synth.Label){
		rates.KindASG: func(c rates.Consumer) (string, []synth.Label) {
			return "aws_autoscaling_group_in_service_instances_average", []synth.Label{{Name: "auto_scaling_group_name", Value: c.Name}}
		},
		rates.KindECS: func(c rates.Consumer) (string, []synth.Label) {
			return "ecs_containerinsights_running_task_count_average", []synth.Label{{Name: "cluster_name", Value: c.Cluster}, {Name: "service_name", Value: c.Name}}
		},
		rates.KindLambda: func(c rates.Consumer) (string, []synth.Label) {
			return "aws_lambda_concurrent_executions_average", []synth.Label{{Name: "function_name", Value: c.Name}}
		},
	},
	// Prometheus keeps the exporter's own job and instance as exported_*.
	extra: func(string) []synth.Label {
		return []synth.Label{{Name: "exported_job", Value: "aws_sqs"}, {Name: "job", Value: "cloudwatch"}, {Name: "instance", Value: "exporter:9106"}}
	},
}

// YACE is YACE with its default CamelCase dimension labels; its
// configurations commonly export visible messages' Average, which the
// defaults fall back to (the series holds the generated minimum under
// that name, so that the values compare exactly).
var YACE = Exporter{
	Name: "YACE", Period: 5 * time.Minute, Scrape: time.Minute,
	sqs: map[rates.Metric]string{
		rates.Sent:      "aws_sqs_number_of_messages_sent_sum",
		rates.Deleted:   "aws_sqs_number_of_messages_deleted_sum",
		rates.Received:  "aws_sqs_number_of_messages_received_sum",
		rates.Visible:   "aws_sqs_approximate_number_of_messages_visible_average",
		rates.OldestAge: "aws_sqs_approximate_age_of_oldest_message_maximum",
	},
	queue: "dimension_QueueName",
	consumers: map[string]func(rates.Consumer) (string, []synth.Label){
		rates.KindASG: func(c rates.Consumer) (string, []synth.Label) {
			return "aws_autoscaling_group_in_service_instances_average", []synth.Label{{Name: "dimension_AutoScalingGroupName", Value: c.Name}}
		},
		rates.KindECS: func(c rates.Consumer) (string, []synth.Label) {
			return "aws_ecs_containerinsights_running_task_count_average", []synth.Label{{Name: "dimension_ClusterName", Value: c.Cluster}, {Name: "dimension_ServiceName", Value: c.Name}}
		},
		rates.KindLambda: func(c rates.Consumer) (string, []synth.Label) {
			return "aws_lambda_concurrent_executions_maximum", []synth.Label{{Name: "dimension_FunctionName", Value: c.Name}}
		},
	},
	extra: func(queue string) []synth.Label {
		return []synth.Label{{Name: "name", Value: "arn:aws:sqs:eu-west-1:123456789012:" + queue}, {Name: "region", Value: "eu-west-1"},
			{Name: "account_id", Value: "123456789012"}, {Name: "job", Value: "yace"}}
	},
}

// YACESnake is YACE run with -labels-snake-case.
var YACESnake = func() Exporter {
	e := YACE
	e.Name, e.queue = "YACE with snake_case labels", "dimension_queue_name"
	e.consumers = map[string]func(rates.Consumer) (string, []synth.Label){
		rates.KindECS: func(c rates.Consumer) (string, []synth.Label) {
			return "aws_ecs_containerinsights_running_task_count_average", []synth.Label{{Name: "dimension_cluster_name", Value: c.Cluster}, {Name: "dimension_service_name", Value: c.Name}}
		},
	}
	return e
}()

// Families are the series the exporter exports of a scenario, but the
// metrics in skip and the steps of gaps (offsets into the scenario).
func (e Exporter) Families(sc synth.Scenario, t rates.Target, skip []rates.Metric, gaps ...[2]time.Duration) []synth.Family {
	var out []synth.Family
	for m, points := range sc.Exported(e.Period, e.Scrape) {
		var name string
		var labels []synth.Label
		switch {
		case contains(skip, m):
			continue
		case m == rates.Consumers:
			name, labels = e.consumers[t.Consumer.Kind](t.Consumer)
		default:
			name, labels = e.sqs[m], []synth.Label{{Name: e.queue, Value: t.QueueName}}
		}
		out = append(out, synth.Family{Name: name, Type: "gauge", Streams: []synth.Stream{{
			Labels: append(labels, e.extra(t.QueueName)...), Points: without(points, sc.Start, gaps)}}})
	}
	return out
}

func contains(ms []rates.Metric, m rates.Metric) bool {
	for _, x := range ms {
		if x == m {
			return true
		}
	}
	return false
}

func without(points []synth.Point, from time.Time, gaps [][2]time.Duration) []synth.Point {
	var out []synth.Point
	for _, p := range points {
		in := false
		for _, g := range gaps {
			in = in || !p.At.Before(from.Add(g[0])) && p.At.Before(from.Add(g[1]))
		}
		if !in {
			out = append(out, p)
		}
	}
	return out
}
