// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"github.com/hashicorp/hcl/v2"
)

// Rule is one check over the linked model. Rules live in package rules,
// one file each, and are passed to lint.Run.
type Rule interface {
	// Name is the rule ID, queuecap_<problem>.
	Name() string
	DefaultSeverity() Severity
	EnabledByDefault() bool
	// Link is the rule's documentation page.
	Link() string
	// Summary is one sentence on what the rule flags.
	Summary() string
	// Check reports on the model. It is called once per object of the
	// model (each queue, fleet, policy, alarm and mapping in a model of
	// its own, linked to everything else as usual), so that every finding
	// is about one object and one module instance: a rule iterates the one
	// kind of object it judges.
	Check(m *Model, r Reporter)
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
