// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestPrometheusRules(t *testing.T) {
	res, args, err := PrometheusRulesFormula.Run(map[string]any{"arrival_rate": 5000.0, "sla_seconds": 10.0, "per_consumer_rate": 400.0, "rto_seconds": 1800.0})
	if err != nil {
		t.Fatal(err)
	}
	v := res.Values
	// SLA depth 5,000 × 10 (the seed's 50,000); floor 400 × 60; clamp 24,000 / 1,800,
	// rounded once to 15 significant digits, as the PromQL writes it too.
	for name, want := range map[string]any{"max_depth": 50000.0, "not_draining_depth_floor": 24000.0, "net_rate_clamp": 13.3333333333333, "group_name": "queuecap"} {
		if v[name] != want {
			t.Errorf("%s = %v, want %v", name, v[name], want)
		}
	}
	if args.Str("projection") != ProjectionPredictLinear || args.Num("rate_window_seconds") != 600 {
		t.Errorf("defaults not applied: %v", args)
	}
	wantExprs := map[string]string{
		"QueueNotDraining": "sum by (queue) (queue_depth) > 24000\nand on (queue)\n" +
			"(sum by (queue) (rate(jobs_completed_total[10m])) - sum by (queue) (rate(jobs_enqueued_total[10m]))) <= 0",
		"QueueDrainSlowerThanRTO": "sum by (queue) (queue_depth)\n" +
			"/ clamp_min(sum by (queue) (rate(jobs_completed_total[10m])) - sum by (queue) (rate(jobs_enqueued_total[10m])), 13.3333333333333)\n> 1800",
		"QueueDepthAboveSLA":          "sum by (queue) (queue_depth) > 50000",
		"QueueProjectedDepthAboveSLA": "sum by (queue) (predict_linear(queue_depth[10m], 180))\n> 50000",
	}
	rules := valueOf[[]any](t, v["rules"])
	if len(rules) != len(wantExprs) {
		t.Fatalf("%d rules, want %d (no age alert without age_metric)", len(rules), len(wantExprs))
	}
	for _, r := range rules {
		rule := valueOf[map[string]any](t, r)
		if got, want := rule["expr"], wantExprs[valueOf[string](t, rule["alert"])]; got != want {
			t.Errorf("%s expr:\n%s\nwant:\n%s", rule["alert"], got, want)
		}
	}
	if f := valueOf[map[string]any](t, rules[0])["for"]; f != "15m" {
		t.Errorf("QueueNotDraining for = %v, want 15m", f)
	}
	if f := valueOf[map[string]any](t, rules[2])["for"]; f != nil {
		t.Errorf("QueueDepthAboveSLA for = %v, want null", f)
	}
}

func TestPrometheusRulesInvalid(t *testing.T) {
	base := map[string]any{"arrival_rate": 1.0, "sla_seconds": 1.0, "per_consumer_rate": 1.0, "rto_seconds": 1.0}
	for _, c := range []struct {
		field string
		value any
	}{
		{"depth_metric", "queue-depth"},
		{"enqueued_metric", "1jobs"},
		{"completed_metric", ""},
		{"age_metric", "age seconds"},
		{"queue_label", "__name__"},
		{"queue_label", "queue:name"},
		{"not_draining_depth_floor", -1.0},
		{"group_name", ""},
	} {
		t.Run(c.field, func(t *testing.T) {
			raw := map[string]any{c.field: c.value}
			for k, v := range base {
				raw[k] = v
			}
			_, _, err := PrometheusRulesFormula.Run(raw)
			var in *InputError
			if !errors.As(err, &in) || in.Field != c.field {
				t.Fatalf("err = %v, want an InputError on %s", err, c.field)
			}
		})
	}
}

// TestPrometheusRulesQuoting checks that a queue name with quotes,
// backslashes and YAML's special characters stays one PromQL string in a
// rule file promtool accepts.
func TestPrometheusRulesQuoting(t *testing.T) {
	name := `or"ders\ #: {{x}} 'q'`
	res, _, err := PrometheusRulesFormula.Run(map[string]any{"arrival_rate": 1.0, "sla_seconds": 1.0, "per_consumer_rate": 1.0, "rto_seconds": 1.0,
		"queue_name": name, "severity": `"page": now`})
	if err != nil {
		t.Fatal(err)
	}
	yaml := valueOf[string](t, res.Values["rule_group_yaml"])
	if !strings.Contains(yaml, `queue_depth{queue="or\"ders\\ #: {{x}} 'q'"}`) {
		t.Errorf("queue selector not quoted:\n%s", yaml)
	}
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Skip("promtool is not installed")
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "rules.yml"), yaml)
	runPromtool(t, promtool, dir, "check", "rules", "rules.yml")
}

// TestNetRateClampRoundedOnce: with the default floor, the clamp is
// per_consumer_rate × evaluation_interval_seconds / rto_seconds rounded
// once: 391,775,464,250,121 × 3 / 47 is 25,006,944,526,603.468…, where
// the floor rounded first (1,175,326,392,750,360) gave …603.4.
func TestNetRateClampRoundedOnce(t *testing.T) {
	g, err := PrometheusRules(PrometheusInput{ArrivalRate: 1, SLASeconds: 1, PerConsumerRate: 391775464250121, RTOSeconds: 47,
		DepthMetric: DefaultDepthMetric, EnqueuedMetric: DefaultEnqueuedMetric, CompletedMetric: DefaultCompletedMetric, QueueLabel: DefaultQueueLabel,
		RateWindowSeconds: DefaultRateWindowSeconds, EvaluationIntervalSeconds: 3})
	if err != nil {
		t.Fatal(err)
	}
	if g.DepthFloor != 1175326392750360 || g.NetRateClamp != 25006944526603.5 {
		t.Errorf("floor %v, clamp %v; want 1175326392750360 and 25006944526603.5", g.DepthFloor, g.NetRateClamp)
	}
}

// TestShowRoundsHalvesAway: the annotations' four digits are of the
// decimal, halves away from zero, as every rounding of queuecap; not of
// the binary value, half to even (9.4545 was 9.454, 1234.5 a whole-looking
// 1234).
func TestShowRoundsHalvesAway(t *testing.T) {
	for v, want := range map[float64]string{9.4545: "9.455", 1234.5: "1235", 1200.5: "1201", 100.25: "100.3", 1.0625: "1.063",
		0.00012345: "0.0001235", 13.3333333333333: "13.33", 9.9996: "10", 2.5: "2.5", 50000: "50000",
		12345.6: "12345.6", 9999.5: "9999.5", 0.000012345: "0.000012345"} {
		if got := show(v); got != want {
			t.Errorf("show(%v) = %s, want %s", v, got, want)
		}
	}
}
