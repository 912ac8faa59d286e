// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package formatter

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/textfmt"
)

// markdownHTML renders a Markdown report as GitHub would: CommonMark with
// GitHub's extensions (tables, strikethrough, autolinks), raw HTML kept,
// since GitHub passes <details> and <summary> through.
func markdownHTML(t *testing.T, md string) string {
	t.Helper()
	var out bytes.Buffer
	conv := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))
	if err := conv.Convert([]byte(md), &out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// TestMarkdownHostileText: text a pull request writes (file names,
// addresses, values in messages) shows as the text it is in the rendered
// comment: no HTML, link, emphasis, table or mention comes of it.
func TestMarkdownHostileText(t *testing.T) {
	hostile := "<img src=x onerror=alert(1)> [click](https://evil.example) **loud** | a | b | `tick` @octocat &amp; # 1. x"
	r := &lint.Result{
		Issues: []lint.Issue{{
			Rule:     "queuecap_zero_surplus",
			Severity: lint.Error,
			Summary:  hostile,
			Message:  "- " + hostile,
			Range:    rng("we`ird ``name.tf", 3, 3, 3, 9),
			Address:  "aws_sqs_queue.x",
			Link:     "https://example.com/rule(1).md",
		}},
		Skipped: []lint.Skip{{Rule: "queuecap_zero_surplus", Range: rng("b.tf", 1, 1, 1, 2), Reason: "1. " + hostile}},
	}
	md := render(t, "markdown", r, Options{NoColor: true})
	out := markdownHTML(t, md)
	for _, bad := range []string{"<img", `href="https://evil.example"`, "<strong>loud", "<table", "<ol", "<h1", "<code>tick</code>", "<li>- "} {
		if strings.Contains(out, bad) {
			t.Errorf("the rendered comment holds %q:\n%s\n--- from ---\n%s", bad, out, md)
		}
	}
	if strings.Contains(out, "@octocat") {
		t.Errorf("the rendered comment mentions @octocat:\n%s", out)
	}
	// What the text said is all there, as text.
	text := strings.NewReplacer("\u2060", "").Replace(out)
	for _, want := range []string{
		"&lt;img src=x onerror=alert(1)&gt; [click](https://evil.example) **loud** | a | b | `tick` @octocat &amp;amp; # 1. x",
		"<code>we`ird ``name.tf:3</code>",
		`href="https://example.com/rule%281%29.md"`,
		"<li><code>b.tf:1</code> (<code>queuecap_zero_surplus</code>): 1. &lt;img",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the rendered comment lacks %q:\n%s\n--- from ---\n%s", want, out, md)
		}
	}
}

// TestMarkdownSize: past the first findings the rest are collapsed under
// one <details>, and a report of thousands of findings and skips stays
// within GitHub's comment limit of 65,536 characters, counting what it
// leaves out.
func TestMarkdownSize(t *testing.T) {
	r := &lint.Result{}
	for i := range 3000 {
		r.Issues = append(r.Issues, lint.Issue{
			Rule: "queuecap_zero_surplus", Severity: lint.Warning,
			Summary: fmt.Sprintf("max_size %d cannot drain any backlog", i),
			Message: strings.Repeat("the arithmetic ", 20),
			Range:   rng(fmt.Sprintf("f%04d.tf", i), 1, 1, 1, 2),
		})
		r.Skipped = append(r.Skipped, lint.Skip{Rule: "queuecap_zero_surplus", Range: rng("s.tf", i+1, 1, i+1, 2), Reason: "not known before apply"})
	}
	r.Errors = []lint.ErrorEntry{{Message: "broken.tf does not parse", Severity: lint.Error}}
	md := render(t, "markdown", r, Options{NoColor: true})
	if n := len([]rune(md)); n > 65536 {
		t.Errorf("the report is %d characters, over GitHub's 65,536", n)
	}
	if !strings.Contains(md, "### queuecap lint: 3,000 findings (3,000 warnings)") {
		t.Errorf("the heading does not count every finding:\n%.300s", md)
	}
	out := markdownHTML(t, md)
	before, after, ok := strings.Cut(out, "<details><summary>2,995 more findings</summary>")
	if !ok {
		i := strings.Index(out, "<details")
		t.Fatalf("no <details> for the findings after the first 5:\n%s", out[max(i-100, 0):min(i+400, len(out))])
	}
	if n := strings.Count(before, "<strong>Warning: "); n != markdownOpen {
		t.Errorf("%d findings open before the details, want %d", n, markdownOpen)
	}
	shown := strings.Count(out, "<strong>Warning: ")
	if shown < 20 || !strings.Contains(after, fmt.Sprintf("%s more findings not shown", textfmt.Group(strconv.Itoa(3000-shown)))) {
		t.Errorf("%d findings shown, and the report does not count the %d left out", shown, 3000-shown)
	}
	if !strings.Contains(md, "broken.tf does not parse") {
		t.Error("the run's error was cut for the findings")
	}
	if !strings.Contains(md, "3,000 checks skipped") || !strings.Contains(md, "more skipped checks not listed") {
		t.Error("the skipped checks are not counted, or the ones left out are not said")
	}
}

// TestMarkdownCoverage: the comment says which queues were not checked,
// each as code.
func TestMarkdownCoverage(t *testing.T) {
	r := &lint.Result{Queues: 2, QueuesWithConsumer: 2, QueuesNotChecked: []string{"aws_sqs_queue.audit"}}
	md := render(t, "markdown", r, Options{NoColor: true})
	if want := "\nChecked 1 of 2 queues with a consumer; not checked: `aws_sqs_queue.audit`.\n"; !strings.Contains(md, want) {
		t.Errorf("lacks %q:\n%s", want, md)
	}
}
