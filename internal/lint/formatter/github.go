// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package formatter

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

// renderGitHub writes GitHub Actions workflow commands, one per issue:
//
//	::error file=main.tf,line=3,col=3,endLine=3,endColumn=21,title=<rule>::in <instance>: <message>
//
// (::warning, ::notice by severity) and one per run error, with file and
// line when the error has a place, then a ::notice naming the queues with
// a consumer that were not checked, if any, and one per baseline entry
// that matched no finding. Columns are given only for ranges on a
// single line, as GitHub ignores them on ranges that span lines.
func renderGitHub(b *bytes.Buffer, r *model.Result, _ Options) error {
	for _, is := range r.Issues {
		at := physical(r, annotationPlace(is))
		writeGitHubCommand(b, is.Severity, &at, is.Rule, withArgumentNote(is, addressed(physical(r, is.Range), is.Address, is.Instances, is.Text())))
	}
	for _, e := range r.Errors {
		writeGitHubCommand(b, errorSeverity(e), e.Range, "", e.Message)
	}
	// Queues with a consumer that were not checked: one notice, so that a
	// pull request without findings does not read as fully checked.
	if len(r.QueuesNotChecked) > 0 {
		writeGitHubCommand(b, model.Notice, nil, "queuecap coverage", coverageLine(r))
	}
	// A baseline's entries that matched no finding, to be removed.
	if bl := r.Baseline; bl != nil {
		for _, e := range bl.Fixed {
			writeGitHubCommand(b, model.Notice, nil, "queuecap baseline", baselineFixedText(bl.File, e))
		}
	}
	return nil
}

func writeGitHubCommand(b *bytes.Buffer, sev model.Severity, rng *model.Range, title, message string) {
	cmd := "warning"
	switch sev {
	case model.Error:
		cmd = "error"
	case model.Notice:
		cmd = "notice"
	}
	var props []string
	if rng != nil && rng.Filename != "" && !rng.AddressOnly() {
		props = append(props, "file="+githubProperty(filepath.ToSlash(rng.Filename)))
		if rng.Start.Line >= 1 {
			props = append(props, fmt.Sprintf("line=%d", rng.Start.Line))
			switch {
			case rng.End.Line > rng.Start.Line:
				props = append(props, fmt.Sprintf("endLine=%d", rng.End.Line))
			case rng.Start.Column >= 1:
				props = append(props, fmt.Sprintf("col=%d", rng.Start.Column))
				if rng.End.Line == rng.Start.Line && rng.End.Column >= rng.Start.Column {
					props = append(props, fmt.Sprintf("endLine=%d,endColumn=%d", rng.End.Line, rng.End.Column))
				}
			}
		}
	}
	if title != "" {
		props = append(props, "title="+githubProperty(title))
	}
	b.WriteString("::" + cmd)
	if len(props) > 0 {
		b.WriteString(" " + strings.Join(props, ","))
	}
	b.WriteString("::" + githubData(message) + "\n")
}

var (
	githubDataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	githubPropertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// githubData escapes a workflow command's message as GitHub defines it,
// and what else would reach the log as more than text (escapeText).
func githubData(s string) string { return escapeText(githubDataEscaper.Replace(s)) }

// githubProperty escapes a workflow command's property value.
func githubProperty(s string) string { return escapeText(githubPropertyEscaper.Replace(s)) }
