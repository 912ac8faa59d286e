// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/rules"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/runner"
)

// The plans in testdata/plans are `terraform show -json` of the
// configurations in plantest/testdata, as plantest's tests make them.
func readPlanFile(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("testdata/plans/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestReadPlanBadInput(t *testing.T) {
	plan := string(readPlanFile(t, "zero_surplus.json"))
	cases := []struct {
		name, input, want string
	}{
		{"empty", "", "the plan is empty"},
		{"blank", " \n\t", "the plan is empty"},
		{"not JSON", "resource \"aws_sqs_queue\" \"q\" {}", "the plan is not valid JSON"},
		{"an array", "[1, 2]", "not a plan: the JSON is not an object"},
		{"a string", `"plan"`, "not a plan: the JSON is not an object"},
		{"null", "null", "not a plan: it has no format_version"},
		{"an object without format_version", `{"resource_changes": []}`, "not a plan: it has no format_version"},
		{"a state", `{"format_version": "1.0", "terraform_version": "1.5.7", "values": {"root_module": {}}}`, "not a plan: this is the JSON of a state"},
		{"some other JSON", `{"format_version": "1.0", "name": "x"}`, "not a plan: it has no planned_values"},
		{"an unsupported format_version", strings.Replace(plan, `"format_version":"1.2"`, `"format_version":"2.0"`, 1), `unsupported plan format version: "2.0.0"`},
		{"a format_version that is not a version", strings.Replace(plan, `"format_version":"1.2"`, `"format_version":"one"`, 1), `invalid format version "one"`},
		{"truncated", plan[:len(plan)/2], "the plan JSON is truncated"},
		{"truncated after the first brace", "{", "the plan JSON is truncated"},
		{"a field of the wrong type", strings.Replace(plan, `"format_version":"1.2"`, `"format_version":12`, 1), "cannot read the plan"},
	}
	if !strings.Contains(plan, `"format_version":"1.2"`) {
		t.Fatal("the fixture plan changed shape: update the cases")
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			p, err := lint.ReadPlan([]byte(tt.input))
			if err == nil || p != nil {
				t.Fatalf("ReadPlan = %v, %v; want an error", p, err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want it to say %q", err, tt.want)
			}
		})
	}
}

// FuzzPlan: whatever the input, reading and linting a plan returns an
// error or a result, never a panic (Run recovers a panic of one root
// module into an error entry, which would hide it: this fails on one).
func FuzzPlan(f *testing.F) {
	for _, name := range []string{"zero_surplus.json", "unknown_arn.json"} {
		f.Add(readPlanFile(f, name))
	}
	f.Add([]byte(`{"format_version":"1.2","planned_values":{"root_module":{"child_modules":[{"address":"module.a[\"x\"]","resources":[{"address":"module.a[\"x\"].aws_sqs_queue.q[0]","mode":"managed","type":"aws_sqs_queue","name":"q","index":0,"values":{"tags":{"queuecap:arrival_rate":"1"}}}]}]}},"configuration":{"root_module":{"module_calls":{"a":{"module":{"resources":[{"address":"aws_sqs_queue.q","expressions":{"tags":{"references":["var.t","module.b.x"]}}}]}}}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := lint.ReadPlan(data)
		if err != nil {
			return
		}
		res, err := runner.Run(lint.Options{Dirs: []string{t.TempDir()}, Config: &lint.Config{}, Rules: rules.All(), Plan: p})
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
		for _, e := range res.Errors {
			if strings.Contains(e.Message, "internal error") {
				t.Fatalf("%s", e.Message)
			}
		}
	})
}

// TestPlanDataSourceRates: a fleet sized from a queuecap_consumers data
// source declares the rates among its arguments, as its HCL does: here
// the fleet's steady_state_consumers leaves no surplus.
func TestPlanDataSourceRates(t *testing.T) {
	const plan = `{
  "format_version": "1.2",
  "planned_values": {"root_module": {"resources": [
    {"address": "aws_sqs_queue.orders", "mode": "managed", "type": "aws_sqs_queue", "name": "orders",
     "values": {"name": "orders", "redrive_policy": "{\"deadLetterTargetArn\":\"arn:aws:sqs:us-east-1:1:dlq\",\"maxReceiveCount\":5}"}},
    {"address": "aws_autoscaling_group.workers", "mode": "managed", "type": "aws_autoscaling_group", "name": "workers",
     "values": {"name": "workers", "max_size": 25, "min_size": 1,
                "tag": [{"key": "queuecap:queue", "value": "aws_sqs_queue.orders", "propagate_at_launch": false}]}},
    {"address": "data.queuecap_consumers.orders", "mode": "data", "type": "queuecap_consumers", "name": "orders",
     "values": {"arrival_rate": 10000, "per_consumer_rate": 400, "max_backlog": 0, "rto_seconds": 600, "steady_state_consumers": 25}}
  ]}},
  "configuration": {"root_module": {"resources": [
    {"address": "aws_autoscaling_group.workers", "mode": "managed", "type": "aws_autoscaling_group", "name": "workers",
     "expressions": {"max_size": {"references": ["data.queuecap_consumers.orders.steady_state_consumers", "data.queuecap_consumers.orders"]}}}
  ]}}
}`
	p, err := lint.ReadPlan([]byte(plan))
	if err != nil {
		t.Fatal(err)
	}
	res, err := runner.Run(lint.Options{Dirs: []string{t.TempDir()}, Config: &lint.Config{}, Rules: rules.All(), Plan: p})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Issues) != 1 || res.Issues[0].Rule != "queuecap_zero_surplus" || res.Issues[0].FactMap()["per_consumer_rate"] != 400 {
		t.Errorf("findings %+v", res.Issues)
	}
}

// TestLoadPlanStdin: "-" reads the JSON from standard input, never a
// binary plan file.
func TestLoadPlanStdin(t *testing.T) {
	if _, err := lint.LoadPlan("-", ".", strings.NewReader(string(readPlanFile(t, "zero_surplus.json"))), nil); err != nil {
		t.Errorf("JSON on stdin: %v", err)
	}
	if _, err := lint.LoadPlan("-", ".", strings.NewReader("PK\x03\x04zip"), nil); err == nil || !strings.Contains(err.Error(), "standard input holds a binary plan file") {
		t.Errorf("a binary plan on stdin: %v", err)
	}
}

// TestPlanProviderFunctionRates: the plan records a provider function call
// only as its result, so the rates its arguments declare are read from the
// configuration's HCL, evaluated with the plan's variables; only when that
// gives the planned value, never rates for a size the call did not make.
func TestPlanProviderFunctionRates(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"main.tf": `variable "arrival_rate" {
  default = 8000
}

resource "aws_sqs_queue" "orders" {
  name = "orders"
}

resource "aws_autoscaling_group" "workers" {
  max_size = provider::queuecap::required_consumers(var.arrival_rate, 400, 0, 1800)
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
}
`})
	plan := func(arrivalRate, maxSize int) *lint.Plan {
		t.Helper()
		p, err := lint.ReadPlan(fmt.Appendf(nil, `{
  "format_version": "1.2",
  "variables": {"arrival_rate": {"value": %d}},
  "planned_values": {"root_module": {"resources": [
    {"address": "aws_sqs_queue.orders", "mode": "managed", "type": "aws_sqs_queue", "name": "orders", "values": {"name": "orders"}},
    {"address": "aws_autoscaling_group.workers", "mode": "managed", "type": "aws_autoscaling_group", "name": "workers",
     "values": {"max_size": %d, "tag": [{"key": "queuecap:queue", "value": "aws_sqs_queue.orders", "propagate_at_launch": false}]}}
  ]}},
  "configuration": {"root_module": {"resources": [
    {"address": "aws_autoscaling_group.workers", "mode": "managed", "type": "aws_autoscaling_group", "name": "workers",
     "expressions": {"max_size": {}}}
  ]}}
}`, arrivalRate, maxSize))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	lintIt := func(p *lint.Plan) *lint.Result {
		t.Helper()
		res, err := runner.Run(lint.Options{Dirs: []string{dir}, Config: &lint.Config{}, Rules: rules.All(), Plan: p})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	zeroSurplus := func(res *lint.Result) []lint.Issue {
		var out []lint.Issue
		for _, is := range res.Issues {
			if is.Rule == "queuecap_zero_surplus" {
				out = append(out, is)
			}
		}
		return out
	}
	// -var=arrival_rate=10000 (the default says 8000): the call is 25,
	// exactly the arrival rate.
	got := zeroSurplus(lintIt(plan(10000, 25)))
	if len(got) != 1 || got[0].FactMap()["arrival_rate"] != 10000 || got[0].FactMap()["max_consumers"] != 25 || got[0].FactMap()["per_consumer_rate"] != 400 {
		t.Errorf("the plan's variable: findings %+v", got)
	}
	// A planned value the HCL does not give: no rates, so no finding
	// (24 × 400 msg/s would otherwise fall short of 10000 msg/s).
	res := lintIt(plan(10000, 24))
	if got := zeroSurplus(res); len(got) != 0 {
		t.Errorf("max_size 24 where the call gives 25: findings %+v", got)
	}
	if len(res.Skipped) != 1 || !strings.Contains(res.Skipped[0].Reason, "no declared arrival_rate") {
		t.Errorf("max_size 24 where the call gives 25: skips %+v, want the coverage skip", res.Skipped)
	}
}
