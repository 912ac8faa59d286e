// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity

import (
	"math/big"
)

// RampInput is a fleet that scales out against a backlog (MATH.md,
// "Scale-out ramp"): it holds c_0 consumers for LagSeconds, then adds
// RampPerMinute consumers a minute until MaxConsumers. A RampPerMinute of
// 0 is a step: the fleet is MaxConsumers from LagSeconds on, which with
// no lag is the headroom formula's fleet and with one the provisioning
// lag's.
type RampInput struct {
	ArrivalRate     float64 // λ, msg/s
	PerConsumerRate float64 // μ, msg/s per consumer
	Retries         Retries
	MaxBacklog      float64 // B, messages
	// RTOSeconds is when the backlog must be gone; 0 judges nothing.
	RTOSeconds float64
	// StartConsumers is c_0, the fleet when the backlog is there; with
	// FromSteadyState, the fleet starts at λ_eff/μ when that is more (the
	// fleet that kept up with the arrivals before), at most MaxConsumers.
	StartConsumers  float64
	FromSteadyState bool
	MaxConsumers    float64 // c_1 ≥ c_0
	LagSeconds      float64 // L ≥ 0
	RampPerMinute   float64 // r · 60 ≥ 0; 0 for a step at L
}

// Ramp is how a backlog clears on a ramp.
type Ramp struct {
	EffectiveArrivalRate float64
	// StartConsumers is c_0 as the fleet starts, FromSteadyState taken.
	StartConsumers float64
	// FullSeconds is when the fleet reaches MaxConsumers: L + (c_1 − c_0)/r.
	FullSeconds float64
	// Drains reports whether the backlog clears; DrainSeconds is when, 0
	// when it never does.
	Drains       bool
	DrainSeconds float64
	// MeetsRTO reports, exactly, that the backlog is gone by RTOSeconds
	// (false without one); DrainedByRTO is what the fleet has drained of
	// it by then, net of the arrivals: negative while the backlog grows.
	MeetsRTO     bool
	DrainedByRTO float64
}

// ramp is a RampInput over the rationals.
type ramp struct {
	lambda, mu, backlog, c0, c1, lag *big.Rat
	r                                *big.Rat // consumers per second; nil for a step
}

// drained is D(t), the backlog the fleet has cleared by t net of the
// arrivals: ∫ μ·c(s) − λ_eff ds with c(s) = c_0 until L, then c_0 + r·(s −
// L) up to c_1.
func (p ramp) drained(t *big.Rat) *big.Rat {
	s0 := sub(mul(p.mu, p.c0), p.lambda)
	if t.Cmp(p.lag) <= 0 {
		return mul(s0, t)
	}
	d := mul(s0, p.lag)
	u := sub(t, p.lag)
	if ru := p.rampSeconds(); ru != nil {
		in := minRat(u, ru) // time on the ramp
		// μ·(c_0·u + r·u²/2) − λ·u
		d = add(d, add(mul(s0, in), mul(mul(p.mu, p.r), quo(mul(in, in), ratInt(2)))))
		u = sub(u, in)
	}
	return add(d, mul(sub(mul(p.mu, p.c1), p.lambda), u))
}

// rampSeconds is (c_1 − c_0)/r, the ramp's length; nil for a step.
func (p ramp) rampSeconds() *big.Rat {
	if p.r == nil {
		return nil
	}
	return quo(sub(p.c1, p.c0), p.r)
}

func minRat(a, b *big.Rat) *big.Rat {
	if a.Cmp(b) <= 0 {
		return a
	}
	return b
}

// RampDrain is how the backlog clears as the fleet ramps: when it is gone,
// and whether by RTOSeconds. The decision is exact; the time it clears on
// the ramp solves a quadratic, whose square root is taken to 256 bits and
// then rounded as every result is.
func RampDrain(in RampInput) (Ramp, error) {
	var out Ramp
	if err := checkPositive("per_consumer_rate", in.PerConsumerRate); err != nil {
		return out, err
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"max_backlog", in.MaxBacklog}, {"rto_seconds", in.RTOSeconds}, {"start_consumers", in.StartConsumers},
		{"max_consumers", in.MaxConsumers}, {"provisioning_lag_seconds", in.LagSeconds}, {"ramp_per_minute", in.RampPerMinute}} {
		if err := checkNonNegative(f.name, f.v); err != nil {
			return out, err
		}
	}
	if in.MaxConsumers < in.StartConsumers {
		return out, inputErr("max_consumers", "must be at least start_consumers (%s), got %s", formatNumber(in.StartConsumers), formatNumber(in.MaxConsumers))
	}
	lambda, eff, err := effectiveArrival(in.ArrivalRate, in.Retries)
	if err != nil {
		return out, err
	}
	out.EffectiveArrivalRate = eff
	p := ramp{lambda: lambda, mu: dec(in.PerConsumerRate), backlog: dec(in.MaxBacklog),
		c0: dec(in.StartConsumers), c1: dec(in.MaxConsumers), lag: dec(in.LagSeconds)}
	if in.FromSteadyState {
		if steady := quo(lambda, p.mu); steady.Cmp(p.c0) > 0 {
			p.c0 = minRat(steady, p.c1)
		}
	}
	out.StartConsumers = float(p.c0)
	full := new(big.Rat).Set(p.lag)
	if in.RampPerMinute > 0 {
		p.r = quo(dec(in.RampPerMinute), ratInt(60))
		full = add(full, p.rampSeconds())
	}
	out.FullSeconds = float(full)
	if err := checkResult("ramp_per_minute", "the ramp's length (max_consumers − start_consumers) / ramp_per_minute", out.FullSeconds); err != nil {
		return Ramp{}, err
	}
	if in.RTOSeconds > 0 {
		d := p.drained(dec(in.RTOSeconds))
		out.DrainedByRTO = float(d)
		out.MeetsRTO = d.Cmp(p.backlog) >= 0
	}
	t, ok := p.drainSeconds(full)
	if ok {
		out.Drains, out.DrainSeconds = true, float(t)
	}
	if err := checkResult("max_backlog", "the drain time", out.DrainSeconds); err != nil {
		return Ramp{}, err
	}
	if err := checkResult("max_backlog", "the backlog drained by rto_seconds", out.DrainedByRTO); err != nil {
		return Ramp{}, err
	}
	return out, nil
}

// drainSeconds is the first t with D(t) = B, phase by phase: at c_0 during
// the lag, on the ramp (a quadratic), at c_1 after full. D only falls
// while c < λ_eff/μ and c never falls, so once the backlog is gone it
// stays gone.
func (p ramp) drainSeconds(full *big.Rat) (*big.Rat, bool) {
	if p.backlog.Sign() == 0 {
		return new(big.Rat), true
	}
	s0 := sub(mul(p.mu, p.c0), p.lambda)
	if s0.Sign() > 0 && p.drained(p.lag).Cmp(p.backlog) >= 0 {
		return quo(p.backlog, s0), true
	}
	if p.r != nil && p.drained(full).Cmp(p.backlog) >= 0 {
		// μ·r/2·u² + s0·u − R = 0 for R = B − D(L), u on the ramp.
		a := quo(mul(p.mu, p.r), ratInt(2))
		rest := sub(p.backlog, p.drained(p.lag))
		disc := add(mul(s0, s0), mul(mul(ratInt(4), a), rest))
		root := new(big.Float).SetPrec(256).SetRat(disc)
		root.Sqrt(root)
		sq, _ := root.Rat(nil)
		u := quo(sub(sq, s0), mul(ratInt(2), a))
		return add(p.lag, u), true
	}
	s1 := sub(mul(p.mu, p.c1), p.lambda)
	if s1.Sign() <= 0 {
		return nil, false
	}
	return add(full, quo(sub(p.backlog, p.drained(full)), s1)), true
}

// SecondsToReach is when the fleet of in reaches c consumers: 0 for c at
// or under where it starts, L + (c − c_0)/r on the ramp (L for a step).
// c over MaxConsumers is never reached: false.
func (in RampInput) SecondsToReach(start, c float64) (float64, bool) {
	switch {
	case c > in.MaxConsumers:
		return 0, false
	case c <= start:
		return 0, true
	case in.RampPerMinute == 0:
		return in.LagSeconds, true
	}
	t := add(dec(in.LagSeconds), quo(mul(sub(dec(c), dec(start)), ratInt(60)), dec(in.RampPerMinute)))
	return float(t), true
}
