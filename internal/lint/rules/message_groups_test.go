// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/rules"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/runner"
)

// groupsQueue is a FIFO queue (fifo_queue on line 3) with the queue's tags,
// consumed by an auto scaling group of maxSize workers (max_size on line 8)
// of 10 msg/s each.
func groupsQueue(tags, maxSize string) string {
	return `resource "aws_sqs_queue" "orders" {
  name       = "orders.fifo"
  fifo_queue = true
  tags       = { ` + tags + ` }
}

resource "aws_autoscaling_group" "workers" {
  max_size = ` + maxSize + `
  min_size = 1
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = 10
    propagate_at_launch = false
  }
}
`
}

// groupsMessage is the finding of 8 message groups of 10 msg/s under 100
// msg/s.
const groupsMessage = "SQS gives each message group of FIFO queue aws_sqs_queue.orders to one consumer at a time, so at most 8 consumers work at once whatever the fleet's size, taking at most message_groups 8 × 10 msg/s = 80 msg/s (each at the fastest per_consumer_rate), which does not exceed the declared arrival rate 100 msg/s: the backlog never drains, whatever consumes it; more than 100 / 10 = 10 active message groups drain it, so at least 11: spread the messages over more message group IDs"

func TestFIFOMessageGroups(t *testing.T) {
	groups8 := issue{Summary: "8 message groups take at most 80 of 100 msg/s: spread messages over 11 or more groups", Message: groupsMessage,
		Start: at(3, 3), End: at(3, 20),
		Facts: facts("arrival_rate", 100, "effective_arrival_rate", 100, "message_groups", 8, "per_consumer_rate", 10, "message_groups_capacity", 80, "surplus", -20, "min_message_groups", 11)}
	runRuleCases(t, "queuecap_fifo_throughput_ceiling", []ruleCase{
		{
			name:   "8 groups under 100 msg/s",
			files:  map[string]string{"main.tf": groupsQueue(`"queuecap:arrival_rate" = 100, "queuecap:message_groups" = 8`, "25")},
			issues: []issue{groups8},
		},
		{
			name:  "11 groups drain it",
			files: map[string]string{"main.tf": groupsQueue(`"queuecap:arrival_rate" = 100, "queuecap:message_groups" = 11`, "25")},
		},
		{
			name:  "no message_groups declared",
			files: map[string]string{"main.tf": groupsQueue(`"queuecap:arrival_rate" = 100`, "25")},
		},
		{
			name:   "declared in .queuecap.hcl",
			files:  map[string]string{"main.tf": groupsQueue(`"queuecap:arrival_rate" = 100`, "25")},
			config: "queue \"aws_sqs_queue.orders\" {\n  message_groups = 8\n}\n",
			issues: []issue{groups8},
		},
		{
			// Without consumers the queue's own per_consumer_rate serves.
			name:   "no consumer, the queue's per_consumer_rate",
			files:  map[string]string{"main.tf": fifoQueue("", `"queuecap:arrival_rate" = 100, "queuecap:message_groups" = 8, "queuecap:per_consumer_rate" = 10`)},
			issues: []issue{groups8},
		},
		{
			name:  "no per_consumer_rate",
			files: map[string]string{"main.tf": fifoQueue("", `"queuecap:arrival_rate" = 100, "queuecap:message_groups" = 8`)},
			skips: []skip{{Reason: "message_groups of aws_sqs_queue.orders is declared, but per_consumer_rate is not (tag queuecap:per_consumer_rate, a queue block in .queuecap.hcl, or a queuecap data source): the groups bound the queue's consumers to message_groups × per_consumer_rate", Line: 4}},
		},
		{
			name: "message_groups not known before apply",
			files: map[string]string{"main.tf": "variable \"groups\" {\n  type = number\n}\n\n" +
				groupsQueue(`"queuecap:arrival_rate" = 100, "queuecap:message_groups" = var.groups`, "25")},
			skips: []skip{{Reason: "message_groups of aws_sqs_queue.orders is not known before apply", Line: 8}},
		},
		{
			name: "a standard queue: ignored, said so",
			files: map[string]string{"main.tf": `resource "aws_sqs_queue" "orders" {
  tags = { "queuecap:arrival_rate" = 100, "queuecap:message_groups" = 8, "queuecap:per_consumer_rate" = 10 }
}
`},
			skips: []skip{{Reason: "message_groups of aws_sqs_queue.orders is ignored: it is not a FIFO queue, and a standard queue's message groups (fair queues) do not bound its consumers", Line: 2}},
		},
		{
			name: "fifo_queue not known before apply",
			files: map[string]string{"main.tf": `variable "fifo" {
  type = bool
}

resource "aws_sqs_queue" "orders" {
  fifo_queue = var.fifo
  tags       = { "queuecap:arrival_rate" = 100, "queuecap:message_groups" = 8, "queuecap:per_consumer_rate" = 10 }
}
`},
			skips: []skip{{Reason: "fifo_queue of aws_sqs_queue.orders comes from var.fifo, which has no value here (set it with --var, a tfvars file or TF_VAR_fifo): message_groups 8 bounds its consumers only on a FIFO queue", Line: 6}},
		},
	})
}

// lintAll lints files with every rule and returns the findings by rule.
func lintAll(t *testing.T, files map[string]string, config string) map[string][]lint.Issue {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := &lint.Config{}
	if config != "" {
		p := filepath.Join(dir, ".queuecap.hcl")
		if err := os.WriteFile(p, []byte(config), 0o644); err != nil {
			t.Fatal(err)
		}
		loaded, d := lint.LoadConfig(p, true, nil)
		if d.HasErrors() {
			t.Fatal(d)
		}
		cfg = loaded
	}
	res, err := runner.Run(lint.Options{Dirs: []string{dir}, Config: cfg, Rules: rules.All()})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Errors) > 0 {
		t.Fatalf("errors: %v", res.Errors)
	}
	out := map[string][]lint.Issue{}
	for _, is := range res.Issues {
		out[is.Rule] = append(out[is.Rule], is)
	}
	return out
}

// One cause, one finding: a queue its message groups alone keep from
// draining is queuecap_fifo_throughput_ceiling's, not queuecap_zero_surplus's
// as well; a fleet too small besides is a second cause, with its fix.
func TestMessageGroupsOneFinding(t *testing.T) {
	for _, c := range []struct {
		name, tags, maxSize string
		want                []string
	}{
		{"the groups alone", `"queuecap:arrival_rate" = 100, "queuecap:message_groups" = 8`, "25", []string{"queuecap_fifo_throughput_ceiling"}},
		{"the groups, and a fleet the groups bound", `"queuecap:arrival_rate" = 100, "queuecap:message_groups" = 8`, "9", []string{"queuecap_fifo_throughput_ceiling", "queuecap_zero_surplus"}},
		{"the groups, and a fleet below them", `"queuecap:arrival_rate" = 100, "queuecap:message_groups" = 8`, "5", []string{"queuecap_fifo_throughput_ceiling", "queuecap_zero_surplus"}},
		{"groups that drain, slowly", `"queuecap:arrival_rate" = 100, "queuecap:message_groups" = 11, "queuecap:max_backlog" = 10000, "queuecap:rto_seconds" = 600`, "25", []string{"queuecap_insufficient_headroom"}},
		{"enough groups", `"queuecap:arrival_rate" = 100, "queuecap:message_groups" = 20, "queuecap:max_backlog" = 10000, "queuecap:rto_seconds" = 600`, "25", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := lintAll(t, map[string]string{"main.tf": groupsQueue(c.tags, c.maxSize)}, "")
			delete(got, "queuecap_missing_dead_letter_queue") // no redrive policy: beside the point
			var names []string
			for r, is := range got {
				if len(is) != 1 {
					t.Errorf("%s: %d findings, want 1", r, len(is))
				}
				names = append(names, r)
			}
			slices.Sort(names)
			if !slices.Equal(names, c.want) {
				t.Errorf("rules %v, want %v", names, c.want)
			}
		})
	}
}

// The capacity rules state the groups bound where it sets the capacity.
func TestMessageGroupsBoundCapacity(t *testing.T) {
	runRuleCases(t, "queuecap_zero_surplus", []ruleCase{
		{
			name:  "a fleet the groups bound, too small itself",
			files: map[string]string{"main.tf": groupsQueue(`"queuecap:arrival_rate" = 100, "queuecap:message_groups" = 8`, "9")},
			issues: []issue{{Summary: "the consumers' 90 msg/s cannot drain any backlog: raise their capacity above 100 msg/s",
				Message: "max_size 9 × 10 msg/s = 90 msg/s, bounded by the message groups, one consumer each at a time: message_groups 8 × 10 msg/s = 80 msg/s does not exceed the declared arrival rate 100 msg/s: surplus -20 msg/s, any backlog never drains",
				Start:   at(8, 3), End: at(8, 15),
				Facts: facts("arrival_rate", 100, "effective_arrival_rate", 100, "per_consumer_rate", 10, "max_consumers", 9, "capacity", 80, "surplus", -20, "message_groups", 8, "message_groups_capacity", 80)}},
		},
		{
			name:  "the groups alone: queuecap_fifo_throughput_ceiling's",
			files: map[string]string{"main.tf": groupsQueue(`"queuecap:arrival_rate" = 100, "queuecap:message_groups" = 8`, "25")},
		},
	})
	runRuleCases(t, "queuecap_insufficient_headroom", []ruleCase{
		{
			name:  "groups that drain, slowly",
			files: map[string]string{"main.tf": groupsQueue(`"queuecap:arrival_rate" = 100, "queuecap:message_groups" = 11, "queuecap:max_backlog" = 10000, "queuecap:rto_seconds" = 600`, "25")},
			issues: []issue{{Summary: "the consumers clear max_backlog 10,000 in 1,000 s, over rto_seconds 600: raise the surplus to 16.67 msg/s",
				Message: "max_size 25 × 10 msg/s = 250 msg/s, bounded by the message groups, one consumer each at a time: message_groups 11 × 10 msg/s = 110 msg/s leaves a surplus of 10 msg/s over the declared arrival rate 100 msg/s, which clears max_backlog 10,000 in 1,000 s, more than rto_seconds 600: it needs a surplus of 10,000 / 600 = 16.67 msg/s; at most message_groups 11 consumers work at once, whatever the fleet's size: spread the messages over more message groups",
				Start:   at(8, 3), End: at(8, 16),
				Facts: facts("arrival_rate", 100, "effective_arrival_rate", 100, "per_consumer_rate", 10, "max_consumers", 25, "capacity", 110, "surplus", 10, "message_groups", 11, "message_groups_capacity", 110, "max_backlog", 10000, "rto_seconds", 600, "drain_seconds", 1000)}},
		},
		{
			// Without the groups, 25 consumers clear it in 66.67 s.
			name:  "enough groups",
			files: map[string]string{"main.tf": groupsQueue(`"queuecap:arrival_rate" = 100, "queuecap:message_groups" = 25, "queuecap:max_backlog" = 10000, "queuecap:rto_seconds" = 600`, "25")},
		},
	})
}

// The payload a provisioned mapping's pollers carry bounds its fleet.
func TestPayloadBoundCapacity(t *testing.T) {
	pollers := "\n  provisioned_poller_config {\n    maximum_pollers = 20\n  }"
	const payload = "(maximum_pollers 20 × 10 = 200 concurrent invokes) × 10 msg/s = 2,000 msg/s, bounded by what its pollers carry: maximum_pollers 20 × 1 MB/s (lambda_sqs_poller_throughput_mb_per_second; 1 MB = 1,000,000 B) ÷ 200,000 B per message = 100 msg/s"
	runRuleCases(t, "queuecap_zero_surplus", []ruleCase{
		{
			name:  "20 pollers of 200,000 B messages under 150 msg/s",
			files: map[string]string{"main.tf": lambdaMapped(`150, "queuecap:message_size_bytes" = 200000`, "", pollers)},
			issues: []issue{{Summary: "the consumers' 100 msg/s cannot drain any backlog: raise their capacity above 150 msg/s",
				Message: payload + " does not exceed the declared arrival rate 150 msg/s: surplus -50 msg/s, any backlog never drains; the pollers carry no more messages whatever the fleet's size: raise maximum_pollers, or send smaller messages",
				Start:   at(14, 5), End: at(14, 25),
				Facts: facts("arrival_rate", 150, "effective_arrival_rate", 150, "per_consumer_rate", 10, "max_consumers", 200, "capacity", 100, "surplus", -50, "maximum_pollers", 20, "message_size_bytes", 200000, "payload_capacity", 100)}},
		},
		{
			name:  "within what the pollers carry",
			files: map[string]string{"main.tf": lambdaMapped(`99, "queuecap:message_size_bytes" = 200000`, "", pollers)},
		},
		{
			// AWS publishes no payload throughput for standard mode.
			name:  "standard mode: no payload bound",
			files: map[string]string{"main.tf": lambdaMapped(`150, "queuecap:message_size_bytes" = 200000`, "", "")},
		},
		{
			name:  "a message over max_message_size",
			files: map[string]string{"main.tf": lambdaMapped(`150, "queuecap:message_size_bytes" = 300000`, "", pollers)},
			skips: []skip{{Reason: "declared rates of aws_sqs_queue.orders are invalid: message_size_bytes must be at most max_message_size 262144 bytes, got 300000", Line: 2}},
		},
		{
			name: "max_message_size not known: AWS's largest message",
			files: map[string]string{"main.tf": "variable \"max\" {\n  type = number\n}\n\n" +
				strings.Replace(lambdaMapped(`150, "queuecap:message_size_bytes" = 2000000`, "", pollers), "resource \"aws_sqs_queue\" \"orders\" {", "resource \"aws_sqs_queue\" \"orders\" {\n  max_message_size = var.max", 1)},
			skips: []skip{{Reason: "declared rates of aws_sqs_queue.orders are invalid: message_size_bytes must be at most AWS's largest message (sqs_max_message_size_bytes) 1048576 bytes, got 2000000", Line: 7}},
		},
		{
			name: "message_size_bytes not known before apply",
			files: map[string]string{"main.tf": "variable \"size\" {\n  type = number\n}\n\n" +
				lambdaMapped(`150, "queuecap:message_size_bytes" = var.size`, "", pollers)},
			skips: []skip{{Reason: "message_size_bytes of aws_sqs_queue.orders is not known before apply", Line: 6}},
		},
	})
	runRuleCases(t, "queuecap_insufficient_headroom", []ruleCase{
		{
			name:  "pollers that drain, slowly",
			files: map[string]string{"main.tf": lambdaMapped(`50, "queuecap:message_size_bytes" = 200000, "queuecap:max_backlog" = 100000, "queuecap:rto_seconds" = 600`, "", pollers)},
			issues: []issue{{Summary: "the consumers clear max_backlog 100,000 in 2,000 s, over rto_seconds 600: raise the surplus to 166.67 msg/s",
				Message: payload + " leaves a surplus of 50 msg/s over the declared arrival rate 50 msg/s, which clears max_backlog 100,000 in 2,000 s, more than rto_seconds 600: it needs a surplus of 100,000 / 600 = 166.67 msg/s; the pollers carry no more messages whatever the fleet's size: raise maximum_pollers, or send smaller messages",
				Start:   at(14, 5), End: at(14, 25),
				Facts: facts("arrival_rate", 50, "effective_arrival_rate", 50, "per_consumer_rate", 10, "max_consumers", 200, "capacity", 100, "surplus", 50, "maximum_pollers", 20, "message_size_bytes", 200000, "payload_capacity", 100, "max_backlog", 100000, "rto_seconds", 600, "drain_seconds", 2000)}},
		},
	})
}

// A declared value out of its range is an error at the tag, naming it.
func TestDeclaredBoundsValidation(t *testing.T) {
	runRuleCases(t, "queuecap_fifo_throughput_ceiling", []ruleCase{
		{name: "message_groups 2.5", files: map[string]string{"main.tf": fifoQueue("", `"queuecap:arrival_rate" = 100, "queuecap:message_groups" = 2.5`)}, err: "main.tf:4:77: Invalid queuecap tag: tag queuecap:message_groups must be a whole number, got: 2.5"},
		{name: "message_groups 0", files: map[string]string{"main.tf": fifoQueue("", `"queuecap:arrival_rate" = 100, "queuecap:message_groups" = 0`)}, err: "main.tf:4:77: Invalid queuecap tag: tag queuecap:message_groups value must be at least 1, got: 0"},
		{name: "message_size_bytes 0", files: map[string]string{"main.tf": fifoQueue("", `"queuecap:arrival_rate" = 100, "queuecap:message_size_bytes" = 0`)}, err: "main.tf:4:81: Invalid queuecap tag: tag queuecap:message_size_bytes value must be greater than 0, got: 0"},
	})
}

// The retry storm is simulated at the capacity within the groups, as one
// consumer of it: no count of consumers is advised.
func TestMessageGroupsRetryStorm(t *testing.T) {
	runRuleCases(t, "queuecap_metastable_retry_storm", []ruleCase{
		{
			name:  "12 groups of 25 consumers",
			files: map[string]string{"main.tf": groupsQueue(`"queuecap:arrival_rate" = 100, "queuecap:message_groups" = 12, "queuecap:max_backlog" = 3000, "queuecap:retries_per_timeout" = 1.5`, "25")},
			issues: []issue{{Summary: "timeout retries keep max_backlog 3,000 from draining within 36,000 s: add capacity or retry less",
				Message: "max_size 25 × 10 msg/s = 250 msg/s, bounded by the message groups, one consumer each at a time: message_groups 12 × 10 msg/s = 120 msg/s drains max_backlog 3,000 in 150 s at the declared arrival rate 100 msg/s without timeout retries, but not within 36,000 s when each timed-out message (wait over 30 s) is retried 1.5 times: arrivals climb to 250 msg/s and the depth to 4.68e6 messages",
				Start:   at(8, 3), End: at(8, 16),
				Facts: facts("arrival_rate", 100, "effective_arrival_rate", 100, "per_consumer_rate", 10, "max_consumers", 25, "capacity", 120, "surplus", 20, "message_groups", 12, "message_groups_capacity", 120, "max_backlog", 3000, "retries_per_timeout", 1.5, "timeout_window_seconds", 30, "max_seconds", 36000, "drain_seconds_without_retries", 150, "peak_depth", 4.68287e+06, "peak_effective_arrival_rate", 250)}},
		},
	})
}

// While a deployment replaces one fleet, the others take what their
// bounds let them: a Lambda consumer's pollers carry 100 msg/s, not its
// 2,000 msg/s of concurrency.
func TestPayloadBoundDuringDeploy(t *testing.T) {
	files := map[string]string{"main.tf": `resource "aws_sqs_queue" "orders" {
  tags = { "queuecap:arrival_rate" = 150, "queuecap:message_size_bytes" = 200000 }
}

resource "aws_lambda_function" "worker" {
  function_name = "worker"
  tags          = { "queuecap:per_consumer_rate" = 10 }
}

resource "aws_lambda_event_source_mapping" "orders" {
  event_source_arn = aws_sqs_queue.orders.arn
  function_name    = aws_lambda_function.worker.arn
  provisioned_poller_config {
    maximum_pollers = 20
  }
}

resource "aws_autoscaling_group" "workers" {
  max_size = 10
  min_size = 1
  instance_refresh {
    strategy = "Rolling"
    preferences {
      min_healthy_percentage = 50
    }
  }
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = 10
    propagate_at_launch = false
  }
}
`}
	runRuleCases(t, "queuecap_surplus_during_deploy", []ruleCase{
		{
			name:  "a refresh beside a payload-bound Lambda consumer",
			files: files,
			issues: []issue{{Summary: "during a refresh the consumers take 150 msg/s of 150 arriving: set max_healthy_percentage over 100",
				Message: "an instance refresh of aws_autoscaling_group.workers keeps ceil(10 × 50 %) = 5 of its 10 consumers in service (instance_refresh.preferences.min_healthy_percentage 50 %): aws_lambda_function.worker (200 × 10 msg/s = 2,000 msg/s, bounded by what its pollers carry: maximum_pollers 20 × 1 MB/s (lambda_sqs_poller_throughput_mb_per_second; 1 MB = 1,000,000 B) ÷ 200,000 B per message = 100 msg/s) + aws_autoscaling_group.workers 5 × 10 msg/s = 150 msg/s leaves no surplus over the declared arrival rate 150 msg/s, so a backlog grows during every instance refresh instead of draining",
				Start:   at(24, 7), End: at(24, 34),
				Facts: facts("arrival_rate", 150, "effective_arrival_rate", 150, "max_consumers", 210, "capacity", 200, "surplus", 50, "min_healthy_percent", 50, "deploy_consumers", 5, "deploy_capacity", 150, "deploy_surplus", 0)}},
		},
	})
}
