// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// The CloudWatch alarms and the Prometheus rules of one queue watch the
// same SLA depth: queuecap_prometheus_rules takes the retries and the TTL
// queuecap_alarm_thresholds takes, and agrees with it on every number the
// two share. Issue 24: for one queue the alarms set 360,000 (with
// retries) and the rules 300,000.

// sharedSLAOutputs are the outputs both formulas have, computed from the
// same inputs.
var sharedSLAOutputs = []string{"effective_arrival_rate", "max_depth", "sla_exceeds_ttl"}

// runBoth runs both formulas on the same arguments.
func runBoth(t *testing.T, raw map[string]any) (alarms, rules capacity.Result) {
	t.Helper()
	alarms, _, err := capacity.AlarmThresholdsFormula.Run(raw)
	if err != nil {
		t.Fatalf("alarm_thresholds %v: %v", raw, err)
	}
	rules, _, err = capacity.PrometheusRulesFormula.Run(raw)
	if err != nil {
		t.Fatalf("prometheus_rules %v: %v", raw, err)
	}
	return alarms, rules
}

// depthThresholds are the thresholds of the depth alarms, or rules, by
// name: depth_above_sla and projected_depth_above_sla.
func depthThresholds(t *testing.T, list any) map[string]any {
	t.Helper()
	out := map[string]any{}
	items, ok := list.([]any)
	if !ok {
		t.Fatalf("%T is not a list", list)
	}
	for _, item := range items {
		m, ok := item.(map[string]any)
		if !ok {
			t.Fatalf("%T is not an object", item)
		}
		if name, _ := m["name"].(string); name == "depth_above_sla" || name == "projected_depth_above_sla" {
			out[name] = m["threshold"]
		}
	}
	if len(out) != 2 {
		t.Fatalf("depth thresholds %v, want two", out)
	}
	return out
}

// TestPrometheusRulesAgreeWithAlarmThresholds: on random decimal inputs,
// retries and a TTL among them, the two formulas give the same λ_eff, the
// same SLA depth (and depth thresholds), the same sla_exceeds_ttl and the
// same warnings.
func TestPrometheusRulesAgreeWithAlarmThresholds(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 9))
	for i := range propertyCases(t) {
		in := map[string]any{"arrival_rate": wideDecimal(rng), "sla_seconds": widePositive(rng),
			"per_consumer_rate": widePositive(rng), "rto_seconds": widePositive(rng)}
		wideRetries(rng, in)
		if i%2 == 0 {
			// Retries in every other case at least, 12-digit retry rates
			// among them.
			in["retry_rate"], in["avg_retries"] = randDecimal(rng, 1+rng.IntN(12), 12), randDecimal(rng, 1+rng.IntN(6), rng.IntN(4))
		}
		switch rng.IntN(3) {
		case 0:
			in["ttl_seconds"] = widePositive(rng)
		case 1:
			in["ttl_seconds"] = in["sla_seconds"]
		}
		if i%5 == 0 {
			// λ_eff ties at its 16th digit: the SLA depth from the exact
			// λ_eff, not the rounded one, on both faces.
			in["arrival_rate"], in["retry_rate"], in["avg_retries"] = tieAt15(rng), big.NewRat(1, 2), rInt(1)
		}
		raw := make(map[string]any, len(in))
		for k, v := range in {
			raw[k] = asFloat(v)
		}
		alarms, rules := runBoth(t, raw)
		for _, name := range sharedSLAOutputs {
			if a, r := alarms.Values[name], rules.Values[name]; a != r {
				t.Fatalf("case %d %s: %s is %v in alarm_thresholds, %v in prometheus_rules", i, caseText(in), name, a, r)
			}
		}
		a, r := depthThresholds(t, alarms.Values["alarms"]), depthThresholds(t, rules.Values["rules"])
		for name, want := range a {
			if r[name] != want || want != alarms.Values["max_depth"] {
				t.Fatalf("case %d %s: %s threshold is %v in alarm_thresholds, %v in prometheus_rules", i, caseText(in), name, want, r[name])
			}
		}
		if len(alarms.Warnings) != len(rules.Warnings) || len(alarms.Warnings) > 0 && alarms.Warnings[0] != rules.Warnings[0] {
			t.Fatalf("case %d %s: warnings %v in alarm_thresholds, %v in prometheus_rules", i, caseText(in), alarms.Warnings, rules.Warnings)
		}
	}
}

// TestPrometheusRulesRetriesIssueCase is the issue's queue: 1,000 msg/s,
// a fifth of them retried once and a 300 s SLA make an SLA depth of
// 1,000 × 1.2 × 300 = 360,000 in both the CloudWatch alarms and the
// Prometheus rules; without the retries both say 300,000.
func TestPrometheusRulesRetriesIssueCase(t *testing.T) {
	base := map[string]any{"arrival_rate": 1000.0, "sla_seconds": 300.0, "per_consumer_rate": 50.0, "rto_seconds": 1800.0}
	for _, c := range []struct {
		name       string
		retries    map[string]any
		eff, depth float64
		why        string
	}{
		{"retries", map[string]any{"retry_rate": 0.2, "avg_retries": 1.0}, 1200, 360000,
			"360000 = 1200 msg/s × 300 s SLA (the 1000 msg/s arriving, × (1 + 0.2 × 1) for retries)"},
		{"no retries", nil, 1000, 300000, "300000 = 1000 msg/s × 300 s SLA:"},
	} {
		t.Run(c.name, func(t *testing.T) {
			raw := map[string]any{}
			for k, v := range base {
				raw[k] = v
			}
			for k, v := range c.retries {
				raw[k] = v
			}
			alarms, rules := runBoth(t, raw)
			for _, res := range []capacity.Result{alarms, rules} {
				if res.Values["effective_arrival_rate"] != c.eff || res.Values["max_depth"] != c.depth {
					t.Errorf("effective_arrival_rate %v, max_depth %v; want %v and %v", res.Values["effective_arrival_rate"], res.Values["max_depth"], c.eff, c.depth)
				}
			}
			for name, threshold := range depthThresholds(t, rules.Values["rules"]) {
				if threshold != c.depth {
					t.Errorf("rule %s threshold %v, want %v", name, threshold, c.depth)
				}
			}
			yaml, _ := rules.Values["rule_group_yaml"].(string)
			if !strings.Contains(yaml, `queue_depth) > `+strconv.FormatFloat(c.depth, 'f', -1, 64)+"\n") || !strings.Contains(yaml, c.why) {
				t.Errorf("the rule file does not compare the depth with %v and say %q:\n%s", c.depth, c.why, yaml)
			}
		})
	}
}

// TestSLAExceedsTTLWarning: with the SLA at or beyond the TTL both
// formulas warn, naming both numbers, that messages expire before the SLA
// alarm fires; below it, or without a TTL, neither warns.
func TestSLAExceedsTTLWarning(t *testing.T) {
	for _, c := range []struct {
		sla, ttl float64 // ttl 0: none
		warn     bool
	}{{300, 300, true}, {300, 120, true}, {300, 300.001, false}, {300, 0, false}, {0.5, 0.25, true}} {
		raw := map[string]any{"arrival_rate": 1000.0, "sla_seconds": c.sla, "per_consumer_rate": 50.0, "rto_seconds": 1800.0,
			"retry_rate": 0.2, "avg_retries": 1.0}
		if c.ttl > 0 {
			raw["ttl_seconds"] = c.ttl
		}
		alarms, rules := runBoth(t, raw)
		for face, res := range map[string]capacity.Result{"alarm_thresholds": alarms, "prometheus_rules": rules} {
			exceeds := res.Values["sla_exceeds_ttl"]
			if !c.warn {
				if len(res.Warnings) != 0 || exceeds == true {
					t.Errorf("%s SLA %v TTL %v: warnings %v, sla_exceeds_ttl %v; want none and not true", face, c.sla, c.ttl, res.Warnings, exceeds)
				}
				continue
			}
			if len(res.Warnings) != 1 || exceeds != true {
				t.Fatalf("%s SLA %v TTL %v: warnings %v, sla_exceeds_ttl %v; want one and true", face, c.sla, c.ttl, res.Warnings, exceeds)
			}
			w := res.Warnings[0]
			if w.Summary != "Messages expire before the SLA alarm fires" {
				t.Errorf("%s: summary %q", face, w.Summary)
			}
			for _, words := range []string{"sla_seconds = " + capacity.Decimal(c.sla), "ttl_seconds = " + capacity.Decimal(c.ttl), "expires"} {
				if !strings.Contains(w.Detail, words) {
					t.Errorf("%s: detail %q does not say %q", face, w.Detail, words)
				}
			}
		}
	}
}
