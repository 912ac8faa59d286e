// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Package rules holds queuecap lint's rules, one file each, named after the
// rule. Every finding states its arithmetic in words and carries the
// numbers behind it as facts.
package rules

import (
	"fmt"
	"strings"

	"github.com/queuecap/terraform-provider-queuecap/docs"
	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
	"github.com/queuecap/terraform-provider-queuecap/internal/textfmt"
)

// docBase is where the rule pages of a version live, docs/rules/<id>.md:
// in the release's tag for a release, on main for any other build.
func docBase(version string) string {
	return model.DocURL(version, "docs/rules/")
}

// DocLink is a page of the repository's docs, such as docs/tflint.md, as
// this build's rule links point at them.
func DocLink(path string) string { return model.DocURL(model.BuildVersion(), path) }

// All returns every rule, in the order they are documented.
func All() []model.Rule {
	return []model.Rule{
		newZeroSurplus(),
		newInsufficientHeadroom(),
		newUnreachableWithinRTO(),
		newSurplusDuringDeploy(),
		newDepthOnlyScaling(),
		newRetentionShorterThanDrain(),
		newVisibilityTimeoutTooShort(),
		newBatchRetryAmplification(),
		newMissingDeadLetterQueue(),
		newDepthAlarmAfterSLA(),
		newMetastableRetryStorm(),
		newFIFOThroughputCeiling(),
		newConflictingConcurrency(),
	}
}

// meta implements the descriptive half of model.Rule.
type meta struct {
	name     string
	severity model.Severity
	summary  string
}

func (m meta) Name() string                    { return m.name }
func (m meta) DefaultSeverity() model.Severity { return m.severity }
func (m meta) EnabledByDefault() bool          { return true }
func (m meta) Link() string                    { return docBase(model.BuildVersion()) + m.name + ".md" }
func (m meta) Summary() string                 { return m.summary }
func (m meta) Doc() string                     { return docs.RulePage(m.name) }

// num prints a number of a finding's arithmetic, n one of its first line,
// approx a count to three significant digits: textfmt's printers, the one
// way queuecap writes a number a user reads.
var (
	num    = textfmt.Number
	n      = textfmt.Short
	approx = textfmt.Approx
)

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
func fact(name string, v float64) model.Fact { return model.Fact{Name: name, Value: capacity.Clean(v)} }

// supply is a queue's supply, which the linker computed, as the capacity
// rules word it.
type supply struct {
	*model.Supply
	queue *model.Queue
}

// supplyOf is q's supply, or false when there is nothing to check (no
// consumer, no declared arrival rate) or a value it needs is unknown
// before apply or undeclared: that is skipped, so that a user sees what
// was not checked.
func supplyOf(q *model.Queue, r model.Reporter) (*supply, bool) {
	if g := q.SupplyGap; g != nil {
		r.Skip(g.Range, g.Reason)
		return nil, false
	}
	if q.Supply == nil {
		return nil, false
	}
	return &supply{Supply: q.Supply, queue: q}, true
}

// knownRetries are model.KnownRetries, skipped when not known.
func knownRetries(q *model.Queue, rate, average model.Num, r model.Reporter) (capacity.Retries, bool) {
	retries, gap := model.KnownRetries(q, rate, average)
	if gap != nil {
		r.Skip(gap.Range, gap.Reason)
		return capacity.Retries{}, false
	}
	return retries, true
}

// effectiveArrival is model.EffectiveArrival, skipped when invalid.
func effectiveArrival(q *model.Queue, lambda float64, retries capacity.Retries, r model.Reporter) (float64, bool) {
	eff, gap := model.EffectiveArrival(q, lambda, retries)
	if gap != nil {
		r.Skip(gap.Range, gap.Reason)
		return 0, false
	}
	return eff, true
}

// capacityTerms says how capacity is made: "max_size 25 × 400 msg/s =
// 10000 msg/s", or a sum over several fleets.
//
// A fleet whose provisioned pollers carry fewer messages than it
// completes is bounded by them ("… × 10 msg/s = 2,000 msg/s, bounded by
// the pollers' payload: maximum_pollers 20 × 1 MB/s … = 100 msg/s"), and
// a FIFO queue's consumers by its message groups.
func (s *supply) capacityTerms() string {
	terms := make([]string, len(s.Fleets))
	for i, f := range s.Fleets {
		size := f.Fleet.SizeText()
		if f.Fleet.SizeTerms != "" {
			size = "(" + size + ")"
		}
		terms[i] = fmt.Sprintf("%s × %s msg/s", size, num(f.Rate))
		if p := f.Payload; p != nil && p.Binds {
			terms[i] = fmt.Sprintf("%s = %s msg/s, bounded by what its pollers carry: %s", terms[i], num(capacity.Clean(f.Size*f.Rate)), p.Terms())
			if len(s.Fleets) > 1 {
				terms[i] = "(" + terms[i] + ")"
			}
		}
		if len(s.Fleets) > 1 || s.queue.ConsumedThrough[f.Fleet] != "" {
			terms[i] = s.queue.ConsumerName(f.Fleet) + " " + terms[i]
		}
	}
	out := strings.Join(terms, " + ")
	if len(s.Fleets) > 1 || s.Fleets[0].Payload == nil || !s.Fleets[0].Payload.Binds {
		out += " = " + num(s.FleetCapacity) + " msg/s"
	}
	if s.Bound == capacity.BoundMessageGroups {
		out += ", bounded by the message groups, one consumer each at a time: " + s.Groups.Terms()
	}
	return out
}

// boundFix says what raises a capacity its message groups or pollers'
// payload bound, which no consumer added does.
func (s *supply) boundFix() string {
	if s.Bound == capacity.BoundMessageGroups {
		return "at most message_groups " + num(s.Groups.Groups.V) + " consumers work at once, whatever the fleet's size: spread the messages over more message groups"
	}
	return "the pollers carry no more messages whatever the fleet's size: raise maximum_pollers, or send smaller messages"
}

// boundFacts are the numbers of a bound that sets the capacity.
func (s *supply) boundFacts() []model.Fact {
	switch s.Bound {
	case capacity.BoundMessageGroups:
		return []model.Fact{fact("message_groups", s.Groups.Groups.V), fact("message_groups_capacity", s.Groups.Capacity)}
	case capacity.BoundPayload:
		var out []model.Fact
		for _, f := range s.Fleets {
			if p := f.Payload; p != nil && p.Binds && len(s.Fleets) == 1 {
				out = append(out, fact("maximum_pollers", p.Bound.Pollers), fact("message_size_bytes", p.Bound.MessageBytes), fact("payload_capacity", p.Rate))
			}
		}
		return out
	}
	return nil
}

// arrivalTerms says where the effective arrival rate comes from.
func (s *supply) arrivalTerms() string {
	return arrivalTerms(s.queue, s.Arrival, s.Retries, s.Effective)
}

// arrivalTerms says how q's effective arrival rate eff is made from the
// declared arrival rate lambda and its retries.
func arrivalTerms(q *model.Queue, lambda float64, retries capacity.Retries, eff float64) string {
	var of string
	if via := q.Rates.ArrivalRate.Via; via != "" {
		of = " of " + via
	}
	if retries.Rate <= 0 || retries.Average <= 0 {
		return "the declared arrival rate " + num(lambda) + " msg/s" + of
	}
	return fmt.Sprintf("the effective arrival rate %s × (1 + %s × %s) = %s msg/s%s", num(lambda), num(retries.Rate), num(retries.Average), num(eff), of)
}

// resizable reports whether one attribute sizes the queue's consumers, so
// that a first line can name it and its fix: not for several fleets, nor
// for a pipe, one poller that no attribute scales, nor for a size made
// from an attribute (pollers) or bounded by a cap AWS publishes, nor for
// consumers bounded by their message groups or pollers' payload, which
// no size raises.
func (s *supply) resizable() bool {
	return len(s.Fleets) == 1 && s.Fleets[0].Fleet.Kind != model.FleetPipe && s.Fleets[0].Fleet.SizeTerms == "" && s.Bound == ""
}

// size is the one fleet's maximum size as a first line names it,
// "max_size 25".
func (s *supply) size() string {
	return s.Fleets[0].Fleet.SizeAttr + " " + n(s.Fleets[0].Size)
}

// raiseTo is the first line's advice to raise the one fleet's size to c:
// "raise it to 36". A maximum_concurrency AWS would refuse (over
// lambda_sqs_maximum_concurrency_max) is not advised: provisioned mode's
// pollers are, as many as take c concurrent invokes.
func (s *supply) raiseTo(c float64) string {
	f := s.Fleets[0].Fleet
	most, ok := s.queue.Limits.Limit(capacity.LimitLambdaMaximumConcurrencyMax)
	if f.SizeAttr != "maximum_concurrency" || !ok || c <= most.Value {
		return "raise it to " + n(c)
	}
	pollers, ok := s.queue.Limits.PollersFor(int64(c))
	if !ok {
		return "raise it to " + n(c)
	}
	return fmt.Sprintf("needs %s > AWS's %s: use maximum_pollers %s", n(c), n(most.Value), n(float64(pollers)))
}

// sizeFix is the smallest maximum size of the one fleet that drains a
// backlog at all and meets what the queue declares: max_backlog within
// rto_seconds and min_headroom, by the headroom formula.
func (s *supply) sizeFix() (int64, bool) {
	if !s.resizable() {
		return 0, false
	}
	mu := s.Fleets[0].Rate
	// The least fleet that drains, from the exact λ_eff as the supply
	// judges it.
	c, err := capacity.MinDrainingConsumers(s.Arrival, s.Retries, mu)
	if err != nil {
		return 0, false
	}
	in := capacity.SizingInput{ArrivalRate: s.Arrival, PerConsumerRate: mu, Retries: s.Retries}
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
	for _, f := range s.Fleets {
		total += f.Size
	}
	return total
}

// facts are the numbers every capacity finding carries.
func (s *supply) facts(extra ...model.Fact) []model.Fact {
	out := []model.Fact{fact("arrival_rate", s.Arrival), fact("effective_arrival_rate", s.Effective)}
	if len(s.Fleets) == 1 {
		out = append(out, fact("per_consumer_rate", s.Fleets[0].Rate))
	}
	out = append(out, fact("max_consumers", s.consumers()), fact("capacity", s.Capacity), fact("surplus", s.Surplus))
	out = append(out, s.boundFacts()...)
	return append(out, extra...)
}
