// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
)

// TestExpansion: resources and module calls with count or for_each are
// expanded as Terraform expands them, each instance linted under its own
// address with its own count.index, each.key and each.value.
func TestExpansion(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		vars  []lint.VarFlag
		// want are substrings of the zero-surplus messages, one per
		// finding, in output order.
		want  []string
		skips []string // substrings of link skips
		// config is a .queuecap.hcl for the case.
		config string
	}{
		{
			name: "a .queuecap.hcl queue block names one instance",
			files: map[string]string{"main.tf": `resource "aws_sqs_queue" "q" {
  for_each = toset(["orders", "invoices"])
  name     = each.key
}

resource "aws_ecs_service" "s" {
  for_each      = toset(["orders", "invoices"])
  name          = each.key
  desired_count = 25
  tags = {
    "queuecap:per_consumer_rate" = 400
    "queuecap:queue"             = "aws_sqs_queue.q[\"${each.key}\"]"
  }
}
`},
			config: `queue "aws_sqs_queue.q[\"orders\"]" {
  arrival_rate = 10000
}
`,
			want:  []string{`desired_count 25 × 400 msg/s = 10,000 msg/s does not exceed the declared arrival rate 10,000 msg/s`},
			skips: []string{`aws_sqs_queue.q["invoices"] has a consumer (aws_ecs_service.s["invoices"]) but no declared arrival_rate`},
		},
		{
			name: "for_each queues and fleets keyed alike",
			files: map[string]string{"main.tf": `locals {
  queues = {
    orders   = { rate = 10000, mu = 400, max = 25 }
    invoices = { rate = 1000, mu = 100, max = 20 }
  }
}

resource "aws_sqs_queue" "q" {
  for_each = local.queues
  name     = each.key
  tags     = { "queuecap:arrival_rate" = each.value.rate }
}

resource "aws_autoscaling_group" "w" {
  for_each = local.queues
  name     = "${each.key}-workers"
  max_size = each.value.max
  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = each.value.mu
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.q[\"${each.key}\"]"
    propagate_at_launch = false
  }
}
`},
			want: []string{`max_size 25 × 400 msg/s = 10,000 msg/s does not exceed the declared arrival rate 10,000 msg/s`},
		},
		{
			name: "count instances and count.index",
			files: map[string]string{"main.tf": `variable "sizes" {
  default = [25, 40]
}

resource "aws_sqs_queue" "q" {
  count = 2
  name  = "q${count.index}"
  tags  = { "queuecap:arrival_rate" = 10000 }
}

resource "aws_ecs_service" "s" {
  count         = length(var.sizes)
  name          = "s${count.index}"
  desired_count = var.sizes[count.index]
  tags = {
    "queuecap:per_consumer_rate" = 400
    "queuecap:queue"             = "aws_sqs_queue.q[${count.index}]"
  }
}
`},
			want: []string{`desired_count 25 × 400 msg/s = 10,000 msg/s`},
		},
		{
			name: "for_each module instances, each with its own arguments",
			files: map[string]string{
				"main.tf": `module "pipeline" {
  source   = "./modules/pipeline"
  for_each = { orders = 25, invoices = 40 }
  name     = each.key
  max      = each.value
}
`,
				"modules/pipeline/main.tf": `variable "name" {}
variable "max" {}

resource "aws_sqs_queue" "q" {
  name = var.name
  tags = { "queuecap:arrival_rate" = 10000 }
}

resource "aws_autoscaling_group" "w" {
  name     = "${var.name}-workers"
  max_size = var.max
  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = "400"
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.q"
    propagate_at_launch = false
  }
}
`},
			want: []string{`max_size 25 × 400 msg/s`},
		},
		{
			name: "a mapping reaches a queue instance through each.value",
			files: map[string]string{"main.tf": `resource "aws_sqs_queue" "q" {
  for_each = toset(["a", "b"])
  name     = each.key
  tags     = { "queuecap:arrival_rate" = 300 }
}

resource "aws_lambda_function" "f" {
  function_name = "f"
  tags          = { "queuecap:per_consumer_rate" = 10 }
}

resource "aws_lambda_event_source_mapping" "m" {
  for_each         = aws_sqs_queue.q
  event_source_arn = each.value.arn
  function_name    = aws_lambda_function.f.arn
  scaling_config {
    maximum_concurrency = 30
  }
}
`},
			// Both mapping instances link, each to its own queue instance:
			// each queue's finding is the same words at the same place,
			// so they stand as one.
			want: []string{`maximum_concurrency 30 × 10 msg/s = 300 msg/s does not exceed the declared arrival rate 300 msg/s`},
		},
		{
			name: "for_each not known before apply is one skip",
			files: map[string]string{"main.tf": `variable "names" {
  type = set(string)
}

resource "aws_sqs_queue" "q" {
  for_each = var.names
  name     = each.key
}
`},
			skips: []string{`the for_each of aws_sqs_queue.q comes from var.names, which has no value here (set it with --var, a tfvars file or TF_VAR_names), so its instances are not told apart`},
		},
		{
			// A Terragrunt-style root that uses a variable another file
			// declares: --var cannot set it, so the skip says so.
			name: "count from an undeclared variable names the layout",
			files: map[string]string{"main.tf": `resource "aws_sqs_queue" "q" {
  count = var.enabled ? 1 : 0
  name  = "q"
}
`},
			skips: []string{`the count of aws_sqs_queue.q comes from var.enabled, which the root module in `, ` does not declare (a wrapper such as Terragrunt may add it where it runs Terraform: lint that directory, or a plan), so its instances are not told apart`},
		},
		{
			// The count reads a repeated module whose for_each is not
			// known: the skip follows it to the variable behind it.
			name: "count from a module whose instances are not known",
			files: map[string]string{
				"main.tf": `variable "topics" {
  type = list(string)
}

module "topic" {
  source   = "./topic"
  for_each = toset(var.topics)
}

resource "aws_sqs_queue" "q" {
  count = length([for m in module.topic : m.arn]) > 0 ? 1 : 0
  name  = "q"
}
`,
				"topic/main.tf": `output "arn" {
  value = "arn"
}
`},
			skips: []string{`the count of aws_sqs_queue.q comes from module.topic, whose for_each comes from var.topics, which has no value here (set it with --var, a tfvars file or TF_VAR_topics), so its instances are not told apart`},
		},
		{
			name: "count 0 creates nothing",
			files: map[string]string{"main.tf": `resource "aws_sqs_queue" "q" {
  count = 0
  tags  = { "queuecap:arrival_rate" = 10000 }
}

resource "aws_autoscaling_group" "w" {
  max_size = 25
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.q[0]"
    propagate_at_launch = false
  }
}
`},
			skips: []string{`names aws_sqs_queue.q[0], which is no aws_sqs_queue in this configuration`},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tc.files)
			cfg := &lint.Config{}
			if tc.config != "" {
				writeFiles(t, dir, map[string]string{".queuecap.hcl": tc.config})
				var diags hcl.Diagnostics
				if cfg, diags = lint.LoadConfig(filepath.Join(dir, ".queuecap.hcl"), true, nil); diags.HasErrors() {
					t.Fatal(diags)
				}
			}
			res := lintDir(t, lint.Options{Dirs: []string{dir}, Vars: tc.vars, Config: cfg})
			if len(res.Errors) > 0 {
				t.Fatalf("errors: %v", res.Errors)
			}
			var got []string
			for _, is := range res.Issues {
				if is.Rule == "queuecap_zero_surplus" {
					got = append(got, is.Message)
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("zero-surplus findings:\n%s\nwant %d: %q", strings.Join(got, "\n"), len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("finding %q does not say %q", got[i], w)
				}
			}
			for _, w := range tc.skips {
				if !slices.ContainsFunc(res.Skipped, func(s lint.Skip) bool { return strings.Contains(s.Reason, w) }) {
					t.Errorf("no skip says %q; skips: %v", w, res.Skipped)
				}
			}
		})
	}
}
