// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
)

// TestNeverSilent: what the linter meets and cannot link or read is a
// skip with its place and what to do, never silence; what is clearly
// about another service is not.
func TestNeverSilent(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		want  map[int]string // line → reason (every skip of rule link or module)
	}{
		{
			name: "mapping whose queue and function come from modules that are not installed",
			files: map[string]string{"main.tf": `module "queue" {
  source = "https://example.com/terraform-sqs.zip"
}

module "fn" {
  source  = "terraform-aws-modules/lambda/aws"
  version = "8.1.0"
}

resource "aws_lambda_event_source_mapping" "m" {
  event_source_arn = module.queue.sqs_queue_arn
  function_name    = module.fn.lambda_function_name
}
`},
			want: map[int]string{
				1:  `module.queue (source "https://example.com/terraform-sqs.zip") is not installed, so nothing it declares was checked: run terraform init (the linter reads .terraform/modules/modules.json), or lint a plan`,
				5:  `module.fn (source "terraform-aws-modules/lambda/aws") is not installed, so nothing it declares was checked: run terraform init (the linter reads .terraform/modules/modules.json), or lint a plan`,
				11: `event source mapping aws_lambda_event_source_mapping.m: its queue (event_source_arn) comes from module.queue, which is not installed: run terraform init, or lint a plan, so the queue's consumer is not checked`,
			},
		},
		{
			name: "a DynamoDB stream mapping is no queue's",
			files: map[string]string{"main.tf": `resource "aws_dynamodb_table" "t" {
  name = "t"
}

resource "aws_lambda_function" "f" {
  function_name = "f"
}

resource "aws_lambda_event_source_mapping" "m" {
  event_source_arn = aws_dynamodb_table.t.stream_arn
  function_name    = aws_lambda_function.f.arn
}

resource "aws_lambda_event_source_mapping" "k" {
  event_source_arn = "arn:aws:kinesis:eu-west-1:123456789012:stream/clicks"
  function_name    = aws_lambda_function.f.arn
}
`},
		},
		{
			name: "target, policy and alarm that name nothing here",
			files: map[string]string{"main.tf": `variable "cluster" {}

resource "aws_appautoscaling_target" "t" {
  service_namespace  = "ecs"
  scalable_dimension = "ecs:service:DesiredCount"
  resource_id        = "service/${var.cluster}/workers"
  max_capacity       = 10
}

resource "aws_appautoscaling_policy" "p" {
  resource_id = aws_appautoscaling_target.t.resource_id
}

resource "aws_appautoscaling_target" "table" {
  service_namespace  = "dynamodb"
  scalable_dimension = "dynamodb:table:ReadCapacityUnits"
  resource_id        = "table/orders"
}

resource "aws_cloudwatch_metric_alarm" "depth" {
  metric_name = "ApproximateNumberOfMessagesVisible"
  namespace   = "AWS/SQS"
  dimensions  = { QueueName = "orders" }
}

resource "aws_cloudwatch_metric_alarm" "cpu" {
  metric_name = "CPUUtilization"
  namespace   = "AWS/EC2"
}
`},
			want: map[int]string{
				6:  `scaling target aws_appautoscaling_target.t: its resource_id comes from var.cluster, which has no value here (set it with --var, a tfvars file or TF_VAR_cluster), so its max_capacity sizes no fleet here`,
				11: `scaling policy aws_appautoscaling_policy.p: the fleet it scales comes from aws_appautoscaling_target.t.resource_id, which comes from var.cluster, which has no value here (set it with --var, a tfvars file or TF_VAR_cluster), so it is not checked`,
				23: `alarm aws_cloudwatch_metric_alarm.depth reads SQS metrics, but its queue is "orders", which matches no aws_sqs_queue in the linted configuration (is it defined elsewhere?), so it is not checked against the queue`,
			},
		},
		{
			// Found on keng000/sqs-based-fargate-autoscaling: the policy
			// names the target through count.index.
			name: "policy on a counted target whose resource_id has no value",
			files: map[string]string{"main.tf": `variable "cluster" {}

resource "aws_appautoscaling_target" "t" {
  count              = 1
  service_namespace  = "ecs"
  scalable_dimension = "ecs:service:DesiredCount"
  resource_id        = "service/${var.cluster.name}/job"
  max_capacity       = 10
}

resource "aws_appautoscaling_policy" "p" {
  count       = 1
  resource_id = aws_appautoscaling_target.t[count.index].resource_id
}
`},
			want: map[int]string{
				7:  `scaling target aws_appautoscaling_target.t[0]: its resource_id comes from var.cluster, which has no value here (set it with --var, a tfvars file or TF_VAR_cluster), so its max_capacity sizes no fleet here`,
				13: `scaling policy aws_appautoscaling_policy.p[0]: the fleet it scales comes from aws_appautoscaling_target.t.resource_id, which comes from var.cluster, which has no value here (set it with --var, a tfvars file or TF_VAR_cluster), so it is not checked`,
			},
		},
		{
			// Found on NHS digital-letters: the alarm's queue is in a
			// metric_query, from a module that is not installed; and a
			// logs alarm's unknown count hides no queue check.
			name: "metric math alarm on an uninstalled module's queue; a logs alarm with an unknown count",
			files: map[string]string{"main.tf": `variable "on" {}

module "q" {
  source = "https://example.com/terraform-sqs.zip"
}

resource "aws_cloudwatch_metric_alarm" "anomaly" {
  metric_query {
    id          = "m1"
    return_data = true
    metric {
      metric_name = "NumberOfMessagesReceived"
      namespace   = "AWS/SQS"
      dimensions  = { QueueName = module.q.sqs_queue_name }
    }
  }
}

resource "aws_cloudwatch_metric_alarm" "errors" {
  count       = var.on ? 1 : 0
  metric_name = "ErrorCount"
  namespace   = "App/Logs"
}
`},
			want: map[int]string{
				3:  `module.q (source "https://example.com/terraform-sqs.zip") is not installed, so nothing it declares was checked: run terraform init (the linter reads .terraform/modules/modules.json), or lint a plan`,
				14: `alarm aws_cloudwatch_metric_alarm.anomaly reads SQS metrics, but its queue comes from module.q, which is not installed: run terraform init, or lint a plan, so it is not checked against the queue`,
			},
		},
		{
			name: "a queuecap:queue tag naming no queue gets the closest address",
			files: map[string]string{"main.tf": `resource "aws_sqs_queue" "orders" {
  name = "orders"
}

resource "aws_ecs_service" "w" {
  name = "w"
  tags = { "queuecap:queue" = "aws_sqs_queue.order" }
}
`},
			want: map[int]string{
				7: `the queuecap:queue tag of aws_ecs_service.w names aws_sqs_queue.order, which is no aws_sqs_queue in this configuration; did you mean aws_sqs_queue.orders?`,
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tc.files)
			res := lintDir(t, lint.Options{Dirs: []string{dir}})
			got := map[int]string{}
			for _, s := range res.Skipped {
				if s.Rule == "link" || s.Rule == "module" {
					if !strings.HasSuffix(s.Range.Filename, "main.tf") {
						t.Errorf("skip in %s", s.Range.Filename)
					}
					got[s.Range.Start.Line] = s.Reason
				}
			}
			for line, want := range tc.want {
				if got[line] != want {
					t.Errorf("line %d: skip %q, want %q", line, got[line], want)
				}
			}
			for line, reason := range got {
				if _, ok := tc.want[line]; !ok {
					t.Errorf("unexpected skip at line %d: %s", line, reason)
				}
			}
		})
	}
}

// TestCoverage: a queue the capacity rules cannot check (no consumer
// linked, or no arrival rate declared) is named, once; a dead-letter queue
// and a fully declared queue are not.
func TestCoverage(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"main.tf": `resource "aws_sqs_queue" "dlq" {}

resource "aws_sqs_queue" "orders" {
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.dlq.arn, maxReceiveCount = 5 })
  tags           = { "queuecap:arrival_rate" = 100 }
}

resource "aws_sqs_queue" "unrated" {
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.dlq.arn, maxReceiveCount = 5 })
}

resource "aws_sqs_queue" "orphan" {}

resource "aws_ecs_service" "w" {
  desired_count = 10
  tags          = { "queuecap:queue" = "aws_sqs_queue.orders", "queuecap:per_consumer_rate" = 20 }
}

resource "aws_ecs_service" "u" {
  desired_count = 1
  tags          = { "queuecap:queue" = "aws_sqs_queue.unrated" }
}
`})
	res := lintDir(t, lint.Options{Dirs: []string{dir}})
	got := map[int]string{}
	for _, s := range res.Skipped {
		if s.Rule == "coverage" {
			got[s.Range.Start.Line] = s.Reason
		}
	}
	want := map[int]string{
		8:  "aws_sqs_queue.unrated has a consumer (aws_ecs_service.u) but no declared arrival_rate, so its capacity was not checked: it needs arrival_rate, per_consumer_rate (of aws_ecs_service.u), max_backlog and rto_seconds (for the recovery checks), declared in its .queuecap.hcl queue block (queuecap init writes it; queuecap rates measures the rates), as queuecap:* tags (arrival_rate also on an SNS topic feeding it), or by the queuecap data source that sizes its consumer",
		12: "no consumer of aws_sqs_queue.orphan is linked (an event source mapping, an EventBridge pipe, an IAM role allowed to receive and delete its messages, a queuecap:queue tag, a scaling policy on its metrics, or a consumer in its .queuecap.hcl queue block), so its capacity was not checked",
	}
	if len(got) != len(want) {
		t.Errorf("coverage skips %v, want %v", got, want)
	}
	for line, w := range want {
		if got[line] != w {
			t.Errorf("line %d: %q, want %q", line, got[line], w)
		}
	}
}

// TestCoverageNamesWhatIsMissing: the skip of a queue without an arrival
// rate names the rates the checks still need and no declared one:
// per_consumer_rate when no consumer declares one (one that does serves
// the others, as the rules read it), with the consumers, and max_backlog
// and rto_seconds when the queue does not declare them.
func TestCoverageNamesWhatIsMissing(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"main.tf": `resource "aws_sqs_queue" "q" {
  tags = { "queuecap:max_backlog" = 100000 }
}

resource "aws_ecs_service" "a" {
  desired_count = 2
  tags          = { "queuecap:queue" = "aws_sqs_queue.q" }
}

resource "aws_ecs_service" "b" {
  desired_count = 2
  tags          = { "queuecap:queue" = "aws_sqs_queue.q" }
}

resource "aws_sqs_queue" "rated" {
  tags = { "queuecap:rto_seconds" = 600 }
}

resource "aws_ecs_service" "c" {
  desired_count = 2
  tags          = { "queuecap:queue" = "aws_sqs_queue.rated", "queuecap:per_consumer_rate" = 20 }
}

resource "aws_ecs_service" "d" {
  desired_count = 2
  tags          = { "queuecap:queue" = "aws_sqs_queue.rated" }
}
`})
	res := lintDir(t, lint.Options{Dirs: []string{dir}})
	got := map[string]string{}
	for _, s := range res.Skipped {
		if s.Rule == "coverage" {
			_, needs, _ := strings.Cut(s.Reason, "it needs ")
			needs, _, _ = strings.Cut(needs, ", declared in")
			got[s.Address] = needs
		}
	}
	want := map[string]string{
		"aws_sqs_queue.q":     "arrival_rate, per_consumer_rate (of aws_ecs_service.a, aws_ecs_service.b), rto_seconds (for the recovery checks)",
		"aws_sqs_queue.rated": "arrival_rate, max_backlog (for the recovery checks)",
	}
	if !maps.Equal(got, want) {
		t.Errorf("coverage skips say it needs\n%q\nwant\n%q", got, want)
	}
}

// TestCoverageConsumedDeadLetterQueue: a dead-letter queue with a
// consumer of its own (nationalarchives' DLQ Slack alerts) is named when
// its rate is not declared, as any consumed queue is; one nothing consumes
// (idle_dlq) is not.
func TestCoverageConsumedDeadLetterQueue(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"main.tf": `resource "aws_sqs_queue" "forward" {
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.forward_dlq.arn, maxReceiveCount = 5 })
  tags           = { "queuecap:arrival_rate" = 100 }
}

resource "aws_sqs_queue" "forward_dlq" {}

resource "aws_sqs_queue" "idle_dlq" {}

resource "aws_sqs_queue" "other" {
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.idle_dlq.arn, maxReceiveCount = 5 })
  tags           = { "queuecap:arrival_rate" = 100 }
}

resource "aws_lambda_function" "alerts" {
  function_name = "dlq-alerts"
}

resource "aws_lambda_event_source_mapping" "alerts" {
  function_name    = aws_lambda_function.alerts.function_name
  event_source_arn = aws_sqs_queue.forward_dlq.arn
}
`})
	res := lintDir(t, lint.Options{Dirs: []string{dir}})
	var got []string
	for _, s := range res.Skipped {
		if s.Rule == "coverage" {
			got = append(got, fmt.Sprintf("%d: %s", s.Range.Start.Line, s.Reason))
		}
	}
	want := []string{
		"1: no consumer of aws_sqs_queue.forward is linked (an event source mapping, an EventBridge pipe, an IAM role allowed to receive and delete its messages, a queuecap:queue tag, a scaling policy on its metrics, or a consumer in its .queuecap.hcl queue block), so its capacity was not checked",
		"6: aws_sqs_queue.forward_dlq has a consumer (aws_lambda_function.alerts) but no declared arrival_rate, so its capacity was not checked: it needs arrival_rate, per_consumer_rate (of aws_lambda_function.alerts), max_backlog and rto_seconds (for the recovery checks), declared in its .queuecap.hcl queue block (queuecap rates measures the rates), as queuecap:* tags (arrival_rate also on an SNS topic feeding it), or by the queuecap data source that sizes its consumer",
		"10: no consumer of aws_sqs_queue.other is linked (an event source mapping, an EventBridge pipe, an IAM role allowed to receive and delete its messages, a queuecap:queue tag, a scaling policy on its metrics, or a consumer in its .queuecap.hcl queue block), so its capacity was not checked",
	}
	if !slices.Equal(got, want) {
		t.Errorf("coverage skips\n got %q\nwant %q", got, want)
	}
}

// TestCoverageAcrossRoots: under --recursive a module is also a root of
// its own, where nothing consumes its queue; the skip that stands for the
// place names the consumer its caller links, and says what to declare.
func TestCoverageAcrossRoots(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		// Long names, as real ones are: the consumer's reason is then the
		// longer one, and the shorter must not win.
		"main.tf": `module "customer_order_cancelled_queue" {
  source = "./modules/q"
}

resource "aws_ecs_service" "customer_service_order_cancelled_worker" {
  desired_count = 2
  tags          = { "queuecap:queue" = "module.customer_order_cancelled_queue.aws_sqs_queue.q", "queuecap:per_consumer_rate" = 20 }
}
`,
		"modules/q/main.tf": "resource \"aws_sqs_queue\" \"q\" {}\n",
	})
	res := lintDir(t, lint.Options{Dirs: []string{dir}, Recursive: true})
	var got []string
	for _, s := range res.Skipped {
		if s.Rule == "coverage" {
			got = append(got, s.Reason)
		}
	}
	if len(got) != 1 || !strings.HasPrefix(got[0], "module.customer_order_cancelled_queue.aws_sqs_queue.q has a consumer (aws_ecs_service.customer_service_order_cancelled_worker) but no declared arrival_rate") {
		t.Errorf("coverage skips %q, want the one naming the consumer", got)
	}
}

// TestSkipNamesAnUnsetModuleInput: a module input the call leaves out (a
// required variable Terraform would refuse to plan without) is named in
// the skip, not passed over as "not known before apply".
func TestSkipNamesAnUnsetModuleInput(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"main.tf": "module \"example\" {\n  source = \"./mod\"\n}\n",
		"mod/main.tf": `variable "queue_name" {}

resource "aws_cloudwatch_metric_alarm" "deep" {
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateNumberOfMessagesVisible"
  dimensions          = { QueueName = var.queue_name }
  threshold           = 100
  comparison_operator = "GreaterThanThreshold"
  evaluation_periods  = 1
  period              = 60
  statistic           = "Average"
}
`,
	})
	res := lintDir(t, lint.Options{Dirs: []string{dir}, Config: &lint.Config{}})
	want := "alarm module.example.aws_cloudwatch_metric_alarm.deep reads SQS metrics, but its queue comes from var.queue_name, which module.example does not set and which has no default, so it is not checked against the queue"
	var got []string
	for _, s := range res.Skipped {
		got = append(got, s.Reason)
	}
	if !slices.Contains(got, want) {
		t.Errorf("skips %q, want %q", got, want)
	}
}

// TestSkipAtOnePlaceListsItsInstances: the instances of a for_each module
// skipped alike at one place are one skip that names the first and lists
// them all, not one that passes over the others.
func TestSkipAtOnePlaceListsItsInstances(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"main.tf": "module \"q\" {\n  for_each = toset([\"a\", \"b\", \"c\"])\n  source   = \"./mod\"\n  name     = each.key\n}\n",
		"mod/main.tf": `variable "name" {}

resource "aws_sqs_queue" "q" {
  name = var.name
}

resource "aws_lambda_event_source_mapping" "m" {
  event_source_arn = aws_sqs_queue.q.arn
  function_name    = "worker"
}
`,
	})
	res := lintDir(t, lint.Options{Dirs: []string{dir}, Config: &lint.Config{}})
	var coverage []lint.Skip
	for _, s := range res.Skipped {
		if s.Rule == "coverage" {
			coverage = append(coverage, s)
		}
	}
	want := []string{`module.q["a"].aws_sqs_queue.q`, `module.q["b"].aws_sqs_queue.q`, `module.q["c"].aws_sqs_queue.q`}
	if len(coverage) != 1 || !strings.HasPrefix(coverage[0].Reason, `module.q["a"].aws_sqs_queue.q is read by module.q["a"].aws_lambda_event_source_mapping.m, whose function is not a Lambda function of the linted configuration`) ||
		strings.Contains(coverage[0].Reason, "other reason") || coverage[0].Address != want[0] || !slices.Equal(coverage[0].Instances, want) {
		t.Errorf("coverage skips %+v, want one for module.q[\"a\"] listing the three instances", coverage)
	}
}

// targetTracking is an ECS service scaled by target tracking on the depth
// of the queue named queueName; the queue aws_sqs_queue.orders is named
// "orders".
func targetTracking(queueName string) map[string]string {
	return map[string]string{"main.tf": `resource "aws_sqs_queue" "orders" {
  name = "orders"
}

resource "aws_ecs_service" "worker" {
  name    = "worker"
  cluster = "c"
}

resource "aws_appautoscaling_target" "t" {
  max_capacity       = 4
  min_capacity       = 1
  resource_id        = "service/c/${aws_ecs_service.worker.name}"
  scalable_dimension = "ecs:service:DesiredCount"
  service_namespace  = "ecs"
}

resource "aws_appautoscaling_policy" "tt" {
  name               = "tt"
  policy_type        = "TargetTrackingScaling"
  resource_id        = aws_appautoscaling_target.t.resource_id
  scalable_dimension = aws_appautoscaling_target.t.scalable_dimension
  service_namespace  = aws_appautoscaling_target.t.service_namespace
  target_tracking_scaling_policy_configuration {
    target_value = 30
    customized_metric_specification {
      metric_name = "ApproximateNumberOfMessagesVisible"
      namespace   = "AWS/SQS"
      statistic   = "Average"
      dimensions {
        name  = "QueueName"
        value = ` + queueName + `
      }
    }
  }
}

variable "queue_name" {
  type = string
}
`}
}

// TestTargetTrackingQueueNotLinked: a target tracking policy on an SQS
// metric whose queue is not linked, scaling a fleet that consumes no
// queue, says why, as an alarm does (sweantu/crypto-cloud's consumers
// module); one whose queue is linked says nothing.
func TestTargetTrackingQueueNotLinked(t *testing.T) {
	runLinkCases(t, []linkCase{
		{
			name:  "queue from a variable without a value",
			files: targetTracking("var.queue_name"),
			skips: []linkSkip{{32, "scaling policy aws_appautoscaling_policy.tt tracks SQS metrics, but its queue comes from var.queue_name, which has no value here " +
				"(set it with --var, a tfvars file or TF_VAR_queue_name), so aws_ecs_service.worker is linked to no queue through it"}},
		},
		{
			name:  "a queue name no queue has",
			files: targetTracking(`"payments"`),
			skips: []linkSkip{{32, `scaling policy aws_appautoscaling_policy.tt tracks SQS metrics, but its queue is "payments", which matches no aws_sqs_queue in the linted configuration (is it defined elsewhere?), ` +
				"so aws_ecs_service.worker is linked to no queue through it"}},
		},
		{
			name:  "linked",
			files: targetTracking("aws_sqs_queue.orders.name"),
			links: []string{"aws_sqs_queue.orders <- aws_ecs_service.worker"},
		},
	})
}

// TestOtherServicesScalingIsNotListed: Application Auto Scaling of a
// DynamoDB table scales no queue consumer: neither its policy's fleet nor
// its unknown count is listed as not checked (wellcometrust's
// autoscaling/dynamodb); the same for an ECS service is.
func TestOtherServicesScalingIsNotListed(t *testing.T) {
	scaling := func(namespace, resourceID, dimension string) string {
		return `variable "enabled" {
  type = bool
}

resource "aws_appautoscaling_target" "t" {
  count              = var.enabled ? 1 : 0
  max_capacity       = 10
  min_capacity       = 1
  resource_id        = "` + resourceID + `"
  scalable_dimension = "` + dimension + `"
  service_namespace  = "` + namespace + `"
}

resource "aws_appautoscaling_policy" "p" {
  count              = var.enabled ? 1 : 0
  name               = "p"
  policy_type        = "TargetTrackingScaling"
  resource_id        = aws_appautoscaling_target.t[0].resource_id
  scalable_dimension = aws_appautoscaling_target.t[0].scalable_dimension
  service_namespace  = aws_appautoscaling_target.t[0].service_namespace
  target_tracking_scaling_policy_configuration {
    target_value = 70
    predefined_metric_specification {
      predefined_metric_type = "DynamoDBReadCapacityUtilization"
    }
  }
}
`
	}
	skipsOf := func(src string) []string {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"main.tf": src})
		var out []string
		for _, s := range lintDir(t, lint.Options{Dirs: []string{dir}}).Skipped {
			out = append(out, fmt.Sprintf("%d %s", s.Range.Start.Line, s.Rule))
		}
		return out
	}
	if got := skipsOf(scaling("dynamodb", "table/orders", "dynamodb:table:ReadCapacityUnits")); len(got) > 0 {
		t.Errorf("DynamoDB scaling: skips %q, want none", got)
	}
	if got := skipsOf(scaling("ecs", "service/main/worker", "ecs:service:DesiredCount")); len(got) == 0 {
		t.Errorf("ECS scaling with an unknown count and no service: no skips, want its count and its target listed")
	}
}

// TestStreamMappingIsNoQueueConsumer: an event source mapping with a
// starting_position reads a stream, never a queue (AWS refuses one on an
// SQS mapping): its unknown source is not listed as a queue's
// (wellcometrust's DynamoDB trigger), while an SQS-looking one is.
func TestStreamMappingIsNoQueueConsumer(t *testing.T) {
	mapping := func(extra string) map[string]string {
		return map[string]string{"main.tf": `variable "source_arn" {
  type = string
}

resource "aws_lambda_function" "f" {
  function_name = "f"
}

resource "aws_lambda_event_source_mapping" "m" {
  event_source_arn = var.source_arn
  function_name    = aws_lambda_function.f.arn` + extra + `
}
`}
	}
	runLinkCases(t, []linkCase{
		{name: "stream", files: mapping("\n  starting_position = \"LATEST\"")},
		{name: "queue", files: mapping(""), skips: []linkSkip{{10, "event source mapping aws_lambda_event_source_mapping.m: its queue (event_source_arn) comes from var.source_arn, " +
			"which has no value here (set it with --var, a tfvars file or TF_VAR_source_arn), so the queue's consumer is not checked"}}},
	})
}

// TestLambdaFailureDestinationIsNotListed: the queue a Lambda function
// sends its failed events to (dead_letter_config), or an event source
// mapping the records it failed on (destination_config on_failure), is
// drained by a replay, as a dead-letter queue is: no coverage skip says it
// has no consumer.
func TestLambdaFailureDestinationIsNotListed(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"main.tf": `resource "aws_sqs_queue" "failed" {
  name = "failed-events"
}

resource "aws_sqs_queue" "orphan" {
  name = "orphan"
}

resource "aws_lambda_function" "f" {
  function_name = "f"
  dead_letter_config {
    target_arn = aws_sqs_queue.failed.arn
  }
}

resource "aws_sqs_queue" "stream_failures" {
  name = "stream-failures"
}

resource "aws_lambda_event_source_mapping" "stream" {
  event_source_arn  = "arn:aws:dynamodb:eu-west-1:123456789012:table/t/stream/2026-01-01T00:00:00.000"
  function_name     = aws_lambda_function.f.arn
  starting_position = "LATEST"
  destination_config {
    on_failure {
      destination_arn = aws_sqs_queue.stream_failures.arn
    }
  }
}
`})
	var got []string
	for _, s := range lintDir(t, lint.Options{Dirs: []string{dir}}).Skipped {
		if s.Rule == "coverage" {
			got = append(got, fmt.Sprintf("%d", s.Range.Start.Line))
		}
	}
	if want := []string{"5"}; !slices.Equal(got, want) {
		t.Errorf("coverage skips on lines %q, want %q (the orphan only)", got, want)
	}
}

// TestOtherReasonsCounted: a skip standing for instances that give other
// reasons counts the reasons, and lists the instances: three queues under
// for_each, two consumed by one function and one by another, are one skip
// naming all three and "1 other reason" (it said "1 more like it").
func TestOtherReasonsCounted(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"main.tf": `locals {
  owner = { a = "x", b = "x", c = "y" }
}

resource "aws_sqs_queue" "q" {
  for_each = local.owner
  name     = each.key
}

resource "aws_lambda_function" "f" {
  for_each      = toset(["x", "y"])
  function_name = each.key
  role          = "arn:aws:iam::1:role/r"
}

resource "aws_lambda_event_source_mapping" "m" {
  for_each         = local.owner
  event_source_arn = aws_sqs_queue.q[each.key].arn
  function_name    = aws_lambda_function.f[each.value].arn
}
`})
	res := lintDir(t, lint.Options{Dirs: []string{dir}, Config: &lint.Config{}})
	var coverage []lint.Skip
	for _, s := range res.Skipped {
		if s.Rule == "coverage" {
			coverage = append(coverage, s)
		}
	}
	if len(coverage) != 1 || len(coverage[0].Instances) != 3 || !strings.HasSuffix(coverage[0].Reason, "(and 1 other reason at this place, for other instances)") {
		t.Errorf("coverage skips %+v, want one listing three instances and 1 other reason", coverage)
	}
}

// TestOtherReasonsCountedPerConsumer: instances whose reasons differ only
// by the instance each names are one other reason: q["b"] and q["c"],
// read by one consumer, beside q["a"] read by another.
func TestOtherReasonsCountedPerConsumer(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"main.tf": `resource "aws_sqs_queue" "q" {
  for_each = toset(["a", "b", "c"])
  name     = each.key
}

resource "aws_lambda_function" "f1" {
  function_name = "f1"
}

resource "aws_lambda_function" "f2" {
  function_name = "f2"
}

resource "aws_lambda_event_source_mapping" "m1" {
  event_source_arn = aws_sqs_queue.q["a"].arn
  function_name    = aws_lambda_function.f1.arn
}

resource "aws_lambda_event_source_mapping" "m2" {
  for_each         = toset(["b", "c"])
  event_source_arn = aws_sqs_queue.q[each.key].arn
  function_name    = aws_lambda_function.f2.arn
}
`})
	res := lintDir(t, lint.Options{Dirs: []string{dir}, Config: &lint.Config{}})
	var coverage []lint.Skip
	for _, s := range res.Skipped {
		if s.Rule == "coverage" {
			coverage = append(coverage, s)
		}
	}
	if len(coverage) != 1 || len(coverage[0].Instances) != 3 || !strings.HasSuffix(coverage[0].Reason, "(and 1 other reason at this place, for other instances)") {
		t.Errorf("coverage skips %+v, want one listing three instances and 1 other reason", coverage)
	}
}

// TestModuleWithoutInstancesIsNoSkip: a module call that makes no instance
// (count = 0, for_each = {}) declares nothing, so its source not being
// installed is no skip; with an instance it is one.
func TestModuleWithoutInstancesIsNoSkip(t *testing.T) {
	for _, c := range []struct {
		meta  string
		skips int
	}{{"count = 0", 0}, {"for_each = {}", 0}, {"count = 1", 1}} {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{"main.tf": `module "q" {
  ` + c.meta + `
  source = "github.com/example/terraform-aws-sqs//queue?ref=v1"
}
`})
		res := lintDir(t, lint.Options{Dirs: []string{dir}, Config: &lint.Config{}})
		n := 0
		for _, s := range res.Skipped {
			if s.Rule == "module" {
				n++
			}
		}
		if n != c.skips {
			t.Errorf("%s: %d module skips %+v, want %d", c.meta, n, res.Skipped, c.skips)
		}
	}
}

// TestScalingTargetThroughTry: a scaling target whose resource_id names
// its service through try(), beside a part naming another resource (the
// cluster), sizes the service, as terraform-aws-modules/ecs's service
// module writes it. try() dropped the service's origin.
func TestScalingTargetThroughTry(t *testing.T) {
	service := func(name string) map[string]string {
		return map[string]string{"main.tf": `variable "create" {
  type    = bool
  default = true
}

resource "aws_sqs_queue" "jobs" {
  name = "jobs"
}

resource "aws_ecs_cluster" "main" {
  name = "main"
}

resource "aws_ecs_service" "this" {
  count         = var.create ? 1 : 0
  name          = "worker"
  cluster       = aws_ecs_cluster.main.id
  desired_count = 1
  tags          = { "queuecap:queue" = "aws_sqs_queue.jobs" }
}

resource "aws_ecs_service" "ignore_task_definition" {
  count         = var.create ? 0 : 1
  name          = "worker"
  cluster       = aws_ecs_cluster.main.id
  desired_count = 1
  tags          = { "queuecap:queue" = "aws_sqs_queue.jobs" }
}

resource "aws_appautoscaling_target" "this" {
  count              = var.create ? 1 : 0
  max_capacity       = 10
  min_capacity       = 1
  resource_id        = "service/${aws_ecs_cluster.main.name}/${` + name + `}"
  scalable_dimension = "ecs:service:DesiredCount"
  service_namespace  = "ecs"
}
`}
	}
	runLinkCases(t, []linkCase{
		{name: "try with a default", files: service(`try(aws_ecs_service.this[0].name, "")`), links: []string{"aws_sqs_queue.jobs <- aws_ecs_service.this[0]"}},
		{
			name:  "try over the two services",
			files: service(`try(aws_ecs_service.this[0].name, aws_ecs_service.ignore_task_definition[0].name)`),
			links: []string{"aws_sqs_queue.jobs <- aws_ecs_service.this[0]"},
		},
	})
}

// TestSkipExplainsEachValue: a value a for_each instance reads from
// each.value is explained by what the for_each comes from, as
// terraform-aws-modules/lambda's alias module reads a mapping's queue with
// try(each.value.event_source_arn, null) from a map holding the output of
// a module that is not installed; and so is each.value in the arguments
// of a module call with for_each. The skip said the queue "is not known
// before apply and names no aws_sqs_queue of this configuration".
func TestSkipExplainsEachValue(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"main.tf": `module "sqs_events" {
  source = "terraform-aws-modules/sqs/aws"
}

module "alias" {
  source = "./alias"
  event_source_mapping = {
    sqs = { event_source_arn = module.sqs_events.queue_arn }
  }
}

module "each" {
  for_each = { sqs = module.sqs_events.queue_arn }
  source   = "./each"
  arn      = each.value
}
`,
		"alias/main.tf": `variable "create" {
  type    = bool
  default = true
}

variable "event_source_mapping" {
  type    = any
  default = {}
}

resource "aws_lambda_event_source_mapping" "this" {
  for_each         = { for k, v in var.event_source_mapping : k => v if var.create }
  function_name    = "fn"
  event_source_arn = try(each.value.event_source_arn, null)
}
`,
		"each/main.tf": `variable "arn" {}

resource "aws_lambda_event_source_mapping" "this" {
  function_name    = "fn"
  event_source_arn = var.arn
}
`,
	})
	res := lintDir(t, lint.Options{Dirs: []string{dir}, Config: &lint.Config{}})
	var got []string
	for _, s := range res.Skipped {
		if s.Rule == "link" {
			got = append(got, s.Reason)
		}
	}
	why := "comes from module.sqs_events, which is not installed: run terraform init, or lint a plan, so the queue's consumer is not checked"
	want := []string{
		`event source mapping module.alias.aws_lambda_event_source_mapping.this["sqs"]: its queue (event_source_arn) ` + why,
		`event source mapping module.each["sqs"].aws_lambda_event_source_mapping.this: its queue (event_source_arn) ` + why,
	}
	if !slices.Equal(got, want) {
		t.Errorf("link skips:\n got %q\nwant %q", got, want)
	}
}

// TestCoverageNamesARoleOfCompute: a queue whose only consumer is an IAM
// role that no Lambda function, ECS service or auto scaling group runs
// with (Karpenter's controller, an EKS pod through pod identity, in
// terraform-aws-modules/eks) has a consumer the linter cannot size: the
// skip names the role, where it said no consumer was linked.
func TestCoverageNamesARoleOfCompute(t *testing.T) {
	const karpenter = `resource "aws_sqs_queue" "interruptions" {
  name = "karpenter"
}

resource "aws_sqs_queue" "orphan" {
  name = "orphan"
}

resource "aws_iam_role" "controller" {
  name               = "karpenter"
  assume_role_policy = jsonencode({ Statement = [{ Effect = "Allow", Action = ["sts:AssumeRole", "sts:TagSession"], Principal = { Service = "pods.eks.amazonaws.com" } }] })
}

data "aws_iam_policy_document" "controller" {
  statement {
    actions   = ["sqs:DeleteMessage", "sqs:GetQueueUrl", "sqs:ReceiveMessage"]
    resources = [try(aws_sqs_queue.interruptions.arn, null)]
  }
  statement {
    actions   = ["sqs:ReceiveMessage"]
    resources = [aws_sqs_queue.orphan.arn]
  }
}

resource "aws_iam_role_policy" "controller" {
  role   = aws_iam_role.controller.name
  policy = data.aws_iam_policy_document.controller.json
}

resource "aws_eks_pod_identity_association" "karpenter" {
  cluster_name    = "main"
  namespace       = "kube-system"
  service_account = "karpenter"
  role_arn        = aws_iam_role.controller.arn
}
`
	const function = `
resource "aws_iam_role" "fn" {
  name = "fn"
}

resource "aws_lambda_function" "fn" {
  function_name = "fn"
  role          = aws_iam_role.fn.arn
}
`
	interruptions := "aws_sqs_queue.interruptions may be consumed through IAM role aws_iam_role.controller, which may receive and delete its messages, " +
		"but no Lambda function, ECS service or auto scaling group of the linted configuration runs with it (the compute the linter sizes; " +
		"an EKS pod's or a lone EC2 instance's is not), so that consumer could not be sized and the queue's capacity was not checked"
	orphan := "no consumer of aws_sqs_queue.orphan is linked (an event source mapping, an EventBridge pipe, an IAM role allowed to receive and delete its messages, " +
		"a queuecap:queue tag, a scaling policy on its metrics, or a consumer in its .queuecap.hcl queue block), so its capacity was not checked"
	for name, files := range map[string]map[string]string{
		"no fleet":                {"main.tf": karpenter},
		"a fleet of another role": {"main.tf": karpenter + function},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, files)
			res := lintDir(t, lint.Options{Dirs: []string{dir}, Config: &lint.Config{}})
			got := map[int]string{}
			for _, s := range res.Skipped {
				if s.Rule == "coverage" {
					got[s.Range.Start.Line] = s.Reason
				}
			}
			if want := map[int]string{1: interruptions, 5: orphan}; !maps.Equal(got, want) {
				t.Errorf("coverage skips:\n got %v\nwant %v", got, want)
			}
		})
	}
}

// TestUnlinkedSkipSaysItsCount: an alarm, a scaling target or a policy
// that is not checked at all, because what it names is not linked, and
// whose count is not known either, is one skip, at what is not linked,
// saying both; the count's own skip said it was "checked once, as if each
// instance were unknown", which it was not (cds-snc/notification-terraform,
// cloudposse/terraform-aws-ecs-cloudwatch-autoscaling). One whose queue
// is linked keeps its count skip: it is checked once.
func TestUnlinkedSkipSaysItsCount(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"main.tf": `variable "enabled" {}
variable "prefix" {}
variable "cluster" {}

resource "aws_sqs_queue" "tasks" {
  name = "tasks"
}

resource "aws_cloudwatch_metric_alarm" "delay" {
  count               = var.enabled ? 1 : 0
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateAgeOfOldestMessage"
  comparison_operator = "GreaterThanOrEqualToThreshold"
  threshold           = 20
  dimensions = {
    QueueName = "${var.prefix}priority"
  }
}

resource "aws_cloudwatch_metric_alarm" "stuck" {
  count               = var.enabled ? 1 : 0
  namespace           = "AWS/SQS"
  metric_name         = "ApproximateAgeOfOldestMessage"
  comparison_operator = "GreaterThanOrEqualToThreshold"
  threshold           = 300
  dimensions = {
    QueueName = aws_sqs_queue.tasks.name
  }
}

resource "aws_appautoscaling_target" "t" {
  count              = var.enabled ? 1 : 0
  service_namespace  = "ecs"
  scalable_dimension = "ecs:service:DesiredCount"
  resource_id        = "service/${var.cluster}/workers"
  max_capacity       = 10
}
`})
	res := lintDir(t, lint.Options{Dirs: []string{dir}, Config: &lint.Config{}})
	got := map[int]string{}
	for _, s := range res.Skipped {
		if s.Rule == "link" {
			got[s.Range.Start.Line] = s.Reason
		}
	}
	count := "; nor are its instances told apart: its count comes from var.enabled, which has no value here (set it with --var, a tfvars file or TF_VAR_enabled)"
	want := map[int]string{
		15: "alarm aws_cloudwatch_metric_alarm.delay reads SQS metrics, but its queue comes from var.prefix, which has no value here (set it with --var, a tfvars file or TF_VAR_prefix), " +
			"so it is not checked against the queue" + count,
		21: "the count of aws_cloudwatch_metric_alarm.stuck comes from var.enabled, which has no value here (set it with --var, a tfvars file or TF_VAR_enabled), " +
			"so its instances are not told apart: it is checked once, as if each instance were unknown",
		35: "scaling target aws_appautoscaling_target.t: its resource_id comes from var.cluster, which has no value here (set it with --var, a tfvars file or TF_VAR_cluster), " +
			"so its max_capacity sizes no fleet here" + count,
	}
	if !maps.Equal(got, want) {
		t.Errorf("link skips:\n got %v\nwant %v", got, want)
	}
}

// TestMappingOfAnARNBuiltFromAnotherProvider: an event source mapping
// whose ARN is built in a template from another provider's resource
// (random_pet) is an SQS mapping by the ARN's known start, and says it
// could not be linked, where it was left out as another service's.
func TestMappingOfAnARNBuiltFromAnotherProvider(t *testing.T) {
	runLinkCases(t, []linkCase{{name: "random_pet", files: map[string]string{"main.tf": `resource "random_pet" "p" {}

resource "aws_lambda_function" "f" {
  function_name = "f"
}

resource "aws_lambda_event_source_mapping" "m" {
  event_source_arn = "arn:aws:sqs:eu-west-1:123456789012:${random_pet.p.id}"
  function_name    = aws_lambda_function.f.arn
}
`}, skips: []linkSkip{{8, "event source mapping aws_lambda_event_source_mapping.m: its queue (event_source_arn) is not known before apply and names no aws_sqs_queue of this configuration, so the queue's consumer is not checked"}}}})
}
