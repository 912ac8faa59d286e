// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
)

// explain runs an explaining lint over files, with their .queuecap.hcl.
func explain(t *testing.T, files map[string]string) (*lint.Result, string) {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, files)
	cfg := &lint.Config{}
	if _, ok := files[".queuecap.hcl"]; ok {
		var diags error
		if cfg, diags = loadConfig(filepath.Join(dir, ".queuecap.hcl")); diags != nil {
			t.Fatal(diags)
		}
	}
	res := lintDir(t, lint.Options{Dirs: []string{dir}, Config: cfg, Explain: true})
	if res.Explanation == nil {
		t.Fatal("no explanation")
	}
	return res, dir
}

func loadConfig(path string) (*lint.Config, error) {
	cfg, diags := lint.LoadConfig(path, true, nil)
	if diags.HasErrors() {
		return nil, diags
	}
	return cfg, nil
}

// rateLine is a rate as "name=value source from", "?" for unknown.
func rateLine(r lint.RateExplanation) string {
	v := "?"
	if r.Value != nil {
		v = fmt.Sprint(*r.Value)
	}
	return strings.TrimSpace(fmt.Sprintf("%s=%s %s %s", r.Name, v, r.Source, r.From))
}

func rateLines(rates []lint.RateExplanation) []string {
	var out []string
	for _, r := range rates {
		out = append(out, rateLine(r))
	}
	return out
}

const explainQueue = `resource "aws_sqs_queue" "orders" {
  name = "orders"
  tags = { %s }
}
`

// Each rate says which place of the precedence won it and which
// declaration it is; the defaults the rules take follow the declared ones.
func TestExplainRateSources(t *testing.T) {
	asg := func(tags string) string {
		return `resource "aws_autoscaling_group" "w" {
  max_size = 4
` + tags + `  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
}
`
	}
	muTag := "  tag {\n    key                 = \"queuecap:per_consumer_rate\"\n    value               = 7\n    propagate_at_launch = false\n  }\n"
	defaults := []string{"retry_rate=0 default", "avg_retries=0 default", "min_headroom=0 default", "timeout_window_seconds=30 default"}
	cases := []struct {
		name     string
		files    map[string]string
		queue    []string // the queue's rates
		consumer string   // the consumer's per_consumer_rate, "" for none
	}{
		{
			name:  "nothing declared, no defaults shown",
			files: map[string]string{"main.tf": fmt.Sprintf(explainQueue, "") + asg("")},
		},
		{
			name: "a tag wins over the config file, which fills the rest",
			files: map[string]string{
				"main.tf":       fmt.Sprintf(explainQueue, `"queuecap:arrival_rate" = 100`) + asg(muTag),
				".queuecap.hcl": "queue \"aws_sqs_queue.orders\" {\n  arrival_rate = 5\n  sla_seconds = 30\n}\n",
			},
			queue: append([]string{"arrival_rate=100 tags tag queuecap:arrival_rate", "per_consumer_rate=7 consumers tag queuecap:per_consumer_rate",
				"sla_seconds=30 config " + "CONFIG queue block"}, defaults...),
			consumer: "per_consumer_rate=7 tags tag queuecap:per_consumer_rate",
		},
		{
			name:     "the queue's per_consumer_rate serves a consumer that declares none",
			files:    map[string]string{"main.tf": fmt.Sprintf(explainQueue, `"queuecap:per_consumer_rate" = 3`) + asg("")},
			queue:    append([]string{"per_consumer_rate=3 tags tag queuecap:per_consumer_rate"}, defaults...),
			consumer: "per_consumer_rate=3 queue tag queuecap:per_consumer_rate",
		},
		{
			name: "a data source the size is computed from",
			files: map[string]string{"main.tf": fmt.Sprintf(explainQueue, "") + `
data "queuecap_consumers" "size" {
  arrival_rate      = 100
  per_consumer_rate = 10
}

resource "aws_autoscaling_group" "w" {
  max_size = data.queuecap_consumers.size.required_consumers
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
}
`},
			queue: append([]string{"arrival_rate=100 consumers data.queuecap_consumers.size",
				"per_consumer_rate=10 consumers data.queuecap_consumers.size"}, defaults...),
			consumer: "per_consumer_rate=10 data_source data.queuecap_consumers.size",
		},
		{
			name: "an ECS service's scaling target tags",
			files: map[string]string{"main.tf": fmt.Sprintf(explainQueue, `"queuecap:arrival_rate" = 1`) + `
resource "aws_ecs_service" "svc" {
  name = "svc"
  tags = { "queuecap:queue" = "aws_sqs_queue.orders" }
}

resource "aws_appautoscaling_target" "svc" {
  service_namespace  = "ecs"
  resource_id        = "service/c/${aws_ecs_service.svc.name}"
  scalable_dimension = "ecs:service:DesiredCount"
  max_capacity       = 6
  tags               = { "queuecap:per_consumer_rate" = 2 }
}
`},
			queue:    append([]string{"arrival_rate=1 tags tag queuecap:arrival_rate", "per_consumer_rate=2 consumers tag queuecap:per_consumer_rate"}, defaults...),
			consumer: "per_consumer_rate=2 target_tags tag queuecap:per_consumer_rate",
		},
		{
			name: "message_groups from a tag, message_size_bytes from the config file",
			files: map[string]string{
				"main.tf":       fmt.Sprintf(explainQueue, `"queuecap:message_groups" = 8`) + asg(muTag),
				".queuecap.hcl": "queue \"aws_sqs_queue.orders\" {\n  message_size_bytes = 2048\n}\n",
			},
			queue: append([]string{"per_consumer_rate=7 consumers tag queuecap:per_consumer_rate", "message_groups=8 tags tag queuecap:message_groups",
				"message_size_bytes=2048 config CONFIG queue block"}, defaults...),
			consumer: "per_consumer_rate=7 tags tag queuecap:per_consumer_rate",
		},
		{
			name:     "a value not known before apply",
			files:    map[string]string{"main.tf": "variable \"rate\" {}\n" + fmt.Sprintf(explainQueue, `"queuecap:arrival_rate" = var.rate`) + asg("")},
			queue:    append([]string{"arrival_rate=? tags tag queuecap:arrival_rate"}, defaults...),
			consumer: "",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, dir := explain(t, c.files)
			roots := res.Explanation.Roots
			if len(roots) != 1 || len(roots[0].Queues) != 1 {
				t.Fatalf("want one root with one queue: %+v", roots)
			}
			q := roots[0].Queues[0]
			want := slices.Clone(c.queue)
			for i := range want {
				want[i] = strings.ReplaceAll(want[i], "CONFIG", filepath.Join(dir, ".queuecap.hcl"))
			}
			if got := rateLines(q.Rates); !slices.Equal(got, want) {
				t.Errorf("queue rates\n got %q\nwant %q", got, want)
			}
			if len(q.Consumers) != 1 {
				t.Fatalf("consumers %+v, want one", q.Consumers)
			}
			got := ""
			if mu := q.Consumers[0].PerConsumerRate; mu != nil {
				got = rateLine(*mu)
			}
			if got != c.consumer {
				t.Errorf("consumer's per_consumer_rate %q, want %q", got, c.consumer)
			}
			if len(res.Issues) != 0 {
				t.Errorf("explaining ran rules: %v", res.Issues)
			}
		})
	}
}

// The dead-letter queue is found through an inline redrive_policy and
// through aws_sqs_queue_redrive_policy; the maximum size is known,
// unknown or unset; what is tied to no queue is listed.
func TestExplainLinks(t *testing.T) {
	res, _ := explain(t, map[string]string{"main.tf": `
variable "size" {}

resource "aws_sqs_queue" "inline_dlq" {}
resource "aws_sqs_queue" "inline" {
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.inline_dlq.arn, maxReceiveCount = 3 })
}

resource "aws_sqs_queue" "separate_dlq" {}
resource "aws_sqs_queue" "separate" {
  name = "separate"
}
resource "aws_sqs_queue_redrive_policy" "separate" {
  queue_url      = aws_sqs_queue.separate.url
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.separate_dlq.arn, maxReceiveCount = 3 })
}

variable "dlq_arn" {}
resource "aws_sqs_queue" "unknown" {
  redrive_policy = jsonencode({ deadLetterTargetArn = var.dlq_arn, maxReceiveCount = 3 })
}

resource "aws_autoscaling_group" "unknown_size" {
  max_size = var.size
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.separate"
    propagate_at_launch = false
  }
}

resource "aws_lambda_function" "unset_size" {
  function_name = "f"
}
resource "aws_lambda_event_source_mapping" "m" {
  event_source_arn = aws_sqs_queue.inline.arn
  function_name    = aws_lambda_function.unset_size.arn
}

resource "aws_autoscaling_group" "idle" {
  max_size = 1
}
resource "aws_autoscaling_policy" "cpu" {
  autoscaling_group_name = aws_autoscaling_group.idle.name
  policy_type            = "TargetTrackingScaling"
  target_tracking_configuration {
    predefined_metric_specification {
      predefined_metric_type = "ASGAverageCPUUtilization"
    }
    target_value = 50
  }
}
resource "aws_cloudwatch_metric_alarm" "cpu" {
  namespace   = "AWS/EC2"
  metric_name = "CPUUtilization"
}
`})
	root := res.Explanation.Roots[0]
	type queue struct {
		redrive, dlq string
		isDLQ        bool
		consumers    string
	}
	want := map[string]queue{
		"aws_sqs_queue.inline_dlq":   {redrive: "none", isDLQ: true},
		"aws_sqs_queue.inline":       {redrive: "set", dlq: "aws_sqs_queue.inline_dlq", consumers: "aws_lambda_function.unset_size lambda_sqs_standard_max_concurrency set=true value=1250"},
		"aws_sqs_queue.separate_dlq": {redrive: "none", isDLQ: true},
		"aws_sqs_queue.separate":     {redrive: "set", dlq: "aws_sqs_queue.separate_dlq", consumers: "aws_autoscaling_group.unknown_size max_size set=true value=<nil>"},
		"aws_sqs_queue.unknown":      {redrive: "set"},
	}
	if len(root.Queues) != len(want) {
		t.Fatalf("%d queues, want %d", len(root.Queues), len(want))
	}
	for _, q := range root.Queues {
		var consumers []string
		for _, c := range q.Consumers {
			value := "<nil>"
			if v := c.MaxSize.Value; v != nil {
				value = fmt.Sprint(*v)
			}
			consumers = append(consumers, fmt.Sprintf("%s %s set=%t value=%s", c.Address, c.MaxSize.Attribute, c.MaxSize.Set, value))
		}
		got := queue{redrive: q.Redrive, dlq: q.DeadLetterQueue, isDLQ: q.IsDeadLetter, consumers: strings.Join(consumers, "; ")}
		if got != want[q.Address] {
			t.Errorf("%s: %+v, want %+v", q.Address, got, want[q.Address])
		}
	}
	var unattached []string
	for _, u := range root.Unattached {
		unattached = append(unattached, u.Address)
	}
	if w := []string{"aws_autoscaling_group.idle", "aws_autoscaling_policy.cpu", "aws_cloudwatch_metric_alarm.cpu"}; !slices.Equal(unattached, w) {
		t.Errorf("unattached %v, want %v", unattached, w)
	}
}

// Each root of a --recursive run is explained with its own skips; a
// .queuecap.hcl block that matches no root belongs to none.
func TestExplainRootsAndSkips(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a/main.tf": "resource \"aws_sqs_queue\" \"a\" {}\nmodule \"remote\" {\n  source = \"terraform-aws-modules/sqs/aws\"\n}\n",
		"b/main.tf": "resource \"aws_sqs_queue\" \"b\" {}\n" +
			"resource \"aws_lambda_event_source_mapping\" \"m\" {\n  event_source_arn = aws_sqs_queue.b.arn\n  function_name = \"gone\"\n}\n",
		"c/main.tf": "variable \"x\" {}\n",
	})
	cfg := &lint.Config{Queues: map[string]lint.QueueConfig{"aws_sqs_queue.z": {}}}
	res := lintDir(t, lint.Options{Dirs: []string{dir}, Recursive: true, Config: cfg, Explain: true})
	var got []string
	for _, root := range res.Explanation.Roots {
		line := filepath.Base(root.Dir) + ":"
		for _, q := range root.Queues {
			line += " " + q.Address
		}
		for _, s := range root.Skipped {
			line += fmt.Sprintf(" [%s line %d]", s.Rule, s.Range.Start.Line)
		}
		got = append(got, line)
	}
	want := []string{"a: aws_sqs_queue.a [coverage line 1] [module line 2]", "b: aws_sqs_queue.b [coverage line 1] [link line 4]", "c:"}
	if !slices.Equal(got, want) {
		t.Errorf("roots\n got %q\nwant %q", got, want)
	}
	if s := res.Explanation.Skipped; len(s) != 1 || s[0].Rule != "config" {
		t.Errorf("run's skips %+v, want the one config block", s)
	}
}

// TestExplainNames: the names the metrics know a queue and its consumers
// by, or why they are not known; an ECS service's cluster named by an
// aws_ecs_cluster's id or ARN, in a module too, by that cluster's name.
func TestExplainNames(t *testing.T) {
	service := func(name, cluster string) string {
		return `resource "aws_ecs_service" "` + name + `" {
  name          = "` + name + `"
  desired_count = 2
  cluster       = ` + cluster + `
  tags          = { "queuecap:queue" = "aws_sqs_queue.q" }
}
`
	}
	res, _ := explain(t, map[string]string{
		"main.tf": `variable "env" {}
resource "aws_sqs_queue" "q" {
  name = "q-${var.env}"
}
resource "aws_ecs_cluster" "main" {
  name = "prod"
}
module "cluster" {
  source = "./cluster"
}
` + service("by_id", "aws_ecs_cluster.main.id") + service("by_arn", "aws_ecs_cluster.main.arn") + service("by_module", "module.cluster.id") +
			service("by_name", `"blue"`) + service("by_literal_arn", `"arn:aws:ecs:eu-west-1:123456789012:cluster/green"`) +
			service("by_var", "var.env") + `resource "aws_ecs_service" "default" {
  name          = "default"
  desired_count = 2
  tags          = { "queuecap:queue" = "aws_sqs_queue.q" }
}
`,
		"cluster/main.tf": "resource \"aws_ecs_cluster\" \"this\" {\n  name = \"staging\"\n}\noutput \"id\" {\n  value = aws_ecs_cluster.this.id\n}\n",
	})
	q := res.Explanation.Roots[0].Queues[0]
	if q.Name != "" || q.NameWhy != "name comes from var.env, which has no value here (set it with --var, a tfvars file or TF_VAR_env)" {
		t.Errorf("queue name %q, why %q", q.Name, q.NameWhy)
	}
	want := map[string]string{"by_id": "prod", "by_arn": "prod", "by_module": "staging", "by_name": "blue", "by_literal_arn": "green",
		"by_var": "", "default": "default"}
	for _, c := range q.Consumers {
		name := strings.TrimPrefix(c.Address, "aws_ecs_service.")
		if c.Cluster != want[name] || (c.Cluster == "") != (c.ClusterWhy != "") || c.Name != name {
			t.Errorf("%s: cluster %q (why %q), name %q; want cluster %q", c.Address, c.Cluster, c.ClusterWhy, c.Name, want[name])
		}
	}
	if len(q.Consumers) != len(want) {
		t.Errorf("%d consumers, want %d", len(q.Consumers), len(want))
	}
}

// TestExplainLambdaCeiling: a Lambda consumer's size is the cap that binds,
// with how it is made; a function with two mappings takes the larger
// ceiling, a bound for each of its queues.
func TestExplainLambdaCeiling(t *testing.T) {
	res, _ := explain(t, map[string]string{"main.tf": `
resource "aws_sqs_queue" "a" {}
resource "aws_sqs_queue" "b" {}
resource "aws_sqs_queue" "c" {}

resource "aws_lambda_function" "polled" {
  function_name = "polled"
}
resource "aws_lambda_event_source_mapping" "a" {
  event_source_arn = aws_sqs_queue.a.arn
  function_name    = aws_lambda_function.polled.arn
  provisioned_poller_config {
    maximum_pollers = 20
  }
}

resource "aws_lambda_function" "both" {
  function_name                  = "both"
  reserved_concurrent_executions = 500
}
resource "aws_lambda_event_source_mapping" "b" {
  event_source_arn = aws_sqs_queue.b.arn
  function_name    = aws_lambda_function.both.arn
  scaling_config {
    maximum_concurrency = 50
  }
}
resource "aws_lambda_event_source_mapping" "c" {
  event_source_arn = aws_sqs_queue.c.arn
  function_name    = aws_lambda_function.both.arn
}
`})
	want := map[string]string{
		"aws_sqs_queue.a": "maximum_pollers 200 maximum_pollers 20 × 10 = 200 concurrent invokes",
		"aws_sqs_queue.b": "reserved_concurrent_executions 500 ",
		"aws_sqs_queue.c": "reserved_concurrent_executions 500 ",
	}
	if qs := res.Explanation.Roots[0].Queues; len(qs) != len(want) {
		t.Fatalf("%d queues explained, want %d", len(qs), len(want))
	}
	for _, q := range res.Explanation.Roots[0].Queues {
		if len(q.Consumers) != 1 {
			t.Fatalf("%s: consumers %+v", q.Address, q.Consumers)
		}
		s := q.Consumers[0].MaxSize
		got := s.Attribute + " "
		if s.Value != nil {
			got += fmt.Sprint(*s.Value)
		}
		if got += " " + s.Terms; got != want[q.Address] {
			t.Errorf("%s: %q, want %q", q.Address, got, want[q.Address])
		}
	}
}

// TestExplainManagedInstancesGrowth: a consumer on Lambda Managed
// Instances carries what AWS says of how fast it grows; another does not.
func TestExplainManagedInstancesGrowth(t *testing.T) {
	res, _ := explain(t, map[string]string{"main.tf": `
resource "aws_sqs_queue" "a" {}
resource "aws_sqs_queue" "b" {}

resource "aws_lambda_capacity_provider" "workers" {
  name                             = "workers"
  capacity_provider_scaling_config = [{ max_vcpu_count = 8 }]
}
resource "aws_lambda_function" "managed" {
  function_name = "managed"
  capacity_provider_config {
    lambda_managed_instances_capacity_provider_config {
      capacity_provider_arn = aws_lambda_capacity_provider.workers.arn
    }
  }
}
resource "aws_lambda_event_source_mapping" "a" {
  event_source_arn = aws_sqs_queue.a.arn
  function_name    = aws_lambda_function.managed.arn
}

resource "aws_lambda_function" "plain" {
  function_name = "plain"
}
resource "aws_lambda_event_source_mapping" "b" {
  event_source_arn = aws_sqs_queue.b.arn
  function_name    = aws_lambda_function.plain.arn
}
`})
	want := map[string]string{
		"aws_sqs_queue.a": "on Lambda Managed Instances, AWS may throttle traffic that more than doubles within 300 s while it adds instances (lambda_managed_instances_doubling_window_seconds): how far it scales is bounded, how fast is not",
		"aws_sqs_queue.b": "",
	}
	if qs := res.Explanation.Roots[0].Queues; len(qs) != len(want) {
		t.Fatalf("%d queues explained, want %d", len(qs), len(want))
	}
	for _, q := range res.Explanation.Roots[0].Queues {
		if len(q.Consumers) != 1 {
			t.Fatalf("%s: consumers %+v", q.Address, q.Consumers)
		}
		if got := q.Consumers[0].Growth; got != want[q.Address] {
			t.Errorf("%s: growth %q, want %q", q.Address, got, want[q.Address])
		}
	}
}

// TestExplainDeploymentInService: --explain counts the consumers a
// replacement keeps as queuecap_surplus_during_deploy does, and leaves the
// count out where a maximum healthy percentage not known before apply may
// be over 100 (the group then keeps them all).
func TestExplainDeploymentInService(t *testing.T) {
	group := func(name, policy string) string {
		return `resource "aws_autoscaling_group" "` + name + `" {
  max_size = 1
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.q"
    propagate_at_launch = false
  }
  instance_maintenance_policy {
` + policy + `
  }
}
`
	}
	res, _ := explain(t, map[string]string{"main.tf": "variable \"most\" {}\nresource \"aws_sqs_queue\" \"q\" {}\n" +
		group("known", "    min_healthy_percentage = 80\n    max_healthy_percentage = 100") +
		group("unknown", "    min_healthy_percentage = 80\n    max_healthy_percentage = var.most")})
	got := map[string]string{}
	for _, c := range res.Explanation.Roots[0].Queues[0].Consumers {
		got[c.Address] = "nil"
		if d := c.Deployment; d != nil && d.InService != nil {
			got[c.Address] = fmt.Sprint(*d.InService)
		}
	}
	if want := map[string]string{"aws_autoscaling_group.known": "0", "aws_autoscaling_group.unknown": "nil"}; !maps.Equal(got, want) {
		t.Errorf("in service %v, want %v", got, want)
	}
}
