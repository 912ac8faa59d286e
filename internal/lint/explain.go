// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"slices"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
	"github.com/queuecap/terraform-provider-queuecap/internal/textfmt"

	"github.com/hashicorp/hcl/v2"
)

// recordDeadLetter notes dlq as the dead-letter queue of the queues the
// redrive policy rd applies to.
func (l *linker) recordDeadLetter(rd redriveRef, dlq *Queue) {
	sources := l.queuesOf(rd.queue)
	if rd.inline != "" {
		sources = []*Queue{l.queues[rd.inline]}
	}
	for _, q := range sources {
		if q != nil && q.DeadLetterQueue == nil {
			q.DeadLetterQueue = dlq
		}
	}
}

// explanation gathers the roots' explanations of a run, with the
// .queuecap.hcl blocks that match no root reading them.
func explanation(outs []RootResult, skips []Skip) *Explanation {
	e := &Explanation{Roots: []RootExplanation{}, Skipped: []Skip{}}
	for _, out := range outs {
		if out.explained != nil {
			e.Roots = append(e.Roots, *out.explained)
		}
	}
	for _, s := range skips {
		if s.Rule == "config" {
			e.Skipped = append(e.Skipped, s)
		}
	}
	return e
}

// explainRoot explains a built root module from its model and what
// building it skipped.
func explainRoot(b *builder, skips []Skip) *RootExplanation {
	m := b.model
	root := &RootExplanation{Dir: m.Dir, Queues: []QueueExplanation{}, Unattached: []ResourceRef{}}
	shown := map[string]bool{}
	for _, q := range m.Queues {
		root.Queues = append(root.Queues, explainQueue(q, shown))
	}
	for _, f := range m.Fleets {
		root.Unattached = appendUnshown(root.Unattached, shown, f.Addr, f.DefRange)
	}
	for _, p := range m.Policies {
		root.Unattached = appendUnshown(root.Unattached, shown, p.Addr, p.DefRange)
	}
	for _, a := range m.Alarms {
		root.Unattached = appendUnshown(root.Unattached, shown, a.Addr, a.DefRange)
	}
	root.Skipped = dedupeSkips(skips)
	if root.Skipped == nil {
		root.Skipped = []Skip{}
	}
	slices.SortStableFunc(root.Skipped, model.CompareSkips)
	return root
}

func appendUnshown(refs []ResourceRef, shown map[string]bool, addr string, rng hcl.Range) []ResourceRef {
	if shown[addr] {
		return refs
	}
	return append(refs, ResourceRef{Address: addr, Range: toRange(rng)})
}

func explainQueue(q *Queue, shown map[string]bool) QueueExplanation {
	e := QueueExplanation{Address: q.Addr, Name: q.Name, NameWhy: q.NameWhy, Range: toRange(q.DefRange), Redrive: RedriveNone,
		IsDeadLetter: q.IsDeadLetter, Rates: explainRates(&q.Declared, model.ForQueue),
		Consumers: []ConsumerExplanation{}, IgnoredConsumers: []IgnoredConsumerExplanation{}, Alarms: []AlarmExplanation{}}
	switch {
	case q.HasRedrive:
		e.Redrive = RedriveSet
	case q.RedriveUnknown:
		e.Redrive = RedriveUnknown
	}
	if q.DeadLetterQueue != nil {
		e.DeadLetterQueue = q.DeadLetterQueue.Addr
	}
	for _, f := range q.Consumers {
		shown[f.Addr] = true
		c := ConsumerExplanation{Kind: f.Kind, Address: f.Addr, Name: f.Name, NameWhy: f.NameWhy, Cluster: f.Cluster, ClusterWhy: f.ClusterWhy, Range: toRange(f.DefRange),
			MaxSize: explainSize(f), Policies: []PolicyExplanation{}, LinkedThrough: q.ConsumedThrough[f]}
		d := f.DeclaredFor(q)
		if n, source := d.Winner(model.ForFleet, func(r *Rates) *Num { return &r.PerConsumerRate }); n != nil {
			r := explainRate("per_consumer_rate", n, source)
			c.PerConsumerRate = &r
		}
		for _, p := range f.Policies {
			shown[p.Addr] = true
			c.Policies = append(c.Policies, explainPolicy(p, shown))
		}
		c.Deployment = explainDeployment(f, q.Limits)
		if f.ManagedInstances {
			if w, ok := q.Limits.Limit("lambda_managed_instances_doubling_window_seconds"); ok {
				c.Growth = "on Lambda Managed Instances, AWS may throttle traffic that more than doubles within " + textfmt.Number(w.Value) +
					" s while it adds instances (" + w.Name + "): how far it scales is bounded, how fast is not"
			}
		}
		c.ProvisioningLag, c.Warmup = explainLag(f, q.Limits), explainWarmup(f)
		e.Consumers = append(e.Consumers, c)
	}
	for _, c := range q.IgnoredConsumers {
		e.IgnoredConsumers = append(e.IgnoredConsumers, IgnoredConsumerExplanation{Address: c.Fleet.Addr, Range: toRange(c.Fleet.DefRange), Reason: c.Reason})
	}
	for _, a := range q.Alarms {
		shown[a.Addr] = true
		e.Alarms = append(e.Alarms, explainAlarm(a))
	}
	return e
}

// explainRates lists an owner's rates as resolve settles them, then, when
// any is declared, the defaults the rules take for the others.
func explainRates(d *model.DeclaredRates, owner model.Owner) []RateExplanation {
	out := []RateExplanation{}
	var defaults []RateExplanation
	for _, f := range model.RateFields {
		if n, source := d.Winner(owner, f.Of); n != nil {
			out = append(out, explainRate(f.Name, n, source))
		} else if f.Default != nil {
			defaults = append(defaults, RateExplanation{Name: f.Name, Value: new(*f.Default), Source: RateDefault})
		}
	}
	if len(out) == 0 {
		return out
	}
	return append(out, defaults...)
}

func explainRate(name string, n *Num, source string) RateExplanation {
	r := RateExplanation{Name: name, Source: source, From: n.From, Range: new(toRange(n.Range))}
	if n.Known {
		r.Value = new(n.V)
	}
	return r
}

func explainSize(f *Fleet) SizeExplanation {
	s := SizeExplanation{Attribute: f.SizeAttr, Set: f.MaxSize.Set, Terms: f.SizeTerms}
	if s.Set {
		s.Range = new(toRange(f.MaxSize.Range))
		if f.MaxSize.Known {
			s.Value = new(f.MaxSize.V)
		}
	}
	return s
}

// explainDeployment is what replaces f's consumers, with AWS's defaults
// from limits for the percentages left unset, as
// queuecap_surplus_during_deploy takes them.
func explainDeployment(f *Fleet, limits capacity.AWSLimits) *DeploymentExplanation {
	r := f.Replacement
	if r == nil {
		return nil
	}
	e := &DeploymentExplanation{Kind: string(r.Kind), Range: toRange(r.Range)}
	size := f.MaxSize
	sizeKnown := size.Set && size.Known && size.V >= 0
	if r.Kind == model.ReplaceECSBlueGreen {
		if sizeKnown {
			e.InService = new(size.V)
		}
		return e
	}
	switch {
	case r.Strategy.Set && !r.Strategy.Known && r.Kind != model.ReplaceECSRolling:
		e.Strategy = r.StrategyAttr + " " + r.Strategy.Unknown() + ": whether it replaces instances is not known"
		return e
	case r.Strategy.Set && !r.Strategy.Known:
		e.Strategy = r.StrategyAttr + " " + r.Strategy.Unknown() + ": a rolling deployment keeps min_healthy in service, a blue/green one all"
	}
	minLimit, maxLimit := r.DefaultLimits()
	e.MinHealthy = explainPercent(r.MinHealthy, r.MinAttr, minLimit, limits)
	e.MaxHealthy = explainPercent(r.MaxHealthy, r.MaxAttr, maxLimit, limits)
	switch {
	case !sizeKnown || e.Strategy != "" || e.MinHealthy.Value == nil:
	case r.Kind != model.ReplaceECSRolling && e.MaxHealthy.Value == nil:
		// Not known: above 100 % the group would keep them all.
	default:
		var maxPct float64
		if e.MaxHealthy.Value != nil {
			maxPct = *e.MaxHealthy.Value
		}
		if n, _, err := r.Kept(int64(size.V), *e.MinHealthy.Value, maxPct); err == nil {
			e.InService = new(float64(n))
		}
	}
	return e
}

func explainPercent(v Num, attr, limit string, limits capacity.AWSLimits) *PercentExplanation {
	p := &PercentExplanation{Attribute: attr, Source: "config"}
	if v.Set {
		p.Range = new(toRange(v.Range))
		if v.Known {
			p.Value = new(v.V)
		}
		return p
	}
	p.Source = "required"
	if e, ok := limits.Limit(limit); limit != "" && ok {
		p.Source, p.Limit, p.Value = "default", e.Name, new(e.Value)
	}
	return p
}

func explainPolicy(p *Policy, shown map[string]bool) PolicyExplanation {
	e := PolicyExplanation{Kind: p.Kind, Address: p.Addr, Range: toRange(p.DefRange), ScaleOut: p.ScaleOut,
		Metrics: metricList(p.Metrics), Alarms: []AlarmExplanation{}}
	if p.Predefined != "" {
		e.Metrics = append([]string{p.Predefined}, e.Metrics...)
	}
	for _, a := range p.Alarms {
		shown[a.Addr] = true
		e.Alarms = append(e.Alarms, explainAlarm(a))
	}
	if pr := p.Predictive; pr != nil {
		e.Predictive = &PredictiveExplanation{Mode: settingOr(pr.Mode, model.PredictiveForecastOnly),
			MaxCapacityBreachBehavior: settingOr(pr.MaxCapacityBreachBehavior, model.PredictiveHonorMaxCapacity),
			MayExceedMax:              pr.MayExceedMax(), Range: toRange(pr.Range)}
		if b := pr.MaxCapacityBuffer; b.Set && b.Known {
			e.Predictive.MaxCapacityBuffer = new(b.V)
		}
	}
	return e
}

// settingOr is a setting's value, AWS's default def when it is unset, ""
// when it is not known before apply.
func settingOr(s model.Setting[string], def string) string {
	switch {
	case !s.Set:
		return def
	case !s.Known:
		return ""
	}
	return s.V
}

func explainAlarm(a *Alarm) AlarmExplanation {
	e := AlarmExplanation{Address: a.Addr, Range: toRange(a.DefRange), Metrics: metricList(a.Metrics),
		Comparison: a.Comparison, Policies: []string{}}
	if a.Threshold.Set && a.Threshold.Known {
		e.Threshold = new(a.Threshold.V)
	}
	for _, p := range a.Policies {
		e.Policies = append(e.Policies, p.Addr)
	}
	return e
}

// metricList is a metric set's names, then its expressions.
func metricList(m MetricSet) []string {
	return append(append([]string{}, m.Names...), m.Expressions...)
}

// explainLag is the fleet's provisioning lag as the rules bound it, nil
// without a bound.
func explainLag(f *Fleet, limits capacity.AWSLimits) *model.LagExplanation {
	lag := f.ProvisioningLag(limits)
	switch {
	case lag.Seconds > 0:
		return &model.LagExplanation{Seconds: new(lag.Seconds), Why: lag.Why, Range: toRange(lag.Range)}
	case lag.NotKnown != "":
		return &model.LagExplanation{Why: lag.NotKnown, Range: toRange(lag.Range)}
	}
	return nil
}

// explainWarmup lists the warmup settings the fleet and its policies
// write, nil for none.
func explainWarmup(f *Fleet) []model.WarmupExplanation {
	var out []model.WarmupExplanation
	add := func(attr, addr string, n Num) {
		if !n.Set {
			return
		}
		w := model.WarmupExplanation{Attribute: attr, Address: addr, Range: toRange(n.Range)}
		if n.Known {
			w.Value = new(n.V)
		}
		out = append(out, w)
	}
	add("default_instance_warmup", f.Addr, f.Warmup.DefaultInstanceWarmup)
	add(f.Warmup.GraceAttr, f.Addr, f.Warmup.GracePeriod)
	if wp := f.Warmup.WarmPool; wp != nil {
		out = append(out, model.WarmupExplanation{Attribute: "warm_pool", Address: f.Addr, Range: toRange(wp.Range)})
		if st := wp.PoolState; st.Set {
			out = append(out, model.WarmupExplanation{Attribute: "warm_pool.pool_state", Address: f.Addr, Text: st.V, Range: toRange(st.Range)})
		}
		add("warm_pool.min_size", f.Addr, wp.MinSize)
		add("warm_pool.max_group_prepared_capacity", f.Addr, wp.MaxGroupPreparedCapacity)
	}
	for _, p := range f.Policies {
		add("estimated_instance_warmup", p.Addr, p.EstimatedInstanceWarmup)
	}
	return out
}
