// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package formatter

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
)

// explained is an explanation with what the CLI goldens do not show: a
// size unknown and one unset, a redrive not known before apply, a
// scale-in policy tracking a metric, a quote in an address, an error.
func explained() *lint.Result {
	r := rng("main.tf", 1, 1, 1, 10)
	twoHundred := 200.0
	return &lint.Result{
		Errors: []lint.ErrorEntry{{Message: "Unclosed <block>", Severity: lint.Error, Range: &r}},
		Explanation: &lint.Explanation{Roots: []lint.RootExplanation{{
			Dir: "stack",
			Queues: []lint.QueueExplanation{{
				Address: `aws_sqs_queue.q["a"]`, Range: r, Redrive: lint.RedriveUnknown,
				Rates: []lint.RateExplanation{{Name: "arrival_rate", Source: "tags", From: "tag queuecap:arrival_rate", Range: &r}},
				Consumers: []lint.ConsumerExplanation{
					{Kind: lint.FleetECS, Address: "aws_ecs_service.s", Range: r, LinkedThrough: "IAM role aws_iam_role.s",
						MaxSize: lint.SizeExplanation{Attribute: "max_capacity", Set: true, Range: &r},
						Policies: []lint.PolicyExplanation{{Kind: lint.PolicyTargetTracking, Address: "aws_appautoscaling_policy.in", Range: r,
							Metrics: []string{"ECSServiceAverageCPUUtilization"}}}},
					{Kind: lint.FleetLambda, Address: "aws_lambda_function.f", Range: r,
						MaxSize: lint.SizeExplanation{Attribute: "reserved_concurrent_executions"}},
					{Kind: lint.FleetLambda, Address: "aws_lambda_function.p", Range: r,
						MaxSize: lint.SizeExplanation{Attribute: "maximum_pollers", Set: true, Value: &twoHundred, Range: &r, Terms: "maximum_pollers 20 × 10 = 200 concurrent invokes"}},
				},
			}},
		}}},
	}
}

func TestExplainFormatsEdgeCases(t *testing.T) {
	cases := map[string][]string{
		"text": {
			"root stack\n",
			`  queue aws_sqs_queue.q["a"] (main.tf:1)` + "\n    redrive: not known before apply\n",
			"      arrival_rate = unknown: tags, tag queuecap:arrival_rate at main.tf:1\n",
			"      linked through: IAM role aws_iam_role.s\n      max size: max_capacity unknown at main.tf:1\n      per_consumer_rate: not declared\n",
			"      policy aws_appautoscaling_policy.in TargetTrackingScaling tracking ECSServiceAverageCPUUtilization, scale-in only (main.tf:1)\n",
			"      max size: reserved_concurrent_executions not set\n",
			"      max size: maximum_pollers 20 × 10 = 200 concurrent invokes at main.tf:1\n",
			"Error: main.tf:1:1: Unclosed <block>\n",
		},
		"mermaid": {
			"**Root module `stack`**\n\n```mermaid\nflowchart LR\n",
			`  q1[("aws_sqs_queue.q[#quot;a#quot;]<br/>arrival_rate unknown")]` + "\n",
			`  c1["aws_ecs_service.s<br/>max_capacity unknown"]` + "\n",
			`  q1 -->|"per_consumer_rate not declared"| c1` + "\n",
			`  p1{{"aws_appautoscaling_policy.in<br/>TargetTrackingScaling tracking ECSServiceAverageCPUUtilization, scale-in only"}}` + "\n",
			`  c2["aws_lambda_function.f<br/>reserved_concurrent_executions not set"]` + "\n",
			"\nErrors:\n\n- main.tf:1:1: Unclosed &lt;block&gt;\n",
		},
		"json": {
			`"redrive":"unknown"`,
			`"max_size":{"attribute":"max_capacity","set":true,"value":null,`,
			`"max_size":{"attribute":"reserved_concurrent_executions","set":false,"value":null,"range":null}`,
			`"max_size":{"attribute":"maximum_pollers","set":true,"value":200,`,
			`"terms":"maximum_pollers 20 × 10 = 200 concurrent invokes"}`,
			`"per_consumer_rate":null`,
			`"errors":[{"message":"Unclosed <block>","severity":"error"`,
		},
	}
	for _, format := range ExplainNames() {
		t.Run(format, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteExplanation(&b, format, explained()); err != nil {
				t.Fatal(err)
			}
			for _, want := range cases[format] {
				if !strings.Contains(b.String(), want) {
					t.Errorf("output lacks %q:\n%s", want, b.String())
				}
			}
		})
	}
}

// An empty run is valid in every format: JSON with empty arrays, no text.
func TestExplainEmpty(t *testing.T) {
	for _, format := range ExplainNames() {
		var b bytes.Buffer
		if err := WriteExplanation(&b, format, nil); err != nil {
			t.Fatal(err)
		}
		want := ""
		if format == "json" {
			want = `{"roots":[],"skipped":[],"errors":[]}` + "\n"
			if !json.Valid(b.Bytes()) {
				t.Errorf("invalid JSON %s", b.String())
			}
		}
		if b.String() != want {
			t.Errorf("%s: %q, want %q", format, b.String(), want)
		}
	}
	if err := WriteExplanation(&bytes.Buffer{}, "compact", nil); err == nil || !strings.Contains(err.Error(), "valid formats are text, json, mermaid") {
		t.Errorf("compact: %v, want an error naming the formats", err)
	}
}
