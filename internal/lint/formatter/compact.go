// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package formatter

import (
	"bytes"
	"fmt"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

// renderCompact writes one line per issue,
//
//	<file>:<line>:<col>: <Severity> - in <instance>: <summary> — <message> (<rule>)
//
// and one per error, "<file>:<line>:<col>: Error - <message>" or
// "Error - <message>" when the error has no place, then with ShowSkipped
// one line per skipped check,
//
//	<file>:<line>:<col>: Skipped - in <instance>: <reason> (<rules>)
//
// then the count of skipped checks (and a line when no queue was
// checked), as the default format ends. Line breaks inside a message become spaces, as all text of
// the configuration is escaped (format.write), so that every finding
// stays on one line.
func renderCompact(b *bytes.Buffer, r *model.Result, opts Options) error {
	for _, is := range r.Issues {
		fmt.Fprintf(b, "%s: %s - %s (%s)\n", physical(r, is.Range), severityTitle(is.Severity), compactText(r, is), is.Rule)
	}
	for _, e := range r.Errors {
		if e.Range != nil {
			fmt.Fprintf(b, "%s: ", e.Range)
		}
		fmt.Fprintf(b, "%s - %s\n", severityTitle(errorSeverity(e)), e.Message)
	}
	if opts.ShowSkipped {
		for _, sk := range r.Skipped {
			fmt.Fprintf(b, "%s: Skipped - %s (%s)\n", sk.Range, addressed(sk.Range, sk.Address, sk.Instances, sk.Reason), sk.RuleList())
		}
	}
	b.WriteString(summaryTail(r, opts.ShowSkipped))
	return nil
}

// compactText is the instances, the summary, then the arithmetic, on one
// line: the compact format's message, and GitLab's description.
func compactText(r *model.Result, is model.Issue) string {
	text := is.Message
	if is.Summary != "" {
		text = is.Summary + " — " + is.Message
	}
	if note := argumentNote(is); note != "" {
		text += " " + note
	}
	return addressed(physical(r, is.Range), is.Address, is.Instances, text)
}
