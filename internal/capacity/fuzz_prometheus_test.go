// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// FuzzPrometheusRules: any queue name, severity, group name or label
// either fails as an *InputError on an input of the formula or gives a
// rule file whose lines are only the ones ruleFileYAML writes (no name can
// break a quoted scalar or a literal block), with finite thresholds.
func FuzzPrometheusRules(f *testing.F) {
	f.Add(5000.0, 10.0, 400.0, 1800.0, 180.0, "orders", "page", "", "queue")
	f.Add(0.0, 1e-300, 1e300, 1e-300, 0.0, "or\"ders\\\n#: {{x}}", "", "g\u2028", "q")
	f.Add(1.0, 1.0, 1.0, 1.0, 1.0, "", "\x00", "x", "__name__")
	f.Fuzz(func(t *testing.T, lambda, sla, mu, rto, lag float64, queue, severity, group, label string) {
		if !utf8.ValidString(queue) || !utf8.ValidString(severity) || !utf8.ValidString(group) || !utf8.ValidString(label) {
			t.Skip("Terraform strings are UTF-8")
		}
		raw := map[string]any{"arrival_rate": lambda, "sla_seconds": sla, "per_consumer_rate": mu, "rto_seconds": rto,
			"provisioning_lag_seconds": lag, "queue_name": queue, "severity": severity, "queue_label": label, "age_metric": "age"}
		if group != "" {
			raw["group_name"] = group
		}
		res, _, err := capacity.PrometheusRulesFormula.Run(raw)
		if err != nil {
			names := []string{}
			for _, in := range capacity.PrometheusRulesFormula.Inputs {
				names = append(names, in.Name)
			}
			checkFuzzError(t, err, names...)
			return
		}
		checkFinite(t, map[string]any{"max_depth": res.Values["max_depth"], "net_rate_clamp": res.Values["net_rate_clamp"],
			"not_draining_depth_floor": res.Values["not_draining_depth_floor"]})
		yaml, _ := res.Values["rule_group_yaml"].(string)
		for _, line := range strings.Split(strings.TrimSuffix(yaml, "\n"), "\n") {
			if !yamlLine(line) {
				t.Fatalf("unexpected line %q in\n%s", line, yaml)
			}
		}
	})
}

// yamlLine reports whether a line is one ruleFileYAML writes: a key of the
// file, or an expression line inside its literal block.
func yamlLine(line string) bool {
	for _, prefix := range []string{"groups:", "  - name: \"", "    interval: ", "    rules:", "      - alert: Queue", "        expr: |-",
		"        for: ", "        labels:", "          severity: \"", "        annotations:", "          summary: \"", "          description: \""} {
		if strings.HasPrefix(line, prefix) {
			return !strings.ContainsFunc(line, func(r rune) bool { return r < ' ' || r == 0x7f })
		}
	}
	body, ok := strings.CutPrefix(line, "          ")
	return ok && body != "" && body[0] != ' ' && !strings.ContainsFunc(body, func(r rune) bool { return r < ' ' || r == 0x7f })
}
