// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Package capacity holds every formula queuecap reports: the fluid model of a
// queue (arrival, capacity, surplus, drain time), Little's law, the
// TTL-bounded backlog and drain forecasts. It uses the standard library only
// so that the Terraform provider, its functions and the linter share one
// implementation. See MATH.md in the project's shared reference for the
// derivations and worked examples.
//
// Every function validates its inputs and returns an *InputError naming the
// offending input (by its Terraform attribute name) rather than producing
// NaN, an infinity or a wrapped integer.
package capacity

import (
	"errors"
	"fmt"
	"math"
	"math/big"
)

// MaxCount is the largest consumer count queuecap reports. Beyond 2^53 a
// float64 no longer holds every integer, so a ceiling would be meaningless.
const MaxCount = 1 << 53

// InputError reports an input, named by its attribute name, that the formulas
// cannot accept or that makes a result leave the float64 range.
type InputError struct {
	Field  string
	Reason string
}

// Error reads as a sentence: "arrival_rate must be at least 0, got -1".
func (e *InputError) Error() string { return e.Field + " " + e.Reason }

// Within states err as an error of one attribute of an object argument:
// "inputs.max_backlog must be …", or "inputs: No … is set" for an error
// that names no attribute.
func Within(object string, err error) string {
	var ie *InputError
	if errors.As(err, &ie) && ie.Field == "" {
		return object + ": " + ie.Reason
	}
	return object + "." + err.Error()
}

func inputErr(field, format string, args ...any) error {
	return &InputError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// checkNonNegative rejects NaN, infinities and negative values.
func checkNonNegative(field string, v float64) error {
	if !finite(v) {
		return inputErr(field, "must be a finite number, got %v", v)
	}
	if v < 0 {
		return inputErr(field, "must be at least 0, got %v", v)
	}
	return nil
}

// checkPositive rejects NaN, infinities, zero and negative values.
func checkPositive(field string, v float64) error {
	if !finite(v) {
		return inputErr(field, "must be a finite number, got %v", v)
	}
	if v <= 0 {
		return inputErr(field, "must be greater than 0, got %v", v)
	}
	return nil
}

// checkFraction rejects anything outside [0, 1].
func checkFraction(field string, v float64) error {
	if !finite(v) {
		return inputErr(field, "must be a finite number, got %v", v)
	}
	if v < 0 || v > 1 {
		return inputErr(field, "must be between 0 and 1, got %v", v)
	}
	return nil
}

// checkResult turns an overflowed intermediate into an error that names the
// input most responsible for it.
func checkResult(field, what string, v float64) error {
	if !finite(v) {
		return inputErr(field, "makes %s overflow the float64 range (about 1.8e308)", what)
	}
	return nil
}

// term is one input of a product or ratio, with its power in it: 1 for a
// factor, −1 for a divisor.
type term struct {
	field string
	v     float64
	power float64
}

// culprit names the input most responsible for a product or ratio leaving
// the float64 range: the term whose magnitude pushes it furthest, so that
// 10000 / 5e-324 blames the tiny per_consumer_rate, not the ordinary
// arrival_rate.
func culprit(terms ...term) string {
	best, worst := "", math.Inf(-1)
	for _, t := range terms {
		if t.v == 0 {
			continue
		}
		if push := t.power * math.Log10(math.Abs(t.v)); push > worst {
			best, worst = t.field, push
		}
	}
	if best == "" && len(terms) > 0 {
		return terms[0].field
	}
	return best
}

// Retries describes the share of messages retried and how often.
type Retries struct {
	Rate    float64 // r: fraction of messages retried, 0..1
	Average float64 // k: retries per retried message, ≥ 0
}

func (r Retries) validate() error {
	if err := checkFraction("retry_rate", r.Rate); err != nil {
		return err
	}
	return checkNonNegative("avg_retries", r.Average)
}

// amplification is 1 + r·k, the factor retries multiply arrivals by.
func (r Retries) amplification() *big.Rat {
	if r.Rate == 0 || r.Average == 0 {
		return ratOne // read only, as every operand here
	}
	return add(ratOne, mul(dec(r.Rate), dec(r.Average)))
}

// effective is λ_eff = λ · (1 + r · k), exact, once the inputs are
// valid.
func (r Retries) effective(arrivalRate float64) *big.Rat {
	if amp := r.amplification(); amp != ratOne {
		return mul(dec(arrivalRate), amp)
	}
	return dec(arrivalRate)
}

// EffectiveArrivalRate is λ_eff = λ · (1 + r · k).
func EffectiveArrivalRate(arrivalRate float64, retries Retries) (float64, error) {
	_, eff, err := effectiveArrival(arrivalRate, retries)
	return eff, err
}

// effectiveArrival is λ_eff exactly and as written, checked.
func effectiveArrival(arrivalRate float64, retries Retries) (*big.Rat, float64, error) {
	if err := checkNonNegative("arrival_rate", arrivalRate); err != nil {
		return nil, 0, err
	}
	if err := retries.validate(); err != nil {
		return nil, 0, err
	}
	amp := retries.amplification()
	if !ratFinite(amp) {
		return nil, 0, checkResult("avg_retries", "the retry amplification 1 + retry_rate × avg_retries", math.Inf(1))
	}
	effR := dec(arrivalRate)
	if amp != ratOne {
		effR = mul(effR, amp)
	}
	eff := float(effR)
	if err := checkResult("arrival_rate", "the effective arrival rate arrival_rate × (1 + retry_rate × avg_retries)", eff); err != nil {
		return nil, 0, err
	}
	return effR, eff, nil
}

// DrainSeconds is the fluid-model time to clear backlog B at net rate
// S = completion − arrival: B / S. It reports ok = false when the backlog
// never drains (B > 0 and S ≤ 0). An empty backlog is drained at 0 s.
func DrainSeconds(backlog, netRate float64) (seconds float64, ok bool, err error) {
	if err := checkNonNegative("backlog", backlog); err != nil {
		return 0, false, err
	}
	if !finite(netRate) {
		return 0, false, inputErr("net_rate", "must be a finite number, got %v", netRate)
	}
	if backlog == 0 {
		return 0, true, nil
	}
	if netRate <= 0 {
		return 0, false, nil
	}
	t := float(quo(dec(backlog), dec(netRate)))
	if err := checkResult("backlog", "the drain time backlog / net rate", t); err != nil {
		return 0, false, err
	}
	return t, true, nil
}

// SLAMaxDepth is Little's law: the deepest a queue may be before a message
// arriving now waits longer than the SLA, D_max = λ · SLA.
func SLAMaxDepth(arrivalRate, slaSeconds float64) (float64, error) {
	if err := checkNonNegative("arrival_rate", arrivalRate); err != nil {
		return 0, err
	}
	if err := checkPositive("sla_seconds", slaSeconds); err != nil {
		return 0, err
	}
	d := float(mul(dec(arrivalRate), dec(slaSeconds)))
	if err := checkResult(culprit(term{"arrival_rate", arrivalRate, 1}, term{"sla_seconds", slaSeconds, 1}), "the maximum depth arrival_rate × sla_seconds", d); err != nil {
		return 0, err
	}
	return d, nil
}

// EffectiveSLAMaxDepth is Little's law on the effective arrival rate,
// λ · (1 + r · k) · SLA, from the exact λ_eff and rounded once, not from
// λ_eff already rounded to 15 digits: the depth_above_sla threshold of
// queuecap_alarm_thresholds, and the depth queuecap_depth_alarm_after_sla
// holds a threshold to.
func EffectiveSLAMaxDepth(arrivalRate float64, retries Retries, slaSeconds float64) (float64, error) {
	effR, eff, err := effectiveArrival(arrivalRate, retries)
	if err != nil {
		return 0, err
	}
	if err := checkPositive("sla_seconds", slaSeconds); err != nil {
		return 0, err
	}
	d := float(mul(effR, dec(slaSeconds)))
	if err := checkResult(culprit(term{"arrival_rate", eff, 1}, term{"sla_seconds", slaSeconds, 1}), "the maximum depth arrival_rate × sla_seconds", d); err != nil {
		return 0, err
	}
	return d, nil
}

// WaitSeconds is the wait of a message arriving now behind a FIFO backlog,
// W = backlog / completion rate. ok is false when nothing completes, as
// the docs say: the message is never served, behind a backlog or not.
func WaitSeconds(backlog, completionRate float64) (seconds float64, ok bool, err error) {
	if err := checkNonNegative("backlog", backlog); err != nil {
		return 0, false, err
	}
	if err := checkNonNegative("completion_rate", completionRate); err != nil {
		return 0, false, err
	}
	return waitBehind(backlog, dec(completionRate))
}

// waitBehind is WaitSeconds at an exact completion rate, on checked input.
func waitBehind(backlog float64, completion *big.Rat) (seconds float64, ok bool, err error) {
	if completion.Sign() == 0 {
		return 0, false, nil
	}
	w := float(quo(dec(backlog), completion))
	if err := checkResult("backlog", "the wait backlog / completion_rate", w); err != nil {
		return 0, false, err
	}
	return w, true, nil
}
