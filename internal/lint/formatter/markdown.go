// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package formatter

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
	"github.com/queuecap/terraform-provider-queuecap/internal/textfmt"
)

// markdownMarker opens every Markdown report, so that a workflow can find
// the comment it posted before and edit it rather than post another.
const markdownMarker = "<!-- queuecap lint -->"

// markdownLimit is what a Markdown report may weigh, in bytes: GitHub
// refuses a comment of more than 65,536 characters, and a character is
// at least a byte, so a report within this many bytes is always accepted,
// with room left for a workflow's own lines around it.
const markdownLimit = 60000

// markdownOpen is how many findings a Markdown report shows open; the
// others are collapsed under one <details>.
const markdownOpen = 5

// renderMarkdown writes a report for a pull-request comment:
//
//	<!-- queuecap lint -->
//	### queuecap lint: 2 findings (1 error, 1 warning)
//
//	Checked 3 of 4 queues with a consumer; not checked: `aws_sqs_queue.audit`
//
//	**Error: max_size 25 cannot drain any backlog: raise it to 26**
//	`queuecap_zero_surplus` at `main.tf:12`, in `aws_autoscaling_group.w`
//
//	> the arithmetic
//
// the first markdownOpen findings open, the rest in a collapsed
// <details>, then the run's errors, then the skipped checks, collapsed,
// each with its place and reason. Findings and skips that would take the
// report past markdownLimit are counted instead of shown. Text from the
// configuration cannot make HTML, links, emphasis or mentions
// (markdownInline, markdownCode).
func renderMarkdown(b *bytes.Buffer, r *model.Result, _ Options) error {
	var head strings.Builder
	head.WriteString(markdownMarker + "\n")
	if n := len(r.Issues); n == 0 {
		head.WriteString("### queuecap lint: no findings\n")
	} else {
		fmt.Fprintf(&head, "### queuecap lint: %s (%s)\n", markdownCount(n, "finding"), severityCounts(r.Issues))
	}
	var notes []string
	if r.Queues == 0 && len(r.Issues) == 0 {
		notes = append(notes, "No `aws_sqs_queue` was checked: the linted configuration declares none the linter could read.")
	}
	if line := markdownCoverage(r); line != "" {
		notes = append(notes, line)
	}
	if bl := r.Baseline; bl != nil && bl.Suppressed > 0 {
		notes = append(notes, fmt.Sprintf("%s recorded in the baseline %s not shown.", markdownCount(bl.Suppressed, "finding"), markdownCode(bl.File)))
	}
	if len(notes) > 0 {
		head.WriteString("\n" + strings.Join(notes, "\n\n") + "\n")
	}

	// The tail is written whatever the findings weigh: errors say the run
	// is incomplete, and the skipped checks, the most a reader needs of
	// them, are trimmed first.
	var tail strings.Builder
	if len(r.Errors) > 0 {
		tail.WriteString("\n**Errors** (these parts were not linted):\n\n")
		for _, e := range r.Errors {
			tail.WriteString("- ")
			if e.Range != nil && e.Range.Filename != "" {
				tail.WriteString(markdownCode(lineOf(*e.Range)) + ": ")
			}
			tail.WriteString(markdownInline(e.Message) + "\n")
		}
	}
	if bl := r.Baseline; bl != nil && len(bl.Fixed) > 0 {
		entries := "1 entry"
		if n := len(bl.Fixed); n != 1 {
			entries = textfmt.Group(strconv.Itoa(n)) + " entries"
		}
		fmt.Fprintf(&tail, "\n<details><summary>%s of the baseline fixed since</summary>\n\n", entries)
		for i, e := range bl.Fixed {
			if i == 50 {
				fmt.Fprintf(&tail, "- and %d more\n", len(bl.Fixed)-i)
				break
			}
			tail.WriteString("- " + markdownInline(baselineFixedText(bl.File, e)) + "\n")
		}
		tail.WriteString("\n</details>\n")
	}
	budget := markdownLimit - head.Len() - tail.Len()

	var body strings.Builder
	shown := 0
	for i, is := range r.Issues {
		section := markdownIssue(r, is)
		if i == markdownOpen {
			section = fmt.Sprintf("\n<details><summary>%s</summary>\n", markdownCount(len(r.Issues)-markdownOpen, "more finding")) + section
		}
		// Room for closing the details and for the line that counts
		// what is left out.
		if body.Len()+len(section)+200 > budget {
			break
		}
		body.WriteString(section)
		shown++
	}
	if shown > markdownOpen {
		body.WriteString("\n</details>\n")
	}
	if left := len(r.Issues) - shown; left > 0 {
		fmt.Fprintf(&body, "\n%s not shown: the report stops short of GitHub's comment limit; the job's log and its other reports have every finding.\n",
			markdownCount(left, "more finding"))
	}
	budget -= body.Len()

	if n := len(r.Skipped); n > 0 {
		var skips strings.Builder
		fmt.Fprintf(&skips, "\n<details><summary>%s skipped</summary>\n\n", markdownCount(n, "check"))
		listed := 0
		for _, s := range r.Skipped {
			item := fmt.Sprintf("- %s (%s): %s\n", markdownPlace(physical(r, s.Range), s.Address, s.Instances), markdownCode(s.RuleList()), markdownInline(s.Reason))
			if skips.Len()+len(item)+200 > budget {
				break
			}
			skips.WriteString(item)
			listed++
		}
		if left := n - listed; left > 0 {
			fmt.Fprintf(&skips, "\n%s not listed, for GitHub's comment limit.\n", markdownCount(left, "more skipped check"))
		}
		skips.WriteString("\n</details>\n")
		body.WriteString(skips.String())
	}

	b.WriteString(head.String())
	b.WriteString(body.String())
	b.WriteString(tail.String())
	return nil
}

// markdownIssue is one finding: its severity and summary in bold, its
// rule and place, the arithmetic quoted, the caller's argument that sets
// its value, and its rule's page.
func markdownIssue(r *model.Result, is model.Issue) string {
	var b strings.Builder
	title := is.Summary
	if title == "" {
		title = is.Message
	}
	fmt.Fprintf(&b, "\n**%s: %s**\n", severityTitle(is.Severity), markdownInline(title))
	fmt.Fprintf(&b, "%s at %s\n", markdownCode(is.Rule), markdownPlace(physical(r, is.Range), is.Address, is.Instances))
	if is.Summary != "" {
		fmt.Fprintf(&b, "\n> %s\n", markdownInline(is.Message))
	}
	if len(is.Arguments) > 0 {
		var set []string
		for _, a := range is.Arguments {
			set = append(set, markdownCode(lineOf(a)))
		}
		fmt.Fprintf(&b, "\nThe value is the module argument set at %s.\n", strings.Join(set, ", "))
	}
	if strings.HasPrefix(is.Link, "https://") {
		fmt.Fprintf(&b, "\n[%s](%s)\n", is.Rule, markdownURL(is.Link))
	}
	return b.String()
}

// markdownPlace is `file:line`, and ", in `instance`" when the place is a
// resource instance's.
func markdownPlace(rng model.Range, address string, instances []string) string {
	place := markdownCode(lineOf(rng))
	if rng.AddressOnly() {
		place = markdownCode(rng.Filename)
	}
	if in := issueInstances(rng, address, instances); in != "" {
		place += ", in " + markdownCode(in)
	}
	return place
}

// markdownCoverage is coverageLine with the queues as code.
func markdownCoverage(r *model.Result) string {
	if line := coverageText(r, markdownCode); line != "" {
		return line + "."
	}
	return ""
}

// severityCounts is "1 error, 2 warnings".
func severityCounts(issues []model.Issue) string {
	counts := map[model.Severity]int{}
	for _, is := range issues {
		counts[is.Severity]++
	}
	var parts []string
	for _, s := range []model.Severity{model.Error, model.Warning, model.Notice} {
		if c := counts[s]; c > 0 {
			parts = append(parts, markdownCount(c, s.String()))
		}
	}
	return strings.Join(parts, ", ")
}

// markdownInline is text from the configuration as Markdown that shows
// it as it is, on one line: the characters that make emphasis, code,
// links, tables, entities or HTML are backslash-escaped, and so are the
// colon of "https:" and the dot of "www." that would make a bare address
// a link, and a character at the start that would open a heading, a list
// or a quote; an @ is
// followed by a word joiner, which shows nothing and keeps "@name" from
// notifying anyone. The text formats' escaping has already made every
// line break a space.
func markdownInline(s string) string {
	// "12. " or "12) " at the start would open an ordered list.
	digits := len(s) - len(strings.TrimLeft(s, "0123456789"))
	list := digits > 0 && digits < len(s) && (s[digits] == '.' || s[digits] == ')')
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '@':
			b.WriteString("@\u2060")
		case strings.ContainsRune("\\`*_[]<>|~&:", r), i == 0 && strings.ContainsRune("#-+=>", r), list && i == digits,
			r == '.' && i >= 3 && strings.EqualFold(s[i-3:i], "www"):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// markdownCode is s as a code span, which Markdown shows as it is: the
// fence is one backtick longer than the longest run of backticks in s,
// with a space inside each end when s starts or ends with one (or with a
// space, which the span would otherwise lose).
func markdownCode(s string) string {
	longest, run := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") || strings.HasPrefix(s, " ") || strings.HasSuffix(s, " ") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// markdownURL keeps a link's destination from ending early.
var markdownURL = strings.NewReplacer("(", "%28", ")", "%29", " ", "%20", "<", "%3C", ">", "%3E").Replace

// markdownCount is a count with thousands separators and its word:
// "1 check", "2,995 more findings".
func markdownCount(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return textfmt.Group(strconv.Itoa(n)) + " " + word + "s"
}

// MarkdownInline is markdownInline, for other reports that write
// Markdown from configuration text (queuecap diff).
func MarkdownInline(s string) string { return markdownInline(escapeText(s)) }

// MarkdownCode is markdownCode, for other reports.
func MarkdownCode(s string) string { return markdownCode(escapeText(s)) }

// EscapeText is escapeText, for other reports that print configuration
// text to a terminal or a log.
func EscapeText(s string) string { return escapeText(s) }
