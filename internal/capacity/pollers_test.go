// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"errors"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

func TestDeployHealthyMaxSize(t *testing.T) {
	for _, tt := range []struct {
		name     string
		required int64
		percent  float64
		want     int64
	}{
		{"all healthy", 33, 100, 33},
		{"AWS's instance refresh default", 33, 90, 36},            // ceil(32.4) = 33; 35 keeps 32
		{"a decimal share", 10, 33.3, 28},                         // ceil(9.324) = 10; 27 keeps ceil(8.991) = 9
		{"a share landing on a whole count", 50, 50, 99},          // ceil(49.5) = 50; 98 keeps 49
		{"nothing required", 0, 0, 0},                             // no consumers, no share needed
		{"one consumer, a sliver kept", 1, 0.01, 1},               // ceil(0.0001) = 1
		{"two consumers, a sliver kept", 2, 0.01, 10001},          // 0.01 % of 10,001 is 1.0001
		{"half of an odd fleet", 3, 50, 5},                        // ceil(2.5) = 3; 4 keeps 2
		{"more than half", 7, 60, 11},                             // ceil(6.6) = 7; 10 keeps 6
		{"ECS's default 100 % with one task", 1, 100, 1},          // the share is the fleet
		{"an odd percent of a large fleet", 123456, 87.5, 141092}, // ceil(123455.5) = 123456
		{"MATH.md's 33 at half", 33, 50, 65},                      // ceil(32.5) = 33; 64 keeps 32
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := capacity.DeployHealthyMaxSize(tt.required, tt.percent)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Fatalf("DeployHealthyMaxSize(%d, %v) = %d, want %d", tt.required, tt.percent, got, tt.want)
			}
			if tt.required > 0 {
				if kept, err := capacity.ConsumersDuringDeploy(got, tt.percent, "min_healthy_percent"); err != nil || kept < tt.required {
					t.Errorf("%d keeps %d in service, fewer than %d (%v)", got, kept, tt.required, err)
				}
				if got > tt.required {
					if kept, err := capacity.ConsumersDuringDeploy(got-1, tt.percent, "min_healthy_percent"); err != nil || kept >= tt.required {
						t.Errorf("%d already keeps %d in service (%v)", got-1, kept, err)
					}
				}
			}
		})
	}
}

func TestDeployHealthyMaxSizeInvalid(t *testing.T) {
	for _, tt := range []struct {
		name     string
		required int64
		percent  float64
	}{
		{"no share kept", 5, 0},
		{"beyond the largest count", capacity.MaxCount, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := capacity.DeployHealthyMaxSize(tt.required, tt.percent)
			var ie *capacity.InputError
			if !errors.As(err, &ie) || ie.Field != "min_healthy_percent" {
				t.Fatalf("err = %v, want one at min_healthy_percent", err)
			}
		})
	}
}

func TestPlanPollers(t *testing.T) {
	limits := capacity.DefaultAWSLimits()
	for _, tt := range []struct {
		name             string
		minC, maxC       int64
		wantMin, wantMax int64
		capped           bool
	}{
		{"AWS's least", 0, 1, 2, 2, false},
		{"whole pollers", 20, 200, 2, 20, false},
		{"a poller more for a remainder", 21, 201, 3, 21, false},
		{"minimum_pollers at its most", 2000, 2000, 200, 200, false},
		{"a warm floor above it", 2001, 5000, 200, 500, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := limits.PlanPollers("lambda_concurrency_mode", tt.minC, tt.maxC)
			if err != nil {
				t.Fatal(err)
			}
			if p.Minimum != tt.wantMin || p.Maximum != tt.wantMax || p.MinimumCapped != tt.capped {
				t.Errorf("PlanPollers(%d, %d) = %+v, want %d, %d, capped %v", tt.minC, tt.maxC, p, tt.wantMin, tt.wantMax, tt.capped)
			}
		})
	}
	// 100,001 invocations need 10,001 pollers, one more than AWS accepts.
	_, err := limits.PlanPollers("lambda_concurrency_mode", 0, 100001)
	var ie *capacity.InputError
	if !errors.As(err, &ie) || ie.Field != "lambda_concurrency_mode" {
		t.Fatalf("err = %v, want one at lambda_concurrency_mode", err)
	}
	// An override of the invocations per poller is read.
	fewer, err := limits.WithOverrides(map[string]float64{"lambda_sqs_poller_concurrent_invocations": 5})
	if err != nil {
		t.Fatal(err)
	}
	if p, err := fewer.PlanPollers("f", 0, 200); err != nil || p.Maximum != 40 {
		t.Errorf("with 5 per poller: %+v, %v; want maximum_pollers 40", p, err)
	}
}
