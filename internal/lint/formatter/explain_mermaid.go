// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package formatter

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

// renderExplainMermaid writes Markdown for a pull-request comment: per
// root module a heading, a ```mermaid flowchart that GitHub draws, and the
// list of what could not be linked; then the configuration blocks that
// match no root module and the errors. In the flowchart a queue is a
// cylinder labelled with its declared rates, a consumer a box with its
// maximum size, a scaling policy a hexagon and an alarm a stadium; edges
// go from a queue to its consumers (labelled with the per-consumer rate),
// its dead-letter queue and its alarms, from an alarm to the policies it
// triggers and from a policy to the fleet it scales.
func renderExplainMermaid(b *bytes.Buffer, r *model.Result, _ Options) error {
	e := r.Explanation
	for i, root := range e.Roots {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(b, "**Root module `%s`**\n\n```mermaid\n", root.Dir)
		writeFlowchart(b, root)
		b.WriteString("```\n")
		writeIgnoredMarkdown(b, root)
		writeSkipsMarkdown(b, "Could not link:", root.Skipped)
	}
	writeSkipsMarkdown(b, "Configuration that matches no root module:", e.Skipped)
	if len(r.Errors) > 0 {
		b.WriteString("\nErrors:\n\n")
		for _, err := range r.Errors {
			fmt.Fprintf(b, "- %s\n", markdownText(err.String()))
		}
	}
	return nil
}

// flowchart numbers a root's nodes by address, each declared once, and
// writes each edge once.
type flowchart struct {
	b     *bytes.Buffer
	ids   map[string]string
	count map[byte]int
	edges map[string]bool
}

func writeFlowchart(b *bytes.Buffer, root model.RootExplanation) {
	g := &flowchart{b: b, ids: map[string]string{}, count: map[byte]int{}, edges: map[string]bool{}}
	b.WriteString("flowchart LR\n")
	if len(root.Queues) == 0 {
		b.WriteString("  none[\"no aws_sqs_queue\"]\n")
	}
	for _, q := range root.Queues {
		lines := []string{q.Address}
		for _, rate := range q.Rates {
			if rate.Source != model.RateDefault {
				lines = append(lines, rate.Name+" "+decimal(rate.Value))
			}
		}
		g.node('q', q.Address, "[(", ")]", lines)
	}
	for _, q := range root.Queues {
		qid := g.ids[q.Address]
		if q.DeadLetterQueue != "" {
			g.edge(qid, "-.->", "dead letters", g.ids[q.DeadLetterQueue])
		}
		for _, c := range q.Consumers {
			cid := g.node('c', c.Address, "[", "]", []string{c.Address, sizeText(c.MaxSize)})
			label := "per_consumer_rate not declared"
			if c.PerConsumerRate != nil {
				label = "per_consumer_rate " + decimal(c.PerConsumerRate.Value)
			}
			g.edge(qid, "-->", label, cid)
			for _, p := range c.Policies {
				pid := g.node('p', p.Address, "{{", "}}", []string{p.Address, policyText(p)})
				if p.Predictive != nil && !p.ScaleOut {
					g.edge(pid, "-.->", "forecasts", cid)
				} else {
					g.edge(pid, "-->", "scales", cid)
				}
				for _, a := range p.Alarms {
					g.edge(g.alarm(a), "-->", "triggers", pid)
				}
			}
		}
		for _, a := range q.Alarms {
			g.edge(qid, "-.->", "metric", g.alarm(a))
		}
	}
	if len(root.Unattached) > 0 {
		b.WriteString("  subgraph unattached [\"not tied to a queue\"]\n")
		for _, u := range root.Unattached {
			g.node('u', u.Address, "[", "]", []string{u.Address})
		}
		b.WriteString("  end\n")
	}
}

func (g *flowchart) alarm(a model.AlarmExplanation) string {
	return g.node('a', a.Address, "([", "])", []string{a.Address, alarmText(a)})
}

// node declares a node the first time its address is met and returns its
// ID: the kind's letter and a number.
func (g *flowchart) node(kind byte, addr, open, shut string, lines []string) string {
	if id, ok := g.ids[addr]; ok {
		return id
	}
	g.count[kind]++
	id := fmt.Sprintf("%c%d", kind, g.count[kind])
	g.ids[addr] = id
	escaped := make([]string, len(lines))
	for i, l := range lines {
		escaped[i] = mermaidText(l)
	}
	fmt.Fprintf(g.b, "  %s%s\"%s\"%s\n", id, open, strings.Join(escaped, "<br/>"), shut)
	return id
}

func (g *flowchart) edge(from, arrow, label, to string) {
	line := fmt.Sprintf("  %s %s|\"%s\"| %s\n", from, arrow, mermaidText(label), to)
	if !g.edges[line] {
		g.edges[line] = true
		g.b.WriteString(line)
	}
}

// mermaidText escapes a label's text as Mermaid entity codes: a quote
// would end the label and < > would be read as HTML.
var mermaidText = strings.NewReplacer("#", "#35;", `"`, "#quot;", "<", "#lt;", ">", "#gt;").Replace

// markdownText keeps text from being read as HTML in a comment.
var markdownText = strings.NewReplacer("<", "&lt;", ">", "&gt;").Replace

func writeSkipsMarkdown(b *bytes.Buffer, title string, skips []model.Skip) {
	if len(skips) == 0 {
		return
	}
	fmt.Fprintf(b, "\n%s\n\n", title)
	for _, s := range skips {
		fmt.Fprintf(b, "- `%s`: %s (%s)\n", lineOf(s.Range), markdownText(s.Reason), s.RuleList())
	}
}

// writeIgnoredMarkdown lists the fleets left out of a queue's consumers,
// and why.
func writeIgnoredMarkdown(b *bytes.Buffer, root model.RootExplanation) {
	first := true
	for _, q := range root.Queues {
		for _, c := range q.IgnoredConsumers {
			if first {
				b.WriteString("\nNot consumers:\n\n")
				first = false
			}
			fmt.Fprintf(b, "- `%s` of `%s` (`%s`): %s\n", c.Address, q.Address, lineOf(c.Range), markdownText(c.Reason))
		}
	}
}
