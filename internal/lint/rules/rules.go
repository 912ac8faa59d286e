// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Package rules holds queuecap lint's rules, one file each, named after the
// rule. Every finding states its arithmetic in words and carries the
// numbers behind it as facts.
package rules

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/queuecap/terraform-provider-queuecap/docs"
	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/textfmt"
)

// docBase is where the rule pages of a version live, docs/rules/<id>.md:
// in the release's tag for a release, on main for any other build.
func docBase(version string) string {
	return docURL(version, "docs/rules/")
}

// docURL is a path of the repository as a version has it: in the
// release's tag for a release, on main for any other build.
func docURL(version, path string) string {
	ref := lint.ReleaseTag(version)
	if ref == "" {
		ref = "main"
	}
	return "https://github.com/queuecap/terraform-provider-queuecap/blob/" + ref + "/" + path
}

// DocLink is a page of the repository's docs, such as docs/tflint.md, as
// this build's rule links point at them.
func DocLink(path string) string { return docURL(lint.BuildVersion(), path) }

// All returns every rule, in the order they are documented.
func All() []lint.Rule {
	return []lint.Rule{
		newZeroSurplus(),
		newInsufficientHeadroom(),
		newDepthOnlyScaling(),
		newRetentionShorterThanDrain(),
		newVisibilityTimeoutTooShort(),
		newMissingDeadLetterQueue(),
		newDepthAlarmAfterSLA(),
		newMetastableRetryStorm(),
	}
}

// meta implements the descriptive half of lint.Rule.
type meta struct {
	name     string
	severity lint.Severity
	summary  string
}

func (m meta) Name() string                   { return m.name }
func (m meta) DefaultSeverity() lint.Severity { return m.severity }
func (m meta) EnabledByDefault() bool         { return true }
func (m meta) Link() string                   { return docBase(lint.BuildVersion()) + m.name + ".md" }
func (m meta) Summary() string                { return m.summary }
func (m meta) Doc() string                    { return docs.RulePage(m.name) }

// num formats a number for a message as its fact carries it, decimal-clean
// (capacity.Clean): integers as integers, others rounded half up to two
// decimals, never in exponent form below 1e15, with thousands separators
// as `queuecap size` prints them.
func num(v float64) string { return textfmt.Group(plainNum(v)) }

func plainNum(v float64) string {
	v = capacity.Clean(v)
	if math.Abs(v) >= 1e15 {
		return strconv.FormatFloat(v, 'g', 4, 64)
	}
	if v == math.Trunc(v) {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	// Clean first: 0.145 × 100 is 14.499999999999998 in float64.
	r := math.Round(capacity.Clean(v*100)) / 100
	if r == 0 || r == math.Trunc(r) {
		// Two decimals would hide the very difference a message is about:
		// 60001 / 500 is 120.002 s, over a 120 s SLA, not "120 s". Then
		// the message states the fact's decimal itself.
		return capacity.Decimal(v)
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// n formats a number for a finding's first line, as `queuecap size` prints
// it: 10,000, 0.33.
func n(v float64) string { return textfmt.Grouped(capacity.Clean(v)) }

// messages is a count of messages with its noun: "1 message", "5000 messages".
func messages(v float64) string {
	if v == 1 {
		return "1 message"
	}
	return num(v) + " messages"
}

func percent(v float64) string { return num(v*100) + " %" }

// fact is where every fact is made, decimal-clean: 0.1 + 0.2 is the 0.3 a
// message states, not 0.30000000000000004.
func fact(name string, v float64) lint.Fact { return lint.Fact{Name: name, Value: capacity.Clean(v)} }

// fleetSupply is one consumer fleet at its maximum size.
type fleetSupply struct {
	fleet *lint.Fleet
	size  float64
	rate  float64 // μ
}

// supply is what a queue's consumers can do at their maximum size against
// the queue's declared arrivals. Every rule reads the capacity, the surplus
// and the drain time from here, decimal-clean, so that the findings on a
// queue state one number for each.
type supply struct {
	queue     *lint.Queue
	retries   capacity.Retries
	arrival   float64 // λ
	effective float64 // λ_eff
	fleets    []fleetSupply
	capacity  float64 // Σ c·μ
	surplus   float64
	drain     *backlogDrain
	at        hcl.Range
}

// backlogDrain is how the declared max_backlog clears at the surplus; a
// supply without a known max_backlog has none.
type backlogDrain struct {
	drains  bool
	seconds float64 // max_backlog / surplus; 0 when it never drains
}

// supplyOf gathers the numbers the capacity rules share. It returns false
// when the queue declares no arrival rate (nothing to check) or a value the
// check needs is unknown before apply or undeclared; the latter are
// recorded as skips so that a user sees what was not checked.
func supplyOf(m *lint.Model, q *lint.Queue, r lint.Reporter) (*supply, bool) {
	if len(q.Consumers) == 0 || !q.Rates.ArrivalRate.Set {
		return nil, false
	}
	s := &supply{queue: q}
	if !q.Rates.ArrivalRate.Known {
		r.Skip(q.Rates.ArrivalRate.Range, "arrival_rate of "+q.Addr+" "+q.Rates.ArrivalRate.Unknown())
		return nil, false
	}
	retries, ok := knownRetries(q, q.Rates.RetryRate, q.Rates.AvgRetries, r)
	if !ok {
		return nil, false
	}
	s.arrival, s.retries = q.Rates.ArrivalRate.V, retries
	if s.effective, ok = effectiveArrival(q, s.arrival, retries, r); !ok {
		return nil, false
	}
	var capacities []float64
	for _, f := range q.Consumers {
		mu := f.RatesFor(q).PerConsumerRate
		switch {
		case !mu.Set:
			r.Skip(f.DefRange, "per_consumer_rate is not declared for "+consumer(q, f)+" (tag queuecap:per_consumer_rate, a queue block in "+m.ConfigFileName()+", or a queuecap data source)")
			return nil, false
		case !mu.Known:
			r.Skip(mu.Range, "per_consumer_rate of "+f.Addr+" "+mu.Unknown())
			return nil, false
		case f.Kind == lint.FleetLambda && (!f.MaxSize.Set || f.Unreserved()):
			at, why := f.DefRange, "sets no reserved_concurrent_executions"
			if f.Unreserved() {
				at, why = f.MaxSize.Range, "has reserved_concurrent_executions = -1 (unreserved)"
			}
			r.Skip(at, f.Addr+" "+why+": its concurrency is bounded only by the account's, so its capacity is not known; "+
				"set maximum_concurrency in the scaling_config of its event source mapping, or reserved_concurrent_executions")
			return nil, false
		case !f.MaxSize.Set:
			r.Skip(f.DefRange, "the maximum size of "+f.Addr+" is not set ("+f.SizeAttr+")")
			return nil, false
		case !f.MaxSize.Known:
			r.Skip(f.MaxSize.Range, f.SizeAttr+" of "+f.Addr+" "+f.MaxSize.Unknown())
			return nil, false
		}
		c, err := capacity.FleetCapacity(int64(f.MaxSize.V), mu.V)
		if err != nil || f.MaxSize.V != math.Trunc(f.MaxSize.V) {
			r.Skip(f.MaxSize.Range, fmt.Sprintf("%s %s of %s is not a whole number of consumers of at least 0", f.SizeAttr, num(f.MaxSize.V), f.Addr))
			return nil, false
		}
		s.fleets = append(s.fleets, fleetSupply{fleet: f, size: f.MaxSize.V, rate: mu.V})
		capacities = append(capacities, c)
	}
	total, err := capacity.TotalCapacity(capacities...)
	if err != nil {
		r.Skip(q.DefRange, "consumers of "+q.Addr+": "+err.Error())
		return nil, false
	}
	// The surplus of the numbers a message states: 0.4 − 0.39 is 0.01, and
	// a max_backlog of 10 drains in 1000 s, not 999.9999999999991.
	s.capacity = capacity.Clean(total)
	s.surplus = capacity.Clean(capacity.NetRate(s.capacity, s.effective))
	if b := q.Rates.MaxBacklog; b.Set && b.Known {
		if t, drains, err := capacity.DrainSeconds(b.V, s.surplus); err == nil {
			s.drain = &backlogDrain{drains: drains, seconds: capacity.Clean(t)}
		}
	}
	s.at = q.DefRange
	if len(s.fleets) == 1 {
		s.at = s.fleets[0].fleet.MaxSize.Range
	}
	return s, true
}

// knownRetries are the retries declared for q (rate and average, from the
// queue or from where its numbers came), or false, with a skip, when one
// is declared but not known before apply.
func knownRetries(q *lint.Queue, rate, average lint.Num, r lint.Reporter) (capacity.Retries, bool) {
	for _, x := range []struct {
		name string
		n    lint.Num
	}{{"retry_rate", rate}, {"avg_retries", average}} {
		if x.n.Set && !x.n.Known {
			r.Skip(x.n.Range, x.name+" of "+q.Addr+" "+x.n.Unknown())
			return capacity.Retries{}, false
		}
	}
	return capacity.Retries{Rate: rate.V, Average: average.V}, true
}

// effectiveArrival is λ_eff for q, decimal-clean as findings state it, or
// false, with a skip, when the declared rates are invalid.
func effectiveArrival(q *lint.Queue, lambda float64, retries capacity.Retries, r lint.Reporter) (float64, bool) {
	eff, err := capacity.EffectiveArrivalRate(lambda, retries)
	if err != nil {
		r.Skip(q.DefRange, "declared rates of "+q.Addr+" are invalid: "+err.Error())
		return 0, false
	}
	return capacity.Clean(eff), true
}

// capacityTerms says how capacity is made: "max_size 25 × 400 msg/s =
// 10000 msg/s", or a sum over several fleets.
func (s *supply) capacityTerms() string {
	terms := make([]string, len(s.fleets))
	for i, f := range s.fleets {
		terms[i] = fmt.Sprintf("%s %s × %s msg/s", f.fleet.SizeAttr, num(f.size), num(f.rate))
		if len(s.fleets) > 1 || s.queue.ConsumedThrough[f.fleet] != "" {
			terms[i] = consumer(s.queue, f.fleet) + " " + terms[i]
		}
	}
	return strings.Join(terms, " + ") + " = " + num(s.capacity) + " msg/s"
}

// consumer names a consumer of q, and how it is linked when only its
// configuration implies it: "aws_ecs_service.worker (linked through IAM
// role aws_iam_role.worker)".
func consumer(q *lint.Queue, f *lint.Fleet) string {
	if via := q.ConsumedThrough[f]; via != "" {
		return f.Addr + " (linked through " + via + ")"
	}
	return f.Addr
}

// arrivalTerms says where the effective arrival rate comes from.
func (s *supply) arrivalTerms() string {
	var of string
	if via := s.queue.Rates.ArrivalRate.Via; via != "" {
		of = " of " + via
	}
	if !s.fromRetries() {
		return "the declared arrival rate " + num(s.arrival) + " msg/s" + of
	}
	return fmt.Sprintf("the effective arrival rate %s × (1 + %s × %s) = %s msg/s%s", num(s.arrival), num(s.retries.Rate), num(s.retries.Average), num(s.effective), of)
}

// resizable reports whether one attribute sizes the queue's consumers, so
// that a first line can name it and its fix: not for several fleets, nor
// for a pipe, one poller that no attribute scales.
func (s *supply) resizable() bool {
	return len(s.fleets) == 1 && s.fleets[0].fleet.Kind != lint.FleetPipe
}

// size is the one fleet's maximum size as a first line names it,
// "max_size 25".
func (s *supply) size() string {
	return s.fleets[0].fleet.SizeAttr + " " + n(s.fleets[0].size)
}

// sizeFix is the smallest maximum size of the one fleet that drains a
// backlog at all and meets what the queue declares: max_backlog within
// rto_seconds and min_headroom, by the headroom formula.
func (s *supply) sizeFix() (int64, bool) {
	if !s.resizable() {
		return 0, false
	}
	mu := s.fleets[0].rate
	c, err := capacity.MinDrainingConsumers(s.effective, mu)
	if err != nil {
		return 0, false
	}
	in := capacity.SizingInput{ArrivalRate: s.arrival, PerConsumerRate: mu, Retries: s.retries}
	if b, rto := s.queue.Rates.MaxBacklog, s.queue.Rates.RTOSeconds; b.Set && b.Known && rto.Set && rto.Known {
		in.MaxBacklog, in.RTOSeconds = b.V, rto.V
	}
	if h := s.queue.Rates.MinHeadroom; h.Set && h.Known {
		in.MinHeadroom = h.V
	}
	if sized, err := capacity.Size(in); err == nil {
		c = max(c, sized.RequiredConsumers)
	}
	return c, true
}

// consumers is Σ c, the fleets' maximum sizes.
func (s *supply) consumers() float64 {
	total := 0.0
	for _, f := range s.fleets {
		total += f.size
	}
	return total
}

// fromRetries reports whether retries raise the effective arrival rate.
func (s *supply) fromRetries() bool { return s.retries.Rate > 0 && s.retries.Average > 0 }

// facts are the numbers every capacity finding carries.
func (s *supply) facts(extra ...lint.Fact) []lint.Fact {
	out := []lint.Fact{fact("arrival_rate", s.arrival), fact("effective_arrival_rate", s.effective)}
	if len(s.fleets) == 1 {
		out = append(out, fact("per_consumer_rate", s.fleets[0].rate))
	}
	out = append(out, fact("max_consumers", s.consumers()), fact("capacity", s.capacity), fact("surplus", s.surplus))
	return append(out, extra...)
}
