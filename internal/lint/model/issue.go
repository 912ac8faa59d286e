// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
)

// Severity orders findings; a higher value is more severe.
type Severity int

const (
	Notice Severity = iota + 1
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Notice:
		return "notice"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return fmt.Sprintf("Severity(%d)", int(s))
}

// ParseSeverity reads "error", "warning" or "notice".
func ParseSeverity(s string) (Severity, error) {
	switch strings.ToLower(s) {
	case "error":
		return Error, nil
	case "warning":
		return Warning, nil
	case "notice", "info":
		return Notice, nil
	}
	return 0, fmt.Errorf("unknown severity %q: want error, warning or notice", s)
}

// Pos is a position in a file; Line and Column start at 1.
type Pos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// Range is a span of a file. Filename is as given on the command line,
// joined with the module's directory.
type Range struct {
	Filename string `json:"filename"`
	Start    Pos    `json:"start"`
	End      Pos    `json:"end"`
}

// AddressOnly reports whether the range is a resource address rather than
// a place in a file: a finding of a plan linted without its configuration
// directory carries the address as Filename, at line 0. Every file the
// linter reads ends in one of configSuffixes; no address does.
func (r Range) AddressOnly() bool {
	if r.Filename == "" || r.Start.Line != 0 {
		return false
	}
	for _, s := range configSuffixes {
		if strings.HasSuffix(r.Filename, s) {
			return false
		}
	}
	return true
}

var configSuffixes = []string{".tf", ".tofu", ".json", ".tfvars", ".hcl"}

func (r Range) String() string {
	if r.AddressOnly() {
		return r.Filename
	}
	return fmt.Sprintf("%s:%d:%d", r.Filename, r.Start.Line, r.Start.Column)
}

// Fact is one number behind a finding, named for the quantity it is
// (arrival_rate, per_consumer_rate, max_consumers, capacity, surplus, ...).
type Fact struct {
	Name  string
	Value float64
}

// Issue is one finding of one rule.
type Issue struct {
	Rule     string
	Severity Severity
	// Summary is the finding's first line: the problem and the fix, such
	// as "max_size 25 cannot drain any backlog: raise it to 26".
	Summary string
	// Message is the arithmetic behind it, in full.
	Message string
	Range   Range
	// Facts are the numbers behind the finding, in the order the message
	// uses them.
	Facts []Fact
	// Link is the rule's documentation.
	Link string
	// Address is the resource instance at the finding's place (the fleet
	// whose max_size it names, the alarm whose threshold), in the root
	// module's addresses: aws_autoscaling_group.audit[1],
	// module.worker["orders"].aws_autoscaling_group.this. With a plan or
	// HCL alike; the first of Instances when there are several.
	Address string
	// Instances are, when one finding stands for several instances with
	// the same verdict (count, for_each, a module called twice or reached
	// from several roots), each of their addresses, Address first; empty
	// for a finding of one instance.
	Instances []string
	// Subject is the address of the object the rule judged (the queue,
	// fleet, policy, alarm or mapping), inside its own module: with
	// the file, it names the finding in a way that neither its line nor
	// its message changes, for the formats' fingerprints.
	Subject string
	// Callers are the module calls through which the module holding the
	// finding was reached, outermost first (every chain's, when one
	// finding stands for several identical ones). Empty in a root module.
	Callers []Range
	// ModuleRange is where inside an installed remote module the finding
	// lies, when Range was moved to the call in the repository that
	// brings the module in; nil otherwise.
	ModuleRange *Range
	// Arguments are, for a finding inside a local module whose value at
	// fault is a module variable and nothing else (`max_size = var.max`),
	// the arguments in the calling configuration that set it (`max = 25`,
	// followed up through calls that pass it on unchanged), one per call
	// the finding stands for; empty when any of them takes the value from
	// elsewhere. A pull request that changes only the caller changes these
	// lines: the annotation formats put the finding at the first, with
	// Range as context.
	Arguments []Range
	// Fingerprint is the finding's identity across runs, once a baseline
	// has been applied: the one it had among all the run's findings, which
	// a finding the baseline left keeps. "" before, when the formats
	// compute it.
	Fingerprint string
}

// Text is the whole finding for formats that carry one message: the
// summary, then the arithmetic on the next line.
func (i Issue) Text() string {
	if i.Summary == "" {
		return i.Message
	}
	return i.Summary + "\n" + i.Message
}

// FactMap returns the facts by name.
func (i Issue) FactMap() map[string]float64 {
	m := make(map[string]float64, len(i.Facts))
	for _, f := range i.Facts {
		m[f.Name] = f.Value
	}
	return m
}

// ErrorEntry is a problem that stopped part of a run: a file that does not
// parse, a directory that cannot be read. The run goes on without it.
type ErrorEntry struct {
	Message  string
	Severity Severity // always Error today; kept for output formats that carry it
	Range    *Range   // nil when the problem has no place in a file
}

func (e ErrorEntry) String() string {
	if e.Range != nil {
		return e.Range.String() + ": " + e.Message
	}
	return e.Message
}

// Skip records a check a rule could not make because a value it needs is
// unknown before apply or undeclared. Skips are not findings: they tell a
// user what was not checked.
type Skip struct {
	Rule   string `json:"rule"`
	Range  Range  `json:"range"`
	Reason string `json:"reason"`
	// Rules are, when several rules skipped at one place for one reason
	// (the rules that read a queue's supply, its declared arrival rate
	// unknown), all of them, Rule the first: it is one skip.
	Rules []string `json:"rules,omitempty"`
	// Address is the resource (or module call) instance the skip is
	// about, as Issue.Address; "" for what belongs to no resource (a
	// variable value no root declares, a .queuecap.hcl block that matches
	// nothing, a Terragrunt unit).
	Address string `json:"address,omitempty"`
	// Instances are, as Issue.Instances, every instance one skip stands
	// for when several skipped for the same reason.
	Instances []string `json:"instances,omitempty"`
}

// RuleList is the rule, or the rules, that skipped: "a, b, c".
func (s Skip) RuleList() string {
	if len(s.Rules) > 1 {
		return strings.Join(s.Rules, ", ")
	}
	return s.Rule
}

// Result is everything one run produced.
type Result struct {
	Issues  []Issue
	Errors  []ErrorEntry
	Skipped []Skip
	// Queues counts the aws_sqs_queue instances the rules saw; 0 means the
	// run checked no queue at all.
	Queues int
	// QueuesWithConsumer counts the queues with a linked consumer, and
	// QueuesNotChecked are those of them (by address, one per root module
	// that models it) the capacity rules could not check: no declared
	// arrival rate, or a rule that skipped a check of the queue.
	QueuesWithConsumer int
	QueuesNotChecked   []string
	// Capacity is, per root module, what each checked queue's consumers
	// can do (QueueCapacity), for reports that compare runs.
	Capacity []QueueCapacity
	// Rules are the rules that ran, for formats that describe them (SARIF).
	Rules []RuleInfo
	// Explanation is what was linked, with Options.Explain; nil otherwise.
	Explanation *Explanation
	// Baseline is what a baseline file did to the run; nil without one.
	Baseline *BaselineReport
	// PlanFile is the plan a --plan run read, as named ("<stdin>" for
	// standard input): where the formats put a finding located by its
	// address alone (Range.AddressOnly), at line 1, as code scanning
	// wants a file for every result. "" for a run of HCL.
	PlanFile string
	// Source reads a file for the source snippets of the run's output as
	// the run read its files (inside its boundary, a regular file within
	// the size limit); nil for a result the linter did not make.
	Source func(path string) ([]byte, error) `json:"-"`
}

// BaselineReport is what a baseline file did to a run: how many of the
// run's findings it recorded, left out of Issues, and its entries that
// matched none, to be removed from it.
type BaselineReport struct {
	File       string // as named
	Suppressed int
	Fixed      []BaselineEntry
}

// BaselineEntry is one finding a baseline records: its fingerprint, and
// for people its rule, the instance it is about, its file (relative to
// the working directory; "" for a plan's finding located by address
// alone) and its summary.
type BaselineEntry struct {
	Fingerprint string `json:"fingerprint"`
	Rule        string `json:"rule"`
	Address     string `json:"address"`
	File        string `json:"file"`
	Summary     string `json:"summary"`
}

// QueuesChecked is how many queues with a consumer the capacity rules
// checked.
func (r *Result) QueuesChecked() int { return r.QueuesWithConsumer - len(r.QueuesNotChecked) }

// errNoSource is ReadSource's error for a result without Source.
var errNoSource = errors.New("no boundary to read it within")

// ReadSource is a file's bytes for the source snippets of the run's
// output, read by Source. A result the linter did not make reads nothing.
func (r *Result) ReadSource(path string) ([]byte, error) {
	if r.Source == nil {
		return nil, &fs.PathError{Op: "read", Path: path, Err: errNoSource}
	}
	return r.Source(path)
}

// Fails reports whether a finding is at or above the severity threshold:
// `queuecap lint` exits 2 and the run task fails.
func (r *Result) Fails(threshold Severity) bool {
	for _, is := range r.Issues {
		if is.Severity >= threshold {
			return true
		}
	}
	return false
}

// RuleInfo describes a rule for output formats.
type RuleInfo struct {
	Name     string
	Severity Severity
	Link     string
	Summary  string
	// Doc is the rule's documentation page as Markdown, "" when the rule
	// carries none (see DocumentedRule).
	Doc string
}

// Sort orders issues one stable way: by file, position, then rule.
func (r *Result) Sort() {
	slices.SortStableFunc(r.Issues, func(a, b Issue) int {
		return cmp.Or(
			cmp.Compare(a.Range.Filename, b.Range.Filename),
			cmp.Compare(a.Range.Start.Line, b.Range.Start.Line),
			cmp.Compare(a.Range.Start.Column, b.Range.Start.Column),
			cmp.Compare(a.Rule, b.Rule),
			cmp.Compare(a.Message, b.Message),
		)
	})
	slices.SortStableFunc(r.Skipped, CompareSkips)
	slices.SortStableFunc(r.Errors, func(a, b ErrorEntry) int { return cmp.Compare(a.String(), b.String()) })
	sortCapacity(r.Capacity)
}

// CompareSkips orders skips by file, line, rule, then reason.
func CompareSkips(a, b Skip) int {
	return cmp.Or(
		cmp.Compare(a.Range.Filename, b.Range.Filename),
		cmp.Compare(a.Range.Start.Line, b.Range.Start.Line),
		cmp.Compare(a.Rule, b.Rule),
		cmp.Compare(a.Reason, b.Reason),
	)
}
