// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package capacity

import (
	"fmt"
	"math/big"
)

// A Lambda SQS event source mapping scales in one of two modes: standard
// (AWS adds pollers itself, up to a per-mapping cap) or provisioned (the
// mapping's provisioned_poller_config sets its pollers, each driving a
// published number of concurrent invocations).
const (
	LambdaModeStandard    = "standard"
	LambdaModeProvisioned = "provisioned"
)

// The AWS limits table's names a fleet plan and the linter's advice read for
// Lambda's modes.
const (
	LimitLambdaStandardMaxConcurrency    = "lambda_sqs_standard_max_concurrency"
	LimitLambdaProvisionedMaxConcurrency = "lambda_sqs_provisioned_max_concurrency"
	LimitLambdaPollerConcurrency         = "lambda_sqs_poller_concurrent_invocations"
	LimitLambdaMinimumPollersLeast       = "lambda_sqs_minimum_pollers_default"
	LimitLambdaMinimumPollersMax         = "lambda_sqs_minimum_pollers_max"
	LimitLambdaMaximumPollersMax         = "lambda_sqs_maximum_pollers_max"
	LimitLambdaMaximumConcurrencyMax     = "lambda_sqs_maximum_concurrency_max"
	LimitLambdaMaximumPollersDefault     = "lambda_sqs_maximum_pollers_default"
)

// LambdaPollers is a provisioned mapping's provisioned_poller_config.
type LambdaPollers struct {
	Minimum, Maximum int64
	// MinimumCapped is true when the warm floor the minimum fleet asks
	// for is above the most minimum_pollers AWS accepts.
	MinimumCapped bool
}

// limit is the table's value of name, or an error naming the table.
func (l AWSLimits) limit(name string) (float64, error) {
	e, ok := l.Limit(name)
	if !ok {
		return 0, fmt.Errorf("the AWS limits table has no %s", name)
	}
	return e.Value, nil
}

// pollersFor is ceil(concurrency / perPoller): the pollers that take
// concurrency concurrent invocations.
func pollersFor(concurrency int64, perPoller float64) int64 {
	n, _ := ceilRat("maximum_pollers", "pollers", quo(ratInt(concurrency), dec(perPoller))) // at most the concurrency: a count
	return n
}

// PollersFor is the maximum_pollers that take concurrency concurrent
// invocations, ceil(concurrency / lambda_sqs_poller_concurrent_invocations);
// false without a positive per-poller limit in the table.
func (l AWSLimits) PollersFor(concurrency int64) (int64, bool) {
	per, err := l.limit(LimitLambdaPollerConcurrency)
	if err != nil || per <= 0 {
		return 0, false
	}
	return pollersFor(concurrency, per), true
}

// PollerConcurrency is the concurrent invocations maximum_pollers give a
// provisioned mapping, pollers × lambda_sqs_poller_concurrent_invocations
// (decimal-clean), and provisioned mode's most per mapping
// (lambda_sqs_provisioned_max_concurrency) that caps it.
func (l AWSLimits) PollerConcurrency(pollers float64) (concurrency, per, most float64) {
	per, _ = l.limit(LimitLambdaPollerConcurrency)
	most, _ = l.limit(LimitLambdaProvisionedMaxConcurrency)
	c, _ := mul(dec(pollers), dec(per)).Float64()
	return c, per, most
}

// LambdaModeCap is the most concurrent invocations one SQS event source
// mapping reaches in mode, and the table entry it comes from.
func (l AWSLimits) LambdaModeCap(mode string) (float64, string, error) {
	name := LimitLambdaStandardMaxConcurrency
	if mode == LambdaModeProvisioned {
		name = LimitLambdaProvisionedMaxConcurrency
	}
	v, err := l.limit(name)
	return v, name, err
}

// PlanPollers is the provisioned_poller_config that keeps minConcurrency
// warm and reaches maxConcurrency: ceil(concurrency / invocations per
// poller) pollers each, within the published ranges (minimum_pollers from
// its least to its most, maximum_pollers at least minimum_pollers). It
// fails, naming field, when maxConcurrency needs more pollers than
// maximum_pollers accepts.
func (l AWSLimits) PlanPollers(field string, minConcurrency, maxConcurrency int64) (LambdaPollers, error) {
	var p LambdaPollers
	perPoller, err := l.limit(LimitLambdaPollerConcurrency)
	if err != nil {
		return p, err
	}
	least, err := l.limit(LimitLambdaMinimumPollersLeast)
	if err != nil {
		return p, err
	}
	minMax, err := l.limit(LimitLambdaMinimumPollersMax)
	if err != nil {
		return p, err
	}
	maxMax, err := l.limit(LimitLambdaMaximumPollersMax)
	if err != nil {
		return p, err
	}
	pollersFor := func(concurrency int64) int64 { return pollersFor(concurrency, perPoller) }
	p.Minimum = max(pollersFor(minConcurrency), int64(least))
	if p.Minimum > int64(minMax) {
		p.Minimum, p.MinimumCapped = int64(minMax), true
	}
	p.Maximum = max(pollersFor(maxConcurrency), p.Minimum)
	if p.Maximum > int64(maxMax) {
		return LambdaPollers{}, inputErr(field, "needs maximum_pollers = ceil(%d / %s) = %d to reach max_size %d, more than the %s a mapping accepts (%s)",
			maxConcurrency, formatNumber(perPoller), p.Maximum, maxConcurrency, formatNumber(maxMax), LimitLambdaMaximumPollersMax)
	}
	return p, nil
}

// DeployHealthyMaxSize is the least fleet whose healthy share during a
// deployment, ceil(minHealthyPercent / 100 × size) consumers as an
// instance refresh or an ECS rolling deployment keeps in service, is at
// least required. It fails at min_healthy_percent when that share is 0
// and consumers are required.
func DeployHealthyMaxSize(required int64, minHealthyPercent float64) (int64, error) {
	if required <= 0 {
		return required, nil
	}
	if minHealthyPercent <= 0 {
		return 0, inputErr("min_healthy_percent", "0 keeps no consumer in service during a deployment, so no max_size meets the RTO during one: "+
			"give the share a deployment keeps (100 when it launches before it terminates)")
	}
	// ceil(h·M/100) ≥ r ⇔ h·M/100 > r − 1 ⇔ M > 100·(r − 1)/h: the least
	// such whole M is floor(100·(r − 1)/h) + 1.
	bound := quo(mul(ratInt(100), ratInt(required-1)), dec(minHealthyPercent))
	floor := new(big.Int).Quo(bound.Num(), bound.Denom())
	m := new(big.Int).Add(floor, big.NewInt(1))
	if m.Cmp(big.NewInt(MaxCount)) > 0 {
		return 0, inputErr("min_healthy_percent", "makes max_size more than the largest supported count %d", int64(MaxCount))
	}
	return m.Int64(), nil
}
