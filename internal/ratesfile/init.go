// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package ratesfile

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
)

// InitQueue is what `queuecap init` writes a queue block from: what the
// linter linked to the queue, and which of its rates are declared
// elsewhere.
type InitQueue struct {
	// Address is the queue's address in its root module, the block's
	// label; Place is where it is declared ("main.tf:12").
	Address string
	Place   string
	// Name is the queue's name as its metrics know it, NameWhy why it is
	// "" (not known before apply).
	Name    string
	NameWhy string
	// Consumer is the fleet that drains it; Alternatives are the other
	// fleets linked to it, which a person may choose instead.
	Consumer     InitConsumer
	Alternatives []InitConsumer
	// Declared are its rates declared elsewhere (a tag, a data source, an
	// SNS topic's tag), which get a note instead of a placeholder.
	Declared []DeclaredRate
}

// InitConsumer is a fleet consuming a queue.
type InitConsumer struct {
	Address string
	// LinkedThrough says how a fleet only its configuration implies is
	// linked ("IAM role aws_iam_role.worker"); "" for a declared one.
	LinkedThrough string
	// Name is its name as its metrics know it, NameWhy why it is "".
	Name    string
	NameWhy string
	// ECS is true for an ECS service, whose metrics name it with its
	// cluster: consumer_name is "CLUSTER/SERVICE". Cluster is then the
	// cluster's name, ClusterWhy why it is "".
	ECS        bool
	Cluster    string
	ClusterWhy string
}

// DeclaredRate is a rate declared outside the queue block: Where says by
// what and where ("tag queuecap:arrival_rate, main.tf:21").
type DeclaredRate struct {
	Name  string
	Where string
}

// Placeholder is the value of a commented placeholder: a line
// `# NAME = …` that Write replaces with the measured value.
const Placeholder = "…"

// initRates are the rates a block offers a placeholder for, in the order
// written, with what each is: the capacity checks need the first two, the
// recovery checks the next two, the depth alarm check the last.
var initRates = []struct{ name, what string }{
	{"arrival_rate", "sent to the queue at peak: `queuecap rates` measures it, or take the p99 of CloudWatch NumberOfMessagesSent / period"},
	{"per_consumer_rate", "completed by one consumer when it has work: `queuecap rates` measures it where the fleet was saturated"},
	{"max_backlog", "messages the fleet must be able to clear, such as arrival_rate × the longest outage"},
	{"rto_seconds", "seconds within which it must clear max_backlog"},
	{"sla_seconds", "seconds a message may wait at most, for the depth alarms' check"},
}

// initSections head the rates of initRates: a section's title, and its
// first rate's index.
var initSections = []struct {
	first int
	title string
}{{0, "Rates, in messages per second"}, {2, "What a recovery from a backlog must meet"}}

// Init appends to the .queuecap.hcl src one queue block per queue that
// has none (by label), in the order given, and says which it added.
// Nothing of src changes: its blocks, values and comments stay as they
// are, and with nothing to add out is src. A src that does not parse, or
// over MaxFileBytes, is an error (the HCL diagnostics for the former).
func Init(src []byte, filename string, queues []InitQueue) (out []byte, added []string, err error) {
	body, err := parse(src, filename)
	if err != nil {
		return nil, nil, err
	}
	var blocks bytes.Buffer
	seen := map[string]bool{}
	for _, q := range queues {
		if seen[q.Address] || queueBlock(body, q.Address) != nil {
			continue
		}
		seen[q.Address] = true
		blocks.WriteString("\n")
		blocks.Write(initBlock(q))
		added = append(added, q.Address)
	}
	if len(added) == 0 {
		return src, nil, nil
	}
	nl := newline(src)
	out = bytes.Clone(src)
	if len(bytes.TrimSpace(out)) == 0 {
		out = []byte(withNewline(fileHeader, nl))
	} else if out[len(out)-1] != '\n' {
		out = append(out, nl...)
	}
	return append(out, withNewline(blocks.String(), nl)...), added, nil
}

// fileHeader starts a .queuecap.hcl Init creates, for a reader who has
// never heard of queuecap.
const fileHeader = `# What queuecap needs to know about these queues that the Terraform
# configuration does not say: how fast messages arrive, how fast one
# consumer handles them, and what a recovery from a backlog must meet.
# ` + "`queuecap lint`" + ` checks from these numbers that each queue's consumers can
# keep up and recover; ` + "`queuecap rates --write`" + ` measures the rates.
# Written by ` + "`queuecap init`" + `; edit freely: a line starting with # is a comment.
# https://github.com/queuecap/terraform-provider-queuecap/blob/main/docs/rules/README.md#queuecaphcl
`

// initBlock is one queue's block with its comments, formatted as
// terraform fmt would.
func initBlock(q InitQueue) []byte {
	var b strings.Builder
	c := q.Consumer
	fmt.Fprintf(&b, "# %s (%s), drained by %s\n", oneLine(q.Address), oneLine(q.Place), oneLine(c.Address))
	fmt.Fprintf(&b, "queue %s {\n", quoted(q.Address))
	b.WriteString("  # The fleet that drains this queue, whose capacity lint checks.\n")
	if len(q.Alternatives) > 0 {
		var alts []string
		for _, a := range q.Alternatives {
			alts = append(alts, linked(a))
		}
		fmt.Fprintf(&b, "  # Also linked to it: %s. If one of them drains it instead, name it here.\n", strings.Join(alts, ", "))
	}
	if c.LinkedThrough != "" {
		fmt.Fprintf(&b, "  # Linked through %s.\n", oneLine(c.LinkedThrough))
	}
	fmt.Fprintf(&b, "  %s = %s\n\n", attrConsumer, quoted(c.Address))

	b.WriteString("  # Their names as CloudWatch and Prometheus know them, which `queuecap rates` queries.\n")
	nameLine(&b, attrQueueName, q.Name, q.NameWhy, "")
	name, why, hint := consumerName(c)
	nameLine(&b, attrConsumerName, name, why, hint)

	declared := map[string]string{}
	for _, d := range q.Declared {
		if _, ok := declared[d.Name]; !ok {
			declared[d.Name] = d.Where
		}
	}
	for i, sec := range initSections {
		rates := initRates[sec.first:]
		if i+1 < len(initSections) {
			rates = initRates[sec.first:initSections[i+1].first]
		}
		var lines []string
		placeholders := false
		for _, r := range rates {
			if where, ok := declared[r.name]; ok {
				lines = append(lines, fmt.Sprintf("  # %s is declared by %s.\n", r.name, oneLine(where)))
				continue
			}
			placeholders = true
			lines = append(lines, fmt.Sprintf("  # %s = %s # %s\n", r.name, Placeholder, r.what))
		}
		how := ":"
		if placeholders {
			how = " (replace " + Placeholder + " with a number and remove the #):"
		}
		b.WriteString("\n  # " + sec.title + how + "\n" + strings.Join(lines, ""))
	}
	b.WriteString("}\n")
	return hclwrite.Format([]byte(b.String()))
}

// nameLine writes a name attribute, or when the name is not known a
// commented placeholder saying why and how to set it (as hint says).
func nameLine(b *strings.Builder, attr, name, why, hint string) {
	if name != "" {
		fmt.Fprintf(b, "  %s = %s\n", attr, quoted(name))
		return
	}
	why = orUnknown(why, "name")
	if hint != "" {
		hint = " as " + hint
	}
	howElse := ""
	if strings.Contains(why, "var.") {
		howElse = ", or give the variable a value with --var"
	}
	fmt.Fprintf(b, "  # %s = %s # %s: set it here%s%s\n", attr, quoted(Placeholder), oneLine(why), hint, howElse)
}

// consumerName is a consumer's name as its metrics know it, or why it is
// not known and what form it takes: an ECS service's is
// "CLUSTER/SERVICE".
func consumerName(c InitConsumer) (name, why, hint string) {
	if !c.ECS {
		return c.Name, c.NameWhy, ""
	}
	if c.Name != "" && c.Cluster != "" {
		return c.Cluster + "/" + c.Name, "", ""
	}
	cluster, service, whys := c.Cluster, c.Name, []string{}
	if cluster == "" {
		cluster, whys = "CLUSTER", append(whys, orUnknown(c.ClusterWhy, "cluster"))
	}
	if service == "" {
		service, whys = "SERVICE", append(whys, orUnknown(c.NameWhy, "name"))
	}
	return "", strings.Join(whys, "; "), quoted(cluster + "/" + service)
}

// orUnknown is why, or that attr is not known before apply.
func orUnknown(why, attr string) string {
	if why == "" {
		return attr + " is not known before apply"
	}
	return why
}

// linked names a fleet with how it is linked.
func linked(c InitConsumer) string {
	if c.LinkedThrough == "" {
		return oneLine(c.Address)
	}
	return fmt.Sprintf("%s (through %s)", oneLine(c.Address), oneLine(c.LinkedThrough))
}

// quoted is s as an HCL string literal, escaped.
func quoted(s string) string {
	return string(hclwrite.TokensForValue(cty.StringVal(s)).Bytes())
}

// oneLine keeps text that goes into a comment on its line: a newline
// would end the comment and leave the rest as HCL.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
