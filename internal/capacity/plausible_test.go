// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// TestSizingWarnings: a sizing that looks like a unit mistake names the
// input; one that looks like a plan says nothing.
func TestSizingWarnings(t *testing.T) {
	for _, c := range []struct {
		name string
		in   capacity.SizingInput
		want []string // one substring per warning, in order; nil for none
	}{
		{"RTO 15 meant as minutes", capacity.SizingInput{ArrivalRate: 2500, PerConsumerRate: 90, MaxBacklog: 3e6, RTOSeconds: 15},
			[]string{"required_consumers = 2,250 is 80.4 times the steady state's 28 (overhead 7,936 %): the backlog term max_backlog / (per_consumer_rate × rto_seconds) sets it, 3,000,000 messages within 15 s. rto_seconds is in seconds: if 15 was meant as minutes, write 900, which needs 65 consumers."}},
		{"a backlog no RTO in minutes explains", capacity.SizingInput{ArrivalRate: 10, PerConsumerRate: 1, MaxBacklog: 1e9, RTOSeconds: 3600},
			[]string{"Check that rto_seconds is in seconds and max_backlog in messages."}},
		{"an RTO shorter than one message", capacity.SizingInput{ArrivalRate: 1, PerConsumerRate: 0.05, MaxBacklog: 10, RTOSeconds: 15},
			[]string{"rto_seconds = 15 s, but one consumer takes 1 / per_consumer_rate = 20 s for one message"}},
		{"MATH.md's example", capacity.SizingInput{ArrivalRate: 10000, PerConsumerRate: 400, MaxBacklog: 5e6, RTOSeconds: 1800}, nil},
		{"no backlog", capacity.SizingInput{ArrivalRate: 10000, PerConsumerRate: 400, MinHeadroom: 9}, nil},
	} {
		s, err := capacity.Size(c.in)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := capacity.SizingWarnings(c.in, s)
		if len(got) != len(c.want) {
			t.Errorf("%s: %d warnings %v, want %d", c.name, len(got), got, len(c.want))
			continue
		}
		for i, w := range c.want {
			if !strings.Contains(got[i].Detail, w) {
				t.Errorf("%s: warning %q, want it to say %q", c.name, got[i].Detail, w)
			}
		}
	}
}

// TestSLAShorterThanServiceWarning: an SLA shorter than one message's
// processing time warns, from alarm_thresholds, prometheus_rules and
// fleet alike; one at least that long does not.
func TestSLAShorterThanServiceWarning(t *testing.T) {
	args := map[string]any{"arrival_rate": 100.0, "sla_seconds": 15.0, "per_consumer_rate": 0.05, "rto_seconds": 900.0}
	for _, f := range []*capacity.Formula{capacity.AlarmThresholdsFormula, capacity.PrometheusRulesFormula, capacity.FleetFormula} {
		raw := map[string]any{}
		for k, v := range args {
			if f.Input(k) != nil {
				raw[k] = v
			}
		}
		res, _, err := f.Run(raw)
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		found := false
		for _, w := range res.Warnings {
			found = found || strings.Contains(w.Detail, "sla_seconds = 15 s, but one consumer takes 1 / per_consumer_rate = 20 s for one message")
		}
		if !found {
			t.Errorf("%s: warnings %v, want one that sla_seconds is shorter than a message", f.Name, res.Warnings)
		}
	}
	if w := capacity.SLAShorterThanServiceWarning(20, 0.05); w != nil {
		t.Errorf("an SLA of exactly one message's time warns: %v", w)
	}
}
