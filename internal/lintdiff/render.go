// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lintdiff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/formatter"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
	"github.com/queuecap/terraform-provider-queuecap/internal/textfmt"
)

// Formats are the output formats of a comparison, the first the default.
func Formats() []string { return []string{"text", "markdown", "json"} }

// Marker opens the Markdown output, so that a workflow finds the comment
// it posted before and edits it.
const Marker = "<!-- queuecap diff -->"

// Write renders d in format: text for a terminal or a log, markdown for
// a pull-request comment, json for programs. Text from the configuration
// is escaped as the linter's own formats escape it.
func Write(b *bytes.Buffer, d *Diff, format string) error {
	switch format {
	case "text":
		writeText(b, d)
	case "markdown":
		writeMarkdown(b, d)
	case "json":
		enc := json.NewEncoder(b)
		enc.SetIndent("", "  ")
		return enc.Encode(d)
	default:
		return fmt.Errorf("unknown format %q: valid formats are %s", format, strings.Join(Formats(), ", "))
	}
	return nil
}

// Headline is one sentence on what the change does to a queue, or "" for
// a queue whose capacity it does not change: "max consumers 32 → 25:
// surplus 2,800 → 0 msg/s, the 5,000,000-message backlog never drains
// (it drained in 29 min 46 s)".
func Headline(c QueueChange) string {
	b, a := c.Before, c.After
	switch {
	case b == nil && a == nil:
		return ""
	case b == nil:
		return fmt.Sprintf("now checked: %s consumers, capacity %s msg/s, surplus %s msg/s%s",
			textfmt.Short(a.MaxConsumers), textfmt.Short(a.Capacity), textfmt.Short(a.Surplus), drainClause(nil, a))
	case a == nil:
		return "no longer checked (its consumer, its rates or the queue are gone, or a value it needs is not known)"
	}
	var what []string
	if b.MaxConsumers != a.MaxConsumers {
		what = append(what, fmt.Sprintf("%s max consumers from %s to %s", moveWord(b.MaxConsumers, a.MaxConsumers),
			textfmt.Short(b.MaxConsumers), textfmt.Short(a.MaxConsumers)))
	}
	if b.EffectiveArrivalRate != a.EffectiveArrivalRate {
		what = append(what, fmt.Sprintf("%s the effective arrival rate from %s to %s msg/s", moveWord(b.EffectiveArrivalRate, a.EffectiveArrivalRate),
			textfmt.Short(b.EffectiveArrivalRate), textfmt.Short(a.EffectiveArrivalRate)))
	}
	if b.Capacity != a.Capacity && b.MaxConsumers == a.MaxConsumers {
		what = append(what, fmt.Sprintf("%s capacity from %s to %s msg/s", moveWord(b.Capacity, a.Capacity),
			textfmt.Short(b.Capacity), textfmt.Short(a.Capacity)))
	}
	line := strings.Join(what, " and ")
	if line == "" {
		line = "changes " + strings.ReplaceAll(strings.Join(c.Changed, ", "), "_", " ")
	}
	if b.Surplus != a.Surplus {
		line += fmt.Sprintf(": surplus %s → %s msg/s", textfmt.Short(b.Surplus), textfmt.Short(a.Surplus))
	}
	return line + drainClause(b, a)
}

// moveWord is "lowers" or "raises".
func moveWord(from, to float64) string {
	if to < from {
		return "lowers"
	}
	return "raises"
}

// drainClause is ", the N-message backlog …" when the drain of the
// declared backlog changed (or, without before, what it is).
func drainClause(b, a *model.QueueCapacity) string {
	if a == nil || a.MaxBacklog == nil || a.Drains == nil {
		return ""
	}
	backlog := fmt.Sprintf(", the %s-message backlog", textfmt.Short(*a.MaxBacklog))
	now := "never drains"
	if *a.Drains && a.DrainSeconds != nil {
		now = "drains in " + Duration(*a.DrainSeconds)
	}
	if b == nil || b.Drains == nil || b.MaxBacklog == nil || *b.MaxBacklog != *a.MaxBacklog {
		return backlog + " " + now
	}
	switch {
	case *b.Drains && !*a.Drains:
		return backlog + " never drains (it drained in " + Duration(deref(b.DrainSeconds)) + ")"
	case !*b.Drains && *a.Drains:
		return backlog + " now " + now + " (it never drained)"
	case *a.Drains && deref(b.DrainSeconds) != deref(a.DrainSeconds):
		return backlog + " " + now + " (was " + Duration(deref(b.DrainSeconds)) + ")"
	}
	return ""
}

func deref(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

// Duration is a number of seconds as a reader takes it in: "45 s",
// "29 min 46 s", "2 h 5 min", "3 d 4 h", rounded up to the last unit
// shown, so that a drain is never shown shorter than it is.
func Duration(seconds float64) string {
	if math.IsInf(seconds, 0) || math.IsNaN(seconds) || seconds < 0 {
		return "never"
	}
	s := int64(math.Ceil(seconds))
	if s < 60 {
		return fmt.Sprintf("%d s", s)
	}
	if s < 3600 {
		return joinUnits(s/60, "min", s%60, "s")
	}
	if m := (s + 59) / 60; m < 1440 {
		return joinUnits(m/60, "h", m%60, "min")
	}
	h := (s + 3599) / 3600
	return joinUnits(h/24, "d", h%24, "h")
}

func joinUnits(a int64, au string, b int64, bu string) string {
	if b == 0 {
		return fmt.Sprintf("%s %s", textfmt.Group(fmt.Sprint(a)), au)
	}
	return fmt.Sprintf("%s %s %d %s", textfmt.Group(fmt.Sprint(a)), au, b, bu)
}

// row is one line of a queue's before → after table.
type row struct{ name, before, after string }

// rows are the lines of c's table: every field that changed, and the
// surplus always, the number the rest follows from.
func rows(c QueueChange) []row {
	b, a := c.Before, c.After
	if b == nil || a == nil {
		return nil
	}
	num := func(v float64, unit string) string { return textfmt.Short(v) + unit }
	pct := func(p *float64) string {
		if p == nil {
			return "—"
		}
		return textfmt.Short(math.Round(*p*10000)/100) + " %"
	}
	drain := func(q *model.QueueCapacity) string {
		switch {
		case q.MaxBacklog == nil || q.Drains == nil:
			return "no backlog declared"
		case !*q.Drains:
			return "never"
		}
		return Duration(deref(q.DrainSeconds))
	}
	var out []row
	for _, f := range c.Changed {
		switch f {
		case "arrival_rate":
			out = append(out, row{"arrival rate", num(b.ArrivalRate, " msg/s"), num(a.ArrivalRate, " msg/s")})
		case "effective_arrival_rate":
			out = append(out, row{"effective arrival rate", num(b.EffectiveArrivalRate, " msg/s"), num(a.EffectiveArrivalRate, " msg/s")})
		case "max_consumers":
			out = append(out, row{"max consumers", num(b.MaxConsumers, ""), num(a.MaxConsumers, "")})
		case "capacity":
			out = append(out, row{"capacity", num(b.Capacity, " msg/s"), num(a.Capacity, " msg/s")})
		case "headroom":
			out = append(out, row{"headroom", pct(b.Headroom), pct(a.Headroom)})
		case "max_backlog":
			out = append(out, row{"max backlog", ptrNum(b.MaxBacklog), ptrNum(a.MaxBacklog)})
		case "drain":
			out = append(out, row{"drain of the backlog", drain(b), drain(a)})
		case "consumers":
			out = append(out, row{"consumers", strings.Join(b.Consumers, ", "), strings.Join(a.Consumers, ", ")})
		}
	}
	surplus := row{"surplus", num(b.Surplus, " msg/s"), num(a.Surplus, " msg/s")}
	// The surplus after capacity, where the arithmetic puts it.
	at := len(out)
	for i, r := range out {
		if r.name == "headroom" || r.name == "max backlog" || r.name == "drain of the backlog" || r.name == "consumers" {
			at = i
			break
		}
	}
	out = append(out[:at], append([]row{surplus}, out[at:]...)...)
	if slices.Contains(c.Changed, "alarms") {
		thresholds := func(q *model.QueueCapacity) map[string]string {
			m := map[string]string{}
			for _, al := range q.Alarms {
				m[al.Alarm] = ptrNum(al.Threshold)
			}
			return m
		}
		tb, ta := thresholds(b), thresholds(a)
		var names []string
		for _, al := range b.Alarms {
			names = append(names, al.Alarm)
		}
		for _, al := range a.Alarms {
			if _, ok := tb[al.Alarm]; !ok {
				names = append(names, al.Alarm)
			}
		}
		for _, n := range names {
			before, ok := tb[n]
			if !ok {
				before = "no alarm"
			}
			after, ok := ta[n]
			if !ok {
				after = "no alarm"
			}
			if before != after {
				out = append(out, row{"threshold of " + n, before, after})
			}
		}
	}
	return out
}

func ptrNum(p *float64) string {
	if p == nil {
		return "not known"
	}
	return textfmt.Short(*p)
}

// place is "file:line".
func place(f Finding) string {
	if f.Range.AddressOnly() {
		return f.Range.Filename
	}
	return fmt.Sprintf("%s:%d", f.Range.Filename, f.Range.Start.Line)
}

// queueName is "aws_sqs_queue.orders", with its root module when that is
// not the linted directory itself.
func queueName(c QueueChange) string {
	if c.Root == "." || c.Root == "" {
		return c.Queue
	}
	return c.Queue + " (" + c.Root + ")"
}

func writeText(b *bytes.Buffer, d *Diff) {
	if len(d.Capacity) == 0 {
		b.WriteString("Capacity: no queue changed\n")
	} else {
		fmt.Fprintf(b, "Capacity: %s changed\n", textfmt.Plural(len(d.Capacity), "queue"))
		for _, c := range d.Capacity {
			fmt.Fprintf(b, "\n  %s: %s\n", formatter.EscapeText(queueName(c)), formatter.EscapeText(Headline(c)))
			rs := rows(c)
			width := 0
			for _, r := range rs {
				width = max(width, len([]rune(r.name)))
			}
			for _, r := range rs {
				fmt.Fprintf(b, "    %-*s  %s → %s\n", width, formatter.EscapeText(r.name), formatter.EscapeText(r.before), formatter.EscapeText(r.after))
			}
		}
	}
	list := func(title string, fs []Finding) {
		if len(fs) == 0 {
			fmt.Fprintf(b, "\n%s: none\n", title)
			return
		}
		fmt.Fprintf(b, "\n%s (%d):\n", title, len(fs))
		for _, f := range fs {
			fmt.Fprintf(b, "  %s: %s: %s (%s)\n", severityTitle(f.Severity), formatter.EscapeText(place(f)), formatter.EscapeText(f.Title()), f.Rule)
		}
	}
	list("New findings", d.New)
	list("Fixed findings", d.Fixed)
	if len(d.Changed) > 0 {
		fmt.Fprintf(b, "\nChanged findings (%d):\n", len(d.Changed))
		for _, c := range d.Changed {
			fmt.Fprintf(b, "  %s: %s: %s (%s)\n    was: %s\n", severityTitle(c.After.Severity), formatter.EscapeText(place(c.After)),
				formatter.EscapeText(c.After.Title()), c.After.Rule, formatter.EscapeText(c.Before.Title()))
		}
	}
	for _, e := range d.BaseErrors {
		fmt.Fprintf(b, "\nError in the base run, not compared: %s\n", formatter.EscapeText(e))
	}
	for _, e := range d.HeadErrors {
		fmt.Fprintf(b, "\nError in the head run, not compared: %s\n", formatter.EscapeText(e))
	}
}

func severityTitle(s string) string {
	if s == "" {
		return "Warning"
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// markdownBudget is where the Markdown output stops adding queues and
// findings, well within GitHub's 65,536-character limit for a comment:
// what comes after (a line of findings, the errors) is short.
const markdownBudget = 50000

func writeMarkdown(b *bytes.Buffer, d *Diff) {
	b.WriteString(Marker + "\n")
	var summary []string
	if n := len(d.New); n > 0 {
		summary = append(summary, textfmt.Plural(n, "new finding"))
	}
	if n := len(d.Fixed); n > 0 {
		summary = append(summary, textfmt.Plural(n, "fixed finding"))
	}
	if n := len(d.Capacity); n > 0 {
		summary = append(summary, "capacity of "+textfmt.Plural(n, "queue")+" changed")
	}
	if len(summary) == 0 {
		b.WriteString("### queuecap diff: no change to findings or capacity\n")
	} else {
		fmt.Fprintf(b, "### queuecap diff: %s\n", strings.Join(summary, ", "))
	}
	for i, c := range d.Capacity {
		if b.Len() > markdownBudget/2 {
			fmt.Fprintf(b, "\nAnd %s more, not shown for GitHub's comment limit.\n", textfmt.Plural(len(d.Capacity)-i, "queue"))
			break
		}
		fmt.Fprintf(b, "\n**%s** %s\n", formatter.MarkdownCode(queueName(c)), formatter.MarkdownInline(Headline(c)))
		if rs := rows(c); len(rs) > 0 {
			b.WriteString("\n| | before | after |\n|---|---:|---:|\n")
			for _, r := range rs {
				fmt.Fprintf(b, "| %s | %s | %s |\n", formatter.MarkdownInline(r.name), formatter.MarkdownInline(r.before), formatter.MarkdownInline(r.after))
			}
		}
	}
	list := func(title string, fs []Finding) {
		if len(fs) == 0 {
			return
		}
		fmt.Fprintf(b, "\n**%s**\n\n", title)
		for i, f := range fs {
			if b.Len() > markdownBudget {
				fmt.Fprintf(b, "- and %d more, not shown for GitHub's comment limit\n", len(fs)-i)
				return
			}
			fmt.Fprintf(b, "- %s %s at %s: %s\n", severityTitle(f.Severity), formatter.MarkdownCode(f.Rule), formatter.MarkdownCode(place(f)), formatter.MarkdownInline(f.Title()))
		}
	}
	list("New findings", d.New)
	list("Fixed findings", d.Fixed)
	if len(d.Changed) > 0 {
		b.WriteString("\n**Changed findings**\n\n")
		for _, c := range d.Changed {
			fmt.Fprintf(b, "- %s %s at %s: %s (was: %s)\n", severityTitle(c.After.Severity), formatter.MarkdownCode(c.After.Rule),
				formatter.MarkdownCode(place(c.After)), formatter.MarkdownInline(c.After.Title()), formatter.MarkdownInline(c.Before.Title()))
		}
	}
	if len(d.BaseErrors)+len(d.HeadErrors) > 0 {
		b.WriteString("\n**Not compared** (errors):\n\n")
		for _, e := range d.BaseErrors[:min(len(d.BaseErrors), 20)] {
			fmt.Fprintf(b, "- base: %s\n", formatter.MarkdownInline(e))
		}
		for _, e := range d.HeadErrors[:min(len(d.HeadErrors), 20)] {
			fmt.Fprintf(b, "- head: %s\n", formatter.MarkdownInline(e))
		}
		if n := max(len(d.BaseErrors)-20, 0) + max(len(d.HeadErrors)-20, 0); n > 0 {
			fmt.Fprintf(b, "- and %s, in the job's log\n", textfmt.Plural(n, "more error"))
		}
	}
}
