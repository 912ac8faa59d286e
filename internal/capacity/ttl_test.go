// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// ttlCases are the incident backlog examples. FuzzBacklogWithTTL seeds from
// them. Unbounded = max(0, λ_eff − d) · T_inc, bounded = min(that, λ_eff · TTL).
var ttlCases = []struct {
	name string
	in   capacity.TTLInput
	want capacity.TTLBacklog
}{
	{
		// 1,200 in, 1,000 out for 15 min: (1,200 − 1,000) × 900 = 180,000.
		// A TTL of 1e9 s never binds.
		name: "backlog build-up, TTL too long to matter",
		in:   capacity.TTLInput{ArrivalRate: 1200, DegradedCompletionRate: 1000, IncidentSeconds: 900, TTLSeconds: 1e9},
		want: capacity.TTLBacklog{EffectiveArrivalRate: 1200, UnboundedBacklog: 180000, TTLBoundedBacklog: 180000, TTLBoundApplies: false},
	},
	{
		// Window 1,200 × 60 = 72,000 < 180,000.
		name: "backlog build-up, TTL 60 s",
		in:   capacity.TTLInput{ArrivalRate: 1200, DegradedCompletionRate: 1000, IncidentSeconds: 900, TTLSeconds: 60},
		want: capacity.TTLBacklog{EffectiveArrivalRate: 1200, UnboundedBacklog: 180000, TTLBoundedBacklog: 72000, TTLBoundApplies: true},
	},
	{
		// Window 1,200 × 150 = 180,000, equal: the bound is not smaller.
		name: "TTL window equals the backlog",
		in:   capacity.TTLInput{ArrivalRate: 1200, DegradedCompletionRate: 1000, IncidentSeconds: 900, TTLSeconds: 150},
		want: capacity.TTLBacklog{EffectiveArrivalRate: 1200, UnboundedBacklog: 180000, TTLBoundedBacklog: 180000, TTLBoundApplies: false},
	},
	{
		// 1,200 × 900 = 1,080,000 unbounded; window 1,200 × 300 = 360,000.
		name: "full outage",
		in:   capacity.TTLInput{ArrivalRate: 1200, IncidentSeconds: 900, TTLSeconds: 300},
		want: capacity.TTLBacklog{EffectiveArrivalRate: 1200, UnboundedBacklog: 1080000, TTLBoundedBacklog: 360000, TTLBoundApplies: true},
	},
	{
		// λ_eff = 1,000 × 1.4 = 1,400; (1,400 − 1,000) × 900 = 360,000;
		// window 1,400 × 100 = 140,000.
		name: "retries",
		in: capacity.TTLInput{ArrivalRate: 1000, DegradedCompletionRate: 1000, IncidentSeconds: 900, TTLSeconds: 100,
			Retries: capacity.Retries{Rate: 0.2, Average: 2}},
		want: capacity.TTLBacklog{EffectiveArrivalRate: 1400, UnboundedBacklog: 360000, TTLBoundedBacklog: 140000, TTLBoundApplies: true},
	},
	{
		name: "degraded completion keeps up",
		in:   capacity.TTLInput{ArrivalRate: 800, DegradedCompletionRate: 1000, IncidentSeconds: 900, TTLSeconds: 60},
		want: capacity.TTLBacklog{EffectiveArrivalRate: 800, UnboundedBacklog: 0, TTLBoundedBacklog: 0, TTLBoundApplies: false},
	},
	{
		// Arrivals exceed completion only by float64 rounding: no backlog,
		// not (0.30000000000000004 − 0.3) × 1e15 ≈ 0.056 messages.
		// The decimals as typed: 4e-17 msg/s more than completes, for
		// 1e15 s (the effective rate is written to 15 digits).
		name: "arrival above completion in the 17th digit",
		in:   capacity.TTLInput{ArrivalRate: 0.30000000000000004, DegradedCompletionRate: 0.3, IncidentSeconds: 1e15, TTLSeconds: 1e9},
		want: capacity.TTLBacklog{EffectiveArrivalRate: 0.3, UnboundedBacklog: 0.04, TTLBoundedBacklog: 0.04, TTLBoundApplies: false},
	},
	{
		// 0.1 × (1 + 1 × 2) is 0.3 exactly: the degraded fleet keeps up.
		name: "effective arrival equals completion",
		in:   capacity.TTLInput{ArrivalRate: 0.1, Retries: capacity.Retries{Rate: 1, Average: 2}, DegradedCompletionRate: 0.3, IncidentSeconds: 1e15, TTLSeconds: 1e9},
		want: capacity.TTLBacklog{EffectiveArrivalRate: 0.3, UnboundedBacklog: 0, TTLBoundedBacklog: 0, TTLBoundApplies: false},
	},
	{
		name: "no arrivals",
		in:   capacity.TTLInput{ArrivalRate: 0, IncidentSeconds: 900, TTLSeconds: 60},
		want: capacity.TTLBacklog{},
	},
	{
		name: "no incident",
		in:   capacity.TTLInput{ArrivalRate: 1200, IncidentSeconds: 0, TTLSeconds: 60},
		want: capacity.TTLBacklog{EffectiveArrivalRate: 1200},
	},
	{
		name: "huge but representable",
		in:   capacity.TTLInput{ArrivalRate: 1e300, IncidentSeconds: 100, TTLSeconds: 10},
		want: capacity.TTLBacklog{EffectiveArrivalRate: 1e300, UnboundedBacklog: 1e302, TTLBoundedBacklog: 1e301, TTLBoundApplies: true},
	},
	{
		name: "tiny",
		in:   capacity.TTLInput{ArrivalRate: 1e-300, IncidentSeconds: 100, TTLSeconds: 10},
		want: capacity.TTLBacklog{EffectiveArrivalRate: 1e-300, UnboundedBacklog: 1e-298, TTLBoundedBacklog: 1e-299, TTLBoundApplies: true},
	},
}

func TestBacklogWithTTL(t *testing.T) {
	for _, tt := range ttlCases {
		t.Run(tt.name, func(t *testing.T) {
			got, err := capacity.BacklogWithTTL(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			assertClose(t, "EffectiveArrivalRate", got.EffectiveArrivalRate, tt.want.EffectiveArrivalRate)
			assertClose(t, "UnboundedBacklog", got.UnboundedBacklog, tt.want.UnboundedBacklog)
			assertClose(t, "TTLBoundedBacklog", got.TTLBoundedBacklog, tt.want.TTLBoundedBacklog)
			if got.TTLBoundApplies != tt.want.TTLBoundApplies {
				t.Errorf("TTLBoundApplies = %v, want %v", got.TTLBoundApplies, tt.want.TTLBoundApplies)
			}
		})
	}
}
