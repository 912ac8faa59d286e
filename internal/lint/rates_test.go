// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"path/filepath"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
)

// modelSpy is a rule that keeps the model it is given.
type modelSpy struct{ model *lint.Model }

func (*modelSpy) Name() string                   { return "spy" }
func (*modelSpy) DefaultSeverity() lint.Severity { return lint.Notice }
func (*modelSpy) EnabledByDefault() bool         { return true }
func (*modelSpy) Link() string                   { return "" }
func (*modelSpy) Summary() string                { return "" }

// The spy judges every kind of object, gathering the model: rules are
// shown one object at a time.
func (s *modelSpy) m() *lint.Model {
	if s.model == nil {
		s.model = &lint.Model{}
	}
	return s.model
}
func (s *modelSpy) CheckQueue(q *lint.Queue, _ lint.Reporter) { s.m().Queues = append(s.m().Queues, q) }
func (s *modelSpy) CheckFleet(f *lint.Fleet, _ lint.Reporter) { s.m().Fleets = append(s.m().Fleets, f) }
func (s *modelSpy) CheckPolicy(p *lint.Policy, _ lint.Reporter) {
	s.m().Policies = append(s.m().Policies, p)
}
func (s *modelSpy) CheckAlarm(a *lint.Alarm, _ lint.Reporter) { s.m().Alarms = append(s.m().Alarms, a) }
func (s *modelSpy) CheckMapping(mp *lint.EventSourceMapping, _ lint.Reporter) {
	s.m().Mappings = append(s.m().Mappings, mp)
}

// linkedModel lints files with .queuecap.hcl content config and returns
// the linked model.
func linkedModel(t *testing.T, files map[string]string, config string) *lint.Model {
	t.Helper()
	m, _ := linkedRun(t, files, config)
	return m
}

// linkedRun is linkedModel with the run's result, for its skips.
func linkedRun(t *testing.T, files map[string]string, config string) (*lint.Model, *lint.Result) {
	t.Helper()
	dir := t.TempDir()
	if config != "" {
		files[".queuecap.hcl"] = config
	}
	writeFiles(t, dir, files)
	cfg, diags := lint.LoadConfig(filepath.Join(dir, ".queuecap.hcl"), false, nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	spy := &modelSpy{}
	res := lintDir(t, lint.Options{Dirs: []string{dir}, Config: cfg, Rules: []lint.Rule{spy}})
	if len(res.Errors) > 0 {
		t.Fatalf("errors: %+v", res.Errors)
	}
	return spy.model, res
}

// hclTags is a tags map of queuecap:NAME = value entries.
func hclTags(kv ...string) string {
	out := "  tags = {\n"
	for i := 0; i < len(kv); i += 2 {
		out += `    "queuecap:` + kv[i] + `" = ` + kv[i+1] + "\n"
	}
	return out + "  }\n"
}

const ratesQueue = `resource "aws_sqs_queue" "q" {
  name = "q"
`

// snsTopic declares 250 msg/s into aws_sqs_queue.q.
const snsTopic = `resource "aws_sns_topic" "t" {
  tags = { "queuecap:arrival_rate" = 250 }
}

resource "aws_sns_topic_subscription" "q" {
  topic_arn = aws_sns_topic.t.arn
  protocol  = "sqs"
  endpoint  = aws_sqs_queue.q.arn
}
`

// TestRatePrecedence pins which declaration of a rate wins when several
// sources declare it: the order docs/rules/README.md states.
func TestRatePrecedence(t *testing.T) {
	consumersDS := func(name, mu string) string {
		return `data "queuecap_consumers" "` + name + `" {
  arrival_rate      = 1000
  per_consumer_rate = ` + mu + `
}
`
	}
	ecs := func(desired, maxCapacity, targetTags string) string {
		return `resource "aws_ecs_service" "svc" {
  name          = "svc"
  cluster       = "c"
  desired_count = ` + desired + `
  tags          = { "queuecap:queue" = "aws_sqs_queue.q" }
}

resource "aws_appautoscaling_target" "svc" {
  service_namespace  = "ecs"
  scalable_dimension = "ecs:service:DesiredCount"
  resource_id        = "service/c/${aws_ecs_service.svc.name}"
  min_capacity       = 1
  max_capacity       = ` + maxCapacity + `
` + targetTags + `}
`
	}
	asg := func(maxSize, tags string) string {
		return `resource "aws_autoscaling_group" "asg" {
  name     = "asg"
  min_size = 1
  max_size = ` + maxSize + `
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.q"
    propagate_at_launch = false
  }
` + tags + `}
`
	}
	asgTag := func(name, value string) string {
		return `  tag {
    key                 = "queuecap:` + name + `"
    value               = ` + value + `
    propagate_at_launch = false
  }
`
	}
	lambda := func(reserved, maxConcurrency, tags string) string {
		return `resource "aws_lambda_function" "fn" {
  function_name                  = "fn"
  reserved_concurrent_executions = ` + reserved + `
` + tags + `}

resource "aws_lambda_event_source_mapping" "m" {
  event_source_arn = aws_sqs_queue.q.arn
  function_name    = aws_lambda_function.fn.arn
  scaling_config {
    maximum_concurrency = ` + maxConcurrency + `
  }
}
`
	}
	cases := []struct {
		name   string
		tf     string
		config string
		// queue and fleet are the wanted values by rate name; fleet is the
		// model's only fleet, and asConsumer its RatesFor the queue.
		queue, fleet, asConsumer map[string]float64
	}{
		{name: "queue tag before the config file",
			tf:     ratesQueue + hclTags("arrival_rate", "100") + "}\n",
			config: "queue \"aws_sqs_queue.q\" {\n  arrival_rate = 200\n  sla_seconds = 9\n}\n",
			queue:  map[string]float64{"arrival_rate": 100, "sla_seconds": 9}},
		{name: "config file before the consumers",
			tf:     ratesQueue + "}\n" + asg("4", asgTag("arrival_rate", "300")+asgTag("max_backlog", "7")),
			config: "queue \"aws_sqs_queue.q\" {\n  arrival_rate = 200\n}\n",
			queue:  map[string]float64{"arrival_rate": 200, "max_backlog": 7},
			fleet:  map[string]float64{"arrival_rate": 300, "max_backlog": 7}},
		{name: "queue tag before a consumer's data source",
			tf:         ratesQueue + hclTags("per_consumer_rate", "5") + "}\n" + consumersDS("ds", "20") + asg("data.queuecap_consumers.ds.required_consumers", ""),
			queue:      map[string]float64{"per_consumer_rate": 5, "arrival_rate": 1000},
			fleet:      map[string]float64{"per_consumer_rate": 20, "arrival_rate": 1000},
			asConsumer: map[string]float64{"per_consumer_rate": 20, "arrival_rate": 1000}},
		{name: "fleet tag before the data source sizing it",
			tf:    ratesQueue + "}\n" + consumersDS("ds", "20") + asg("data.queuecap_consumers.ds.required_consumers", asgTag("per_consumer_rate", "10")),
			queue: map[string]float64{"per_consumer_rate": 10, "arrival_rate": 1000},
			fleet: map[string]float64{"per_consumer_rate": 10, "arrival_rate": 1000}},
		{name: "desired_count's data source before max_capacity's",
			tf:    ratesQueue + "}\n" + consumersDS("a", "20") + consumersDS("b", "30") + ecs("data.queuecap_consumers.a.required_consumers", "data.queuecap_consumers.b.required_consumers", hclTags("per_consumer_rate", "40")),
			queue: map[string]float64{"per_consumer_rate": 20, "arrival_rate": 1000},
			fleet: map[string]float64{"per_consumer_rate": 20, "arrival_rate": 1000}},
		{name: "max_capacity's data source before the target's tags",
			tf:    ratesQueue + "}\n" + consumersDS("b", "30") + ecs("1", "data.queuecap_consumers.b.required_consumers", hclTags("per_consumer_rate", "40")),
			queue: map[string]float64{"per_consumer_rate": 30, "arrival_rate": 1000},
			fleet: map[string]float64{"per_consumer_rate": 30, "arrival_rate": 1000}},
		{name: "the service's tags before the target's",
			tf: ratesQueue + "}\n" + `resource "aws_ecs_service" "svc" {
  name          = "svc"
  cluster       = "c"
  desired_count = 1
  tags          = { "queuecap:queue" = "aws_sqs_queue.q", "queuecap:per_consumer_rate" = 50 }
}

resource "aws_appautoscaling_target" "svc" {
  service_namespace  = "ecs"
  scalable_dimension = "ecs:service:DesiredCount"
  resource_id        = "service/c/${aws_ecs_service.svc.name}"
  min_capacity       = 1
  max_capacity       = 3
` + hclTags("per_consumer_rate", "40", "avg_retries", "2") + "}\n",
			queue: map[string]float64{"per_consumer_rate": 50, "avg_retries": 2},
			fleet: map[string]float64{"per_consumer_rate": 50, "avg_retries": 2}},
		{name: "the target's tags",
			tf:    ratesQueue + "}\n" + ecs("1", "3", hclTags("per_consumer_rate", "40")),
			queue: map[string]float64{"per_consumer_rate": 40},
			fleet: map[string]float64{"per_consumer_rate": 40}},
		{name: "reserved concurrency's data source before maximum_concurrency's",
			tf:    ratesQueue + "}\n" + consumersDS("a", "20") + consumersDS("b", "30") + lambda("data.queuecap_consumers.a.required_consumers", "data.queuecap_consumers.b.required_consumers", ""),
			queue: map[string]float64{"per_consumer_rate": 20, "arrival_rate": 1000},
			fleet: map[string]float64{"per_consumer_rate": 20, "arrival_rate": 1000}},
		{name: "function tag before maximum_concurrency's data source",
			tf:    ratesQueue + "}\n" + consumersDS("b", "30") + lambda("-1", "data.queuecap_consumers.b.required_consumers", hclTags("per_consumer_rate", "3")),
			queue: map[string]float64{"per_consumer_rate": 3, "arrival_rate": 1000},
			fleet: map[string]float64{"per_consumer_rate": 3, "arrival_rate": 1000}},
		{name: "config file before the SNS topics",
			tf:     ratesQueue + "}\n" + snsTopic,
			config: "queue \"aws_sqs_queue.q\" {\n  arrival_rate = 200\n}\n",
			queue:  map[string]float64{"arrival_rate": 200}},
		{name: "the SNS topics before the consumers",
			tf:    ratesQueue + "}\n" + snsTopic + asg("4", asgTag("arrival_rate", "300")),
			queue: map[string]float64{"arrival_rate": 250},
			fleet: map[string]float64{"arrival_rate": 300}},
		{name: "the first consumer found before the next",
			// The event source mapping is linked before the queuecap:queue tag.
			tf:    ratesQueue + "}\n" + asg("4", asgTag("arrival_rate", "600")) + lambda("5", "5", hclTags("arrival_rate", "500")),
			queue: map[string]float64{"arrival_rate": 500}},
		{name: "a queue's per_consumer_rate is not a fleet's",
			tf:         ratesQueue + hclTags("per_consumer_rate", "5") + "}\n" + asg("4", ""),
			queue:      map[string]float64{"per_consumer_rate": 5},
			fleet:      map[string]float64{},
			asConsumer: map[string]float64{"per_consumer_rate": 5}},
		{name: "a fleet takes the queue's rates it does not declare",
			tf:         ratesQueue + hclTags("per_consumer_rate", "5", "arrival_rate", "100") + "}\n" + asg("4", asgTag("arrival_rate", "300")),
			queue:      map[string]float64{"per_consumer_rate": 5, "arrival_rate": 100},
			fleet:      map[string]float64{"arrival_rate": 300},
			asConsumer: map[string]float64{"per_consumer_rate": 5, "arrival_rate": 300}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := linkedModel(t, map[string]string{"main.tf": c.tf}, c.config)
			if len(m.Queues) != 1 {
				t.Fatalf("%d queues", len(m.Queues))
			}
			checkRates(t, "queue", m.Queues[0].Rates, c.queue)
			if c.fleet != nil {
				if len(m.Fleets) != 1 {
					t.Fatalf("%d fleets", len(m.Fleets))
				}
				checkRates(t, "fleet", m.Fleets[0].Rates, c.fleet)
				if len(m.Queues[0].Consumers) != 1 {
					t.Errorf("the fleet does not consume the queue")
				}
			}
			if c.asConsumer != nil {
				checkRates(t, "fleet as a consumer", m.Fleets[0].RatesFor(m.Queues[0]), c.asConsumer)
			}
		})
	}
}

// checkRates compares the rates that are set with want.
func checkRates(t *testing.T, of string, r lint.Rates, want map[string]float64) {
	t.Helper()
	got := map[string]float64{}
	for name, n := range map[string]lint.Num{"arrival_rate": r.ArrivalRate, "per_consumer_rate": r.PerConsumerRate, "max_backlog": r.MaxBacklog,
		"rto_seconds": r.RTOSeconds, "sla_seconds": r.SLASeconds, "retry_rate": r.RetryRate, "avg_retries": r.AvgRetries,
		"min_headroom": r.MinHeadroom, "retries_per_timeout": r.RetriesPerTimeout, "timeout_window_seconds": r.TimeoutWindowSeconds} {
		if n.Set {
			got[name] = n.V
		}
	}
	for name, v := range want {
		if g, ok := got[name]; !ok || g != v {
			t.Errorf("%s %s = %v (set %v), want %v", of, name, g, ok, v)
		}
	}
	for name, v := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s %s = %v, want it unset", of, name, v)
		}
	}
}
