// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import "github.com/hashicorp/hcl/v2"

// reporter collects one rule's output for one root module.
type reporter struct {
	rule     Rule
	severity Severity
	issues   []Issue
	skips    []Skip
}

func (r *reporter) Report(rng hcl.Range, summary, message string, facts ...Fact) {
	r.issues = append(r.issues, Issue{Rule: r.rule.Name(), Severity: r.severity, Summary: summary, Message: message,
		Range: toRange(rng), Facts: facts, Link: r.rule.Link()})
}

func (r *reporter) Skip(rng hcl.Range, reason string) {
	r.skips = append(r.skips, Skip{Rule: r.rule.Name(), Range: toRange(rng), Reason: reason})
}
