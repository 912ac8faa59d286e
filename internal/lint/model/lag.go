// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
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
	// MinSize is the fleet that drains alone during the lag.
	MinSize float64
	// Why says where the bound comes from, for messages.
	Why   string
	Range hcl.Range
}

// ProvisioningLag is a lower bound on the provisioning lag of an auto
// scaling group whose only scale-out policies are target tracking: AWS
// scales it only once a datapoint of the tracked metric exists, one
// metric period (its period, else AWS's default from limits) after the
// backlog appears. Launch time, instance warmup and health check grace do
// not bound it from below (an instance may take work before its warmup
// ends, and AWS publishes no launch time), nor does a warm pool; any other
// policy (step, simple, predictive), a period not known before apply, a
// minimum size not known or equal to the maximum, leaves no bound: zero.
func (f *Fleet) ProvisioningLag(limits capacity.AWSLimits) Lag {
	if f.Kind != FleetASG || !f.MinSize.Set || !f.MinSize.Known || !f.MaxSize.Known || f.MinSize.V >= f.MaxSize.V || f.MinSize.V < 0 {
		return Lag{}
	}
	def, ok := limits.Limit("target_tracking_metric_period_default_seconds")
	if !ok {
		return Lag{}
	}
	var lag Lag
	for _, p := range f.Policies {
		if !p.ScaleOut {
			continue
		}
		if p.Kind != PolicyTargetTracking {
			return Lag{}
		}
		period := Lag{Seconds: def.Value, MinSize: f.MinSize.V, Range: p.DefRange,
			Why: "one " + textfmt.Number(def.Value) + " s period of the metric " + p.Addr + " tracks (AWS's default, target_tracking_metric_period_default_seconds), before which it cannot scale out"}
		for i, n := range p.MetricPeriods {
			if !n.Known || n.V <= 0 {
				return Lag{}
			}
			if i == 0 || n.V < period.Seconds {
				period.Seconds, period.Range = n.V, n.Range
				period.Why = "one " + textfmt.Number(n.V) + " s period of the metric " + p.Addr + " tracks, before which it cannot scale out"
			}
		}
		if lag.Seconds == 0 || period.Seconds < lag.Seconds {
			lag = period
		}
	}
	return lag
}
