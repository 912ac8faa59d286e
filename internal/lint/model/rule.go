// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"github.com/hashicorp/hcl/v2"
)

// Rule is one check over the linked model. Rules live in package rules,
// one file each, and are passed to runner.Run. A rule judges one kind of
// object, and says which by being one of QueueRule, FleetRule,
// PolicyRule, AlarmRule and MappingRule: the engine hands it each object
// of that kind (its subject, linked to everything else as usual) in turn,
// so that every finding is about one object and one module instance.
type Rule interface {
	// Name is the rule ID, queuecap_<problem>.
	Name() string
	DefaultSeverity() Severity
	EnabledByDefault() bool
	// Link is the rule's documentation page.
	Link() string
	// Summary is one sentence on what the rule flags.
	Summary() string
}

// QueueRule judges each aws_sqs_queue.
type QueueRule interface {
	Rule
	CheckQueue(q *Queue, r Reporter)
}

// FleetRule judges each consumer fleet.
type FleetRule interface {
	Rule
	CheckFleet(f *Fleet, r Reporter)
}

// PolicyRule judges each scaling policy.
type PolicyRule interface {
	Rule
	CheckPolicy(p *Policy, r Reporter)
}

// AlarmRule judges each CloudWatch alarm.
type AlarmRule interface {
	Rule
	CheckAlarm(a *Alarm, r Reporter)
}

// MappingRule judges each Lambda event source mapping.
type MappingRule interface {
	Rule
	CheckMapping(m *EventSourceMapping, r Reporter)
}

// Judges reports whether a rule judges some kind of object: it is one of
// QueueRule, FleetRule, PolicyRule, AlarmRule or MappingRule.
func Judges(r Rule) bool {
	switch r.(type) {
	case QueueRule, FleetRule, PolicyRule, AlarmRule, MappingRule:
		return true
	}
	return false
}

// DocumentedRule is a Rule that carries its documentation page, for the
// formats that give it (SARIF's rule descriptions and help).
type DocumentedRule interface {
	Rule
	// Doc is the rule's page, docs/rules/<name>.md, as Markdown.
	Doc() string
}

// Reporter receives a rule's findings and skipped checks.
type Reporter interface {
	// Report records a finding at rng: summary is its first line, the
	// problem and its fix in under about 120 characters and in no
	// resource's address (identical findings of several module instances
	// are one); message is the arithmetic behind it; facts are its numbers.
	Report(rng hcl.Range, summary, message string, facts ...Fact)
	// Skip records a check that could not be made, and why.
	Skip(rng hcl.Range, reason string)
}
