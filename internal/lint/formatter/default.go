// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package formatter

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
	"github.com/queuecap/terraform-provider-queuecap/internal/textfmt"
)

// ANSI styles for the default format.
const (
	ansiReset     = "\x1b[0m"
	ansiBold      = "\x1b[1m"
	ansiHighlight = "\x1b[1;4m" // bold, underlined
	ansiRed       = "\x1b[31m"
	ansiYellow    = "\x1b[33m"
	ansiCyan      = "\x1b[36m"
)

type painter struct{ on bool }

func (p painter) paint(style, s string) string {
	if !p.on || s == "" {
		return s
	}
	return style + s + ansiReset
}

func (p painter) severity(s model.Severity) string {
	style := ansiCyan
	switch s {
	case model.Error:
		style = ansiRed
	case model.Warning:
		style = ansiYellow
	}
	return p.paint(style, severityTitle(s))
}

// renderDefault writes the human format:
//
//	Warning: <summary> (<rule>)
//
//	  <message, the arithmetic, wrapped at 80 columns>
//
//	  on <file> line <n>, in <resource instance>:
//	   <n>: <source line>
//
//	  with the value from the module argument on <file> line <n>:
//	   <n>: <source line>
//
//	Reference: <link>
//
// for each issue (the module argument for each of its Arguments, then its
// Callers when it has them), then each error the same way without rule and reference,
// then, with ShowSkipped, each skipped check, then a summary: the count of
// issues and errors, and of skipped checks, and a line when no queue was
// checked at all. A clean run that checked everything writes nothing.
func renderDefault(b *bytes.Buffer, r *model.Result, opts Options) error {
	p := painter{on: !opts.NoColor}
	src := newSourceCache(opts.ReadSource)

	for _, is := range r.Issues {
		if is.Summary == "" {
			fmt.Fprintf(b, "%s: %s (%s)\n\n", p.severity(is.Severity), p.paint(ansiBold, is.Message), is.Rule)
		} else {
			fmt.Fprintf(b, "%s: %s (%s)\n\n", p.severity(is.Severity), p.paint(ansiBold, is.Summary), is.Rule)
			b.WriteString(textfmt.Wrap(is.Message, "  ", 80) + "\n\n")
		}
		writeLocation(b, p, src, is.Range, issueInstances(is.Range, is.Address, is.Instances), r.PlanFile)
		for _, a := range is.Arguments {
			// The caller's line that sets the value, which a pull request
			// changing only the caller touches.
			b.WriteString("\n")
			writePlace(b, p, src, a, fmt.Sprintf("  with the value from the module argument on %s line %d:\n", a.Filename, a.Start.Line))
		}
		if len(is.Callers) > 0 || is.ModuleRange != nil {
			// As tflint prints them: every module call on the way, then
			// the place inside the module when the finding was moved out.
			b.WriteString("\nCallers:\n")
			for _, c := range is.Callers {
				fmt.Fprintf(b, "   %s\n", shortRange(c))
			}
			if is.ModuleRange != nil {
				fmt.Fprintf(b, "   %s (inside the installed module)\n", shortRange(*is.ModuleRange))
			}
		}
		if is.Link != "" {
			fmt.Fprintf(b, "\nReference: %s\n", is.Link)
		}
		b.WriteString("\n")
	}
	for _, e := range r.Errors {
		fmt.Fprintf(b, "%s: %s\n\n", p.severity(errorSeverity(e)), p.paint(ansiBold, e.Message))
		if e.Range != nil {
			writeLocation(b, p, src, *e.Range, "", r.PlanFile)
			b.WriteString("\n")
		}
	}

	if opts.ShowSkipped {
		for _, s := range r.Skipped {
			fmt.Fprintf(b, "%s: %s (%s)\n\n", p.paint(ansiCyan, "Skipped"), s.Reason, s.RuleList())
			writeLocation(b, p, src, s.Range, issueInstances(s.Range, s.Address, s.Instances), r.PlanFile)
			b.WriteString("\n")
		}
	}
	if n := len(r.Issues); n > 0 {
		counts := map[model.Severity]int{}
		for _, is := range r.Issues {
			counts[is.Severity]++
		}
		var parts []string
		for _, s := range []model.Severity{model.Error, model.Warning, model.Notice} {
			if c := counts[s]; c > 0 {
				parts = append(parts, textfmt.Plural(c, s.String()))
			}
		}
		fmt.Fprintf(b, "%d issue(s) found: %s\n", n, strings.Join(parts, ", "))
	}
	if n := len(r.Errors); n > 0 {
		fmt.Fprintf(b, "%d error(s) stopped part of the run; the results above are incomplete\n", n)
	}
	b.WriteString(summaryTail(r, opts.ShowSkipped))
	return nil
}

// shortRange is file:line,col-col, or file:line,col-line,col across lines.
func shortRange(r model.Range) string {
	if r.End.Line == r.Start.Line {
		return fmt.Sprintf("%s:%d,%d-%d", r.Filename, r.Start.Line, r.Start.Column, r.End.Column)
	}
	return fmt.Sprintf("%s:%d,%d-%d,%d", r.Filename, r.Start.Line, r.Start.Column, r.End.Line, r.End.Column)
}

// writeLocation writes "  on <file> line <n>:" (", in <instances>" before
// the colon when the place is a resource instance's) and the lines of rng, the
// range itself highlighted when color is on, each line escaped and cut
// to maxSnippetColumns around the range (snippet). The file's name comes
// escaped with the rest of the result (format.write). A plan's place
// located by its address alone is "  on <plan file>, in <address>", with
// no line: the plan's are not the configuration's.
func writeLocation(b *bytes.Buffer, p painter, src *sourceCache, rng model.Range, instances, planFile string) {
	in := ""
	if instances != "" {
		in = ", in " + instances
	}
	if rng.AddressOnly() {
		switch {
		case planFile != "" && instances != "":
			fmt.Fprintf(b, "  on %s%s\n", planFile, in)
		case planFile != "":
			fmt.Fprintf(b, "  on %s, in %s\n", planFile, rng.Filename)
		default:
			fmt.Fprintf(b, "  on %s%s\n", rng.Filename, in)
		}
		return
	}
	writePlace(b, p, src, rng, fmt.Sprintf("  on %s line %d%s:\n", rng.Filename, rng.Start.Line, in))
}

// writePlace writes head, then the lines of rng as writeLocation does.
func writePlace(b *bytes.Buffer, p painter, src *sourceCache, rng model.Range, head string) {
	b.WriteString(head)
	lines, why := src.lines(rng.Filename)
	first, last := rng.Start.Line, rng.End.Line
	if last < first {
		last = first
	}
	if why == "" && (first < 1 || first > len(lines)) {
		why = "source code not available"
	}
	if why != "" {
		fmt.Fprintf(b, "   (%s)\n", why)
		return
	}
	last = min(last, len(lines))
	for n := first; n <= last; n++ {
		line := lines[n-1]
		from, to := 0, len(line) // snippet keeps them within the line
		if n == first {
			from = rng.Start.Column - 1
		}
		if n == rng.End.Line {
			to = rng.End.Column - 1
		}
		before, highlight, after := snippet(line, from, to)
		fmt.Fprintf(b, "%4d: %s%s%s\n", n, before, p.paint(ansiHighlight, highlight), after)
	}
}

// sourceCache reads each file once per Write.
type sourceCache struct {
	read  func(string) ([]byte, error)
	files map[string][]string
	bad   map[string]string // why a file's lines are not shown
}

func newSourceCache(read func(string) ([]byte, error)) *sourceCache {
	return &sourceCache{read: read, files: map[string][]string{}, bad: map[string]string{}}
}

// lines returns the file's lines without line endings, or why they are
// not shown: the file cannot be read, or is binary (it holds a NUL byte),
// whose lines are not lines.
func (c *sourceCache) lines(filename string) ([]string, string) {
	if l, ok := c.files[filename]; ok {
		return l, ""
	}
	if why, ok := c.bad[filename]; ok {
		return nil, why
	}
	data, err := c.read(filename)
	switch {
	case err != nil:
		c.bad[filename] = "source code not available"
		return nil, c.bad[filename]
	case bytes.IndexByte(data, 0) >= 0:
		c.bad[filename] = "binary file: not shown"
		return nil, c.bad[filename]
	}
	l := strings.Split(string(data), "\n")
	for i := range l {
		l[i] = strings.TrimSuffix(l[i], "\r")
	}
	c.files[filename] = l
	return l, ""
}
