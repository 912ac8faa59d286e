// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Package formatter renders a model.Result for people and for tools: a
// readable default with source snippets, one-line compact, JSON, SARIF,
// Checkstyle, JUnit, GitHub Actions workflow commands and a GitLab Code
// Quality report.
//
// Each format lives in its own file and is registered in formats below.
// Formatters render into memory and write to the injected writer once, so a
// failing writer never leaves a half-written document behind a nil error.
package formatter

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
	"github.com/queuecap/terraform-provider-queuecap/internal/textfmt"
)

// Options tune the output.
type Options struct {
	// NoColor turns off ANSI colors in the default format.
	NoColor bool
	// ReadSource returns a file's bytes for source snippets; nil means
	// the result's own (model.Result.ReadSource), which reads only what
	// the run could.
	ReadSource func(filename string) ([]byte, error)
	// ShowSkipped lists each skipped check in the default and compact
	// formats.
	ShowSkipped bool
	// Version is the linter's version, for the formats that carry it
	// (SARIF's tool.driver.version); "" leaves it out.
	Version string
	// WorkDir is where the formats that want paths relative to the
	// repository (GitLab's location.path, every fingerprint) take an
	// absolute file name from; "" means the working directory.
	WorkDir string
}

// summaryTail is the end of the default and compact formats: how many
// checks were skipped, and a word when no queue was checked at all, so a
// clean run is never mistaken for a checked one. After an error that word
// is left out: the error is why (a root module whose variable value does
// not fit is not checked, yet declares its queues).
func summaryTail(r *model.Result, showSkipped bool) string {
	var lines []string
	if r.Queues == 0 && len(r.Issues) == 0 && len(r.Errors) == 0 {
		lines = append(lines, "No aws_sqs_queue was checked: the linted configuration declares none the linter could read")
	}
	if line := coverageLine(r); line != "" {
		lines = append(lines, line)
	}
	if n := len(r.Skipped); n > 0 {
		line := textfmt.Plural(n, "check") + " skipped"
		if !showSkipped {
			line += ": --show-skipped lists them"
		}
		lines = append(lines, line)
	}
	lines = append(lines, baselineLines(r.Baseline)...)
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

// baselineLines are what a baseline did, for the text formats: how many
// findings it left out, then a line for each of its entries that no
// finding matched, to be removed from it.
func baselineLines(b *model.BaselineReport) []string {
	if b == nil {
		return nil
	}
	var lines []string
	if b.Suppressed > 0 {
		lines = append(lines, fmt.Sprintf("%s recorded in the baseline %s not shown", textfmt.Plural(b.Suppressed, "finding"), b.File))
	}
	for _, e := range b.Fixed {
		lines = append(lines, "Notice: "+baselineFixedText(b.File, e))
	}
	return lines
}

// baselineFixedText says that a baseline entry matched no finding.
func baselineFixedText(file string, e model.BaselineEntry) string {
	where := e.Address
	if e.File != "" {
		where += " (" + e.File + ")"
	}
	return fmt.Sprintf("fixed since the baseline, remove it from %s: %s in %s: %s [%s]", file, e.Rule, where, e.Summary, e.Fingerprint)
}

// coverageLine is "Checked 3 of 4 queues with a consumer; not checked:
// aws_sqs_queue.audit", or "" when no queue has a consumer: a run is
// never mistaken for one that checked everything.
func coverageLine(r *model.Result) string { return coverageText(r, func(q string) string { return q }) }

// coverageText is coverageLine with each queue's address as name gives it.
func coverageText(r *model.Result, name func(string) string) string {
	if r.QueuesWithConsumer == 0 {
		return ""
	}
	checked := r.QueuesChecked()
	line := fmt.Sprintf("Checked %d of %s with a consumer", checked, textfmt.Plural(r.QueuesWithConsumer, "queue"))
	if n := len(r.QueuesNotChecked); n > 0 {
		var shown []string
		for _, q := range r.QueuesNotChecked[:min(n, 5)] {
			shown = append(shown, name(q))
		}
		line += "; not checked: " + strings.Join(shown, ", ")
		if n > len(shown) {
			line += fmt.Sprintf(" and %d more", n-len(shown))
		}
	}
	return line
}

type renderFunc func(b *bytes.Buffer, r *model.Result, opts Options) error

type format struct {
	name   string
	render renderFunc
	// guard rewrites what a CI runner would read as a command (safe.go).
	guard *outputGuard
	// text formats render a copy of the result whose every string is
	// escaped (safe.go); the others are the formats' own encodings.
	text bool
}

// formats is the registry, in the order Names reports.
var formats = []format{
	{"default", renderDefault, textGuard, true},
	{"compact", renderCompact, textGuard, true},
	{"json", renderJSON, jsonGuard, false},
	{"sarif", renderSARIF, jsonGuard, false},
	{"checkstyle", renderCheckstyle, xmlGuard, false},
	{"junit", renderJUnit, xmlGuard, false},
	{"github", renderGitHub, nil, false},
	{"gitlab", renderGitLab, jsonGuard, false},
	{"markdown", renderMarkdown, textGuard, true},
}

// write renders result in f to w, escaped and guarded.
func (f format) write(w io.Writer, result *model.Result, opts Options) error {
	if f.text {
		// A file whose name had to be escaped shows no source lines.
		result = escaped(reflect.ValueOf(result)).Interface().(*model.Result) //nolint:forcetypeassert // escaped keeps the type
	}
	var b bytes.Buffer
	if err := f.render(&b, result, opts); err != nil {
		return fmt.Errorf("%s output: %w", f.name, err)
	}
	out := f.guard.guard(b.Bytes())
	if len(out) == 0 {
		return nil
	}
	_, err := w.Write(out)
	return err
}

// Names lists the formats in a stable order: default, compact, json, sarif,
// checkstyle, junit, github, gitlab, markdown.
func Names() []string {
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = f.name
	}
	return names
}

// Write renders result in the named format to w. An unknown name is an
// error naming the valid formats. A nil result is rendered as an empty one.
func Write(w io.Writer, format string, result *model.Result, opts Options) error {
	f, ok := formatNamed(formats, format)
	if !ok {
		return fmt.Errorf("unknown output format %q: valid formats are %s", format, strings.Join(Names(), ", "))
	}
	if result == nil {
		result = &model.Result{}
	}
	if opts.ReadSource == nil {
		opts.ReadSource = result.ReadSource
	}
	if opts.WorkDir == "" {
		opts.WorkDir, _ = os.Getwd() // on failure absolute names stay absolute
	}
	return f.write(w, result, opts)
}

// formatNamed is the format of that name in list.
func formatNamed(list []format, name string) (format, bool) {
	i := slices.IndexFunc(list, func(f format) bool { return f.name == name })
	if i < 0 {
		return format{}, false
	}
	return list[i], true
}

// errorSeverity is an error entry's severity, Error when unset.
func errorSeverity(e model.ErrorEntry) model.Severity {
	switch e.Severity {
	case model.Notice, model.Warning, model.Error:
		return e.Severity
	}
	return model.Error
}

// severityTitle is "Error", "Warning" or "Notice".
func severityTitle(s model.Severity) string {
	name := s.String()
	return strings.ToUpper(name[:1]) + name[1:]
}

// maxInstancesShown is how many instance addresses a line of text names
// before it counts the rest.
const maxInstancesShown = 3

// instancesText names the resource instances a finding or skip is about:
// its address, or with several instances the first few and how many more;
// "" when it names none.
func instancesText(address string, instances []string) string {
	if len(instances) < 2 {
		return address
	}
	shown := instances[:min(len(instances), maxInstancesShown)]
	text := strings.Join(shown, ", ")
	if more := len(instances) - len(shown); more > 0 {
		return fmt.Sprintf("%s and %d more", text, more)
	}
	return text
}

// issueInstances is instancesText for an issue, "" when its place already
// is its one address (a plan's finding located by address alone).
func issueInstances(rng model.Range, address string, instances []string) string {
	if len(instances) < 2 && rng.AddressOnly() && rng.Filename == address {
		return ""
	}
	return instancesText(address, instances)
}

// addressed is a one-line format's text prefixed with the instances it is
// about: "in aws_autoscaling_group.audit[1]: <text>".
func addressed(rng model.Range, address string, instances []string, text string) string {
	if in := issueInstances(rng, address, instances); in != "" {
		return "in " + in + ": " + text
	}
	return text
}

// physical is where a format that wants a file puts rng: rng, or for a
// plan's finding or skip located by its address alone the plan file at
// line 1 (model.Result.PlanFile), the address kept beside it as the
// instance it is about. The fingerprint keeps the address.
func physical(r *model.Result, rng model.Range) model.Range {
	if rng.AddressOnly() && r.PlanFile != "" {
		return model.Range{Filename: r.PlanFile, Start: model.Pos{Line: 1, Column: 1}, End: model.Pos{Line: 1, Column: 1}}
	}
	return rng
}

// annotationPlace is where the annotation formats (github, GitLab,
// Checkstyle, SARIF) put an issue: the caller's argument that sets the
// value at fault when it has one (model.Issue.Arguments), the line a pull
// request that changes only the caller touches; else its place.
func annotationPlace(is model.Issue) model.Range {
	if len(is.Arguments) > 0 {
		return is.Arguments[0]
	}
	return is.Range
}

// argumentNote is the sentence an issue with caller arguments adds to its
// text: where the module uses the value and which calls set it. Empty for
// any other issue.
func argumentNote(is model.Issue) string {
	if len(is.Arguments) == 0 {
		return ""
	}
	var set []string
	for _, a := range is.Arguments {
		set = append(set, placeName(a))
	}
	return fmt.Sprintf("(The value is the module argument set at %s; the module uses it at %s.)",
		strings.Join(set, ", "), placeName(is.Range))
}

// withArgumentNote is text, then argumentNote on the next line when there
// is one.
func withArgumentNote(is model.Issue, text string) string {
	if note := argumentNote(is); note != "" {
		return text + "\n" + note
	}
	return text
}

// placeName is a range as file:line, with forward slashes.
func placeName(r model.Range) string {
	return fmt.Sprintf("%s:%d", filepath.ToSlash(r.Filename), r.Start.Line)
}
