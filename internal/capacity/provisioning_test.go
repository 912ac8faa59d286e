// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

func TestLaggedDrain(t *testing.T) {
	for _, tc := range []struct {
		name                   string
		minC, maxC             int64
		mu, lambda, backlog, l float64
		retries                capacity.Retries
		want                   float64
		drains                 bool
	}{
		// MATH.md's worked example: c_min 25 has no surplus, so the 33
		// consumers the lag asks for start on all 5,000,000 after 180 s:
		// 180 + 5,000,000 / (33 × 400 − 10,000) = 1,742.5 s.
		{name: "worked example", minC: 25, maxC: 33, mu: 400, lambda: 10000, backlog: 5000000, l: 180, want: 1742.5, drains: true},
		// 32 consumers clear it in 5,000,000 / 2,800 = 1,785.71 s without a lag.
		{name: "without a lag", minC: 25, maxC: 32, mu: 400, lambda: 10000, backlog: 5000000, l: 0, want: 5000000.0 / 2800, drains: true},
		// The minimum fleet's surplus drains 200 × 60 = 12,000 during the lag.
		{name: "the minimum fleet drains during the lag", minC: 20, maxC: 30, mu: 25, lambda: 300, backlog: 1812000, l: 60, want: 60 + 1800000.0/450, drains: true},
		// A backlog the minimum fleet clears within the lag.
		{name: "cleared within the lag", minC: 20, maxC: 30, mu: 25, lambda: 300, backlog: 6000, l: 60, want: 30, drains: true},
		{name: "never", minC: 1, maxC: 25, mu: 400, lambda: 10000, backlog: 100, l: 60},
		// λ_eff = 50 × (1 + 0.5 × 2) = 100: 10 + 500 / (150 − 100) = 20 s.
		{name: "retries", minC: 0, maxC: 15, mu: 10, lambda: 50, retries: capacity.Retries{Rate: 0.5, Average: 2}, backlog: 500, l: 10, want: 20, drains: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, drains, err := capacity.LaggedDrain(tc.minC, tc.maxC, tc.mu, tc.lambda, tc.retries, tc.backlog, tc.l)
			if err != nil {
				t.Fatal(err)
			}
			if drains != tc.drains || capacity.Clean(got) != capacity.Clean(tc.want) {
				t.Errorf("LaggedDrain = %v, %v; want %v, %v", got, drains, tc.want, tc.drains)
			}
		})
	}
	for _, bad := range []struct {
		name       string
		minC, maxC int64
		l          float64
	}{{"min over max", 5, 4, 0}, {"negative lag", 1, 4, -1}} {
		t.Run(bad.name, func(t *testing.T) {
			if _, _, err := capacity.LaggedDrain(bad.minC, bad.maxC, 1, 1, capacity.Retries{}, 1, bad.l); err == nil {
				t.Error("no error")
			}
		})
	}
}

func TestAlarmDelaySeconds(t *testing.T) {
	if got, err := capacity.AlarmDelaySeconds(3, 60); err != nil || got != 180 {
		t.Errorf("AlarmDelaySeconds(3, 60) = %v, %v; want 180", got, err)
	}
	if got, err := capacity.AlarmDelaySeconds(3, 0.1); err != nil || got != 0.3 {
		t.Errorf("AlarmDelaySeconds(3, 0.1) = %v, %v; want exactly 0.3", got, err)
	}
	for _, c := range [][2]float64{{0, 60}, {2, 0}, {-1, 60}} {
		if _, err := capacity.AlarmDelaySeconds(c[0], c[1]); err == nil {
			t.Errorf("AlarmDelaySeconds(%v, %v): no error", c[0], c[1])
		}
	}
}
