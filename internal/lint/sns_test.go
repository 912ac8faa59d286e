// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"reflect"
	"testing"
)

// topicRate is a queue's arrival rate, and what declares it.
type topicRate struct {
	V   float64
	Via string
}

func TestSNSArrivalRates(t *testing.T) {
	topic := func(name, rate string) string {
		tags := ""
		if rate != "" {
			tags = hclTags("arrival_rate", rate)
		}
		return `resource "aws_sns_topic" "` + name + `" {
  name = "` + name + `"
` + tags + `}
`
	}
	queue := func(name, tags string) string {
		return `resource "aws_sqs_queue" "` + name + `" {
  name = "` + name + `"
` + tags + `}
`
	}
	sub := func(name, topicARN, queue, extra string) string {
		return `resource "aws_sns_topic_subscription" "` + name + `" {
  topic_arn = ` + topicARN + `
  protocol  = "sqs"
  endpoint  = aws_sqs_queue.` + queue + `.arn
` + extra + `}
`
	}
	cases := []struct {
		name  string
		tf    string
		rates map[string]topicRate // by queue; a queue not listed declares none
		skips []string
	}{
		{name: "a topic feeds each queue subscribed",
			tf: topic("orders", "100") + queue("billing", "") + queue("shipping", "") +
				sub("billing", "aws_sns_topic.orders.arn", "billing", "") + sub("shipping", "aws_sns_topic.orders.arn", "shipping", ""),
			rates: map[string]topicRate{"aws_sqs_queue.billing": {100, "SNS topic aws_sns_topic.orders"}, "aws_sqs_queue.shipping": {100, "SNS topic aws_sns_topic.orders"}}},
		{name: "topics into one queue add up",
			tf: topic("created", "60") + topic("cancelled", "40") + queue("audit", "") +
				sub("created", "aws_sns_topic.created.arn", "audit", "") + sub("cancelled", "aws_sns_topic.cancelled.arn", "audit", ""),
			rates: map[string]topicRate{"aws_sqs_queue.audit": {100, "SNS topics aws_sns_topic.created + aws_sns_topic.cancelled"}}},
		{name: "a topic named by its ARN, subscribed twice, delivers once",
			tf: topic("orders", "100") + queue("billing", "") +
				sub("one", `"arn:aws:sns:eu-west-1:123456789012:orders"`, "billing", "") + sub("two", "aws_sns_topic.orders.arn", "billing", ""),
			rates: map[string]topicRate{"aws_sqs_queue.billing": {100, "SNS topic aws_sns_topic.orders"}}},
		{name: "the queue's own rate wins",
			tf:    topic("orders", "100") + queue("billing", hclTags("arrival_rate", "500")) + sub("billing", "aws_sns_topic.orders.arn", "billing", ""),
			rates: map[string]topicRate{"aws_sqs_queue.billing": {500, ""}}},
		{name: "a filtered subscription",
			tf: topic("orders", "100") + queue("billing", "") +
				sub("billing", "aws_sns_topic.orders.arn", "billing", "  filter_policy = jsonencode({ kind = [\"invoice\"] })\n"),
			skips: []string{"aws_sns_topic_subscription.billing delivers to aws_sqs_queue.billing only what its filter_policy matches, so the arrival rates its other topics declare are not all its arrivals: declare queuecap:arrival_rate on the queue"}},
		{name: "a topic without a rate beside one with",
			tf: topic("created", "60") + topic("cancelled", "") + queue("audit", "") +
				sub("created", "aws_sns_topic.created.arn", "audit", "") + sub("cancelled", "aws_sns_topic.cancelled.arn", "audit", ""),
			skips: []string{"SNS topic aws_sns_topic.cancelled feeds aws_sqs_queue.audit (aws_sns_topic_subscription.cancelled) and declares no queuecap:arrival_rate, so the arrival rates its other topics declare are not all its arrivals: declare queuecap:arrival_rate on the queue"}},
		{name: "a topic of another configuration beside one with a rate",
			tf: topic("created", "60") + queue("audit", "") + "variable \"topic_arn\" {}\n" +
				sub("created", "aws_sns_topic.created.arn", "audit", "") + sub("external", "var.topic_arn", "audit", ""),
			skips: []string{"aws_sns_topic_subscription.external subscribes aws_sqs_queue.audit to a topic that is not in this configuration, so the arrival rates its other topics declare are not all its arrivals: declare queuecap:arrival_rate on the queue"}},
		{name: "no topic declares a rate",
			tf: topic("orders", "") + queue("billing", "") + sub("billing", "aws_sns_topic.orders.arn", "billing", "")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, res := linkedRun(t, map[string]string{"main.tf": c.tf}, "")
			got := map[string]topicRate{}
			for _, q := range m.Queues {
				if a := q.Rates.ArrivalRate; a.Set {
					got[q.Addr] = topicRate{a.V, a.Via}
				}
			}
			if c.rates == nil {
				c.rates = map[string]topicRate{}
			}
			if !reflect.DeepEqual(got, c.rates) {
				t.Errorf("arrival rates %v, want %v", got, c.rates)
			}
			var skips []string
			for _, s := range res.Skipped {
				if s.Rule == "link" {
					skips = append(skips, s.Reason)
				}
			}
			if !reflect.DeepEqual(skips, c.skips) {
				t.Errorf("skips:\n got %q\nwant %q", skips, c.skips)
			}
		})
	}
}
