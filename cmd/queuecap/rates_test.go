// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/queuecap/terraform-provider-queuecap/internal/rates"
	"github.com/queuecap/terraform-provider-queuecap/internal/rates/cwtest"
	"github.com/queuecap/terraform-provider-queuecap/internal/rates/promtest"
	"github.com/queuecap/terraform-provider-queuecap/internal/rates/synth"
)

// ratesTF has three queues, each drained by its own Auto Scaling group of
// at most 4 instances: orders, whose group was saturated in an incident;
// audit, never saturated; jobs, whose name comes from a variable with no
// value.
const ratesTF = `variable "env" {
  type = string
}

resource "aws_sqs_queue" "orders" {
  name = "orders"
}

resource "aws_autoscaling_group" "orders" {
  name     = "orders-workers"
  max_size = 4
  min_size = 1
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
}

resource "aws_sqs_queue" "audit" {
  name = "audit"
}

resource "aws_autoscaling_group" "audit" {
  name     = "audit-workers"
  max_size = 4
  min_size = 1
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.audit"
    propagate_at_launch = false
  }
}

resource "aws_sqs_queue" "jobs" {
  name = "jobs-${var.env}"
}

resource "aws_autoscaling_group" "jobs" {
  name     = "jobs-workers"
  max_size = 4
  min_size = 1
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.jobs"
    propagate_at_launch = false
  }
}
`

// ratesHistory is a day of the queues' metrics, as cloudwatch_exporter
// exports them: orders receives 160 messages a second, received 200 times
// with retries (one in four messages retried), and its 4 workers each
// make 50 attempts a second but for an hour on 1 worker, which builds a
// backlog they never drain (c·μ = λ·(1 + r·k)); audit
// receives 40 a second that its 4 workers, each able to do 50, never fall
// behind.
func ratesHistory(t *testing.T) (url string, end time.Time) {
	start := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	orders := synth.Scenario{Start: start, Duration: day, PerConsumerRate: 50, RetriesPerMessage: 0.25,
		Arrival:   []synth.Segment{synth.At(0, 160)},
		Consumers: []synth.Segment{synth.At(0, 4), synth.At(6*time.Hour, 1), synth.At(7*time.Hour, 4)}}
	audit := synth.Scenario{Start: start, Duration: day, PerConsumerRate: 50,
		Arrival: []synth.Segment{synth.At(0, 40)}, Consumers: []synth.Segment{synth.At(0, 4)}}
	e := promtest.CloudWatchExporter
	var families []synth.Family
	for _, q := range []struct {
		name, group string
		sc          synth.Scenario
	}{{"orders", "orders-workers", orders}, {"audit", "audit-workers", audit}} {
		target := rates.Target{QueueName: q.name, Consumer: rates.Consumer{Kind: rates.KindASG, Name: q.group}}
		families = append(families, e.Families(q.sc, target, nil)...)
	}
	return promtest.Start(t, families), start.Add(day)
}

// TestRates: init, then rates --write from a real Prometheus, then lint:
// the measured rates land in .queuecap.hcl with their provenance, a lower
// bound and a queue whose name is not known are said and not written, and
// lint checks what it could not before.
func TestRates(t *testing.T) {
	url, end := ratesHistory(t)
	initRepo(t, map[string]string{"main.tf": ratesTF})
	if code, stdout, stderr := cli(t, "", "init"); code != exitOK {
		t.Fatalf("init: exit %d\n%s%s", code, stdout, stderr)
	}
	if _, stdout, _ := cli(t, "", "lint", "--format", "compact"); strings.Contains(stdout, "queuecap_zero_surplus") || !strings.Contains(stdout, "Checked 0 of 3 queues") {
		t.Fatalf("lint before rates:\n%s", stdout)
	}
	code, stdout, stderr := cli(t, "", "rates", "--prometheus", url, "--window", "1d", "--step", "5m", "--end", end.Format(time.RFC3339), "--write")
	if code != exitError || stderr != "" {
		t.Fatalf("rates: exit %d (want 1: jobs is not measured), stderr %q, stdout:\n%s", code, stderr, stdout)
	}
	for _, want := range []string{
		"Window: 1d in 5m steps up to 2026-11-02T00:00:00Z.\n\naws_sqs_queue.orders (prometheus " + url + ")\n" +
			"  arrival_rate       160   from 288 steps\n" +
			"  per_consumer_rate  50    from 215 saturated steps\n" +
			"  retry_rate         0.25  from 288 steps\n" +
			"  avg_retries        1     from 288 steps\n" +
			"  largest backlog 432,000 messages; oldest message 2,699 s\n",
		"  per_consumer_rate  ≥ 10, never observed saturated  from 288 steps\n",
		"\nError: aws_sqs_queue.jobs: not known before apply: the queue's name (name comes from var.env, which has no value here (set it with --var, a tfvars file or TF_VAR_env)): set queue_name in its queue block of .queuecap.hcl\n",
		"Wrote .queuecap.hcl.\n",
		"  aws_sqs_queue.orders: arrival_rate added = 160 (replaces the placeholder)\n",
		"  aws_sqs_queue.audit: per_consumer_rate not written: ≥ 10, never observed saturated (--accept-lower-bounds writes it)\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in:\n%s", want, stdout)
		}
	}
	src, err := os.ReadFile(".queuecap.hcl")
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	for _, want := range []string{
		"  # queuecap rates " + time.Now().UTC().Format(time.DateOnly) + ": prometheus " + url + ", p99 of the per-step arrival rates, 288 steps, window 1d in 5m steps up to 2026-11-02T00:00:00Z\n" +
			"  #   sent: avg_over_time(aws_sqs_number_of_messages_sent_sum{queue_name=\"orders\"}",
		"  arrival_rate = 160\n",
		"  per_consumer_rate = 50\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in .queuecap.hcl:\n%s", want, text)
		}
	}
	if strings.Count(text, "# queuecap rates ") != 4+3 {
		t.Errorf("%d provenance comments, want 7 (orders 4, audit 3 without its lower bound):\n%s", strings.Count(text, "# queuecap rates "), text)
	}

	// lint now checks orders: no surplus to drain its backlog.
	code, stdout, _ = cli(t, "", "lint", "--format", "compact")
	if code != exitFindings || !strings.Contains(stdout, "queuecap_zero_surplus") {
		t.Errorf("lint after rates: exit %d\n%s", code, stdout)
	}

	// A person's value is kept, and the difference said; --force replaces it.
	edited := strings.Replace(text, "  # queuecap rates "+time.Now().UTC().Format(time.DateOnly)+": prometheus "+url+", p99 of the per-step arrival rates, 288 steps, window 1d in 5m steps up to 2026-11-02T00:00:00Z\n", "  # from the load test\n", 1)
	if err := os.WriteFile(".queuecap.hcl", []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stdout, _ = cli(t, "", "rates", "--prometheus", url, "--window", "1d", "--step", "5m", "--end", end.Format(time.RFC3339), "--write")
	if !strings.Contains(stdout, "  aws_sqs_queue.orders: arrival_rate kept = 160, not the measured 160") || strings.Contains(stdout, "per_consumer_rate replaced") ||
		!strings.Contains(stdout, "  6 values as measured before: their comments' dates updated\n") {
		t.Errorf("a person's value: stdout\n%s", stdout)
	}
}

// TestRatesFlags: the flags' mistakes are said with the flag.
func TestRatesFlags(t *testing.T) {
	initRepo(t, map[string]string{"main.tf": ratesTF})
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "Error: rates measures from one source: give --prometheus URL or --cloudwatch\n"},
		{[]string{"--prometheus", "http://127.0.0.1:1", "--cloudwatch"}, "Error: rates measures from one source: give --prometheus URL or --cloudwatch\n"},
		{[]string{"--prometheus", "http://127.0.0.1:1", "--region", "eu-west-1"}, "Error: --region applies to --cloudwatch\n"},
		{[]string{"--prometheus", "http://127.0.0.1:1", "--window", "0"}, "Error: --window: a positive duration, got \"0\"\n"},
		{[]string{"--prometheus", "http://127.0.0.1:1", "--step", "1h", "--window", "30m"}, "Error: --step 1h is longer than --window 30m\n"},
		{[]string{"--prometheus", "http://127.0.0.1:1", "--step", "1s", "--window", "30d"}, "Error: --window 30d in --step 1s steps is 2,592,000 steps: at most 1,000,000\n"},
		{[]string{"--prometheus", "http://127.0.0.1:1", "--end", "yesterday"}, "Error: --end: an RFC 3339 time such as 2026-12-01T00:00:00Z, got \"yesterday\"\n"},
		{[]string{"--prometheus", "http://127.0.0.1:1", "--percentile", "0"}, "Error: --percentile: a number in (0, 100], got 0\n"},
		{[]string{"--prometheus", "http://127.0.0.1:1", "--saturation-backlog", "-1"}, "Error: --saturation-backlog: a positive number of messages per consumer, got -1\n"},
	} {
		code, stdout, stderr := cli(t, "", append([]string{"rates"}, c.args...)...)
		if code != exitError || stdout != "" || stderr != c.want {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %q", c.args, code, stdout, stderr, c.want)
		}
	}
	// An unreachable server is the run's error, naming it.
	code, _, stderr := cli(t, "", "rates", "--prometheus", "http://127.0.0.1:1")
	if code != exitError || !strings.Contains(stderr, "127.0.0.1:1") {
		t.Errorf("unreachable: exit %d, stderr %q", code, stderr)
	}
}

// TestRatesCloudWatch: the same sequence against the CloudWatch stand-in
// (no CloudWatch endpoint is reachable here), through the SDK and the
// endpoint a rates "cloudwatch" block names.
func TestRatesCloudWatch(t *testing.T) {
	s := cwtest.New(t)
	cwtest.Offline(t)
	start := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	s.AddQueue("orders", rates.Consumer{Kind: rates.KindASG, Name: "orders-workers"}, synth.Scenario{Start: start, Duration: day,
		PerConsumerRate: 50, RetriesPerMessage: 0.25, Arrival: []synth.Segment{synth.At(0, 160)},
		Consumers: []synth.Segment{synth.At(0, 4), synth.At(6*time.Hour, 1), synth.At(7*time.Hour, 4)}})
	initRepo(t, map[string]string{"main.tf": ratesTF, ".queuecap.hcl": "rates \"cloudwatch\" {\n  endpoint = \"" + s.URL() + "\"\n}\n"})
	if code, stdout, stderr := cli(t, "", "init"); code != exitOK {
		t.Fatalf("init: exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr := cli(t, "", "rates", "--cloudwatch", "--region", "eu-west-1", "--window", "1d", "--step", "5m", "--end", start.Add(day).Format(time.RFC3339), "--write")
	for _, want := range []string{
		"aws_sqs_queue.orders (cloudwatch eu-west-1)\n  arrival_rate       160   from 288 steps\n  per_consumer_rate  50    from 215 saturated steps\n  retry_rate         0.25  from 288 steps\n",
		// The stand-in has no history of audit: the error names the queue
		// and what is missing, and nothing is written for it.
		"Error: aws_sqs_queue.audit: ",
		"  aws_sqs_queue.orders: arrival_rate added = 160 (replaces the placeholder)\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("no %q in:\n%s", want, stdout)
		}
	}
	if code != exitError || stderr != "" {
		t.Errorf("rates: exit %d (want 1: audit and jobs are not measured), stderr %q", code, stderr)
	}
	src, _ := os.ReadFile(".queuecap.hcl")
	if !strings.Contains(string(src), ": cloudwatch eu-west-1, p99 of the per-step arrival rates, 288 steps, window 1d in 5m steps up to 2026-11-02T00:00:00Z\n  #   sent: AWS/SQS NumberOfMessagesSent QueueName=orders Sum over 300 s") {
		t.Errorf("no provenance of CloudWatch in:\n%s", src)
	}
	if code, stdout, _ := cli(t, "", "lint", "--format", "compact"); code != exitFindings || !strings.Contains(stdout, "queuecap_zero_surplus") {
		t.Errorf("lint after rates: exit %d\n%s", code, stdout)
	}
}
