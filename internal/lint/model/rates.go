// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package model

// Source is a place where rates are declared.
type Source int

const (
	SourceTags       Source = iota // the queue's or fleet's own queuecap:* tags
	SourceConfig                   // the queue's block in .queuecap.hcl
	SourceProducers                // the SNS topics subscribed to the queue
	SourceDataSource               // queuecap data sources the fleet's size references
	SourceTargetTags               // the tags of the fleet's aws_appautoscaling_target
	SourceConsumers                // the rates of the queue's consumers
	SourceQueue                    // the rates of the queue the fleet consumes
	numSources
)

// Owner says whose rates a source declares.
type Owner uint8

const (
	ForQueue Owner = 1 << iota
	ForFleet
)

// Precedence is the one statement of which declaration of a rate
// wins: of the sources that declare a queue's (or a fleet's) rates, the
// first listed that declares a rate sets it, and later ones only fill the
// rates still unset. Resolve merges in this order, and the table in
// docs/rules/README.md is generated from it.
var Precedence = []struct {
	Source Source
	Of     Owner
	Name   string // for queuecap lint --explain
	Doc    string // Markdown, for the docs
}{
	{SourceTags, ForQueue | ForFleet, "tags", "`queuecap:<name>` tags on the queue or the fleet itself"},
	{SourceConfig, ForQueue, "config", "the queue's `queue` block in `.queuecap.hcl`"},
	{SourceProducers, ForQueue, "producers", "the `queuecap:arrival_rate` tags of the SNS topics the queue subscribes to (`aws_sns_topic_subscription` with `protocol = \"sqs\"`), summed over the topics; none when a subscription has a `filter_policy`, or one of the topics declares no rate"},
	{SourceDataSource, ForFleet, "data_source", "the arguments of the queuecap data source (`queuecap_consumers`, `queuecap_drain`, …) the fleet's size is computed from: its own `max_size`, `desired_count` or `reserved_concurrent_executions` first, then its `aws_appautoscaling_target`'s `max_capacity` or its event source mappings' `maximum_concurrency`"},
	{SourceTargetTags, ForFleet, "target_tags", "`queuecap:<name>` tags on the ECS service's `aws_appautoscaling_target`"},
	{SourceConsumers, ForQueue, "consumers", "the rates of the queue's consumers, as this table resolves them: the first consumer that declares a rate sets it"},
	{SourceQueue, ForFleet, "queue", "the rates of the queue the fleet is checked against, as this table resolves them: a `per_consumer_rate` on the queue serves each consumer that declares none"},
}

// DeclaredRates are a queue's or a fleet's rates as each source declares
// them, each source's declarations merged in the order they were found;
// nil for a source that declares nothing.
type DeclaredRates [numSources]*Rates

// Add records rates declared by source s, filling only what s has not
// already declared.
func (d *DeclaredRates) Add(s Source, r Rates) {
	if r.Empty() {
		return
	}
	if d[s] == nil {
		d[s] = &Rates{}
	}
	d[s].Merge(r)
}

// Resolve takes each of an owner's rates from the source that wins it.
func (d *DeclaredRates) Resolve(owner Owner) Rates {
	var out Rates
	for _, f := range RateFields {
		if n, _ := d.Winner(owner, f.Of); n != nil {
			*f.Of(&out) = *n
		}
	}
	return out
}

// Winner is the declaration of one rate that stands: the first, in the
// order of Precedence, of the sources that declare an owner's rates
// and this one; nil when none does. The name is the source's, as
// --explain shows it.
func (d *DeclaredRates) Winner(owner Owner, of func(*Rates) *Num) (*Num, string) {
	for _, p := range Precedence {
		if p.Of&owner != 0 && d[p.Source] != nil {
			if n := of(d[p.Source]); n.Set {
				return n, p.Name
			}
		}
	}
	return nil, ""
}

// Empty reports whether no rate is set.
func (r *Rates) Empty() bool {
	for _, f := range RateFields {
		if f.Of(r).Set {
			return false
		}
	}
	return true
}

// RatesFor is the fleet's rates as a consumer of q: its own, then q's
// where it declares none.
func (f *Fleet) RatesFor(q *Queue) Rates {
	d := f.DeclaredFor(q)
	return d.Resolve(ForFleet)
}

// DeclaredFor is the fleet's declarations as a consumer of q.
func (f *Fleet) DeclaredFor(q *Queue) DeclaredRates {
	d := f.Declared
	d[SourceQueue] = &q.Rates
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
	out := make([]RateSource, len(Precedence))
	for i, p := range Precedence {
		out[i] = RateSource{Doc: p.Doc, Name: p.Name, Queue: p.Of&ForQueue != 0, Fleet: p.Of&ForFleet != 0}
	}
	return out
}
