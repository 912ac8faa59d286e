// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package tflintplugin

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/terraform-linters/tflint-plugin-sdk/tflint"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
)

// queuecapRule is one of queuecap's rules as tflint sees it. Its Check
// emits that rule's findings from the module's one lint run.
type queuecapRule struct {
	tflint.DefaultRule
	name            string
	defaultSeverity lint.Severity
	severity        lint.Severity // the rule block's severity, else the default
	enabled         bool
	link            string
}

func newRule(name string, severity lint.Severity, enabled bool, link string) *queuecapRule {
	return &queuecapRule{name: name, defaultSeverity: severity, severity: severity, enabled: enabled, link: link}
}

func (r *queuecapRule) Name() string  { return r.name }
func (r *queuecapRule) Enabled() bool { return r.enabled }
func (r *queuecapRule) Link() string  { return r.link }
func (r *queuecapRule) Severity() tflint.Severity {
	switch r.severity {
	case lint.Error:
		return tflint.ERROR
	case lint.Notice:
		return tflint.NOTICE
	}
	return tflint.WARNING
}

// Check emits the rule's findings, or for NotChecked what was not checked.
func (r *queuecapRule) Check(tr tflint.Runner) error {
	qr, ok := tr.(*runner)
	if !ok {
		return fmt.Errorf("%s: runner %T is not the ruleset's", r.name, tr)
	}
	res, err := qr.lint()
	if err != nil || res == nil {
		return err
	}
	if r.name == NotChecked {
		return r.emitNotChecked(tr, res)
	}
	for _, is := range res.Issues {
		if is.Rule != r.name {
			continue
		}
		if err := tr.EmitIssue(r, is.Message, hclRange(is.Range)); err != nil {
			return err
		}
	}
	return nil
}

// emitNotChecked reports each skip and each error of the run: a check
// queuecap lint would list as skipped, or a file it could not read.
func (r *queuecapRule) emitNotChecked(tr tflint.Runner, res *lint.Result) error {
	for _, s := range res.Skipped {
		what := "not checked (" + s.RuleList() + ")"
		if s.Rule == "" {
			what = "not checked"
		}
		if err := tr.EmitIssue(r, what+": "+s.Reason, hclRange(s.Range)); err != nil {
			return err
		}
	}
	for _, e := range res.Errors {
		var rng hcl.Range
		if e.Range != nil {
			rng = hclRange(*e.Range)
		}
		if err := tr.EmitIssue(r, "not checked (error): "+e.Message, rng); err != nil {
			return err
		}
	}
	return nil
}

func hclRange(r lint.Range) hcl.Range {
	return hcl.Range{
		Filename: r.Filename,
		Start:    hcl.Pos{Line: r.Start.Line, Column: r.Start.Column},
		End:      hcl.Pos{Line: r.End.Line, Column: r.End.Column},
	}
}
