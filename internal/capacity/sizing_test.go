// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// sizingCases are the headroom-formula examples. FuzzSize seeds from them.
var sizingCases = []struct {
	name string
	in   capacity.SizingInput
	want capacity.Sizing
}{
	{
		// C = 25 × 400 = 10,000 = λ: S 0, a backlog would never drain.
		// With no backlog to clear, DrainSeconds is 0.
		name: "zero surplus",
		in:   capacity.SizingInput{ArrivalRate: 10000, PerConsumerRate: 400},
		want: capacity.Sizing{EffectiveArrivalRate: 10000, SteadyStateConsumers: 25, RequiredConsumers: 25,
			Capacity: 10000, Surplus: 0, Utilization: 1, Headroom: ptr(0.0), Overhead: ptr(0.0), DrainSeconds: ptr(0.0)},
	},
	{
		// 10,000/400 + 5,000,000/(400 × 1,800) = 25 + 6.944… = 31.94 → 32.
		// C 12,800, S 2,800, ρ 10,000/12,800 = 0.78125, h 2,800/10,000 = 0.28,
		// overhead 32/25 − 1 = 0.28, drain 5 M / 2,800 = 1,785.714… s < RTO.
		name: "headroom formula",
		in:   capacity.SizingInput{ArrivalRate: 10000, PerConsumerRate: 400, MaxBacklog: 5e6, RTOSeconds: 1800},
		want: capacity.Sizing{EffectiveArrivalRate: 10000, SteadyStateConsumers: 25, RequiredConsumers: 32,
			Capacity: 12800, Surplus: 2800, Utilization: 0.78125, Headroom: ptr(0.28), Overhead: ptr(0.28),
			DrainSeconds: ptr(1785.7142857142857)},
	},
	{
		// ceil(2.5 + 1.5) = 4, not ceil(2.5) + ceil(1.5) = 5. Steady ceil(2.5) = 3.
		// C 400, S 150, ρ 0.625, h 0.6, overhead 4/3 − 1, drain 150/150 = 1 s = RTO.
		name: "ceiling of the sum, not the sum of ceilings",
		in:   capacity.SizingInput{ArrivalRate: 250, PerConsumerRate: 100, MaxBacklog: 150, RTOSeconds: 1},
		want: capacity.Sizing{EffectiveArrivalRate: 250, SteadyStateConsumers: 3, RequiredConsumers: 4,
			Capacity: 400, Surplus: 150, Utilization: 0.625, Headroom: ptr(0.6), Overhead: ptr(0.3333333333333333),
			DrainSeconds: ptr(1.0)},
	},
	{
		// λ_eff = 10,000 × (1 + 0.2 × 2) = 14,000 → 35 consumers.
		name: "retries",
		in:   capacity.SizingInput{ArrivalRate: 10000, PerConsumerRate: 400, Retries: capacity.Retries{Rate: 0.2, Average: 2}},
		want: capacity.Sizing{EffectiveArrivalRate: 14000, SteadyStateConsumers: 35, RequiredConsumers: 35,
			Capacity: 14000, Surplus: 0, Utilization: 1, Headroom: ptr(0.0), Overhead: ptr(0.0), DrainSeconds: ptr(0.0)},
	},
	{
		// ceil(25 × 1.5) = ceil(37.5) = 38. C 15,200, S 5,200, ρ 10,000/15,200,
		// h 0.52, overhead 38/25 − 1 = 0.52.
		name: "min headroom floor",
		in:   capacity.SizingInput{ArrivalRate: 10000, PerConsumerRate: 400, MinHeadroom: 0.5},
		want: capacity.Sizing{EffectiveArrivalRate: 10000, SteadyStateConsumers: 25, RequiredConsumers: 38,
			Capacity: 15200, Surplus: 5200, Utilization: 0.6578947368421053, Headroom: ptr(0.52), Overhead: ptr(0.52),
			DrainSeconds: ptr(0.0)},
	},
	{
		// Floor ceil(25 × 1.2) = 30 is below the backlog formula's 32.
		name: "min headroom below the backlog term",
		in:   capacity.SizingInput{ArrivalRate: 10000, PerConsumerRate: 400, MaxBacklog: 5e6, RTOSeconds: 1800, MinHeadroom: 0.2},
		want: capacity.Sizing{EffectiveArrivalRate: 10000, SteadyStateConsumers: 25, RequiredConsumers: 32,
			Capacity: 12800, Surplus: 2800, Utilization: 0.78125, Headroom: ptr(0.28), Overhead: ptr(0.28),
			DrainSeconds: ptr(1785.7142857142857)},
	},
	{
		// Floor ceil(25 × 1.3) = ceil(32.5) = 33 beats 32. C 13,200, S 3,200,
		// ρ 10,000/13,200, h 0.32, drain 5 M / 3,200 = 1,562.5 s.
		name: "min headroom above the backlog term",
		in:   capacity.SizingInput{ArrivalRate: 10000, PerConsumerRate: 400, MaxBacklog: 5e6, RTOSeconds: 1800, MinHeadroom: 0.3},
		want: capacity.Sizing{EffectiveArrivalRate: 10000, SteadyStateConsumers: 25, RequiredConsumers: 33,
			Capacity: 13200, Surplus: 3200, Utilization: 0.7575757575757576, Headroom: ptr(0.32), Overhead: ptr(0.32),
			DrainSeconds: ptr(1562.5)},
	},
	{
		// Headroom (÷ λ_eff) and overhead (÷ steady) are undefined: nil.
		name: "zero arrival",
		in:   capacity.SizingInput{ArrivalRate: 0, PerConsumerRate: 400},
		want: capacity.Sizing{EffectiveArrivalRate: 0, SteadyStateConsumers: 0, RequiredConsumers: 0,
			Capacity: 0, Surplus: 0, Utilization: 0, Headroom: nil, Overhead: nil, DrainSeconds: ptr(0.0)},
	},
	{
		// 0 + 8,000/(400 × 10) = 2 consumers, C 800, drain 8,000/800 = 10 s.
		name: "zero arrival with a backlog",
		in:   capacity.SizingInput{ArrivalRate: 0, PerConsumerRate: 400, MaxBacklog: 8000, RTOSeconds: 10, MinHeadroom: 0.5},
		want: capacity.Sizing{EffectiveArrivalRate: 0, SteadyStateConsumers: 0, RequiredConsumers: 2,
			Capacity: 800, Surplus: 800, Utilization: 0, Headroom: nil, Overhead: nil, DrainSeconds: ptr(10.0)},
	},
	{
		// 0.3/0.1 is 2.9999999999999996 in float64 and 3 × 0.1 is
		// 0.30000000000000004: 3 consumers with exactly zero surplus.
		name: "0.3 / 0.1 is 3",
		in:   capacity.SizingInput{ArrivalRate: 0.3, PerConsumerRate: 0.1},
		want: capacity.Sizing{EffectiveArrivalRate: 0.3, SteadyStateConsumers: 3, RequiredConsumers: 3,
			Capacity: 0.3, Surplus: 0, Utilization: 1, Headroom: ptr(0.0), Overhead: ptr(0.0), DrainSeconds: ptr(0.0)},
	},
	{
		// 4.2/0.6 is 7.000000000000001 in float64: 7 consumers, not 8.
		name: "4.2 / 0.6 is 7, not 8",
		in:   capacity.SizingInput{ArrivalRate: 4.2, PerConsumerRate: 0.6},
		want: capacity.Sizing{EffectiveArrivalRate: 4.2, SteadyStateConsumers: 7, RequiredConsumers: 7,
			Capacity: 4.2, Surplus: 0, Utilization: 1, Headroom: ptr(0.0), Overhead: ptr(0.0), DrainSeconds: ptr(0.0)},
	},
	{
		// On paper 1.2/0.7 + 1.7/(0.7 × 0.1) = 12/7 + 170/7 = 26; float64 makes
		// it 26.000000000000004, which must not become 27. Steady ceil(12/7) = 2.
		// C 26 × 0.7 = 18.2, S 17, ρ 1.2/18.2, h 17/1.2, overhead 26/2 − 1 = 12,
		// drain 1.7/17 = 0.1 s = RTO.
		name: "sum that is an integer on paper",
		in:   capacity.SizingInput{ArrivalRate: 1.2, PerConsumerRate: 0.7, MaxBacklog: 1.7, RTOSeconds: 0.1},
		want: capacity.Sizing{EffectiveArrivalRate: 1.2, SteadyStateConsumers: 2, RequiredConsumers: 26,
			Capacity: 18.2, Surplus: 17, Utilization: 0.06593406593406594, Headroom: ptr(14.166666666666666),
			Overhead: ptr(12.0), DrainSeconds: ptr(0.1)},
	},
	{
		name: "largest supported count",
		in:   capacity.SizingInput{ArrivalRate: 9007199254740992, PerConsumerRate: 1},
		want: capacity.Sizing{EffectiveArrivalRate: 9007199254740992, SteadyStateConsumers: capacity.MaxCount,
			RequiredConsumers: capacity.MaxCount, Capacity: 9007199254740992, Surplus: 0, Utilization: 1,
			Headroom: ptr(0.0), Overhead: ptr(0.0), DrainSeconds: ptr(0.0)},
	},
	{
		name: "huge rates, one consumer",
		in:   capacity.SizingInput{ArrivalRate: 1e300, PerConsumerRate: 1e300},
		want: capacity.Sizing{EffectiveArrivalRate: 1e300, SteadyStateConsumers: 1, RequiredConsumers: 1,
			Capacity: 1e300, Surplus: 0, Utilization: 1, Headroom: ptr(0.0), Overhead: ptr(0.0), DrainSeconds: ptr(0.0)},
	},
	{
		name: "tiny rates, one consumer",
		in:   capacity.SizingInput{ArrivalRate: 1e-300, PerConsumerRate: 1e-300},
		want: capacity.Sizing{EffectiveArrivalRate: 1e-300, SteadyStateConsumers: 1, RequiredConsumers: 1,
			Capacity: 1e-300, Surplus: 0, Utilization: 1, Headroom: ptr(0.0), Overhead: ptr(0.0), DrainSeconds: ptr(0.0)},
	},
	{
		// A backlog alone needs a consumer too: ceil(0 + 1e-13/(1 × 1)) = 1.
		// C 1, S 1, drain 1e-13 / 1 s.
		name: "tiny backlog still needs a consumer",
		in:   capacity.SizingInput{ArrivalRate: 0, PerConsumerRate: 1, MaxBacklog: 1e-13, RTOSeconds: 1},
		want: capacity.Sizing{EffectiveArrivalRate: 0, SteadyStateConsumers: 0, RequiredConsumers: 1,
			Capacity: 1, Surplus: 1, Utilization: 0, Headroom: nil, Overhead: nil, DrainSeconds: ptr(1e-13)},
	},
	{
		// 1e-300 / 1e300 / 1 = 1e-600 underflows float64, but the ceiling of a
		// positive ratio is still 1. The drain time 1e-300 / 1e300 underflows to 0.
		name: "backlog term below the float64 range still needs a consumer",
		in:   capacity.SizingInput{ArrivalRate: 0, PerConsumerRate: 1e300, MaxBacklog: 1e-300, RTOSeconds: 1},
		want: capacity.Sizing{EffectiveArrivalRate: 0, SteadyStateConsumers: 0, RequiredConsumers: 1,
			Capacity: 1e300, Surplus: 1e300, Utilization: 0, Headroom: nil, Overhead: nil, DrainSeconds: ptr(0.0)},
	},
	{
		// Any arrivals at all need one consumer: ceil(1e-300) = 1. C 1,
		// S 1 − 1e-300 = 1, ρ 1e-300, h 1/1e-300 = 1e300.
		name: "tiny arrival rate still needs a consumer",
		in:   capacity.SizingInput{ArrivalRate: 1e-300, PerConsumerRate: 1},
		want: capacity.Sizing{EffectiveArrivalRate: 1e-300, SteadyStateConsumers: 1, RequiredConsumers: 1,
			Capacity: 1, Surplus: 1, Utilization: 1e-300, Headroom: ptr(1e300), Overhead: ptr(0.0), DrainSeconds: ptr(0.0)},
	},
	{
		// 1e7/1 + 1/(1·1e6) = 10,000,000.000001: within the ceiling's 1e-12
		// tolerance of 10,000,000, which would leave no surplus to drain
		// the one message. One more consumer drains it in 1 s.
		name: "backlog term below the ceiling's tolerance still drains",
		in:   capacity.SizingInput{ArrivalRate: 1e7, PerConsumerRate: 1, MaxBacklog: 1, RTOSeconds: 1e6},
		want: capacity.Sizing{EffectiveArrivalRate: 1e7, SteadyStateConsumers: 10000000, RequiredConsumers: 10000001,
			Capacity: 10000001, Surplus: 1, Utilization: 1e7 / 10000001.0, Headroom: ptr(1e-7), Overhead: ptr(1e-7), DrainSeconds: ptr(1.0)},
	},
}

func TestSize(t *testing.T) {
	for _, tt := range sizingCases {
		t.Run(tt.name, func(t *testing.T) {
			got, err := capacity.Size(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got.SteadyStateConsumers != tt.want.SteadyStateConsumers {
				t.Errorf("SteadyStateConsumers = %d, want %d", got.SteadyStateConsumers, tt.want.SteadyStateConsumers)
			}
			if got.RequiredConsumers != tt.want.RequiredConsumers {
				t.Errorf("RequiredConsumers = %d, want %d", got.RequiredConsumers, tt.want.RequiredConsumers)
			}
			assertClose(t, "EffectiveArrivalRate", got.EffectiveArrivalRate, tt.want.EffectiveArrivalRate)
			assertClose(t, "Capacity", got.Capacity, tt.want.Capacity)
			assertClose(t, "Surplus", got.Surplus, tt.want.Surplus)
			assertClose(t, "Utilization", got.Utilization, tt.want.Utilization)
			assertOptional(t, "Headroom", got.Headroom, tt.want.Headroom)
			assertOptional(t, "Overhead", got.Overhead, tt.want.Overhead)
			assertOptional(t, "DrainSeconds", got.DrainSeconds, tt.want.DrainSeconds)
		})
	}
}
