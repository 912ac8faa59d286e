// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The rules of these tests: 100 msg/s and a 60 s SLA make an SLA depth of
// 6,000; 10 msg/s per consumer and a 1-minute interval a floor of 600; a
// 600 s RTO a net rate clamp of 600 / 600 = 1 msg/s; the lag is 300 s.
var promtoolInput = map[string]any{
	"arrival_rate": 100.0, "sla_seconds": 60.0, "per_consumer_rate": 10.0, "rto_seconds": 600.0,
	"provisioning_lag_seconds": 300.0, "queue_name": "orders", "age_metric": "queue_oldest_message_age_seconds",
}

// Synthetic series, one sample a minute: counters that start high (so
// that rate() does not extrapolate towards zero) and grow linearly.
const (
	arrivals100    = "1000000+6000x40" // 100 msg/s
	completions100 = "1000000+6000x40" // 100 msg/s: net rate 0
	completions110 = "1000000+6600x40" // 110 msg/s: net rate 10 msg/s
)

type promSeries struct{ metric, values string }

// promEval expects the alert firing at a time with its $value as the
// annotations render it, or quiet when value is "".
type promEval struct{ at, alert, value string }

type promCase struct {
	name   string
	series []promSeries
	evals  []promEval
}

func orders(metric string) string { return metric + `{queue="orders"}` }

// queueSeries is a queue with 100 msg/s arriving.
func queueSeries(depth, completions string) []promSeries {
	return []promSeries{
		{orders("queue_depth"), depth},
		{orders("jobs_enqueued_total"), arrivals100},
		{orders("jobs_completed_total"), completions},
	}
}

var promtoolCases = []promCase{
	{
		name:   "depth above the SLA depth fires",
		series: queueSeries("7000x30", completions110),
		evals:  []promEval{{"5m", "QueueDepthAboveSLA", "7k"}},
	},
	{
		name:   "depth at the SLA depth is quiet",
		series: queueSeries("6000x30", completions110),
		evals:  []promEval{{"5m", "QueueDepthAboveSLA", ""}},
	},
	{
		name:   "oldest message older than the SLA fires",
		series: []promSeries{{orders("queue_oldest_message_age_seconds"), "61x30"}},
		evals:  []promEval{{"5m", "QueueOldestMessageAboveSLA", "1m 1s"}},
	},
	{
		name:   "oldest message at the SLA is quiet",
		series: []promSeries{{orders("queue_oldest_message_age_seconds"), "60x30"}},
		evals:  []promEval{{"5m", "QueueOldestMessageAboveSLA", ""}},
	},
	{
		// Net rate 0 from the first rate at 1m: pending for 15 minutes.
		name:   "not draining above the floor fires after 15 minutes",
		series: queueSeries("1000x40", completions100),
		evals:  []promEval{{"10m", "QueueNotDraining", ""}, {"20m", "QueueNotDraining", "1k"}},
	},
	{
		name:   "not draining at the floor is quiet",
		series: queueSeries("600x40", completions100),
		evals:  []promEval{{"30m", "QueueNotDraining", ""}},
	},
	{
		name:   "draining above the floor is quiet",
		series: queueSeries("1000x40", completions110),
		evals:  []promEval{{"30m", "QueueNotDraining", ""}},
	},
	{
		// 12,000 / 10 msg/s = 1,200 s > 600 s, pending for 10 minutes.
		name:   "drain slower than the RTO fires after 10 minutes",
		series: queueSeries("12000x40", completions110),
		evals:  []promEval{{"5m", "QueueDrainSlowerThanRTO", ""}, {"25m", "QueueDrainSlowerThanRTO", "20m 0s"}},
	},
	{
		// 3,000 / 10 msg/s = 300 s.
		name:   "drain within the RTO is quiet",
		series: queueSeries("3000x40", completions110),
		evals:  []promEval{{"25m", "QueueDrainSlowerThanRTO", ""}},
	},
	{
		// Net rate 0 is clamped at 1 msg/s: 1,000 / 1 = 1,000 s > 600 s.
		name:   "not draining above the floor is slower than the RTO",
		series: queueSeries("1000x40", completions100),
		evals:  []promEval{{"25m", "QueueDrainSlowerThanRTO", "16m 40s"}},
	},
	{
		// 500 / 1 = 500 s: below the floor the clamp keeps it quiet.
		name:   "not draining below the floor is not slower than the RTO",
		series: queueSeries("500x40", completions100),
		evals:  []promEval{{"25m", "QueueDrainSlowerThanRTO", ""}},
	},
	{
		// Depth 4,600 at 6m, rising 10 msg/s: 4,600 + 10 × 300 = 7,600 >
		// 6,000 while the depth itself is still under the SLA depth.
		name:   "projected depth above the SLA depth fires before the depth does",
		series: queueSeries("1000+600x30", completions100),
		evals:  []promEval{{"6m", "QueueProjectedDepthAboveSLA", "7.6k"}, {"6m", "QueueDepthAboveSLA", ""}},
	},
	{
		name:   "flat depth under the SLA depth is not projected above it",
		series: queueSeries("5000x30", completions100),
		evals:  []promEval{{"20m", "QueueProjectedDepthAboveSLA", ""}},
	},
}

// TestPrometheusRulesPromtool runs the real promtool: `check rules` on the
// generated rule file, then `test rules` with synthetic series proving
// that each alert fires when it should and stays quiet when it should not,
// for both projections.
func TestPrometheusRulesPromtool(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Skip("promtool is not installed (Debian: apt-get install prometheus; make test installs it)")
	}
	for _, projection := range []string{ProjectionPredictLinear, ProjectionDeriv} {
		t.Run(projection, func(t *testing.T) {
			raw := map[string]any{"projection": projection}
			for k, v := range promtoolInput {
				raw[k] = v
			}
			res, _, err := PrometheusRulesFormula.Run(raw)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "rules.yml"), valueOf[string](t, res.Values["rule_group_yaml"]))
			runPromtool(t, promtool, dir, "check", "rules", "rules.yml")
			writeFile(t, filepath.Join(dir, "test.yml"), promtoolTests(t, valueOf[[]any](t, res.Values["rules"]), promtoolCases))
			runPromtool(t, promtool, dir, "test", "rules", "test.yml")
		})
	}
}

// TestPrometheusRulesPromtoolEveryQueue checks the rules without
// queue_name: each queue is judged on its own series.
func TestPrometheusRulesPromtoolEveryQueue(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Skip("promtool is not installed (Debian: apt-get install prometheus; make test installs it)")
	}
	res, _, err := PrometheusRulesFormula.Run(map[string]any{"arrival_rate": 100.0, "sla_seconds": 60.0, "per_consumer_rate": 10.0, "rto_seconds": 600.0})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Values["group_name"]; got != DefaultRuleGroupName {
		t.Errorf("group_name = %v, want %s", got, DefaultRuleGroupName)
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "rules.yml"), valueOf[string](t, res.Values["rule_group_yaml"]))
	runPromtool(t, promtool, dir, "check", "rules", "rules.yml")
	cases := []promCase{{
		name: "only the deep queue fires",
		series: []promSeries{
			{`queue_depth{queue="orders",instance="a"}`, "4000x10"}, {`queue_depth{queue="orders",instance="b"}`, "3000x10"},
			{`queue_depth{queue="emails"}`, "100x10"},
		},
		evals: []promEval{{"5m", "QueueDepthAboveSLA", "7k"}},
	}}
	writeFile(t, filepath.Join(dir, "test.yml"), promtoolTests(t, valueOf[[]any](t, res.Values["rules"]), cases))
	runPromtool(t, promtool, dir, "test", "rules", "test.yml")
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func runPromtool(t *testing.T, promtool, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command(promtool, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		rules, _ := os.ReadFile(filepath.Join(dir, "rules.yml"))
		tests, _ := os.ReadFile(filepath.Join(dir, "test.yml"))
		t.Fatalf("promtool %s: %v\n%s\nrules.yml:\n%s\ntest.yml:\n%s", strings.Join(args, " "), err, out, rules, tests)
	}
}

// promtoolTests writes a promtool unit test file. An alert that fires is
// expected with the rule's labels, the queue's label and its annotations
// as Prometheus renders them for the given $value.
func promtoolTests(t *testing.T, rules []any, cases []promCase) string {
	t.Helper()
	byAlert := map[string]map[string]any{}
	for _, r := range rules {
		rule := valueOf[map[string]any](t, r)
		byAlert[valueOf[string](t, rule["alert"])] = rule
	}
	var b strings.Builder
	b.WriteString("rule_files:\n  - rules.yml\nevaluation_interval: 1m\ntests:\n")
	for _, c := range cases {
		fmt.Fprintf(&b, "  - name: %s\n    interval: 1m\n    input_series:\n", strconv.Quote(c.name))
		for _, s := range c.series {
			fmt.Fprintf(&b, "      - series: %s\n        values: %s\n", strconv.Quote(s.metric), strconv.Quote(s.values))
		}
		b.WriteString("    alert_rule_test:\n")
		for _, e := range c.evals {
			rule, ok := byAlert[e.alert]
			if !ok {
				t.Fatalf("%s: no rule %s", c.name, e.alert)
			}
			fmt.Fprintf(&b, "      - eval_time: %s\n        alertname: %s\n", e.at, e.alert)
			if e.value == "" {
				b.WriteString("        exp_alerts: []\n")
				continue
			}
			b.WriteString("        exp_alerts:\n          - exp_labels:\n              queue: \"orders\"\n")
			for k, v := range valueOf[map[string]any](t, rule["labels"]) {
				fmt.Fprintf(&b, "              %s: %s\n", k, strconv.Quote(valueOf[string](t, v)))
			}
			b.WriteString("            exp_annotations:\n")
			for k, v := range valueOf[map[string]any](t, rule["annotations"]) {
				text := strings.NewReplacer("{{ $labels.queue }}", "orders", "{{ $value | humanize }}", e.value,
					"{{ $value | humanizeDuration }}", e.value).Replace(valueOf[string](t, v))
				fmt.Fprintf(&b, "              %s: %s\n", k, strconv.Quote(text))
			}
		}
	}
	return b.String()
}

// valueOf is a catalog value of the type a test expects.
func valueOf[T any](t *testing.T, v any) T {
	t.Helper()
	x, ok := v.(T)
	if !ok {
		t.Fatalf("value %v is a %T, not a %T", v, v, x)
	}
	return x
}
