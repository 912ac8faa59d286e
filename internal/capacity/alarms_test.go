// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

func TestAlarmThresholds(t *testing.T) {
	in := capacity.AlarmInput{ArrivalRate: 5000, SLASeconds: 10, PerConsumerRate: 10, RTOSeconds: 1800,
		ProvisioningLagSeconds: 120, PeriodSeconds: 60, QueueName: "orders", Fleet: capacity.FleetEC2}
	p, err := capacity.AlarmThresholds(in)
	if err != nil {
		t.Fatal(err)
	}
	// Little's law: 5,000 msg/s × 10 s; AWS's target: 10 s × 10 msg/s.
	assertClose(t, "MaxDepth", p.MaxDepth, 50000)
	assertClose(t, "BacklogPerConsumerTarget", p.BacklogPerConsumerTarget, 100)
	assertClose(t, "NotDrainingDepthFloor", p.NotDrainingDepthFloor, 600)
	if p.SLAExceedsTTL != nil {
		t.Errorf("SLAExceedsTTL = %v without a TTL, want nil", *p.SLAExceedsTTL)
	}
	if want := "depth + RATE(depth) * 120"; p.ProjectedDepthExpression != want {
		t.Errorf("ProjectedDepthExpression = %q, want %q", p.ProjectedDepthExpression, want)
	}
	names := []string{}
	for _, a := range p.Alarms {
		names = append(names, a.Name)
		if (a.Metric == nil) == (len(a.Queries) == 0) {
			t.Errorf("alarm %s must have either a metric or metric queries", a.Name)
		}
		returned := 0
		for _, q := range a.Queries {
			if q.ReturnData {
				returned++
			}
			if q.Metric != nil && q.Metric.Dimensions["QueueName"] != "orders" {
				t.Errorf("alarm %s query %s has dimensions %v", a.Name, q.ID, q.Metric.Dimensions)
			}
		}
		if len(a.Queries) > 0 && returned != 1 {
			t.Errorf("alarm %s returns %d queries, want exactly 1", a.Name, returned)
		}
	}
	want := []string{"depth_above_sla", "oldest_message_above_sla", "projected_depth_above_sla", "drain_slower_than_rto", "not_draining"}
	if len(names) != len(want) {
		t.Fatalf("alarms %v, want %v", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Errorf("alarm %d is %s, want %s", i, names[i], want[i])
		}
	}
	// 15 minutes of one-minute periods.
	if nd := p.Alarms[4]; nd.EvaluationPeriods != 15 || nd.DatapointsToAlarm != 15 {
		t.Errorf("not_draining evaluates %d/%d periods, want 15/15", nd.DatapointsToAlarm, nd.EvaluationPeriods)
	}

	in.TTLSeconds, in.SLASeconds, in.DeadLetterQueueName = 5, 10, "orders-dlq"
	p, err = capacity.AlarmThresholds(in)
	if err != nil {
		t.Fatal(err)
	}
	if p.SLAExceedsTTL == nil || !*p.SLAExceedsTTL {
		t.Errorf("SLAExceedsTTL = %v for SLA 10 s and TTL 5 s, want true", p.SLAExceedsTTL)
	}
	if last := p.Alarms[len(p.Alarms)-1]; last.Name != "dead_letter_queue_not_empty" || last.Metric.Dimensions["QueueName"] != "orders-dlq" || last.Threshold != 0 {
		t.Errorf("last alarm = %+v, want the dead-letter queue alarm on orders-dlq", last)
	}
}

func TestAlarmThresholdsInvalid(t *testing.T) {
	valid := capacity.AlarmInput{ArrivalRate: 1, SLASeconds: 1, PerConsumerRate: 1, RTOSeconds: 1, ProvisioningLagSeconds: 0, PeriodSeconds: 60}
	cases := []struct {
		name  string
		edit  func(*capacity.AlarmInput)
		field string
	}{
		{"period not accepted by CloudWatch", func(in *capacity.AlarmInput) { in.PeriodSeconds = 45 }, "period_seconds"},
		{"zero period", func(in *capacity.AlarmInput) { in.PeriodSeconds = 0 }, "period_seconds"},
		{"negative lag", func(in *capacity.AlarmInput) { in.ProvisioningLagSeconds = -1 }, "provisioning_lag_seconds"},
		{"zero SLA", func(in *capacity.AlarmInput) { in.SLASeconds = 0 }, "sla_seconds"},
		{"zero μ", func(in *capacity.AlarmInput) { in.PerConsumerRate = 0 }, "per_consumer_rate"},
		{"zero RTO", func(in *capacity.AlarmInput) { in.RTOSeconds = 0 }, "rto_seconds"},
		{"negative TTL", func(in *capacity.AlarmInput) { in.TTLSeconds = -1 }, "ttl_seconds"},
		{"unknown fleet", func(in *capacity.AlarmInput) { in.Fleet = "lambda" }, "fleet"},
		{"floor overflows", func(in *capacity.AlarmInput) { in.PerConsumerRate, in.PeriodSeconds = 1e307, 86400 }, "per_consumer_rate"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := valid
			tc.edit(&in)
			_, err := capacity.AlarmThresholds(in)
			assertInputError(t, err, tc.field)
		})
	}
	// Zero lag is valid: consumers that start at once.
	if _, err := capacity.AlarmThresholds(valid); err != nil {
		t.Errorf("zero provisioning lag: %v", err)
	}
}

// Retried messages arrive again: the SLA depth counts λ_eff, as the
// headroom formula does, and every alarm says how it treats missing data.
func TestAlarmThresholdsRetries(t *testing.T) {
	cases := []struct {
		name              string
		retries           capacity.Retries
		wantEff, wantDeep float64
	}{
		{"none", capacity.Retries{}, 5000, 50000},
		{"a fifth retried twice", capacity.Retries{Rate: 0.2, Average: 2}, 7000, 70000},
		{"every message once", capacity.Retries{Rate: 1, Average: 1}, 10000, 100000},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := capacity.AlarmThresholds(capacity.AlarmInput{ArrivalRate: 5000, Retries: tc.retries, SLASeconds: 10, PerConsumerRate: 10,
				RTOSeconds: 1800, PeriodSeconds: 60, DeadLetterQueueName: "dlq"})
			if err != nil {
				t.Fatal(err)
			}
			assertClose(t, "EffectiveArrivalRate", p.EffectiveArrivalRate, tc.wantEff)
			assertClose(t, "MaxDepth", p.MaxDepth, tc.wantDeep)
			assertClose(t, "depth_above_sla threshold", p.Alarms[0].Threshold, tc.wantDeep)
			assertClose(t, "projected_depth_above_sla threshold", p.Alarms[2].Threshold, tc.wantDeep)
			for _, a := range p.Alarms {
				if a.TreatMissingData != capacity.MissingNotBreaching || a.MissingDataReason == "" ||
					!strings.Contains(a.Description, "Missing data is treated as notBreaching: ") {
					t.Errorf("alarm %s: treat_missing_data %q, reason %q, description %q", a.Name, a.TreatMissingData, a.MissingDataReason, a.Description)
				}
			}
		})
	}
	for _, bad := range []struct {
		retries capacity.Retries
		field   string
	}{{capacity.Retries{Rate: 1.5}, "retry_rate"}, {capacity.Retries{Rate: 0.5, Average: -1}, "avg_retries"}} {
		_, err := capacity.AlarmThresholds(capacity.AlarmInput{ArrivalRate: 1, Retries: bad.retries, SLASeconds: 1, PerConsumerRate: 1, RTOSeconds: 1, PeriodSeconds: 60})
		assertInputError(t, err, bad.field)
	}
}

// TestEveryAlarmSaysWhyMissingData: each alarm, the dead-letter queue's
// included, has its own reason for its treatment of missing data, and its
// description ends with it.
func TestEveryAlarmSaysWhyMissingData(t *testing.T) {
	p, err := capacity.AlarmThresholds(capacity.AlarmInput{ArrivalRate: 5000, SLASeconds: 10, PerConsumerRate: 10, RTOSeconds: 1800,
		PeriodSeconds: 60, QueueName: "orders", DeadLetterQueueName: "orders-dlq", Fleet: capacity.FleetEC2})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Alarms) != 6 {
		t.Fatalf("%d alarms, want 6 with a dead-letter queue", len(p.Alarms))
	}
	seen := map[string]string{}
	for _, a := range p.Alarms {
		if a.MissingDataReason == "" || a.TreatMissingData != capacity.MissingNotBreaching {
			t.Errorf("%s: treat_missing_data %q for the reason %q", a.Name, a.TreatMissingData, a.MissingDataReason)
		}
		if other, dup := seen[a.MissingDataReason]; dup {
			t.Errorf("%s gives %s's reason", a.Name, other)
		}
		seen[a.MissingDataReason] = a.Name
		if !strings.HasSuffix(a.Description, "Missing data is treated as notBreaching: "+a.MissingDataReason) {
			t.Errorf("%s: description %q does not end with its reason", a.Name, a.Description)
		}
	}
}

// TestAlarmMaxDepthRoundedOnce: the SLA depth is λ_eff × SLA from the
// exact λ_eff, rounded once. λ_eff = 100,000,000,000,001 × 1.5 is
// 150,000,000,000,001.5, and × 3 it is 450,000,000,000,004.5, which
// rounds to …005; from λ_eff rounded first (…002) it came out as …006.
func TestAlarmMaxDepthRoundedOnce(t *testing.T) {
	p, err := capacity.AlarmThresholds(capacity.AlarmInput{ArrivalRate: 100000000000001, Retries: capacity.Retries{Rate: 0.5, Average: 1},
		SLASeconds: 3, PerConsumerRate: 1, RTOSeconds: 60, PeriodSeconds: 60})
	if err != nil {
		t.Fatal(err)
	}
	if p.EffectiveArrivalRate != 150000000000002 || p.MaxDepth != 450000000000005 || p.ProjectedDepthThreshold != 450000000000005 {
		t.Errorf("λ_eff %v, max depth %v, projected threshold %v; want 150000000000002, 450000000000005 twice",
			p.EffectiveArrivalRate, p.MaxDepth, p.ProjectedDepthThreshold)
	}
	// The depth queuecap_depth_alarm_after_sla holds a threshold to.
	if d, err := capacity.EffectiveSLAMaxDepth(100000000000001, capacity.Retries{Rate: 0.5, Average: 1}, 3); err != nil || d != 450000000000005 {
		t.Errorf("EffectiveSLAMaxDepth = %v, %v; want 450000000000005", d, err)
	}
	_, err = capacity.EffectiveSLAMaxDepth(1, capacity.Retries{}, 0)
	assertInputError(t, err, "sla_seconds")
}
