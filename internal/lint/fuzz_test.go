// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
)

// fuzzSeeds are configurations that reach every part of the evaluator and
// linker; the corpus in ../shared adds real ones when it is there.
var fuzzSeeds = []string{
	goodTF,
	"",
	// count and for_each instances, a for_each over a repeated resource,
	// provider functions, an uninstalled module and one that repeats.
	`resource "aws_sqs_queue" "q" {
  for_each = { a = 1, b = 2 }
  name     = each.key
  tags     = { "queuecap:arrival_rate" = each.value * 100 }
}
resource "aws_ecs_service" "s" {
  count         = 2
  desired_count = provider::queuecap::required_consumers(100 * (count.index + 1), 10, 0, 60)
  tags          = { "queuecap:queue" = "aws_sqs_queue.q[\"${["a", "b"][count.index]}\"]", "queuecap:per_consumer_rate" = 10 }
}
resource "aws_lambda_event_source_mapping" "m" {
  for_each         = aws_sqs_queue.q
  event_source_arn = each.value.arn
  function_name    = module.fn[each.key].name
}
module "fn" {
  source   = "./missing"
  for_each = toset(["a", "b"])
}
module "remote" {
  source = "terraform-aws-modules/sqs/aws"
  count  = var.n
}
variable "n" {}
`,
	"locals {\n  a = [for x in range(3) : x * 2 if x > 0]\n  b = { for k, v in { a = 1 } : k => v... }\n  c = \"${local.a[0]}%{ if true }x%{ endif }\"\n  d = <<-EOT\n    ${local.c}\n  EOT\n}\n",
	"variable \"n\" {\n  type    = map(object({ a = optional(number, 3) }))\n  default = { x = {} }\n}\nresource \"aws_autoscaling_group\" \"w\" {\n  max_size = var.n[\"x\"].a\n  dynamic \"tag\" {\n    for_each = { q = 1 }\n    content {\n      key   = tag.key\n      value = tag.value\n    }\n  }\n}\n",
	`resource "aws_sqs_queue" "q" {
  name = "q"
  tags = merge({ "queuecap:arrival_rate" = "1e4" }, { "queuecap:retry_rate" = 0.5, "queuecap:avg_retries" = try(tonumber("x"), 2) })
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.d.arn })
}
resource "aws_sqs_queue" "d" {}
data "queuecap_consumers" "c" {
  arrival_rate      = 10000
  per_consumer_rate = 400
  max_backlog       = 5e6
  rto_seconds       = 1800
}
data "queuecap_drain" "d" {
  backlog          = 3600000
  arrival_rate     = 10000
  consumers        = 32
  per_consumer_rate = 400
  arrival_forecast = [1, 2, 3]
}
resource "aws_autoscaling_group" "w" {
  max_size = data.queuecap_consumers.c.required_consumers
  tag {
    key   = "queuecap:queue"
    value = "aws_sqs_queue.q"
  }
}
resource "aws_autoscaling_policy" "p" {
  autoscaling_group_name = aws_autoscaling_group.w.name
  policy_type = "TargetTrackingScaling"
  target_tracking_configuration {
    customized_metric_specification {
      metrics {
        id = "e"
        expression = "RATE(m)"
      }
      metrics {
        id = "m"
        metric_stat {
          metric {
            metric_name = "ApproximateNumberOfMessagesVisible"
            namespace = "AWS/SQS"
            dimensions {
              name = "QueueName"
              value = aws_sqs_queue.q.name
            }
          }
        }
      }
    }
  }
}
resource "aws_lambda_function" "f" {
  timeout = 900
}
resource "aws_lambda_event_source_mapping" "m" {
  event_source_arn = aws_sqs_queue.q.arn
  function_name = aws_lambda_function.f.function_name
  scaling_config {
    maximum_concurrency = 2
  }
}
module "m" {
  source = "./"
  x = module.m.y
}
output "y" {
  value = module.m
}
`,
	`{"resource": {"aws_sqs_queue": {"q": {"name": "q", "tags": {"queuecap:arrival_rate": "100"}}}, "aws_autoscaling_group": {"w": {"max_size": 1, "tag": [{"key": "queuecap:queue", "value": "aws_sqs_queue.q"}, {"key": "queuecap:per_consumer_rate", "value": "${1 + 1}"}]}}}, "locals": {"a": "${local.a}"}}`,
	`resource "aws_sqs_queue" "q" { name = "q" }
resource "aws_sns_topic" "t" { tags = { "queuecap:arrival_rate" = 5 } }
resource "aws_sns_topic_subscription" "s" {
  topic_arn = aws_sns_topic.t.arn
  protocol  = "sqs"
  endpoint  = aws_sqs_queue.q.arn
}
resource "aws_pipes_pipe" "p" {
  source = aws_sqs_queue.q.arn
  target = aws_lambda_function.f.arn
}
resource "aws_lambda_function" "f" { role = aws_iam_role.r.arn }
resource "aws_iam_role" "r" {
  inline_policy { policy = data.aws_iam_policy_document.d.json }
}
data "aws_iam_policy_document" "d" {
  source_policy_documents = [jsonencode({ Statement = { Effect = "Allow", Action = "sqs:*", Resource = aws_sqs_queue.q.arn } })]
  statement {
    not_actions   = ["iam:*"]
    not_resources = [aws_sqs_queue.q.arn, "*"]
  }
}
resource "aws_iam_role_policy" "p" {
  role   = aws_iam_role.r.name
  policy = "{\"Statement\": [{\"Effect\": \"Deny\", \"Action\": \"sqs:Delete*\", \"Resource\": \"arn:aws:sqs:*:*:q\"}]}"
}
resource "aws_launch_template" "t" {
  iam_instance_profile { name = aws_iam_instance_profile.p.name }
}
resource "aws_iam_instance_profile" "p" { role = aws_iam_role.r.name }
resource "aws_autoscaling_group" "g" {
  max_size = 1
  launch_template { id = aws_launch_template.t.id }
}
`,
	"# queuecap-ignore-file: all\n/* queuecap-ignore: x */ resource \"a\" \"b\" { c = \"\\u00e9 #\" }\n",
	// Terraform's functions, the file-reading ones among them.
	`locals {
  files = fileset(path.module, "**/*.tf")
  text  = file("${path.module}/main.tf")
  gone  = [file("../../etc/passwd"), fileexists("/etc/passwd"), filemd5("main.tf"), abspath(path.root)]
  tpl   = templatefile("main.tf", { a = 1 })
  str   = templatestring(local.text, {})
  sizes = yamldecode("orders: 4\n")
  nets  = [cidrsubnet("10.0.0.0/16", 8, 2), cidrhost("10.0.0.0/8", -1), cidrsubnets("10.0.0.0/8", 4, 8)]
  ok    = alltrue([startswith(terraform.workspace, "d"), strcontains("ab", "b"), anytrue([])])
}
resource "aws_autoscaling_group" "w" {
  max_size = coalesce(lookup(local.sizes, "orders"), one([1]), sum([1]))
  tag {
    key   = "queuecap:queue"
    value = base64decode(base64encode("aws_sqs_queue.q"))
  }
}
resource "aws_sqs_queue" "q" {
  tags = { "queuecap:arrival_rate" = tonumber(replace(sensitive("5000"), "/0$/", "0")) }
}
`,
}

func addFuzzSeeds(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	root := filepath.Join("..", "..", "..", "shared", "corpus", "real")
	n := 0
	// The corpus is optional: the walk skips what it cannot read, so it
	// never fails.
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".tf") && n < 200 {
			if src, err := os.ReadFile(p); err == nil && strings.Contains(string(src), "aws_") {
				f.Add(src)
				n++
			}
		}
		return nil
	})
}

// fuzzLint writes the input as name in a fresh module and lints it with
// every rule: it must not panic, and every error must name a file and a
// position.
func fuzzLint(t *testing.T, name string, src []byte) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
		t.Fatal(err)
	}
	res := lintDir(t, lint.Options{Dirs: []string{dir}, Recursive: true})
	for _, e := range res.Errors {
		if e.Range == nil || e.Range.Filename == "" || e.Range.Start.Line < 1 || e.Range.Start.Column < 1 {
			t.Fatalf("error without a file position: %q", e.String())
		}
		if !strings.HasPrefix(e.Range.Filename, dir) {
			t.Fatalf("error in a file outside the module: %s", e)
		}
	}
	for _, is := range res.Issues {
		if is.Range.Filename == "" || is.Range.Start.Line < 1 || is.Message == "" {
			t.Fatalf("issue without a place or message: %+v", is)
		}
	}
}

func FuzzLint(f *testing.F) {
	addFuzzSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) { fuzzLint(t, "main.tf", src) })
}

func FuzzLintJSON(f *testing.F) {
	addFuzzSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) { fuzzLint(t, "main.tf.json", src) })
}
