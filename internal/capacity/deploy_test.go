// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"errors"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

func TestConsumersDuringDeploy(t *testing.T) {
	for _, tc := range []struct {
		name      string
		consumers int64
		percent   float64
		want      int64
	}{
		// AWS's default instance refresh: 90 % of 25 is 22.5, rounded up.
		{"refresh default rounds up", 25, 90, 23},
		{"whole", 30, 90, 27},
		// ECS's example: four tasks at 50 % stop two.
		{"ECS example", 4, 50, 2},
		{"full", 25, 100, 25},
		{"none", 25, 0, 0},
		{"empty fleet", 0, 90, 0},
		// 7 % of 100 is exactly 7; in float64 100 × 0.07 is
		// 7.000000000000001, whose ceiling would be 8.
		{"exact decimal", 100, 7, 7},
		{"one past", 100, 7.01, 8},
		{"fraction of a percent", 1000, 99.9, 999},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := capacity.ConsumersDuringDeploy(tc.consumers, tc.percent, "min_healthy_percentage")
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("ConsumersDuringDeploy(%d, %v) = %d, want %d", tc.consumers, tc.percent, got, tc.want)
			}
		})
	}
}

func TestConsumersDuringDeployInvalid(t *testing.T) {
	for _, tc := range []struct {
		name      string
		consumers int64
		percent   float64
		field     string
	}{
		{"negative percent", 10, -1, "min_healthy_percentage"},
		{"over 100", 10, 100.5, "min_healthy_percentage"},
		{"negative fleet", -1, 90, "consumers"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := capacity.ConsumersDuringDeploy(tc.consumers, tc.percent, "min_healthy_percentage")
			var ie *capacity.InputError
			if !errors.As(err, &ie) || ie.Field != tc.field {
				t.Fatalf("error %v, want an InputError on %s", err, tc.field)
			}
		})
	}
}

// TestInstancesDuringReplacement: a group that terminates before it
// launches replaces at least one instance at a time, so a percentage that
// rounds up to the whole group keeps one fewer; a single instance keeps
// none.
func TestInstancesDuringReplacement(t *testing.T) {
	for _, tc := range []struct {
		instances int64
		percent   float64
		want      int64
		one       bool
	}{
		{25, 80, 20, false},
		{25, 90, 23, false},
		{25, 100, 24, true},
		{1, 80, 0, true},
		{1, 50, 0, true},
		{1, 0, 0, false},
		{2, 50, 1, false},
		{0, 90, 0, false},
	} {
		got, one, err := capacity.InstancesDuringReplacement(tc.instances, tc.percent, "min_healthy_percentage")
		if err != nil || got != tc.want || one != tc.one {
			t.Errorf("InstancesDuringReplacement(%d, %v) = %d, %v, %v; want %d, %v", tc.instances, tc.percent, got, one, err, tc.want, tc.one)
		}
	}
}
