// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"math"

	"github.com/hashicorp/hcl/v2"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
	"github.com/queuecap/terraform-provider-queuecap/internal/textfmt"
)

// Lag is a lower bound on a fleet's provisioning lag, derived from its
// configuration: how long after a backlog appears its scale-out can take
// effect at the earliest. Zero when the configuration bounds it by
// nothing known.
type Lag struct {
	Seconds float64
	// MinSize is the fleet that drains alone during the lag, MinAttr the
	// argument it is (min_size, an ECS scaling target's min_capacity).
	MinSize float64
	MinAttr string
	// Why says where the bound comes from, for messages.
	Why   string
	Range hcl.Range
	// NotKnown, when Seconds is 0, says which value not known before
	// apply keeps the configuration's bound from being known, at Range:
	// the lag may then be longer than none.
	NotKnown string
	// Warmup is the warmup of the instances the bounding policy of an
	// auto scaling group launches, named by WarmupAttr: the policy's
	// estimated_instance_warmup, else the group's default_instance_warmup;
	// unset when neither is written and positive. Not part of the bound:
	// for an estimate only (Warmup's comment says why).
	Warmup     Num
	WarmupAttr string

	policy *Policy
}

// Warmup is what a fleet's configuration says of how a new consumer warms
// up. None of it bounds the provisioning lag from below: the warmup says
// when an instance's metrics count, the grace period when its health is
// first checked, and a warm pool shortens a launch by an amount AWS does
// not publish, while a worker may poll SQS as soon as it boots.
type Warmup struct {
	// DefaultInstanceWarmup is an auto scaling group's
	// default_instance_warmup.
	DefaultInstanceWarmup Num
	// GracePeriod is an auto scaling group's health_check_grace_period or
	// an ECS service's health_check_grace_period_seconds (GraceAttr).
	GracePeriod Num
	GraceAttr   string
	// WarmPool is an auto scaling group's warm_pool, nil without one.
	WarmPool *WarmPool
}

// WarmPool is an auto scaling group's warm_pool block.
type WarmPool struct {
	Range                    hcl.Range
	PoolState                Setting[string]
	MinSize                  Num
	MaxGroupPreparedCapacity Num
}

// ProvisioningLag is a lower bound on the provisioning lag of an auto
// scaling group, or of an ECS service scaled by Application Auto Scaling:
// the smallest of its scale-out policies' bounds, during which its minimum
// size drains alone. Target tracking on an auto scaling group scales only
// once a datapoint of the tracked metric exists, one metric period (its
// period, else AWS's default from limits) after the backlog appears; a
// step or simple policy only once one of its alarms is in ALARM, M
// breaching datapoints of its period later (Alarm.lag). Launch time,
// instance warmup, health check grace and warm pools do not bound it from
// below (Warmup). A policy that bounds nothing known leaves no bound at
// all (zero): predictive scaling, target tracking of an ECS service (AWS
// publishes no period for the alarms Application Auto Scaling creates), a
// step policy with no alarm of the configuration; so does a minimum size
// equal to the maximum. Where the bound exists but a value it is made of
// (a period, an M, the minimum size) is not known before apply, the Lag
// says so (NotKnown).
func (f *Fleet) ProvisioningLag(limits capacity.AWSLimits) Lag {
	if (f.Kind != FleetASG && f.Kind != FleetECS) || !f.MinSize.Set || !f.MaxSize.Known || (f.MinSize.Known && (f.MinSize.V >= f.MaxSize.V || f.MinSize.V < 0)) {
		return Lag{}
	}
	var b bounds
	for _, p := range f.Policies {
		if p.ScaleOut {
			b.add(p.lag(f.Kind, limits))
		}
	}
	lag, ok := b.smallest()
	switch {
	case !ok || lag.NotKnown != "":
		return lag
	case !f.MinSize.Known:
		return Lag{NotKnown: "the minimum size of " + f.Addr + " (" + f.MinSize.From + ") " + f.MinSize.Unknown(), Range: f.MinSize.Range}
	}
	lag.MinSize, lag.MinAttr = f.MinSize.V, f.MinSize.From
	if f.Kind == FleetASG {
		w, attr := f.Warmup.DefaultInstanceWarmup, "default_instance_warmup"
		if p := lag.policy; p != nil && p.EstimatedInstanceWarmup.Set {
			w, attr = p.EstimatedInstanceWarmup, "estimated_instance_warmup of "+p.Addr
		}
		if w.Known && w.V > 0 && !math.IsInf(w.V, 0) {
			lag.Warmup, lag.WarmupAttr = w, attr
		}
	}
	return lag
}

// bounds gathers lower bounds on one lag, of which the smallest holds.
type bounds struct {
	lag, notKnown Lag
	none          bool
}

// add adds a bound; ok false is no bound at all, which leaves none.
func (b *bounds) add(l Lag, ok bool) {
	switch {
	case !ok:
		b.none = true
	case l.NotKnown != "":
		if b.notKnown.NotKnown == "" {
			b.notKnown = l
		}
	case b.lag.Seconds == 0 || l.Seconds < b.lag.Seconds:
		b.lag = l
	}
}

// smallest is the smallest bound added: false when one is no bound or
// none was added, the first not known when one is.
func (b *bounds) smallest() (Lag, bool) {
	switch {
	case b.none:
		return Lag{}, false
	case b.notKnown.NotKnown != "":
		return b.notKnown, true
	}
	return b.lag, b.lag.Seconds > 0
}

// lag is the bound one scale-out policy of a fleet of kind gives, false
// when it gives none.
func (p *Policy) lag(kind FleetKind, limits capacity.AWSLimits) (Lag, bool) {
	switch p.Kind {
	case PolicyTargetTracking:
		if kind != FleetASG {
			return Lag{}, false
		}
		def, ok := limits.Limit("target_tracking_metric_period_default_seconds")
		if !ok {
			return Lag{}, false
		}
		lag := Lag{Seconds: def.Value, Range: p.DefRange, policy: p,
			Why: "one " + textfmt.Number(def.Value) + " s period of the metric " + p.Addr + " tracks (AWS's default, target_tracking_metric_period_default_seconds), before which it cannot scale out"}
		for i, n := range p.MetricPeriods {
			if !n.Known {
				return Lag{NotKnown: "the period of the metric " + p.Addr + " tracks " + n.Unknown(), Range: n.Range}, true
			}
			if n.V <= 0 {
				return Lag{}, false
			}
			if i == 0 || n.V < lag.Seconds {
				lag.Seconds, lag.Range = n.V, n.Range
				lag.Why = "one " + textfmt.Number(n.V) + " s period of the metric " + p.Addr + " tracks, before which it cannot scale out"
			}
		}
		return lag, true
	case PolicyStep, PolicySimple:
		// With no alarm of the configuration, one outside it (or a
		// person) may trigger the policy at any time.
		var b bounds
		for _, a := range p.Alarms {
			b.add(a.lag())
		}
		lag, ok := b.smallest()
		if ok && lag.NotKnown == "" {
			lag.Why, lag.policy = p.Addr+" scales out only once "+lag.Why, p
		}
		return lag, ok
	}
	return Lag{}, false
}

// lag is how long after its metric starts to breach the alarm enters
// ALARM at the earliest: M (datapoints_to_alarm, else evaluation_periods)
// breaching datapoints of its period, M × period seconds; with several
// periods (metric math), the shortest. False when the configuration does
// not say: an M or a period not set, not known before apply or not
// positive, metric queries a dynamic block generates.
func (a *Alarm) lag() (Lag, bool) {
	m, attr := a.DatapointsToAlarm, "datapoints_to_alarm"
	if !m.Set {
		m, attr = a.EvaluationPeriods, "evaluation_periods"
	}
	if !m.Set || len(a.Periods) == 0 || a.PeriodsWhy != "" {
		return Lag{}, false
	}
	if !m.Known {
		return Lag{NotKnown: attr + " of " + a.Addr + " " + m.Unknown(), Range: m.Range}, true
	}
	if m.V < 1 || m.V != math.Trunc(m.V) {
		return Lag{}, false
	}
	var period Num
	for i, n := range a.Periods {
		if !n.Known {
			return Lag{NotKnown: n.From + " of " + a.Addr + " " + n.Unknown(), Range: n.Range}, true
		}
		if n.V <= 0 {
			return Lag{}, false
		}
		if i == 0 || n.V < period.V {
			period = n
		}
	}
	seconds, err := capacity.AlarmDelaySeconds(m.V, period.V)
	if err != nil {
		return Lag{}, false
	}
	datapoints := " breaching datapoints of its "
	if m.V == 1 {
		datapoints = " breaching datapoint of its "
	}
	return Lag{Seconds: seconds, Range: m.Range,
		Why: a.Addr + " is in ALARM, after " + attr + " " + textfmt.Number(m.V) + datapoints + textfmt.Number(period.V) + " s period: " +
			textfmt.Number(m.V) + " × " + textfmt.Number(period.V) + " = " + textfmt.Number(seconds) + " s"}, true
}
