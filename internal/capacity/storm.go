// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity

import (
	"math"
	"math/big"
)

// Defaults of the retry storm simulation, the seed's.
const (
	DefaultTimeoutWindowSeconds = 30
	DefaultStormMaxSeconds      = 36000
	// MaxStormSeconds bounds the simulation's length: ten days of
	// one-second steps keeps a call well under a second.
	MaxStormSeconds = 864000
)

// StormInput describes a backlog, a fleet and a retry storm: a message
// whose wait exceeds the timeout window is retried by its producer
// RetriesPerTimeout times, so arrivals rise with depth.
type StormInput struct {
	ArrivalRate          float64 // λ, msg/s
	PerConsumerRate      float64 // μ
	Consumers            int64   // c
	Backlog              float64 // messages at t = 0
	RetriesPerTimeout    float64 // ≥ 0
	TimeoutWindowSeconds float64 // W, > 0
	MaxSeconds           int64   // steps simulated, ≥ 1
}

// Storm is the outcome of a retry storm simulation.
type Storm struct {
	Drains       bool
	DrainSeconds *float64 // first t at which the depth is 0; nil when not within MaxSeconds
	// Steps is how many one-second states were recorded, the initial one
	// included: the seed's count (1,287 for its 32-consumer fleet, whose
	// depth reaches 0 at t = 1,286).
	Steps                    int64
	PeakDepth                float64
	FinalDepth               float64
	PeakEffectiveArrivalRate float64
}

func (in StormInput) validate() error {
	if err := checkNonNegative("arrival_rate", in.ArrivalRate); err != nil {
		return err
	}
	if err := checkPositive("per_consumer_rate", in.PerConsumerRate); err != nil {
		return err
	}
	if in.Consumers < 0 || in.Consumers > MaxCount {
		return inputErr("consumers", "must be between 0 and %d, got %d", int64(MaxCount), in.Consumers)
	}
	if err := checkNonNegative("backlog", in.Backlog); err != nil {
		return err
	}
	if err := checkNonNegative("retries_per_timeout", in.RetriesPerTimeout); err != nil {
		return err
	}
	if err := checkPositive("timeout_window_seconds", in.TimeoutWindowSeconds); err != nil {
		return err
	}
	if in.MaxSeconds < 1 || in.MaxSeconds > MaxStormSeconds {
		return inputErr("max_seconds", "must be between 1 and %d, got %d", MaxStormSeconds, in.MaxSeconds)
	}
	return nil
}

// SimulateStorm steps the backlog one second at a time, as seed 000 does:
//
//	timeout_prob = min(1, depth / (λ · W))
//	arrivals     = λ · (1 + retries_per_timeout · timeout_prob)
//	depth        = max(0, depth + arrivals − c · μ)
//
// recording the depth at t = 0, 1, …, MaxSeconds − 1 and stopping at the
// first recorded depth of 0. visit, when not nil, sees every recorded
// state (for charts).
func SimulateStorm(in StormInput, visit func(t int64, depth, effectiveArrival float64)) (Storm, error) {
	if err := in.validate(); err != nil {
		return Storm{}, err
	}
	st, err := simulateStorm(in, visit)
	// The simulation is float64 by design; what it reports is written to
	// 15 significant digits, as every result is. A depth is not flushed
	// to 0 below 1e-300 as a probability is: it has not drained.
	st.PeakDepth, st.FinalDepth = Clean(st.PeakDepth), Clean(st.FinalDepth)
	st.PeakEffectiveArrivalRate = Clean(st.PeakEffectiveArrivalRate)
	return st, err
}

// simulateStorm is SimulateStorm on validated input.
func simulateStorm(in StormInput, visit func(t int64, depth, effectiveArrival float64)) (Storm, error) {
	var out Storm
	capacity, err := FleetCapacity(in.Consumers, in.PerConsumerRate)
	if err != nil {
		return out, err
	}
	depth := in.Backlog
	out.PeakEffectiveArrivalRate = in.ArrivalRate
	// A step adds the net flow λ − c·μ (exact, to float64) and the retries'
	// arrivals to the depth, so that its rounding is of the depth and the
	// net flow, not of the gross flows: near steady state, depth + λ(1 +
	// r·p) − c·μ kept of the retries' few messages a second only what a
	// unit in the last place of λ left (λ 57,631,296 = 60 × 960,521.6 and a
	// backlog of 0.006 under 2.6 retries peaked 1.5e-6 off in 732 s).
	net, _ := sub(dec(in.ArrivalRate), mul(ratInt(in.Consumers), dec(in.PerConsumerRate))).Float64()
	// While every step's arrival rate is the same A = λ(1 + retries) (no
	// retries, nothing arriving, or every message timed out since t = 0)
	// the depth at t is B + t·(A − c·μ) exactly. Near 0 that decides the
	// second at which it is 0, not float64's rounding accumulated over t
	// steps: λ 0.3, μ 0.1, 7 consumers and 2 messages are at 0 at t = 5,
	// not 6. "Near" is within 1e-9 of the messages moved, five times that
	// rounding after MaxStormSeconds steps. With retries below the timeout
	// window the steps are float64's, by design.
	full := in.ArrivalRate + in.ArrivalRate*in.RetriesPerTimeout
	linear := true
	var exact *linearRun
	for t := int64(0); t < in.MaxSeconds; t++ {
		retried := stormRetries(in, depth)
		arrival := in.ArrivalRate + retried
		if math.IsInf(arrival, 0) { // the next depth would be infinite
			return out, inputErr("backlog", "makes the simulated depth overflow the float64 range")
		}
		if visit != nil {
			visit(t, depth, arrival)
		}
		out.Steps = t + 1
		out.PeakDepth = max(out.PeakDepth, depth)
		out.FinalDepth = depth
		if depth <= 0 {
			out.Drains = true
			seconds := float64(t)
			out.DrainSeconds = &seconds
			break
		}
		out.PeakEffectiveArrivalRate = max(out.PeakEffectiveArrivalRate, arrival)
		next := depth + (net + retried)
		linear = linear && arrival == full
		if linear && next <= 1e-9*(in.Backlog+float64(t+1)*(full+capacity)) {
			if exact == nil {
				exact = newLinearRun(in)
			}
			next = exact.depth(t + 1)
		}
		depth = max(0, next)
		if math.IsInf(depth, 0) {
			return out, inputErr("backlog", "makes the simulated depth overflow the float64 range")
		}
	}
	return out, nil
}

// linearRun is the exact depth B + t·(A − c·μ) of a storm whose arrival
// rate is A = λ(1 + retries) at every step.
type linearRun struct {
	backlog, net *big.Rat // B and A − c·μ
	b, netF      float64
	drainsAt     int64 // the first t at which it is ≤ 0; 0 when never within MaxStormSeconds
}

func newLinearRun(in StormInput) *linearRun {
	full := mul(dec(in.ArrivalRate), add(ratOne, dec(in.RetriesPerTimeout)))
	r := &linearRun{backlog: dec(in.Backlog), net: sub(full, mul(ratInt(in.Consumers), dec(in.PerConsumerRate))), b: in.Backlog}
	r.netF = float(r.net)
	if r.net.Sign() < 0 {
		if k := ceilInt(quo(r.backlog, new(big.Rat).Neg(r.net))); k.IsInt64() && k.Int64() <= MaxStormSeconds {
			r.drainsAt = k.Int64()
		}
	}
	return r
}

// depth is the depth at t ≥ 1: 0 from drainsAt on, positive before. It is
// B + t·(A − c·μ) in float64, one rounding rather than t of them, or
// exactly where that rounds a positive depth to 0.
func (r *linearRun) depth(t int64) float64 {
	if r.drainsAt > 0 && t >= r.drainsAt {
		return 0
	}
	if v := r.b + float64(t)*r.netF; v > 0 {
		return v
	}
	return float(add(r.backlog, mul(ratInt(t), r.net)))
}

// stormRetries is the arrival rate the retries add at a depth, λ · r ·
// timeout_prob: the effective arrival rate is λ plus it.
func stormRetries(in StormInput, depth float64) float64 {
	if in.ArrivalRate == 0 || in.RetriesPerTimeout == 0 {
		return 0
	}
	// The seed's arithmetic, depth / (λ · W), except where λ · W underflows
	// to 0 (0/0 would be NaN): then any depth has timed out.
	window := in.ArrivalRate * in.TimeoutWindowSeconds
	if window == 0 {
		if depth > 0 {
			return in.ArrivalRate * in.RetriesPerTimeout
		}
		return 0
	}
	timeoutProb := min(1, depth/window)
	return in.ArrivalRate * (in.RetriesPerTimeout * timeoutProb)
}

// MinConsumersToDrain is the smallest fleet whose simulation, under the
// same storm, reaches depth 0 at some t ≤ withinSeconds (an RTO), or within
// the simulation's MaxSeconds states when withinSeconds is 0.
//
// Draining is monotone in c: each step's new depth grows with the old depth
// and shrinks with c, so a larger fleet is never deeper at any t. That
// allows a binary search between a fleet that cannot drain (c·μ ≤ λ, when
// there is a backlog) and one that provably does: with the timeout
// probability at most 1, arrivals never exceed λ(1 + k), so
// c·μ ≥ λ(1 + k) + B/(T − 1) empties the queue by the last recorded state.
func MinConsumersToDrain(in StormInput, withinSeconds int64) (int64, error) {
	in.Consumers = 0
	if err := in.validate(); err != nil {
		return 0, err
	}
	if withinSeconds < 0 || withinSeconds > MaxStormSeconds {
		return 0, inputErr("rto_seconds", "must be between 1 and %d, got %d", MaxStormSeconds, withinSeconds) // 0 means none
	}
	if withinSeconds > 0 {
		in.MaxSeconds = withinSeconds + 1 // states t = 0 … withinSeconds
	}
	drains := func(c int64) (bool, error) {
		in.Consumers = c
		s, err := simulateStorm(in, nil)
		return s.Drains, err
	}
	if in.Backlog == 0 {
		return 0, nil // drained at t = 0
	}
	if in.MaxSeconds < 2 {
		return 0, inputErr("max_seconds", "of 1 leaves no step in which a backlog could drain")
	}
	worst := in.ArrivalRate * (1 + in.RetriesPerTimeout)
	bound := (worst + in.Backlog/float64(in.MaxSeconds-1)) / in.PerConsumerRate
	if !finite(bound) || bound >= MaxCount {
		return 0, inputErr("backlog", "needs more than %d consumers to drain by t = %d s", int64(MaxCount), in.MaxSeconds-1)
	}
	hi := int64(math.Ceil(bound)) + 1 // one more absorbs rounding in the bound
	lo := int64(math.Floor(in.ArrivalRate / in.PerConsumerRate))
	if ok, err := drains(lo); err != nil || ok {
		return lo, err // c·μ ≤ λ drains only a backlog that needs no surplus
	}
	if ok, err := drains(hi); err != nil {
		return 0, err
	} else if !ok {
		return 0, inputErr("backlog", "does not drain by t = %d s even with %d consumers", in.MaxSeconds-1, hi)
	}
	for hi-lo > 1 { // invariant: lo does not drain, hi does
		mid := lo + (hi-lo)/2
		ok, err := drains(mid)
		if err != nil {
			return 0, err
		}
		if ok {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, nil
}
