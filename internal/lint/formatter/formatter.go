// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Package formatter renders a lint.Result for people and for tools: a
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
	"strings"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/textfmt"
)

// Options tune the output.
type Options struct {
	// NoColor turns off ANSI colors in the default format.
	NoColor bool
	// ReadSource returns a file's bytes for source snippets; nil means
	// os.ReadFile.
	ReadSource func(filename string) ([]byte, error)
	// ShowSkipped lists each skipped check in the default format.
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
// clean run is never mistaken for a checked one.
func summaryTail(r *lint.Result, showSkipped bool) string {
	var lines []string
	if r.Queues == 0 && len(r.Issues) == 0 {
		lines = append(lines, "No aws_sqs_queue was checked: the linted configuration declares none the linter could read")
	}
	if n := len(r.Skipped); n > 0 {
		line := textfmt.Plural(n, "check") + " skipped"
		if n == 1 {
			line = "1 check skipped"
		}
		if !showSkipped {
			line += ": --show-skipped lists them"
		}
		lines = append(lines, line)
	}
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

type renderFunc func(b *bytes.Buffer, r *lint.Result, opts Options) error

type format struct {
	name   string
	render renderFunc
}

// formats is the registry, in the order Names reports.
var formats = []format{
	{"default", renderDefault},
	{"compact", renderCompact},
	{"json", renderJSON},
	{"sarif", renderSARIF},
	{"checkstyle", renderCheckstyle},
	{"junit", renderJUnit},
	{"github", renderGitHub},
	{"gitlab", renderGitLab},
}

// Names lists the formats in a stable order: default, compact, json, sarif,
// checkstyle, junit, github, gitlab.
func Names() []string {
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = f.name
	}
	return names
}

// Write renders result in the named format to w. An unknown name is an
// error naming the valid formats. A nil result is rendered as an empty one.
func Write(w io.Writer, format string, result *lint.Result, opts Options) error {
	var render renderFunc
	for _, f := range formats {
		if f.name == format {
			render = f.render
			break
		}
	}
	if render == nil {
		return fmt.Errorf("unknown output format %q: valid formats are %s", format, strings.Join(Names(), ", "))
	}
	if result == nil {
		result = &lint.Result{}
	}
	if opts.ReadSource == nil {
		opts.ReadSource = os.ReadFile
	}
	if opts.WorkDir == "" {
		opts.WorkDir, _ = os.Getwd() // on failure absolute names stay absolute
	}
	var b bytes.Buffer
	if err := render(&b, result, opts); err != nil {
		return fmt.Errorf("%s output: %w", format, err)
	}
	if b.Len() == 0 {
		return nil
	}
	_, err := w.Write(b.Bytes())
	return err
}

// errorSeverity is an error entry's severity, Error when unset.
func errorSeverity(e lint.ErrorEntry) lint.Severity {
	switch e.Severity {
	case lint.Notice, lint.Warning, lint.Error:
		return e.Severity
	}
	return lint.Error
}

// severityTitle is "Error", "Warning" or "Notice".
func severityTitle(s lint.Severity) string {
	name := s.String()
	return strings.ToUpper(name[:1]) + name[1:]
}
