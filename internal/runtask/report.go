// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package runtask

import (
	"fmt"
	"strconv"
	"strings"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/textfmt"
)

// failed is a failed result that says why; it has no outcomes.
func failed(message string) *tfe.TaskResultCallbackRequestOptions {
	return &tfe.TaskResultCallbackRequestOptions{Status: tfe.TaskFailed, Message: message}
}

// report turns a lint result into the task's result: failed on an error
// or a finding at or above failAt, as `queuecap lint` exits 1 or 2, with
// the counts as its message and one outcome per finding.
func report(res *lint.Result, failAt lint.Severity) *tfe.TaskResultCallbackRequestOptions {
	if len(res.Errors) > 0 {
		msg := "cannot lint the plan: " + res.Errors[0].String()
		if n := len(res.Errors) - 1; n > 0 {
			msg += fmt.Sprintf(" (and %s)", textfmt.Plural(n, "more error"))
		}
		return failed(msg)
	}
	counts := map[lint.Severity]int{}
	for _, is := range res.Issues {
		counts[is.Severity]++
	}
	status := tfe.TaskPassed
	if res.Fails(failAt) {
		status = tfe.TaskFailed
	}
	queues := textfmt.Plural(res.Queues, "queue") + " checked"
	if res.Queues == 0 {
		queues = "no aws_sqs_queue checked"
	}
	result := &tfe.TaskResultCallbackRequestOptions{
		Status: status,
		Message: fmt.Sprintf("%s, %s, %s; %s, %s skipped; failing at %s or above",
			textfmt.Plural(counts[lint.Error], "error"), textfmt.Plural(counts[lint.Warning], "warning"), textfmt.Plural(counts[lint.Notice], "notice"),
			queues, textfmt.Plural(len(res.Skipped), "check"), failAt),
	}
	ids := map[string]int{}
	for _, is := range res.Issues {
		result.Outcomes = append(result.Outcomes, outcome(is, ids))
	}
	return result
}

// outcome is one finding as a run task outcome. Its ID is the rule and
// the resource, numbered from the second finding that shares both.
func outcome(is lint.Issue, ids map[string]int) *tfe.TaskResultOutcome {
	where := is.Address
	if where == "" {
		where = is.Range.String()
	}
	id := is.Rule + ":" + where
	if ids[id]++; ids[id] > 1 {
		id += "#" + strconv.Itoa(ids[id])
	}
	summary := is.Summary
	if summary == "" {
		summary = is.Message
	}
	return &tfe.TaskResultOutcome{
		OutcomeID:   id,
		Description: where + ": " + summary,
		Body:        body(is, where),
		URL:         is.Link,
		Tags: map[string][]*tfe.TaskResultTag{
			"Severity": {{Label: is.Severity.String(), Level: tagLevel(is.Severity)}},
			"Rule":     {{Label: is.Rule}},
		},
	}
}

// body is a finding in Markdown: the arithmetic, the numbers behind it,
// the resource and the rule's page.
func body(is lint.Issue, where string) string {
	var b strings.Builder
	b.WriteString(markdownEscape(is.Message) + "\n\n")
	if len(is.Facts) > 0 {
		b.WriteString("| Fact | Value |\n|---|---|\n")
		for _, f := range is.Facts {
			fmt.Fprintf(&b, "| `%s` | %s |\n", f.Name, strconv.FormatFloat(f.Value, 'f', -1, 64))
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "On %s: rule [`%s`](%s), severity %s.\n", markdownEscape(where), is.Rule, is.Link, is.Severity)
	if len(is.Instances) > 1 {
		fmt.Fprintf(&b, "\nThe same for each of %d instances: %s.\n", len(is.Instances), markdownEscape(strings.Join(is.Instances, ", ")))
	}
	return b.String()
}

// tagLevel is the level HCP Terraform colors a tag with.
func tagLevel(s lint.Severity) string {
	switch s {
	case lint.Error:
		return "error"
	case lint.Warning:
		return "warning"
	}
	return "info"
}

// markdownEscape keeps text literal in Markdown: every ASCII punctuation
// mark that can start emphasis, code, a link, HTML, an entity or a table
// cell is backslash-escaped, which CommonMark allows for any of them.
var markdownEscape = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", `*`, `\*`, `_`, `\_`, `[`, `\[`, `]`, `\]`,
	`<`, `\<`, `>`, `\>`, `&`, `\&`, `|`, `\|`, `~`, `\~`,
).Replace
