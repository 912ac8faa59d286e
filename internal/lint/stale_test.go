// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
)

// TestStaleRates: a value `queuecap rates` wrote longer ago than
// max_rate_age (90 days unless the config block says) is a notice at the
// value; a younger one, or one a person wrote, is not.
func TestStaleRates(t *testing.T) {
	now := time.Date(2026, 12, 2, 17, 0, 0, 0, time.UTC)
	measured := func(date, name, value string) string {
		return "  # queuecap rates " + date + ": prometheus http://127.0.0.1:9090, p99 of the per-step arrival rates\n" +
			"  #   sum(rate(jobs_enqueued_total[5m]))\n  " + name + " = " + value + "\n"
	}
	queue := func(body string) string { return "queue \"aws_sqs_queue.orders\" {\n" + body + "}\n" }
	cases := []struct {
		name, config string
		want         []string
		err          string
	}{
		{name: "older than 90 days", config: queue(measured("2026-08-01", "arrival_rate", "5000")),
			want: []string{"4: arrival_rate was measured 123 days ago"}},
		{name: "90 days old", config: queue(measured("2026-09-03", "arrival_rate", "5000"))},
		{name: "a person's value", config: queue("  # measured by hand in March\n  arrival_rate = 5000\n")},
		{name: "two rates, one stale", config: queue(measured("2026-12-01", "sla_seconds", "10") + measured("2025-12-02", "arrival_rate", "5000")),
			want: []string{"7: arrival_rate was measured 365 days ago"}},
		{name: "max_rate_age", config: "config {\n  max_rate_age = \"200d\"\n}\n" + queue(measured("2026-08-01", "arrival_rate", "5000"))},
		{name: "max_rate_age exceeded", config: "config {\n  max_rate_age = \"30d\"\n}\n" + queue(measured("2026-10-01", "arrival_rate", "5000")),
			want: []string{"7: arrival_rate was measured 62 days ago"}},
		{name: "a bad max_rate_age", config: "config {\n  max_rate_age = \"0d\"\n}\n", err: `Invalid value for max_rate_age; "0d" is not a positive duration`},
		{name: "not a duration", config: "config {\n  max_rate_age = \"3 months\"\n}\n", err: `Invalid value for max_rate_age; "3 months" is not a duration`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"main.tf": slaAlarm("", ""), ".queuecap.hcl": c.config})
			cfg, diags := lint.LoadConfig(filepath.Join(dir, ".queuecap.hcl"), true, nil)
			if c.err != "" {
				if !strings.Contains(diags.Error(), c.err) {
					t.Errorf("diagnostics %v, want %q", diags, c.err)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			res := lintDir(t, lint.Options{Dirs: []string{dir}, Config: cfg, Now: func() time.Time { return now }})
			var got []string
			for _, is := range res.Issues {
				if is.Rule != lint.StaleRate {
					continue
				}
				if is.Severity != lint.Notice || !strings.HasSuffix(is.Range.Filename, ".queuecap.hcl") || is.Subject != "aws_sqs_queue.orders" ||
					!strings.Contains(is.Message, "queuecap rates --write") {
					t.Errorf("notice %+v", is)
				}
				got = append(got, fmt.Sprintf("%d: %s", is.Range.Start.Line, is.Summary))
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("notices %q, want %q", got, c.want)
			}
		})
	}
}
