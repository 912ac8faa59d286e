// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity_test

import (
	"errors"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

func TestManagedInstancesConcurrency(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	for _, tt := range []struct {
		name               string
		in                 capacity.ManagedInstancesInput
		vcpus              float64
		fromMemory         bool
		envs, perEnv, conc int64
	}{
		// 4,096 MB at 2 GiB per vCPU: 2 vCPUs, 10 environments of 4.
		{"from the memory", capacity.ManagedInstancesInput{MaxVCPUCount: 20, MemoryMB: f(4096), MemoryGiBPerVCPU: f(2), PerEnvironmentConcurrency: f(4)}, 2, true, 10, 4, 40},
		// 2,048 MB at 8 GiB per vCPU would be a quarter vCPU: AWS's least, 1.
		{"below AWS's least vCPU", capacity.ManagedInstancesInput{MaxVCPUCount: 20, MemoryMB: f(2048), MemoryGiBPerVCPU: f(8), PerEnvironmentConcurrency: f(4)}, 1, false, 20, 4, 80},
		// 6,144 MB at 4 GiB per vCPU: 1.5 vCPUs, floor(20 / 1.5) = 13.
		{"a fraction of environments left over", capacity.ManagedInstancesInput{MaxVCPUCount: 20, MemoryMB: f(6144), MemoryGiBPerVCPU: f(4), PerEnvironmentConcurrency: f(3)}, 1.5, true, 13, 3, 39},
		// Neither given: 1 vCPU and 1,600 each, the loosest bound.
		{"nothing but the provider", capacity.ManagedInstancesInput{MaxVCPUCount: 2}, 1, false, 2, 1600, 3200},
		// An environment bigger than the provider: none runs.
		{"no environment fits", capacity.ManagedInstancesInput{MaxVCPUCount: 2, MemoryMB: f(32768), MemoryGiBPerVCPU: f(2), PerEnvironmentConcurrency: f(10)}, 16, true, 0, 10, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, err := capacity.DefaultAWSLimits().ManagedInstancesConcurrency(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if b.VCPUsPerEnvironment != tt.vcpus || b.FromMemory != tt.fromMemory || b.Environments != tt.envs || b.PerEnvironment != tt.perEnv || b.Concurrency != tt.conc {
				t.Errorf("got %+v; want %v vCPUs (from memory %v), %d × %d = %d", b, tt.vcpus, tt.fromMemory, tt.envs, tt.perEnv, tt.conc)
			}
			if b.PerEnvironmentGiven != (tt.in.PerEnvironmentConcurrency != nil) {
				t.Errorf("PerEnvironmentGiven = %v", b.PerEnvironmentGiven)
			}
		})
	}
}

func TestManagedInstancesConcurrencyInvalid(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	for _, tt := range []struct {
		name, field string
		in          capacity.ManagedInstancesInput
	}{
		{"no vCPUs", "max_vcpu_count", capacity.ManagedInstancesInput{}},
		{"a fraction of a vCPU", "max_vcpu_count", capacity.ManagedInstancesInput{MaxVCPUCount: 2.5}},
		{"no memory", "memory_size", capacity.ManagedInstancesInput{MaxVCPUCount: 2, MemoryMB: f(0), MemoryGiBPerVCPU: f(2)}},
		{"no memory per vCPU", "execution_environment_memory_gib_per_vcpu", capacity.ManagedInstancesInput{MaxVCPUCount: 2, MemoryMB: f(2048), MemoryGiBPerVCPU: f(-1)}},
		{"no concurrency", "per_execution_environment_max_concurrency", capacity.ManagedInstancesInput{MaxVCPUCount: 2, PerEnvironmentConcurrency: f(0)}},
		{"beyond AWS's greatest", "per_execution_environment_max_concurrency", capacity.ManagedInstancesInput{MaxVCPUCount: 2, PerEnvironmentConcurrency: f(1601)}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := capacity.DefaultAWSLimits().ManagedInstancesConcurrency(tt.in)
			var ie *capacity.InputError
			if !errors.As(err, &ie) || ie.Field != tt.field {
				t.Fatalf("err = %v, want one at %s", err, tt.field)
			}
		})
	}
}
