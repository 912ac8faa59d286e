// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

const promAddr = "data.queuecap_prometheus_rules.test"

// promArgs: 100 msg/s and a 60 s SLA make an SLA depth of 6,000; 10 msg/s
// per consumer and the 1-minute interval a floor of 600; a 600 s RTO a net
// rate clamp of 1 msg/s.
const promArgs = `  arrival_rate      = 100
  sla_seconds       = 60
  per_consumer_rate = 10
  rto_seconds       = 600
  queue_name        = "orders"
  age_metric        = "queue_oldest_message_age_seconds"`

// promRoundTrip reads the rule file back with yamldecode: the alert names
// and their for, and whether each rule of the file is the rules entry of
// the same index.
const promRoundTrip = `
locals {
  group = yamldecode(%[1]s.rule_group_yaml).groups[0]
}

output "alerts" {
  value = [for r in local.group.rules : r.alert]
}

output "for" {
  value = { for r in local.group.rules : r.alert => try(r["for"], "none") }
}

output "interval" {
  value = "${local.group.name} ${local.group.interval}"
}

output "same_rules" {
  value = alltrue([for i, r in local.group.rules : r.expr == %[1]s.rules[i].expr && try(r["for"], null) == %[1]s.rules[i].for &&
    jsonencode(r.labels) == jsonencode(%[1]s.rules[i].labels) && jsonencode(r.annotations) == jsonencode(%[1]s.rules[i].annotations)])
}

output "yaml" {
  value = %[1]s.rule_group_yaml
}
`

var promAlerts = knownvalue.ListExact([]knownvalue.Check{
	knownvalue.StringExact("QueueNotDraining"), knownvalue.StringExact("QueueDrainSlowerThanRTO"), knownvalue.StringExact("QueueDepthAboveSLA"),
	knownvalue.StringExact("QueueOldestMessageAboveSLA"), knownvalue.StringExact("QueueProjectedDepthAboveSLA"),
})

var promFor = knownvalue.MapExact(map[string]knownvalue.Check{
	"QueueNotDraining": knownvalue.StringExact("15m"), "QueueDrainSlowerThanRTO": knownvalue.StringExact("10m"),
	"QueueDepthAboveSLA": knownvalue.StringExact("none"), "QueueOldestMessageAboveSLA": knownvalue.StringExact("none"),
	"QueueProjectedDepthAboveSLA": knownvalue.StringExact("none"),
})

// promRoundTripChecks are the checks of promRoundTrip's outputs, and
// `promtool check rules` on the YAML the plan produced when promtool is
// installed.
func promRoundTripChecks(t *testing.T) []statecheck.StateCheck {
	checks := []statecheck.StateCheck{
		statecheck.ExpectKnownOutputValue("alerts", promAlerts),
		statecheck.ExpectKnownOutputValue("for", promFor),
		statecheck.ExpectKnownOutputValue("interval", knownvalue.StringExact("queuecap-orders 1m")),
		statecheck.ExpectKnownOutputValue("same_rules", knownvalue.Bool(true)),
	}
	if promtool, err := exec.LookPath("promtool"); err == nil {
		checks = append(checks, promtoolCheck{promtool: promtool, dir: t.TempDir(), output: "yaml"})
	} else {
		t.Log("promtool is not installed: the rule file is not checked with promtool check rules")
	}
	return checks
}

// promtoolCheck runs `promtool check rules` on a string output.
type promtoolCheck struct{ promtool, dir, output string }

func (c promtoolCheck) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	out, ok := req.State.Values.Outputs[c.output]
	text, isString := out.Value.(string)
	if !ok || !isString {
		resp.Error = fmt.Errorf("output %s is not a string: %v", c.output, out)
		return
	}
	path := filepath.Join(c.dir, "rules.yml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		resp.Error = err
		return
	}
	if b, err := exec.Command(c.promtool, "check", "rules", path).CombinedOutput(); err != nil {
		resp.Error = fmt.Errorf("promtool check rules: %v\n%s\n%s", err, b, text)
	}
}

func TestPrometheusRulesDataSource(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: "data \"queuecap_prometheus_rules\" \"test\" {\n" + promArgs + "\n}\n" + fmt.Sprintf(promRoundTrip, promAddr),
		ConfigStateChecks: append(expectValues(promAddr, map[string]knownvalue.Check{
			"max_depth":                   num(6000),
			"not_draining_depth_floor":    num(600),
			"net_rate_clamp":              num(1),
			"group_name":                  knownvalue.StringExact("queuecap-orders"),
			"provisioning_lag_seconds":    num(180),
			"rate_window_seconds":         num(600),
			"evaluation_interval_seconds": num(60),
			"depth_metric":                knownvalue.StringExact("queue_depth"),
			"queue_label":                 knownvalue.StringExact("queue"),
			"projection":                  knownvalue.StringExact("predict_linear"),
			"severity":                    knownvalue.StringExact("page"),
			"net_rate_expression": knownvalue.StringExact(`sum by (queue) (rate(jobs_completed_total{queue="orders"}[10m])) - ` +
				`sum by (queue) (rate(jobs_enqueued_total{queue="orders"}[10m]))`),
			"rules": knownvalue.ListPartial(map[int]knownvalue.Check{
				0: knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"name": knownvalue.StringExact("not_draining"), "alert": knownvalue.StringExact("QueueNotDraining"),
					"for": knownvalue.StringExact("15m"), "threshold": num(600),
					"labels": knownvalue.MapExact(map[string]knownvalue.Check{"severity": knownvalue.StringExact("page")}),
				}),
				2: knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"name": knownvalue.StringExact("depth_above_sla"), "for": knownvalue.Null(), "threshold": num(6000),
					"expr": knownvalue.StringExact(`sum by (queue) (queue_depth{queue="orders"}) > 6000`),
				}),
				3: knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"name": knownvalue.StringExact("oldest_message_above_sla"), "threshold": num(60),
					"expr": knownvalue.StringExact(`max by (queue) (queue_oldest_message_age_seconds{queue="orders"}) > 60`),
				}),
			}),
		}), promRoundTripChecks(t)...),
	})
}

// Metric names, the label, the projection and the floor are arguments;
// without age_metric there is no age alert.
func TestPrometheusRulesDataSourceNames(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: `data "queuecap_prometheus_rules" "test" {
  arrival_rate             = 5000
  sla_seconds              = 10
  per_consumer_rate        = 400
  rto_seconds              = 1800
  not_draining_depth_floor = 1000
  depth_metric             = "sqs_messages_visible"
  enqueued_metric          = "sqs_sent_total"
  completed_metric         = "sqs_deleted_total"
  queue_label              = "queue_name"
  projection               = "deriv"
  severity                 = ""
  group_name               = "orders"
}`,
		ConfigStateChecks: expectValues(promAddr, map[string]knownvalue.Check{
			"max_depth": num(50000), "not_draining_depth_floor": num(1000), "net_rate_clamp": num(1000.0 / 1800),
			"group_name": knownvalue.StringExact("orders"),
			"rules": knownvalue.ListExact([]knownvalue.Check{
				knownvalue.ObjectPartial(map[string]knownvalue.Check{"alert": knownvalue.StringExact("QueueNotDraining"), "labels": knownvalue.MapExact(map[string]knownvalue.Check{})}),
				knownvalue.ObjectPartial(map[string]knownvalue.Check{"alert": knownvalue.StringExact("QueueDrainSlowerThanRTO")}),
				knownvalue.ObjectPartial(map[string]knownvalue.Check{"alert": knownvalue.StringExact("QueueDepthAboveSLA"),
					"expr": knownvalue.StringExact("sum by (queue_name) (sqs_messages_visible) > 50000")}),
				knownvalue.ObjectPartial(map[string]knownvalue.Check{"alert": knownvalue.StringExact("QueueProjectedDepthAboveSLA"),
					"expr": knownvalue.StringExact("sum by (queue_name) (sqs_messages_visible)\n+ sum by (queue_name) (deriv(sqs_messages_visible[10m])) * 180\n> 50000")}),
			}),
		}),
	})
}

// The queue: the CloudWatch alarms and the Prometheus rules of one
// queue watch the same SLA depth, retries counted: 1,000 msg/s × (1 + 0.2 ×
// 1) × 300 s is 360,000 messages in both (the rules said 300,000).
func TestPrometheusRulesDataSourceRetriesAgreeWithAlarms(t *testing.T) {
	const args = `
  arrival_rate      = 1000
  sla_seconds       = 300
  per_consumer_rate = 50
  rto_seconds       = 1800
  retry_rate        = 0.2
  avg_retries       = 1
  ttl_seconds       = 600
}
`
	unitTest(t, resource.TestStep{
		Config: `data "queuecap_prometheus_rules" "test" {` + args + `data "queuecap_alarm_thresholds" "test" {` + args + `
output "same" {
  value = [for k in ["effective_arrival_rate", "max_depth", "sla_exceeds_ttl"] : ` + promAddr + `[k] == ` + alarmsAddr + `[k]]
}`,
		ConfigStateChecks: append(expectValues(promAddr, map[string]knownvalue.Check{
			"effective_arrival_rate": num(1200), "max_depth": num(360000), "sla_exceeds_ttl": knownvalue.Bool(false),
			"rules": knownvalue.ListPartial(map[int]knownvalue.Check{
				2: knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"name": knownvalue.StringExact("depth_above_sla"), "threshold": num(360000),
					"expr": knownvalue.StringExact(`sum by (queue) (queue_depth) > 360000`),
				}),
				3: knownvalue.ObjectPartial(map[string]knownvalue.Check{"name": knownvalue.StringExact("projected_depth_above_sla"), "threshold": num(360000)}),
			}),
		}), statecheck.ExpectKnownOutputValue("same", knownvalue.ListExact([]knownvalue.Check{
			knownvalue.Bool(true), knownvalue.Bool(true), knownvalue.Bool(true),
		}))),
	})
}

// TestSLAExceedsTTLWarning reads both data sources directly
// (terraform-plugin-testing has no check for warnings): an SLA at or
// beyond the TTL warns at plan, naming both, that messages expire before
// the SLA alarm fires.
func TestSLAExceedsTTLWarning(t *testing.T) {
	for _, f := range []*capacity.Formula{capacity.AlarmThresholdsFormula, capacity.PrometheusRulesFormula} {
		for _, c := range []struct {
			ttl  float64
			warn bool
		}{{300, true}, {120, true}, {600, false}, {0, false}} {
			t.Run(fmt.Sprintf("%s ttl %v", f.Name, c.ttl), func(t *testing.T) {
				config := map[string]float64{"arrival_rate": 1000, "sla_seconds": 300, "per_consumer_rate": 50, "rto_seconds": 1800}
				if c.ttl > 0 {
					config["ttl_seconds"] = c.ttl
				}
				state, diags := readDataSource(t, newDataSource(f), config)
				var exceeds types.Bool
				diags.Append(state.GetAttribute(t.Context(), path.Root("sla_exceeds_ttl"), &exceeds)...)
				if diags.HasError() {
					t.Fatalf("errors: %v", diags)
				}
				warnings := diags.Warnings()
				if !c.warn {
					if len(warnings) != 0 || exceeds.ValueBool() {
						t.Errorf("sla_exceeds_ttl = %v with warnings %v, want neither", exceeds, warnings)
					}
					return
				}
				if len(warnings) != 1 || !exceeds.ValueBool() {
					t.Fatalf("sla_exceeds_ttl = %v with warnings %v, want true and one warning", exceeds, warnings)
				}
				if got := warnings[0].Summary(); got != "Messages expire before the SLA alarm fires" {
					t.Errorf("summary %q", got)
				}
				for _, want := range []string{"sla_seconds = 300", fmt.Sprintf("ttl_seconds = %v", c.ttl)} {
					if !strings.Contains(warnings[0].Detail(), want) {
						t.Errorf("warning detail %q does not say %q", warnings[0].Detail(), want)
					}
				}
			})
		}
	}
}

func TestPrometheusRulesDataSourceInvalid(t *testing.T) {
	for _, c := range []struct{ attr, err string }{
		{`depth_metric = "queue-depth"`, `depth_metric must be a Prometheus metric name`},
		{`queue_label = "__name__"`, `queue_label must be a Prometheus label name`},
		{`projection = "linear"`, `value must be one of: ["predict_linear" "deriv"], got: "linear"`},
		{`rate_window_seconds = 0`, `value must be between 1 and 86400, got: 0`},
		{`provisioning_lag_seconds = -1`, `value must be at least 0, got: -1`},
	} {
		t.Run(c.attr, func(t *testing.T) {
			unitTest(t, resource.TestStep{
				Config: `data "queuecap_prometheus_rules" "test" {
  arrival_rate      = 100
  sla_seconds       = 60
  per_consumer_rate = 10
  rto_seconds       = 600
  ` + c.attr + `
}`,
				ExpectError: errorWords(c.err),
			})
		})
	}
}

// A queue name known only after apply defers the read.
func TestPrometheusRulesDataSourceUnknownInput(t *testing.T) {
	unitTest(t, resource.TestStep{
		Config: `resource "terraform_data" "queue" {
  input = "orders"
}

data "queuecap_prometheus_rules" "test" {
  arrival_rate      = 100
  sla_seconds       = 60
  per_consumer_rate = 10
  rto_seconds       = 600
  queue_name        = terraform_data.queue.output
}

output "group" {
  value = data.queuecap_prometheus_rules.test.group_name
}`,
		ConfigPlanChecks: resource.ConfigPlanChecks{
			PreApply: []plancheck.PlanCheck{plancheck.ExpectUnknownOutputValue("group")},
		},
		ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownOutputValue("group", knownvalue.StringExact("queuecap-orders"))},
	})
}

const promObject = `{
    arrival_rate      = 100
    sla_seconds       = 60
    per_consumer_rate = 10
    rto_seconds       = 600
    queue_name        = "orders"
    age_metric        = "queue_oldest_message_age_seconds"
  }`

func TestFunctionPrometheusRules(t *testing.T) {
	functionTest(t, resource.TestStep{
		Config: "locals {\n  rules = provider::queuecap::prometheus_rules(" + promObject + ")\n}\n" + fmt.Sprintf(promRoundTrip, "local.rules") +
			"\noutput \"result\" {\n  value = local.rules\n}\n",
		ConfigStateChecks: append(expectOutput(knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"max_depth": num(6000), "not_draining_depth_floor": num(600), "net_rate_clamp": num(1),
			"group_name": knownvalue.StringExact("queuecap-orders"), "projection": knownvalue.StringExact("predict_linear"),
			"rules": knownvalue.ListSizeExact(5),
		})), promRoundTripChecks(t)...),
	})
}

// The function returns exactly the data source's result, every attribute.
func TestFunctionPrometheusRulesParity(t *testing.T) {
	functionTest(t, resource.TestStep{
		Config: "data \"queuecap_prometheus_rules\" \"test\" {\n" + promArgs + "\n}\n\noutput \"same\" {\n" +
			"  value = alltrue([for k, v in provider::queuecap::prometheus_rules(" + promObject + ") : v == " + promAddr + "[k]])\n}\n",
		ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownOutputValue("same", knownvalue.Bool(true))},
	})
}

func TestFunctionPrometheusRulesInvalid(t *testing.T) {
	for _, c := range []struct{ call, err string }{
		{"prometheus_rules({ arrival_rate = 1 })", `inputs.sla_seconds is required`},
		{"prometheus_rules({ arrival_rate = 1, sla_seconds = 1, per_consumer_rate = 1, rto_seconds = 1, depth_metric = \"a-b\" })", `inputs.depth_metric must be a Prometheus metric name`},
		{"prometheus_rules({ arrival_rate = 1, sla_seconds = 1, per_consumer_rate = 1, rto_seconds = 1, projection = \"x\" })", `inputs.projection value must be one of`},
		{"prometheus_rules(5)", `inputs must be an object or a map of queuecap_prometheus_rules arguments, got a number`},
	} {
		t.Run(c.call, func(t *testing.T) {
			functionTest(t, resource.TestStep{Config: outputCall(c.call), ExpectError: errorWords(c.err)})
		})
	}
}

func TestFunctionPrometheusRulesUnknown(t *testing.T) {
	functionTest(t, resource.TestStep{
		Config: "resource \"terraform_data\" \"n\" {\n  input = 600\n}\n\n" +
			outputCall("prometheus_rules({ arrival_rate = 100, sla_seconds = 60, per_consumer_rate = 10, rto_seconds = terraform_data.n.output })"),
		ConfigPlanChecks: resource.ConfigPlanChecks{
			PreApply: []plancheck.PlanCheck{plancheck.ExpectUnknownOutputValue("result")},
		},
	})
}

// examples/prometheus plans as it stands (served as hashicorp/queuecap, as
// every test serves the provider) and its rule file passes promtool.
func TestPrometheusRulesExample(t *testing.T) {
	example, err := os.ReadFile("../../examples/prometheus/main.tf")
	if err != nil {
		t.Fatal(err)
	}
	cfg := strings.Replace(string(example), `source = "queuecap/queuecap"`, `source = "hashicorp/queuecap"`, 1)
	checks := []statecheck.StateCheck{
		statecheck.ExpectKnownOutputValue("thresholds", knownvalue.ObjectExact(map[string]knownvalue.Check{
			"max_depth": num(5000), "not_draining_depth_floor": num(600), "net_rate_clamp": num(600.0 / 1800),
		})),
		statecheck.ExpectKnownOutputValue("prometheus_rule", knownvalue.ObjectPartial(map[string]knownvalue.Check{
			"kind": knownvalue.StringExact("PrometheusRule"),
			"spec": knownvalue.ObjectExact(map[string]knownvalue.Check{"groups": knownvalue.ListSizeExact(1)}),
		})),
	}
	if promtool, err := exec.LookPath("promtool"); err == nil {
		checks = append(checks, promtoolCheck{promtool: promtool, dir: t.TempDir(), output: "rule_group_yaml"})
	}
	unitTest(t, resource.TestStep{Config: cfg, ConfigStateChecks: checks})
}
