// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"errors"
	"fmt"
	"strings"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
	"github.com/queuecap/terraform-provider-queuecap/internal/textfmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// A Lambda function with a capacity_provider_config runs on Lambda
// Managed Instances: its concurrency is bounded by its capacity
// provider's max_vcpu_count, the vCPUs of each execution environment and
// each environment's per_execution_environment_max_concurrency
// (capacity.ManagedInstancesConcurrency). That bound is the function's
// maximum size when it binds: below its reserved concurrency or its
// mapping's maximum_concurrency, or in place of them when neither is set.

// capacityProvider is an aws_lambda_capacity_provider.
type capacityProvider struct {
	addr, name string
	rng        hcl.Range
	// maxVCPU is capacity_provider_scaling_config's max_vcpu_count.
	maxVCPU Num
}

// managedFunction is a function's capacity_provider_config.
type managedFunction struct {
	fleet       *Fleet
	providerARN ref
	perEnv      Num // per_execution_environment_max_concurrency
	gibPerVCPU  Num // execution_environment_memory_gib_per_vcpu
	memory      Num // the function's memory_size
}

type lmiRefs struct {
	providers map[string]*capacityProvider
	functions []*managedFunction
}

// addCapacityProvider reads an aws_lambda_capacity_provider.
func (b *builder) addCapacityProvider(res *resourceInstance) {
	n := res.body
	p := &capacityProvider{addr: res.addr, name: knownString(n.val("name")), rng: res.defRange}
	p.maxVCPU = listObjectNum(n.arg("capacity_provider_scaling_config"), "max_vcpu_count")
	if b.lmi.providers == nil {
		b.lmi.providers = map[string]*capacityProvider{}
	}
	b.lmi.providers[p.addr] = p
}

// readManagedInstances reads a Lambda function's capacity_provider_config.
func (b *builder) readManagedInstances(f *Fleet, n *block) {
	cp := n.first("capacity_provider_config")
	if cp == nil {
		return
	}
	c := cp.first("lambda_managed_instances_capacity_provider_config")
	if c == nil {
		return
	}
	f.ManagedInstances = true
	b.lmi.functions = append(b.lmi.functions, &managedFunction{fleet: f, providerARN: c.ref("capacity_provider_arn"),
		perEnv: c.num("per_execution_environment_max_concurrency"), gibPerVCPU: c.num("execution_environment_memory_gib_per_vcpu"),
		memory: n.num("memory_size")})
}

// listObjectNum is the number name of the first object of a list
// attribute (a framework provider's list of objects, written as
// [{ … }]): unset when the list is absent, null or empty, or the object
// does not set it; unknown when any of it is not known.
func listObjectNum(a *arg, name string) Num {
	if a == nil {
		return Num{}
	}
	v, _ := a.value().UnmarkDeep()
	unknown := Num{Set: true, Range: a.rng, From: name, Why: a.whyUnknown()}
	switch {
	case !v.IsKnown():
		return unknown
	case v.IsNull() || !v.CanIterateElements() || v.LengthInt() == 0:
		return Num{}
	}
	it := v.ElementIterator()
	it.Next()
	_, first := it.Element()
	switch {
	case !first.IsKnown():
		return unknown
	case first.IsNull() || !first.Type().IsObjectType() || !first.Type().HasAttribute(name):
		return Num{}
	}
	x := first.GetAttr(name)
	if x.IsKnown() && x.IsNull() {
		return Num{}
	}
	f, ok := number(x)
	if !ok {
		return unknown
	}
	return model.KnownNum(f, a.rng, name)
}

// linkManagedInstances bounds each Lambda Managed Instances function by
// its capacity provider. A bound that cannot be made replaces, with the
// reason, only a maximum size that is not known either or is no more than
// standard mode's cap per mapping.
func (l *linker) linkManagedInstances() {
	for _, m := range l.lmi.functions {
		f := m.fleet
		bound, terms, of, why := l.managedBound(m)
		switch {
		case why == nil && (!f.MaxSize.Set || !f.MaxSize.Known || f.Unreserved() || bound.V < f.MaxSize.V):
			f.SetSize(model.ConcurrencyCap{Size: bound, Attr: lmiSizeAttr, Terms: terms + " concurrent invocations on Lambda Managed Instances", Of: of})
		case why != nil && (!f.MaxSize.Set || f.Unreserved() || f.SizeAttr == capacity.LimitLambdaStandardMaxConcurrency):
			// Only AWS's per-mapping cap bounds it otherwise, far above
			// what a capacity provider's instances run: checked at that
			// cap, the queue would pass for checked while the bound that
			// binds is not known.
			f.SetSize(model.ConcurrencyCap{Size: *why, Attr: why.From, Of: of})
		}
	}
}

// lmiSizeAttr names a size bounded by a capacity provider, for messages.
const lmiSizeAttr = "the Lambda Managed Instances concurrency"

// managedBound is the concurrency bound of m as a size at the capacity
// provider's max_vcpu_count, its arithmetic and the capacity provider's
// address; or, when it cannot be made, a size set but not known whose
// Why says why, and the address of the resource it lies in ("" for the
// function's own).
func (l *linker) managedBound(m *managedFunction) (Num, string, string, *Num) {
	f := m.fleet
	arn := m.providerARN
	of := ""
	notKnown := func(rng hcl.Range, from, why string) (Num, string, string, *Num) {
		return Num{}, "", of, &Num{Set: true, Range: rng, From: from, Why: why}
	}
	p := l.capacityProviderOf(arn.val)
	rng := f.DefRange
	if arn.arg != nil {
		rng = arn.arg.rng
	}
	if plain, _ := arn.val.UnmarkDeep(); p == nil && !plain.IsWhollyKnown() {
		why := "is not known before apply"
		if arn.arg != nil && arn.arg.whyUnknown() != "" {
			why = arn.arg.whyUnknown()
		}
		return notKnown(rng, "capacity_provider_arn", why+", so its concurrency on Lambda Managed Instances is not known")
	}
	if p == nil {
		return notKnown(rng, "capacity_provider_arn", "names no aws_lambda_capacity_provider of this configuration, "+
			"so its concurrency on Lambda Managed Instances is not known; set reserved_concurrent_executions")
	}
	of = p.addr
	if !p.maxVCPU.Set {
		return notKnown(p.rng, "max_vcpu_count", "is not set in its capacity_provider_scaling_config: AWS publishes no default, "+
			"so the function's concurrency is not bounded by the configuration; set max_vcpu_count, or reserved_concurrent_executions")
	}
	if !p.maxVCPU.Known {
		return notKnown(p.maxVCPU.Range, "max_vcpu_count", p.maxVCPU.Unknown())
	}
	if m.perEnv.Set && !m.perEnv.Known {
		of = ""
		return notKnown(m.perEnv.Range, "per_execution_environment_max_concurrency", m.perEnv.Unknown())
	}
	in := capacity.ManagedInstancesInput{MaxVCPUCount: p.maxVCPU.V}
	if m.perEnv.Set {
		in.PerEnvironmentConcurrency = &m.perEnv.V
	}
	// An unknown memory or ratio leaves AWS's least vCPUs per
	// environment: a bound still, only a looser one.
	if m.memory.Set && m.memory.Known && m.gibPerVCPU.Set && m.gibPerVCPU.Known {
		in.MemoryMB, in.MemoryGiBPerVCPU = &m.memory.V, &m.gibPerVCPU.V
	}
	b, err := l.config.Limits().ManagedInstancesConcurrency(in)
	var ie *capacity.InputError
	if errors.As(err, &ie) {
		at := map[string]Num{"per_execution_environment_max_concurrency": m.perEnv, "memory_size": m.memory,
			"execution_environment_memory_gib_per_vcpu": m.gibPerVCPU}[ie.Field]
		if !at.Set {
			at, ie.Field = p.maxVCPU, "max_vcpu_count"
		} else {
			of = ""
		}
		return notKnown(at.Range, ie.Field, ie.Reason+", which AWS refuses, so the concurrency on Lambda Managed Instances is not known")
	}
	if err != nil {
		return notKnown(p.maxVCPU.Range, "max_vcpu_count", "bounds no concurrency: "+err.Error())
	}
	return model.KnownNum(float64(b.Concurrency), p.maxVCPU.Range, "max_vcpu_count"), managedTerms(p, m, b), p.addr, nil
}

// managedTerms states the bound's arithmetic with the attributes it
// comes from.
func managedTerms(p *capacityProvider, m *managedFunction, b capacity.ManagedInstancesBound) string {
	vcpus := textfmt.Number(b.VCPUsPerEnvironment) + " vCPU per execution environment (AWS's least)"
	if b.FromMemory {
		vcpus = fmt.Sprintf("%s vCPUs per execution environment (memory_size %s MB ÷ 1,024 ÷ execution_environment_memory_gib_per_vcpu %s)",
			textfmt.Number(b.VCPUsPerEnvironment), textfmt.Number(m.memory.V), textfmt.Number(m.gibPerVCPU.V))
	}
	per := "per_execution_environment_max_concurrency " + textfmt.Number(float64(b.PerEnvironment))
	if !b.PerEnvironmentGiven {
		per = "at most " + textfmt.Number(float64(b.PerEnvironment)) + " concurrent invocations each (per_execution_environment_max_concurrency is unset: AWS's greatest)"
	}
	return fmt.Sprintf("max_vcpu_count %s of %s ÷ %s = %s execution environments × %s = %s",
		textfmt.Number(p.maxVCPU.V), p.addr, vcpus, textfmt.Number(float64(b.Environments)), per, textfmt.Number(float64(b.Concurrency)))
}

// capacityProviderOf finds the capacity provider a value names: by
// origin, else by the name at the end of a known ARN
// (arn:aws:lambda:region:account:capacity-provider:NAME).
func (l *linker) capacityProviderOf(v cty.Value) *capacityProvider {
	for _, o := range origins(v) {
		if p := l.lmi.providers[o]; p != nil {
			return p
		}
	}
	s := knownString(v)
	if i := strings.LastIndex(s, ":capacity-provider:"); i >= 0 {
		s = s[i+len(":capacity-provider:"):]
	}
	if s == "" {
		return nil
	}
	for _, addr := range sortedKeys(l.lmi.providers) {
		if l.lmi.providers[addr].name == s {
			return l.lmi.providers[addr]
		}
	}
	return nil
}
