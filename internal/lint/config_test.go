// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/rules"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/runner"
)

func TestLoadConfig(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, ".queuecap.hcl")
	writeFiles(t, dir, map[string]string{".queuecap.hcl": `config {
  format                   = "json"
  minimum_failure_severity = "error"
  recursive                = true
}

rule "queuecap_depth_only_scaling" {
  enabled = false
}

rule "queuecap_missing_dead_letter_queue" {
  severity = "notice"
}

queue "aws_sqs_queue.orders" {
  arrival_rate      = 4000
  per_consumer_rate = 200
  max_backlog       = 1e6
  rto_seconds       = 600
  sla_seconds       = 30
  retry_rate        = 0.1
  avg_retries       = 2
  min_headroom      = 0.25
  consumer          = "aws_autoscaling_group.workers"

  retries_per_timeout    = 1.5
  timeout_window_seconds = 20
}
`})
	cfg, diags := lint.LoadConfig(p, true, nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if *cfg.Format != "json" || *cfg.MinimumFailureSeverity != lint.Error || !*cfg.Recursive {
		t.Errorf("config block: %v %v %v", *cfg.Format, *cfg.MinimumFailureSeverity, *cfg.Recursive)
	}
	if r := cfg.Rules["queuecap_depth_only_scaling"]; r.Enabled == nil || *r.Enabled || r.Severity != nil {
		t.Errorf("rule block: %+v", r)
	}
	if r := cfg.Rules["queuecap_missing_dead_letter_queue"]; r.Enabled != nil || r.Severity == nil || *r.Severity != lint.Notice {
		t.Errorf("rule block: %+v", r)
	}
	q := cfg.Queues["aws_sqs_queue.orders"]
	if q.Consumer != "aws_autoscaling_group.workers" {
		t.Errorf("consumer %q", q.Consumer)
	}
	for name, want := range map[string]float64{"arrival": 4000, "mu": 200, "backlog": 1e6, "rto": 600, "sla": 30, "r": 0.1, "k": 2, "h": 0.25, "retries": 1.5, "window": 20} {
		got := map[string]lint.Num{"arrival": q.Rates.ArrivalRate, "mu": q.Rates.PerConsumerRate, "backlog": q.Rates.MaxBacklog, "rto": q.Rates.RTOSeconds,
			"sla": q.Rates.SLASeconds, "r": q.Rates.RetryRate, "k": q.Rates.AvgRetries, "h": q.Rates.MinHeadroom,
			"retries": q.Rates.RetriesPerTimeout, "window": q.Rates.TimeoutWindowSeconds}[name]
		if !got.Set || !got.Known || got.V != want {
			t.Errorf("%s = %+v, want %v", name, got, want)
		}
	}

	t.Run("missing file", func(t *testing.T) {
		cfg, diags := lint.LoadConfig(filepath.Join(dir, "absent.hcl"), false, nil)
		if diags.HasErrors() || cfg == nil {
			t.Errorf("optional missing config: %v", diags)
		}
		if _, diags := lint.LoadConfig(filepath.Join(dir, "absent.hcl"), true, nil); !diags.HasErrors() || !strings.Contains(diags.Error(), "absent.hcl") {
			t.Errorf("required missing config: %v", diags)
		}
	})
}

func TestLoadConfigErrors(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string // every one appears in the error
	}{
		{"unknown block", "plugin \"aws\" {\n  enabled = true\n}\n", []string{`.queuecap.hcl:1,1-7`, `Blocks of type "plugin" are not expected here`}},
		{"unknown config attribute", "config {\n  colour = true\n}\n", []string{`.queuecap.hcl:2,3-9`, `An argument named "colour" is not expected here`}},
		{"unknown rule attribute", "rule \"queuecap_zero_surplus\" {\n  level = \"error\"\n}\n", []string{`.queuecap.hcl:2,3-8`, `An argument named "level" is not expected here`}},
		{"unknown queue attribute", "queue \"aws_sqs_queue.a\" {\n  arrival = 5\n}\n", []string{`.queuecap.hcl:2,3-10`, `An argument named "arrival" is not expected here`}},
		{"a tag name with its prefix", "queue \"aws_sqs_queue.a\" {\n  \"queuecap:arrival_rate\" = 5\n}\n", []string{`.queuecap.hcl:2`}},
		{"bad severity", "rule \"queuecap_zero_surplus\" {\n  severity = \"fatal\"\n}\n", []string{`.queuecap.hcl:2,14-21`, `unknown severity "fatal"`}},
		{"bad minimum severity", "config {\n  minimum_failure_severity = \"loud\"\n}\n", []string{`.queuecap.hcl:2`, `unknown severity "loud"`}},
		{"enabled not a bool", "rule \"queuecap_zero_surplus\" {\n  enabled = \"maybe\"\n}\n", []string{`.queuecap.hcl:2`, "enabled must be a bool"}},
		{"a rate that is not a number", "queue \"aws_sqs_queue.a\" {\n  arrival_rate = \"fast\"\n}\n", []string{`.queuecap.hcl:2`, "arrival_rate must be a number"}},
		{"a rate that references something", "queue \"aws_sqs_queue.a\" {\n  arrival_rate = var.rate\n}\n", []string{`.queuecap.hcl:2`, "Variables not allowed"}},
		{"rule block without its ID", "rule {\n}\n", []string{`.queuecap.hcl:1`, "Missing id for rule"}},
		{"not HCL", "config {\n", []string{`.queuecap.hcl:1`, "Unclosed configuration block"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{".queuecap.hcl": c.src})
			cfg, diags := lint.LoadConfig(filepath.Join(dir, ".queuecap.hcl"), true, nil)
			if !diags.HasErrors() || cfg != nil {
				t.Fatalf("no error (cfg %+v)", cfg)
			}
			for _, w := range c.want {
				if !strings.Contains(diags.Error(), w) {
					t.Errorf("error %q does not contain %q", diags.Error(), w)
				}
			}
		})
	}
}

func TestUnknownRuleIDs(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"main.tf": "", ".queuecap.hcl": "rule \"queuecap_zero_surpluss\" {\n  enabled = false\n}\n"})
	cfg, diags := lint.LoadConfig(filepath.Join(dir, ".queuecap.hcl"), true, nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	cases := []struct {
		name string
		opts lint.Options
		want []string
	}{
		{"in the config file", lint.Options{Config: cfg}, []string{`unknown rule ID "queuecap_zero_surpluss"`, ".queuecap.hcl:1", ": did you mean queuecap_zero_surplus? Known rules: queuecap_batch_retry_amplification, queuecap_conflicting_concurrency, queuecap_depth_alarm_after_sla, "}},
		{"in --enable-rule", lint.Options{Enable: []string{"zero_surplus"}}, []string{`unknown rule ID "zero_surplus" in --enable-rule`}},
		{"in --disable-rule", lint.Options{Disable: []string{"queuecap_all"}}, []string{`unknown rule ID "queuecap_all" in --disable-rule`}},
		{"a malformed --var", lint.Options{Vars: []lint.VarFlag{{Value: "rate"}}}, []string{`invalid --var "rate": want NAME=VALUE`}},
		{"a --var with a bad name", lint.Options{Vars: []lint.VarFlag{{Value: "1rate=5"}}}, []string{`invalid --var "1rate=5"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.opts.Dirs, c.opts.Rules = []string{dir}, rules.All()
			res, err := runner.Run(c.opts)
			var usage *lint.UsageError
			if !errors.As(err, &usage) || res != nil {
				t.Fatalf("got %v, %v; want a usage error", res, err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q does not contain %q", err, w)
				}
			}
		})
	}
}

// TestRuleSwitches: the config file over defaults, the flags over the
// config file.
func TestRuleSwitches(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"main.tf": slaAlarm("", "")})
	enabled, disabled := true, false
	notice := lint.Notice
	cases := []struct {
		name     string
		cfg      lint.RuleConfig
		enable   []string
		disable  []string
		want     int
		severity lint.Severity
	}{
		{name: "default", want: 1, severity: lint.Warning},
		{name: "disabled in the config", cfg: lint.RuleConfig{Enabled: &disabled}, want: 0},
		{name: "disabled in the config, enabled by flag", cfg: lint.RuleConfig{Enabled: &disabled}, enable: []string{"queuecap_depth_alarm_after_sla"}, want: 1, severity: lint.Warning},
		{name: "enabled in the config, disabled by flag", cfg: lint.RuleConfig{Enabled: &enabled}, disable: []string{"queuecap_depth_alarm_after_sla"}, want: 0},
		{name: "severity from the config", cfg: lint.RuleConfig{Severity: &notice}, want: 1, severity: lint.Notice},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := &lint.Config{Rules: map[string]lint.RuleConfig{"queuecap_depth_alarm_after_sla": c.cfg}}
			res := lintDir(t, lint.Options{Dirs: []string{dir}, Config: cfg, Enable: c.enable, Disable: c.disable})
			if len(res.Issues) != c.want {
				t.Fatalf("%d issues, want %d", len(res.Issues), c.want)
			}
			if c.want > 0 && res.Issues[0].Severity != c.severity {
				t.Errorf("severity %s, want %s", res.Issues[0].Severity, c.severity)
			}
			for _, r := range res.Rules {
				if r.Name == "queuecap_depth_alarm_after_sla" && c.want == 0 {
					t.Error("a disabled rule is listed as run")
				}
			}
		})
	}
}

// TestRatesBlocks: .queuecap.hcl's rates blocks and the names queuecap
// rates measures by are read, and what the source would refuse is an
// error at its attribute when the file is read, not when rates runs.
func TestRatesBlocks(t *testing.T) {
	const good = `config {
  max_rate_age = "30d"
}

rates "prometheus" {
  period_seconds = "300"
  sent           = "sum(rate(jobs_enqueued_total{queue=\"$queue_name\"}[$step]))"
}

queue "aws_sqs_queue.jobs" {
  queue_name    = "jobs"
  consumer_name = "prod/jobs"
  rates "prometheus" {
    deleted = "sum(rate(jobs_completed_total[$step]))"
  }
}
`
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{".queuecap.hcl": good})
	cfg, diags := lint.LoadConfig(filepath.Join(dir, ".queuecap.hcl"), true, nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	q := cfg.Queues["aws_sqs_queue.jobs"]
	if *cfg.MaxRateAge != 30*86400 || cfg.Sources["prometheus"].Attrs["period_seconds"] != "300" ||
		q.QueueName != "jobs" || q.ConsumerName != "prod/jobs" || q.Sources["prometheus"].Attrs["deleted"] == "" {
		t.Errorf("read %+v, queue %+v", cfg, q)
	}
	for _, c := range []struct{ name, config, want string }{
		{"an unknown source", "rates \"graphite\" {}\n", `:1,7-17: Unknown rates source; rates "graphite": the sources are prometheus, cloudwatch`},
		{"an unknown setting", "rates \"prometheus\" {\n  period = \"5m\"\n}\n", `:2,3-16: Invalid rates "prometheus" block; rates "prometheus" period: unknown attribute; accepted: sent, deleted`},
		{"a setting in a queue block", "queue \"aws_sqs_queue.q\" {\n  rates \"prometheus\" {\n    period_seconds = \"60\"\n  }\n}\n", `:3,5-26: Invalid rates "prometheus" block`},
		{"an unknown placeholder", "rates \"prometheus\" {\n  sent = \"sum(x{q=\\\"$queue\\\"})\"\n}\n", `:2,3-`},
		{"twice", "rates \"prometheus\" {}\nrates \"prometheus\" {}\n", `Duplicate rates block`},
		{"an unknown CloudWatch setting", "rates \"cloudwatch\" {\n  region = \"eu-west-1\"\n  regoin = \"x\"\n}\n", `:3,3-15: Invalid rates "cloudwatch" block; rates "cloudwatch" regoin: unknown attribute; accepted: region, endpoint`},
		{"a name that is no string", "queue \"aws_sqs_queue.q\" {\n  queue_name = 3\n}\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{".queuecap.hcl": c.config})
			_, diags := lint.LoadConfig(filepath.Join(dir, ".queuecap.hcl"), true, nil)
			if c.want == "" {
				// A number converts to a string, as Terraform converts it.
				if diags.HasErrors() {
					t.Errorf("diagnostics %v", diags)
				}
				return
			}
			if !diags.HasErrors() || !strings.Contains(diags.Error(), c.want) {
				t.Errorf("diagnostics %v, want %q", diags, c.want)
			}
		})
	}
}
