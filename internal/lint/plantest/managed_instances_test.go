// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package plantest

import (
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/testaws"
)

// TestPlanManagedInstances reads Lambda Managed Instances from planned
// values alone: the capacity provider's max_vcpu_count, a list of
// objects known only through terraform.tfvars, bounds the function to 40
// concurrent invocations; a provider whose scaling configuration the
// configuration leaves to AWS (unknown in the plan) bounds nothing.
func TestPlanManagedInstances(t *testing.T) {
	dir := "testdata/managed_instances"
	forEachCLI(t, func(t *testing.T, cli testaws.CLI) {
		res := lintPlan(t, testaws.Plan(t, cli.Path, dir), t.TempDir())
		var bounded bool
		for _, is := range res.Issues {
			if is.Rule != "queuecap_zero_surplus" {
				continue
			}
			bounded = true
			if is.Address != "aws_lambda_capacity_provider.workers" {
				t.Errorf("address %q, want the capacity provider whose max_vcpu_count bounds the function", is.Address)
			}
			if f := is.FactMap(); f["max_consumers"] != 40 || f["capacity"] != 400 {
				t.Errorf("facts %v, want 40 consumers, 400 msg/s", f)
			}
			if !strings.Contains(is.Message, "(max_vcpu_count 20 of aws_lambda_capacity_provider.workers ÷ 2 vCPUs per execution environment") {
				t.Errorf("message %q does not state the capacity provider's bound", is.Message)
			}
		}
		if !bounded {
			t.Errorf("no queuecap_zero_surplus finding for the capacity provider's bound: %v", res.Issues)
		}
		var skipped bool
		for _, s := range res.Skipped {
			if strings.Contains(s.Reason, "max_vcpu_count of aws_lambda_capacity_provider.shared is not set") && s.Address == "aws_lambda_capacity_provider.shared" {
				skipped = true
			}
		}
		if !skipped {
			t.Errorf("no skip for the unbounded capacity provider: %v", res.Skipped)
		}
	})
}
