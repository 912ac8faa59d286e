// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity

import (
	"math"
	"math/big"
)

// A Lambda function on Lambda Managed Instances runs in execution
// environments on the instances of its capacity provider, each taking up
// to per_execution_environment_max_concurrency invocations at once; the
// provider runs at most max_vcpu_count vCPUs across its instances. An
// environment's vCPUs are its memory over execution_environment_memory_gib_per_vcpu
// (the API's "amount of memory in GiB allocated per vCPU"), and at least
// AWS's least per environment. So the function runs at most
// floor(max_vcpu_count / vCPUs per environment) environments, and at most
// that times the per-environment concurrency invocations: an upper bound,
// since the instances' own overhead and the provider's other functions
// take vCPUs too.

// The AWS limits table's names this bound reads.
const (
	LimitManagedInstancesMinVCPUs          = "lambda_managed_instances_min_vcpus_per_environment"
	LimitManagedInstancesPerEnvironmentMax = "lambda_managed_instances_per_environment_max_concurrency_max"
)

// ManagedInstancesInput is what the configuration gives; a nil pointer is
// an argument unset or not known before apply.
type ManagedInstancesInput struct {
	MaxVCPUCount float64
	// MemoryMB is the function's memory_size, in MB.
	MemoryMB *float64
	// MemoryGiBPerVCPU is execution_environment_memory_gib_per_vcpu.
	MemoryGiBPerVCPU *float64
	// PerEnvironmentConcurrency is per_execution_environment_max_concurrency.
	PerEnvironmentConcurrency *float64
}

// ManagedInstancesBound is the most concurrent invocations a function on
// Lambda Managed Instances runs, and how it is made.
type ManagedInstancesBound struct {
	// VCPUsPerEnvironment is memory_size / 1,024 / execution_environment_memory_gib_per_vcpu,
	// at least the table's least; FromMemory says whether the memory gave
	// it (else it is the least).
	VCPUsPerEnvironment float64
	FromMemory          bool
	// Environments is floor(max_vcpu_count / VCPUsPerEnvironment).
	Environments int64
	// PerEnvironment is per_execution_environment_max_concurrency, or
	// the table's greatest when it is not given (PerEnvironmentGiven).
	PerEnvironment      int64
	PerEnvironmentGiven bool
	// Concurrency is Environments × PerEnvironment.
	Concurrency int64
}

// ManagedInstancesConcurrency bounds a Lambda Managed Instances function's
// concurrency from its capacity provider and its own settings. Invalid
// values are errors naming their attribute.
func (l AWSLimits) ManagedInstancesConcurrency(in ManagedInstancesInput) (ManagedInstancesBound, error) {
	var b ManagedInstancesBound
	least, err := l.limit(LimitManagedInstancesMinVCPUs)
	if err != nil {
		return b, err
	}
	most, err := l.limit(LimitManagedInstancesPerEnvironmentMax)
	if err != nil {
		return b, err
	}
	if !finite(in.MaxVCPUCount) || in.MaxVCPUCount < 1 || in.MaxVCPUCount != math.Trunc(in.MaxVCPUCount) || in.MaxVCPUCount > MaxCount {
		return b, inputErr("max_vcpu_count", "must be a whole number of at least 1, got %s", formatNumber(in.MaxVCPUCount))
	}
	vcpus := dec(least)
	if in.MemoryMB != nil && in.MemoryGiBPerVCPU != nil {
		m, r := *in.MemoryMB, *in.MemoryGiBPerVCPU
		if !finite(m) || m <= 0 {
			return b, inputErr("memory_size", "must be greater than 0, got %s", formatNumber(m))
		}
		if !finite(r) || r <= 0 {
			return b, inputErr("execution_environment_memory_gib_per_vcpu", "must be greater than 0, got %s", formatNumber(r))
		}
		if fromMemory := quo(quo(dec(m), ratInt(1024)), dec(r)); fromMemory.Cmp(vcpus) > 0 {
			vcpus, b.FromMemory = fromMemory, true
		}
	}
	b.VCPUsPerEnvironment = float(vcpus)
	envs := quo(ratInt(int64(in.MaxVCPUCount)), vcpus)
	b.Environments = new(big.Int).Quo(envs.Num(), envs.Denom()).Int64() // at most max_vcpu_count / least
	b.PerEnvironment = int64(most)
	if p := in.PerEnvironmentConcurrency; p != nil {
		if !finite(*p) || *p < 1 || *p != math.Trunc(*p) || *p > most {
			return b, inputErr("per_execution_environment_max_concurrency", "must be a whole number from 1 to %s, got %s", formatNumber(most), formatNumber(*p))
		}
		b.PerEnvironment, b.PerEnvironmentGiven = int64(*p), true
	}
	c := new(big.Int).Mul(big.NewInt(b.Environments), big.NewInt(b.PerEnvironment))
	if c.Cmp(big.NewInt(MaxCount)) > 0 {
		return b, inputErr("max_vcpu_count", "makes a concurrency of more than the largest supported count %d", int64(MaxCount))
	}
	b.Concurrency = c.Int64()
	return b, nil
}
