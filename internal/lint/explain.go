// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"slices"

	"github.com/hashicorp/hcl/v2"
)

// Explanation is what `queuecap lint --explain` shows: per root module,
// each queue with what the linker tied to it and where each of its rates
// came from, and what it could not link and why. A user learns there that
// a link failed, instead of from a finding that never came. The JSON tags
// are the schema of --explain --format json (docs/rules/README.md).
type Explanation struct {
	Roots []RootExplanation `json:"roots"`
	// Skipped are the .queuecap.hcl blocks that match no root module
	// reading them (rule "config"): a file may serve several roots.
	Skipped []Skip `json:"skipped"`
}

// RootExplanation is one root module and the modules it calls.
type RootExplanation struct {
	Dir    string             `json:"dir"`
	Queues []QueueExplanation `json:"queues"`
	// Unattached are the fleets, scaling policies and alarms shown under
	// no queue.
	Unattached []ResourceRef `json:"unattached"`
	// Skipped is what building the root could not link or read, and
	// why: the skips of rules "link", "module", "coverage" (a queue the
	// capacity rules cannot check) and "variables"; none of a rule's.
	Skipped []Skip `json:"skipped"`
}

// ResourceRef is a resource instance's address and where it is declared.
type ResourceRef struct {
	Address string `json:"address"`
	Range   Range  `json:"range"`
}

// QueueExplanation is an aws_sqs_queue and what was linked to it.
type QueueExplanation struct {
	Address string `json:"address"`
	Name    string `json:"name"` // "" when not known before apply
	Range   Range  `json:"range"`
	// Redrive is "none", "set" or "unknown" (an inline redrive_policy not
	// known before apply); DeadLetterQueue is the queue it targets when
	// that is a queue of the configuration, "" otherwise.
	Redrive         string `json:"redrive"`
	DeadLetterQueue string `json:"dead_letter_queue"`
	// IsDeadLetter is true when a redrive policy targets this queue.
	IsDeadLetter bool                  `json:"is_dead_letter"`
	Rates        []RateExplanation     `json:"rates"`
	Consumers    []ConsumerExplanation `json:"consumers"`
	// IgnoredConsumers are fleets an IAM role implies consume the queue,
	// left out because its consumers are declared.
	IgnoredConsumers []IgnoredConsumerExplanation `json:"ignored_consumers"`
	// Alarms are the alarms on the queue's metrics.
	Alarms []AlarmExplanation `json:"alarms"`
}

// IgnoredConsumerExplanation is a fleet left out of a queue's consumers.
type IgnoredConsumerExplanation struct {
	Address string `json:"address"`
	Range   Range  `json:"range"`
	Reason  string `json:"reason"`
}

// RateExplanation is one rate as the rules read it.
type RateExplanation struct {
	Name  string   `json:"name"`
	Value *float64 `json:"value"` // null when not known before apply
	// Source is the place of ratePrecedence that won the rate ("tags",
	// "config", "producers", "data_source", "target_tags", "consumers",
	// "queue"), or
	// "default" for a rate that is not declared and that the rules take
	// as Value.
	Source string `json:"source"`
	// From says which declaration it is: the tag, the configuration
	// file's block, the data source or provider function; "" for a
	// default.
	From  string `json:"from"`
	Range *Range `json:"range"` // null for a default
}

// ConsumerExplanation is a fleet consuming a queue.
type ConsumerExplanation struct {
	Kind    FleetKind       `json:"kind"`
	Address string          `json:"address"`
	Name    string          `json:"name"`
	Range   Range           `json:"range"`
	MaxSize SizeExplanation `json:"max_size"`
	// PerConsumerRate is its per_consumer_rate as a consumer of the
	// queue, null when undeclared.
	PerConsumerRate *RateExplanation    `json:"per_consumer_rate"`
	Policies        []PolicyExplanation `json:"policies"`
	// LinkedThrough says how a consumer that only its configuration
	// implies is linked ("IAM role aws_iam_role.worker", "pipe
	// aws_pipes_pipe.orders"); absent for a declared one.
	LinkedThrough string `json:"linked_through,omitempty"`
}

// SizeExplanation is a fleet's maximum size and the attribute it is read from.
type SizeExplanation struct {
	Attribute string `json:"attribute"`
	// Set is false when the attribute is not written; Value is null then,
	// and when it is not known before apply.
	Set   bool     `json:"set"`
	Value *float64 `json:"value"`
	Range *Range   `json:"range"`
}

// PolicyExplanation is a scaling policy of a consumer.
type PolicyExplanation struct {
	Kind     PolicyKind `json:"kind"`
	Address  string     `json:"address"`
	Range    Range      `json:"range"`
	ScaleOut bool       `json:"scale_out"`
	// Metrics is what a target tracking policy tracks: its predefined
	// metric type, or its metric names and expressions.
	Metrics []string           `json:"metrics"`
	Alarms  []AlarmExplanation `json:"alarms"`
}

// AlarmExplanation is a CloudWatch alarm.
type AlarmExplanation struct {
	Address string `json:"address"`
	Range   Range  `json:"range"`
	// Metrics are its metric names, then its metric math expressions.
	Metrics    []string `json:"metrics"`
	Comparison string   `json:"comparison"`
	Threshold  *float64 `json:"threshold"` // null when unset or not known before apply
	// Policies are the scaling policies its alarm_actions trigger.
	Policies []string `json:"policies"`
}

// Redrive states of QueueExplanation.
const (
	RedriveNone    = "none"
	RedriveSet     = "set"
	RedriveUnknown = "unknown"
)

// RateDefault is the Source of a rate the rules take without its being
// declared.
const RateDefault = "default"

// recordDeadLetter notes dlq as the dead-letter queue of the queues the
// redrive policy rd applies to.
func (l *linker) recordDeadLetter(rd redriveRef, dlq *Queue) {
	sources := l.queuesOf(rd.queue)
	if rd.inline != "" {
		sources = []*Queue{l.queues[rd.inline]}
	}
	for _, q := range sources {
		if q != nil && q.DeadLetterQueue == nil {
			q.DeadLetterQueue = dlq
		}
	}
}

// explanation gathers the roots' explanations of a run, with the
// .queuecap.hcl blocks that match no root reading them.
func explanation(outs []rootResult, skips []Skip) *Explanation {
	e := &Explanation{Roots: []RootExplanation{}, Skipped: []Skip{}}
	for _, out := range outs {
		if out.explained != nil {
			e.Roots = append(e.Roots, *out.explained)
		}
	}
	for _, s := range skips {
		if s.Rule == "config" {
			e.Skipped = append(e.Skipped, s)
		}
	}
	return e
}

// explainRoot explains a built root module from its model and what
// building it skipped.
func explainRoot(b *builder, skips []Skip) *RootExplanation {
	m := b.model
	root := &RootExplanation{Dir: m.Dir, Queues: []QueueExplanation{}, Unattached: []ResourceRef{}}
	shown := map[string]bool{}
	for _, q := range m.Queues {
		root.Queues = append(root.Queues, explainQueue(q, shown))
	}
	for _, f := range m.Fleets {
		root.Unattached = appendUnshown(root.Unattached, shown, f.Addr, f.DefRange)
	}
	for _, p := range m.Policies {
		root.Unattached = appendUnshown(root.Unattached, shown, p.Addr, p.DefRange)
	}
	for _, a := range m.Alarms {
		root.Unattached = appendUnshown(root.Unattached, shown, a.Addr, a.DefRange)
	}
	root.Skipped = dedupeSkips(skips)
	if root.Skipped == nil {
		root.Skipped = []Skip{}
	}
	slices.SortStableFunc(root.Skipped, compareSkips)
	return root
}

func appendUnshown(refs []ResourceRef, shown map[string]bool, addr string, rng hcl.Range) []ResourceRef {
	if shown[addr] {
		return refs
	}
	return append(refs, ResourceRef{Address: addr, Range: toRange(rng)})
}

func explainQueue(q *Queue, shown map[string]bool) QueueExplanation {
	e := QueueExplanation{Address: q.Addr, Name: q.Name, Range: toRange(q.DefRange), Redrive: RedriveNone,
		IsDeadLetter: q.IsDeadLetter, Rates: explainRates(&q.declared, forQueue),
		Consumers: []ConsumerExplanation{}, IgnoredConsumers: []IgnoredConsumerExplanation{}, Alarms: []AlarmExplanation{}}
	switch {
	case q.HasRedrive:
		e.Redrive = RedriveSet
	case q.RedriveUnknown:
		e.Redrive = RedriveUnknown
	}
	if q.DeadLetterQueue != nil {
		e.DeadLetterQueue = q.DeadLetterQueue.Addr
	}
	for _, f := range q.Consumers {
		shown[f.Addr] = true
		c := ConsumerExplanation{Kind: f.Kind, Address: f.Addr, Name: f.Name, Range: toRange(f.DefRange),
			MaxSize: explainSize(f), Policies: []PolicyExplanation{}, LinkedThrough: q.ConsumedThrough[f]}
		d := f.declaredFor(q)
		if n, source := d.winner(forFleet, func(r *Rates) *Num { return &r.PerConsumerRate }); n != nil {
			r := explainRate("per_consumer_rate", n, source)
			c.PerConsumerRate = &r
		}
		for _, p := range f.Policies {
			shown[p.Addr] = true
			c.Policies = append(c.Policies, explainPolicy(p, shown))
		}
		e.Consumers = append(e.Consumers, c)
	}
	for _, c := range q.IgnoredConsumers {
		e.IgnoredConsumers = append(e.IgnoredConsumers, IgnoredConsumerExplanation{Address: c.Fleet.Addr, Range: toRange(c.Fleet.DefRange), Reason: c.Reason})
	}
	for _, a := range q.Alarms {
		shown[a.Addr] = true
		e.Alarms = append(e.Alarms, explainAlarm(a))
	}
	return e
}

// explainRates lists an owner's rates as resolve settles them, then, when
// any is declared, the defaults the rules take for the others.
func explainRates(d *declaredRates, owner rateOwner) []RateExplanation {
	out := []RateExplanation{}
	var defaults []RateExplanation
	for _, f := range rateFields {
		if n, source := d.winner(owner, f.of); n != nil {
			out = append(out, explainRate(f.name, n, source))
		} else if f.def != nil {
			defaults = append(defaults, RateExplanation{Name: f.name, Value: new(*f.def), Source: RateDefault})
		}
	}
	if len(out) == 0 {
		return out
	}
	return append(out, defaults...)
}

func explainRate(name string, n *Num, source string) RateExplanation {
	r := RateExplanation{Name: name, Source: source, From: n.From, Range: new(toRange(n.Range))}
	if n.Known {
		r.Value = new(n.V)
	}
	return r
}

func explainSize(f *Fleet) SizeExplanation {
	s := SizeExplanation{Attribute: f.SizeAttr, Set: f.MaxSize.Set}
	if s.Set {
		s.Range = new(toRange(f.MaxSize.Range))
		if f.MaxSize.Known {
			s.Value = new(f.MaxSize.V)
		}
	}
	return s
}

func explainPolicy(p *Policy, shown map[string]bool) PolicyExplanation {
	e := PolicyExplanation{Kind: p.Kind, Address: p.Addr, Range: toRange(p.DefRange), ScaleOut: p.ScaleOut,
		Metrics: metricList(p.Metrics), Alarms: []AlarmExplanation{}}
	if p.Predefined != "" {
		e.Metrics = append([]string{p.Predefined}, e.Metrics...)
	}
	for _, a := range p.Alarms {
		shown[a.Addr] = true
		e.Alarms = append(e.Alarms, explainAlarm(a))
	}
	return e
}

func explainAlarm(a *Alarm) AlarmExplanation {
	e := AlarmExplanation{Address: a.Addr, Range: toRange(a.DefRange), Metrics: metricList(a.Metrics),
		Comparison: a.Comparison, Policies: []string{}}
	if a.Threshold.Set && a.Threshold.Known {
		e.Threshold = new(a.Threshold.V)
	}
	for _, p := range a.Policies {
		e.Policies = append(e.Policies, p.Addr)
	}
	return e
}

// metricList is a metric set's names, then its expressions.
func metricList(m MetricSet) []string {
	return append(append([]string{}, m.Names...), m.Expressions...)
}
