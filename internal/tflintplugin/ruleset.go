// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Package tflintplugin is tflint-ruleset-queuecap: queuecap's rules inside
// tflint, on tflint-plugin-sdk.
//
// The linter's engine runs as it does for `queuecap lint`, with tflint as
// its lint.Host: it lints the files tflint loaded (GetFiles, GetFile),
// follows the module calls tflint's call_module_type loads, and takes
// tflint's value (EvaluateExpr) of every root module expression that
// refers only to variables, locals, path and terraform.workspace, so that
// tflint's --var, --var-file and varfile settings count. The links between
// queues, fleets, policies and alarms follow references to resources and
// module outputs, which tflint's evaluator leaves unknown, so the engine
// resolves those itself, across module calls, once, from the root module's
// runner; a module's own runner (one per call instance) sees only that
// module, and tflint keeps its issues only where a module input caused
// them, so the ruleset does nothing there.
package tflintplugin

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/terraform-linters/tflint-plugin-sdk/hclext"
	"github.com/terraform-linters/tflint-plugin-sdk/tflint"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/rules"
	lintrunner "github.com/queuecap/terraform-provider-queuecap/internal/lint/runner"
)

// Name is the ruleset's name: tflint's `plugin "queuecap"` block, the
// binary tflint-ruleset-queuecap.
const Name = "queuecap"

// NotChecked is the rule that reports what queuecap could not check (a
// skip of `queuecap lint`), at notice severity: tflint has no other way to
// say that a clean run checked less than it seems. It is off by default,
// as the notice rules of tflint's bundled ruleset are (none is in the
// recommended preset tflint gives it): tflint fails a run on an issue of
// any severity unless --minimum-failure-severity, a flag .tflint.hcl
// cannot set, says otherwise, so on by default it would fail a passing
// tflint job the day the plugin block is added.
const NotChecked = "queuecap_not_checked"

// UnusedIgnore is lint.UnusedIgnore as a rule: the notices about
// queuecap-ignore comments that silenced nothing, or are past their exp:
// date. Off by default, as NotChecked is and for its reason; on, it also
// makes the run look for unused ignores (lint.Options.ReportUnusedIgnores).
const UnusedIgnore = lint.UnusedIgnore

// pseudo reports whether a rule of the ruleset is none of queuecap lint's
// rules but a report on the run.
func pseudo(name string) bool { return name == NotChecked || name == UnusedIgnore }

// RuleSet is the plugin's tflint.RuleSet.
type RuleSet struct {
	tflint.BuiltinRuleSet
	config *lint.Config // the plugin block's queue blocks
	// startDir is where tflint started the plugin, from which it may have
	// resolved a relative --config (see configCandidates).
	startDir string
}

// New is the ruleset of this build, version as tflint reports it.
func New(version string) *RuleSet {
	rs := &RuleSet{config: &lint.Config{Rules: map[string]lint.RuleConfig{}, Queues: map[string]lint.QueueConfig{}, File: ".tflint.hcl"}}
	for _, r := range rules.All() {
		rs.Rules = append(rs.Rules, newRule(r.Name(), r.DefaultSeverity(), r.EnabledByDefault(), r.Link()))
	}
	rs.Rules = append(rs.Rules, newRule(NotChecked, lint.Notice, false, rules.DocLink("docs/tflint.md#what-was-not-checked")),
		newRule(UnusedIgnore, lint.Notice, false, rules.DocLink("docs/rules/README.md#suppressing-findings")))
	rs.Name = Name
	rs.Version = strings.TrimPrefix(version, "v")
	rs.Constraint = ">= 0.46.0"
	rs.startDir, _ = os.Getwd()
	return rs
}

// ConfigSchema is the body of `plugin "queuecap" {}` beyond tflint's own
// attributes: queue blocks, as .queuecap.hcl has them.
func (rs *RuleSet) ConfigSchema() *hclext.BodySchema {
	queue := &hclext.BodySchema{}
	for _, name := range lint.QueueAttributes() {
		queue.Attributes = append(queue.Attributes, hclext.AttributeSchema{Name: name})
	}
	return &hclext.BodySchema{Blocks: []hclext.BlockSchema{{Type: "queue", LabelNames: []string{"address"}, Body: queue}}}
}

// ApplyConfig reads the plugin block's queue blocks.
func (rs *RuleSet) ApplyConfig(content *hclext.BodyContent) error {
	var diags hcl.Diagnostics
	for _, b := range content.Blocks {
		if b.Type != "queue" {
			continue
		}
		attrs := hcl.Attributes{}
		for name, a := range b.Body.Attributes {
			attrs[name] = &hcl.Attribute{Name: a.Name, Expr: a.Expr, Range: a.Range, NameRange: a.NameRange}
		}
		qc, d := lint.DecodeQueue(".tflint.hcl", attrs, b.DefRange)
		diags = append(diags, d...)
		rs.config.Queues[b.Labels[0]] = qc
	}
	if diags.HasErrors() {
		return diags
	}
	return nil
}

// NewRunner gives each module's runner its own lint run, made once
// whichever rule asks first.
func (rs *RuleSet) NewRunner(r tflint.Runner) (tflint.Runner, error) {
	return &runner{Runner: r, rs: rs}, nil
}

// runner is a tflint runner with the lint result of its module.
type runner struct {
	tflint.Runner
	rs     *RuleSet
	once   sync.Once
	result *lint.Result // nil for a called module's runner
	err    error
}

func (r *runner) lint() (*lint.Result, error) {
	r.once.Do(func() { r.result, r.err = r.rs.lint(r.Runner) })
	return r.result, r.err
}

// moduleDir is the directory of the module r inspects, as tflint names
// its files: from the directory tflint was started in, which --chdir and
// --recursive leave (tflint runs there, and so does the plugin it starts,
// but names every file from where it was started). The plugin moves back
// there, so that the linter's paths are tflint's: the place of a finding,
// the file an expression tflint evaluates lies in.
func moduleDir(r tflint.Runner) (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	orig, err := r.GetOriginalwd()
	if err != nil {
		return "", err
	}
	dir, err := filepath.Rel(orig, wd)
	if err != nil {
		return "", err
	}
	if err := os.Chdir(orig); err != nil {
		return "", err
	}
	return dir, nil
}

// ruleOptions are a rule block's options beyond tflint's enabled.
type ruleOptions struct {
	Severity string `hclext:"severity,optional"`
}

// configPlace is where tflint's configuration sets attr of the rule block
// to value, as "file:line:col: ", or "" when the plugin cannot tell.
func (rs *RuleSet) configPlace(r tflint.Runner, rule, attr, value string) string {
	orig, _ := r.GetOriginalwd()
	home, _ := os.UserHomeDir()
	return ruleAttrPlace(configCandidates([]string{orig, rs.startDir}, parentArgs(), os.Getenv, home), rule, attr, value)
}

// lint runs the engine on the module r inspects, when it is the root.
func (rs *RuleSet) lint(r tflint.Runner) (*lint.Result, error) {
	path, err := r.GetModulePath()
	if err != nil {
		return nil, err
	}
	if !path.IsRoot() {
		return nil, nil
	}
	cfg := *rs.config
	cfg.Rules = map[string]lint.RuleConfig{}
	enabled := map[string]bool{}
	for _, rule := range rs.EnabledRules {
		enabled[rule.Name()] = true
	}
	var enable, disable []string
	for _, rule := range rs.Rules {
		qr := rule.(*queuecapRule) //nolint:forcetypeassert // rs.Rules holds only *queuecapRule
		if !enabled[qr.name] {
			if !pseudo(qr.name) {
				disable = append(disable, qr.name)
			}
			continue
		}
		var opts ruleOptions
		if err := r.DecodeRuleConfig(qr.name, &opts); err != nil {
			return nil, err
		}
		qr.severity = qr.defaultSeverity
		if opts.Severity != "" {
			s, err := lint.ParseSeverity(opts.Severity)
			if err != nil {
				return nil, fmt.Errorf("%srule %q: severity: %w", rs.configPlace(r, qr.name, "severity", opts.Severity), qr.name, err)
			}
			qr.severity = s
		}
		if !pseudo(qr.name) {
			enable = append(enable, qr.name)
		}
	}
	dir, err := moduleDir(r)
	if err != nil {
		return nil, err
	}
	h, err := newHost(r, dir)
	if err != nil {
		return nil, err
	}
	return lintrunner.Run(lint.Options{
		Dirs:    []string{dir},
		Environ: os.Environ(),
		Config:  &cfg,
		Rules:   rules.All(),
		Enable:  enable,
		Disable: disable,
		Host:    h,
		// tflint's own annotations name other rulesets' rules too: only
		// queuecap's rules are judged unused (see checkIgnores).
		ReportUnusedIgnores: enabled[UnusedIgnore],
	})
}
