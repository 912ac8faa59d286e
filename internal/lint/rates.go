// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

// rateSource is a place where rates are declared.
type rateSource int

const (
	rateTags       rateSource = iota // the queue's or fleet's own queuecap:* tags
	rateConfig                       // the queue's block in .queuecap.hcl
	rateProducers                    // the SNS topics subscribed to the queue
	rateDataSource                   // queuecap data sources the fleet's size references
	rateTargetTags                   // the tags of the fleet's aws_appautoscaling_target
	rateConsumers                    // the rates of the queue's consumers
	rateQueue                        // the rates of the queue the fleet consumes
	numRateSources
)

// rateOwner says whose rates a source declares.
type rateOwner uint8

const (
	forQueue rateOwner = 1 << iota
	forFleet
)

// ratePrecedence is the one statement of which declaration of a rate
// wins: of the sources that declare a queue's (or a fleet's) rates, the
// first listed that declares a rate sets it, and later ones only fill the
// rates still unset. resolve merges in this order, and the table in
// docs/rules/README.md is generated from it.
var ratePrecedence = []struct {
	source rateSource
	of     rateOwner
	name   string // for queuecap lint --explain
	doc    string // Markdown, for the docs
}{
	{rateTags, forQueue | forFleet, "tags", "`queuecap:<name>` tags on the queue or the fleet itself"},
	{rateConfig, forQueue, "config", "the queue's `queue` block in `.queuecap.hcl`"},
	{rateProducers, forQueue, "producers", "the `queuecap:arrival_rate` tags of the SNS topics the queue subscribes to (`aws_sns_topic_subscription` with `protocol = \"sqs\"`), summed over the topics; none when a subscription has a `filter_policy`, or one of the topics declares no rate"},
	{rateDataSource, forFleet, "data_source", "the arguments of the queuecap data source (`queuecap_consumers`, `queuecap_drain`, …) the fleet's size is computed from: its own `max_size`, `desired_count` or `reserved_concurrent_executions` first, then its `aws_appautoscaling_target`'s `max_capacity` or its event source mappings' `maximum_concurrency`"},
	{rateTargetTags, forFleet, "target_tags", "`queuecap:<name>` tags on the ECS service's `aws_appautoscaling_target`"},
	{rateConsumers, forQueue, "consumers", "the rates of the queue's consumers, as this table resolves them: the first consumer that declares a rate sets it"},
	{rateQueue, forFleet, "queue", "the rates of the queue the fleet is checked against, as this table resolves them: a `per_consumer_rate` on the queue serves each consumer that declares none"},
}

// declaredRates are a queue's or a fleet's rates as each source declares
// them, each source's declarations merged in the order they were found;
// nil for a source that declares nothing.
type declaredRates [numRateSources]*Rates

// add records rates declared by source s, filling only what s has not
// already declared.
func (d *declaredRates) add(s rateSource, r Rates) {
	if r.empty() {
		return
	}
	if d[s] == nil {
		d[s] = &Rates{}
	}
	d[s].merge(r)
}

// resolve takes each of an owner's rates from the source that wins it.
func (d *declaredRates) resolve(owner rateOwner) Rates {
	var out Rates
	for _, f := range rateFields {
		if n, _ := d.winner(owner, f.of); n != nil {
			*f.of(&out) = *n
		}
	}
	return out
}

// winner is the declaration of one rate that stands: the first, in the
// order of ratePrecedence, of the sources that declare an owner's rates
// and this one; nil when none does. The name is the source's, as
// --explain shows it.
func (d *declaredRates) winner(owner rateOwner, of func(*Rates) *Num) (*Num, string) {
	for _, p := range ratePrecedence {
		if p.of&owner != 0 && d[p.source] != nil {
			if n := of(d[p.source]); n.Set {
				return n, p.name
			}
		}
	}
	return nil, ""
}

// empty reports whether no rate is set.
func (r *Rates) empty() bool {
	for _, f := range rateFields {
		if f.of(r).Set {
			return false
		}
	}
	return true
}

// RatesFor is the fleet's rates as a consumer of q: its own, then q's
// where it declares none.
func (f *Fleet) RatesFor(q *Queue) Rates {
	d := f.declaredFor(q)
	return d.resolve(forFleet)
}

// declaredFor is the fleet's declarations as a consumer of q.
func (f *Fleet) declaredFor(q *Queue) declaredRates {
	d := f.declared
	d[rateQueue] = &q.Rates
	return d
}

// RateSource is one place where rates are declared, as the docs list it.
type RateSource struct {
	Doc          string // Markdown
	Name         string // the source of a rate --explain shows
	Queue, Fleet bool   // it declares a queue's rates, a fleet's
}

// RatePrecedence lists where rates are declared, the winning declaration
// first.
func RatePrecedence() []RateSource {
	out := make([]RateSource, len(ratePrecedence))
	for i, p := range ratePrecedence {
		out[i] = RateSource{Doc: p.doc, Name: p.name, Queue: p.of&forQueue != 0, Fleet: p.of&forFleet != 0}
	}
	return out
}
