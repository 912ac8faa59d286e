// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
)

// countedWorkers are two queues and two fleets under count, each fleet
// consuming its own queue, with max_size 10 and maxes[1] at one line:
// 10 × 10 msg/s does not exceed 100 msg/s.
func countedWorkers(second string) string {
	return `resource "aws_sqs_queue" "q" {
  count = 2
  tags  = { "queuecap:arrival_rate" = 100 }
}

resource "aws_autoscaling_group" "audit" {
  count    = 2
  max_size = [10, ` + second + `][count.index]
  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = "10"
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.q[${count.index}]"
    propagate_at_launch = false
  }
}
`
}

// TestFindingsNameTheirInstance holds issue 22's item 6 in HCL: a finding
// and a skip name the resource instance at their place, instances with
// different verdicts are distinct findings, and identical ones are one
// finding listing them.
func TestFindingsNameTheirInstance(t *testing.T) {
	t.Run("count instances with different verdicts", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"main.tf": countedWorkers("20")})
		got := zeroSurplus(lintDir(t, lint.Options{Dirs: []string{dir}}))
		if len(got) != 1 {
			t.Fatalf("%d findings, want audit[0]'s: %v", len(got), got)
		}
		if got[0].Address != "aws_autoscaling_group.audit[0]" {
			t.Errorf("address %q, want the fleet instance at max_size, aws_autoscaling_group.audit[0]", got[0].Address)
		}
		if len(got[0].Instances) != 0 {
			t.Errorf("instances %v for a finding of one instance", got[0].Instances)
		}
	})
	t.Run("count instances with the same verdict", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"main.tf": countedWorkers("10")})
		got := zeroSurplus(lintDir(t, lint.Options{Dirs: []string{dir}}))
		if len(got) != 1 {
			t.Fatalf("%d findings, want one listing both instances: %v", len(got), got)
		}
		want := []string{"aws_autoscaling_group.audit[0]", "aws_autoscaling_group.audit[1]"}
		if got[0].Address != want[0] || !slices.Equal(got[0].Instances, want) {
			t.Errorf("address %q, instances %v; want %q and %v", got[0].Address, got[0].Instances, want[0], want)
		}
	})
	t.Run("for_each module", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{
			"main.tf": `module "worker" {
  source   = "./modules/app"
  for_each = { orders = 25, invoices = 30 }
  max      = each.value
  rate     = 10000
}
`,
			"modules/app/main.tf": workerModule,
		})
		got := zeroSurplus(lintDir(t, lint.Options{Dirs: []string{dir}}))
		if len(got) != 1 {
			t.Fatalf("%d findings, want module.worker[\"orders\"]'s: %v", len(got), got)
		}
		if want := `module.worker["orders"].aws_autoscaling_group.w`; got[0].Address != want {
			t.Errorf("address %q, want %q", got[0].Address, want)
		}
	})
	t.Run("skips", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"main.tf": strings.Replace(countedWorkers("10"), `value               = "10"`, `value               = "${timestamp()}"`, 1)})
		res := lintDir(t, lint.Options{Dirs: []string{dir}})
		var addrs []string
		for _, s := range res.Skipped {
			if strings.Contains(s.Reason, "per_consumer_rate") {
				addrs = append(addrs, s.Address)
				if !slices.Equal(s.Instances, []string{"aws_autoscaling_group.audit[0]", "aws_autoscaling_group.audit[1]"}) {
					t.Errorf("skip %s: instances %v, want both fleets", s.Reason, s.Instances)
				}
			}
		}
		if !slices.Equal(addrs, []string{"aws_autoscaling_group.audit[0]"}) {
			t.Errorf("per_consumer_rate skips at %v, want one, at aws_autoscaling_group.audit[0]", addrs)
		}
	})
}

// TestSkipInstancesStartWithItsOwn: a skip standing for instances whose
// reasons differ (a module's own root and an example calling it) gives one
// instance's reason, and lists that instance first.
func TestSkipInstancesStartWithItsOwn(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"main.tf": `variable "cluster" {}

resource "aws_appautoscaling_target" "t" {
  service_namespace  = "ecs"
  scalable_dimension = "ecs:service:DesiredCount"
  resource_id        = "service/${var.cluster}/workers"
  max_capacity       = 10
}
`,
		"examples/a/main.tf": "module \"example\" {\n  source = \"../..\"\n}\n",
	})
	res := lintDir(t, lint.Options{Dirs: []string{dir}, Recursive: true})
	var got []lint.Skip
	for _, s := range res.Skipped {
		if s.Rule == "link" {
			got = append(got, s)
		}
	}
	if len(got) != 1 {
		t.Fatalf("link skips %+v, want one for the target", got)
	}
	s := got[0]
	if len(s.Instances) != 2 || s.Instances[0] != s.Address || !strings.Contains(s.Reason, "other reason at this place, where another root module calls this one") {
		t.Errorf("skip %q at %s listing %v: want its own instance first, and the other root said", s.Reason, s.Address, s.Instances)
	}
	if strings.HasPrefix(s.Address, "module.example.") != strings.Contains(s.Reason, "module.example does not set") {
		t.Errorf("skip at %s gives the reason of another instance: %s", s.Address, s.Reason)
	}
}

// forEachWorkers are for_each fleets consuming one queue of 100 msg/s,
// each of the sizes given (HCL expressions) at 10 msg/s.
func forEachWorkers(sizes string) string {
	return `variable "x" {}

resource "aws_sqs_queue" "q" {
  tags = { "queuecap:arrival_rate" = 100 }
}

resource "aws_autoscaling_group" "w" {
  for_each = ` + sizes + `
  max_size = each.value
  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = "10"
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.q"
    propagate_at_launch = false
  }
}
`
}

// TestInstanceNamedByItsText: of instances equally near the subject, the
// one the finding or skip names is its address.
func TestInstanceNamedByItsText(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"main.tf": forEachWorkers(`{ a = 10, b = var.x }`)})
	res := lintDir(t, lint.Options{Dirs: []string{dir}})
	found := false
	for _, s := range res.Skipped {
		if strings.Contains(s.Reason, `max_size of aws_autoscaling_group.w["b"]`) {
			found = true
			if s.Address != `aws_autoscaling_group.w["b"]` {
				t.Errorf("skip %q at %s, want the instance it names", s.Reason, s.Address)
			}
		}
	}
	if !found {
		t.Fatalf("no skip for w[\"b\"]'s max_size: %+v", res.Skipped)
	}
}

// TestFindingsAtAnotherResourcesArgument: a Lambda function's size read
// from another resource's argument (its mapping's maximum_concurrency,
// its capacity provider's max_vcpu_count) puts a finding or a skip at that
// argument, and the finding names that resource, as a baseline keyed on
// the address then does.
func TestFindingsAtAnotherResourcesArgument(t *testing.T) {
	const queue = `resource "aws_sqs_queue" "orders" {
  tags = { "queuecap:arrival_rate" = 5000 }
}

resource "aws_lambda_event_source_mapping" "orders" {
  event_source_arn = aws_sqs_queue.orders.arn
  function_name    = aws_lambda_function.worker.arn
  %s
}

resource "aws_lambda_function" "worker" {
  function_name = "worker"
  tags          = { "queuecap:per_consumer_rate" = 10 }
  %s
}

resource "aws_lambda_capacity_provider" "workers" {
  name = "workers"
  capacity_provider_scaling_config = [{ max_vcpu_count = %s }]
}
`
	const lmi = `capacity_provider_config {
    lambda_managed_instances_capacity_provider_config {
      capacity_provider_arn = aws_lambda_capacity_provider.workers.arn
      per_execution_environment_max_concurrency = 10
    }
  }`
	for _, c := range []struct {
		name, mapping, function, vcpus string
		want                           string
		skip                           bool
	}{
		{"maximum_concurrency", "scaling_config {\n    maximum_concurrency = 100\n  }", "", "4", "aws_lambda_event_source_mapping.orders", false},
		{"maximum_pollers", "provisioned_poller_config {\n    maximum_pollers = 10\n  }", "", "4", "aws_lambda_event_source_mapping.orders", false},
		{"reserved_concurrent_executions", "", "reserved_concurrent_executions = 100", "4", "aws_lambda_function.worker", false},
		{"max_vcpu_count", "", lmi, "4", "aws_lambda_capacity_provider.workers", false},
		{"max_vcpu_count unknown", "", lmi, "var.vcpus", "aws_lambda_capacity_provider.workers", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			src := fmt.Sprintf(queue, c.mapping, c.function, c.vcpus)
			if c.skip {
				src += "variable \"vcpus\" {\n  type = number\n}\n"
			}
			writeFiles(t, dir, map[string]string{"main.tf": src})
			res := lintDir(t, lint.Options{Dirs: []string{dir}})
			var addrs []string
			if c.skip {
				for _, s := range res.Skipped {
					if strings.Contains(s.Reason, "max_vcpu_count") {
						addrs = append(addrs, s.Address)
					}
				}
			} else {
				for _, is := range zeroSurplus(res) {
					addrs = append(addrs, is.Address)
				}
			}
			if len(addrs) == 0 || slices.ContainsFunc(addrs, func(a string) bool { return a != c.want }) {
				t.Errorf("addresses %v, want each %s; findings %v, skips %v", addrs, c.want, res.Issues, res.Skipped)
			}
		})
	}
}
