// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/rules"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/runner"
)

// scaledPlan is testdata/plans/zero_surplus.json with each resource given
// count = n: n × 3 resource instances, n zero-surplus findings.
func scaledPlan(b *testing.B, n int) []byte {
	b.Helper()
	var plan map[string]json.RawMessage
	var planned struct {
		RootModule struct {
			Resources []tfjson.StateResource `json:"resources"`
		} `json:"root_module"`
	}
	var changes []tfjson.ResourceChange
	data := readPlanFile(b, "zero_surplus.json")
	for _, err := range []error{json.Unmarshal(data, &plan), json.Unmarshal(plan["planned_values"], &planned), json.Unmarshal(plan["resource_changes"], &changes)} {
		if err != nil {
			b.Fatal(err)
		}
	}
	var resources []tfjson.StateResource
	var scaledChanges []tfjson.ResourceChange
	for i := range n {
		suffix := fmt.Sprintf("[%d]", i)
		for _, r := range planned.RootModule.Resources {
			r.Address, r.Index = r.Address+suffix, i
			r.AttributeValues = maps.Clone(r.AttributeValues)
			if r.Type == "aws_autoscaling_group" { // each group consumes its own queue
				r.AttributeValues["tag"] = []map[string]any{
					{"key": "queuecap:per_consumer_rate", "value": "400", "propagate_at_launch": false},
					{"key": "queuecap:queue", "value": "aws_sqs_queue.orders" + suffix, "propagate_at_launch": false},
				}
			}
			resources = append(resources, r)
		}
		for _, c := range changes {
			c.Address, c.Index = c.Address+suffix, i
			scaledChanges = append(scaledChanges, c)
		}
	}
	planned.RootModule.Resources = resources
	var err error
	if plan["planned_values"], err = json.Marshal(planned); err != nil {
		b.Fatal(err)
	}
	if plan["resource_changes"], err = json.Marshal(scaledChanges); err != nil {
		b.Fatal(err)
	}
	out, err := json.Marshal(plan)
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// BenchmarkPlan times `queuecap lint --plan` on a plan of 1,002 resource
// instances (read, modeled, linked and checked, without the configuration
// directory) against decoding the same JSON alone with terraform-json.
func BenchmarkPlan(b *testing.B) {
	data := scaledPlan(b, 334)
	b.Run("decode", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			var p tfjson.Plan
			if err := p.UnmarshalJSON(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("lint", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		dir := b.TempDir()
		for b.Loop() {
			plan, err := lint.ReadPlan(data)
			if err != nil {
				b.Fatal(err)
			}
			res, err := runner.Run(lint.Options{Dirs: []string{dir}, Config: &lint.Config{}, Rules: rules.All(), Plan: plan})
			if err != nil {
				b.Fatal(err)
			}
			if len(res.Issues) != 334 {
				b.Fatalf("%d findings, want 334", len(res.Issues))
			}
		}
	})
}
