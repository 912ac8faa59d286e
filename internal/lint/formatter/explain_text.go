// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package formatter

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

// renderExplainText writes the explanation as an indented tree, per root
// module:
//
//	root <dir>
//	  queue <address> "<name>" (<file>:<line>)
//	    redrive: …
//	    rates:
//	      <name> = <value>: <source>, <from> at <file>:<line>
//	    consumer <address> "<name>" (<file>:<line>)
//	      linked through: <how>, for a consumer only its configuration implies
//	      max size: <attribute> <value> at <file>:<line>
//	      per_consumer_rate = …
//	      deployment: <kind> (<file>:<line>): <percentages>; keeps <n> consumers in service at the maximum size
//	      growth: <what AWS says of a Lambda Managed Instances function's growth>
//	      provisioning lag: at least <seconds> s: <why> (<file>:<line>)
//	      warmup, not counted in the lag: <attribute> = <value> (<file>:<line>)
//	      policy <address> <kind> (<file>:<line>)
//	        predictive: <mode>, <breach behavior>: <whether it may exceed the maximum>
//	        alarm <address> (<file>:<line>): <metrics> <comparison> <threshold>
//	    alarm …
//	  not tied to a queue:
//	    <address> (<file>:<line>)
//	  could not link:
//	    <file>:<line>: <reason> (<rule>)
//
// then the configuration blocks that match no root module and the errors.
func renderExplainText(b *bytes.Buffer, r *model.Result, _ Options) error {
	e := r.Explanation
	for i, root := range e.Roots {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(b, "root %s\n", root.Dir)
		if len(root.Queues) == 0 {
			b.WriteString("  no aws_sqs_queue\n")
		}
		for _, q := range root.Queues {
			writeQueueText(b, q)
		}
		if len(root.Unattached) > 0 {
			b.WriteString("  not tied to a queue:\n")
			for _, u := range root.Unattached {
				fmt.Fprintf(b, "    %s (%s)\n", u.Address, lineOf(u.Range))
			}
		}
		writeSkipsText(b, "  could not link:", root.Skipped)
	}
	if len(e.Skipped) > 0 && len(e.Roots) > 0 {
		b.WriteString("\n")
	}
	writeSkipsText(b, "configuration that matches no root module:", e.Skipped)
	for _, err := range r.Errors {
		fmt.Fprintf(b, "%s: %s\n", severityTitle(errorSeverity(err)), err.String())
	}
	return nil
}

func writeQueueText(b *bytes.Buffer, q model.QueueExplanation) {
	fmt.Fprintf(b, "  queue %s (%s)\n", named(q.Address, q.Name), lineOf(q.Range))
	redrive := "none"
	switch {
	case q.Redrive == model.RedriveUnknown:
		redrive = "not known before apply"
	case q.DeadLetterQueue != "":
		redrive = "to " + q.DeadLetterQueue
	case q.Redrive == model.RedriveSet:
		redrive = "to no queue of this configuration"
	}
	if q.IsDeadLetter {
		redrive += "; it is a dead-letter queue"
	}
	fmt.Fprintf(b, "    redrive: %s\n", redrive)
	if len(q.Rates) == 0 {
		b.WriteString("    rates: none declared\n")
	} else {
		b.WriteString("    rates:\n")
		for _, rate := range q.Rates {
			fmt.Fprintf(b, "      %s\n", rateText(rate))
		}
	}
	if len(q.Consumers) == 0 {
		b.WriteString("    consumers: none linked\n")
	}
	for _, c := range q.Consumers {
		fmt.Fprintf(b, "    consumer %s (%s)\n", named(c.Address, c.Name), lineOf(c.Range))
		if c.LinkedThrough != "" {
			fmt.Fprintf(b, "      linked through: %s\n", c.LinkedThrough)
		}
		size := sizeText(c.MaxSize)
		if c.MaxSize.Range != nil {
			size += " at " + lineOf(*c.MaxSize.Range)
		}
		fmt.Fprintf(b, "      max size: %s\n", size)
		if c.PerConsumerRate == nil {
			b.WriteString("      per_consumer_rate: not declared\n")
		} else {
			fmt.Fprintf(b, "      %s\n", rateText(*c.PerConsumerRate))
		}
		if c.Deployment != nil {
			fmt.Fprintf(b, "      deployment: %s\n", deploymentText(*c.Deployment))
		}
		if c.Growth != "" {
			fmt.Fprintf(b, "      growth: %s\n", c.Growth)
		}
		writeLagText(b, c)
		for _, p := range c.Policies {
			fmt.Fprintf(b, "      policy %s %s (%s)\n", p.Address, policyText(p), lineOf(p.Range))
			if p.Predictive != nil {
				fmt.Fprintf(b, "        predictive: %s\n", predictiveText(*p.Predictive))
			}
			for _, a := range p.Alarms {
				fmt.Fprintf(b, "        alarm %s (%s): %s\n", a.Address, lineOf(a.Range), alarmText(a))
			}
		}
	}
	for _, c := range q.IgnoredConsumers {
		fmt.Fprintf(b, "    not a consumer: %s (%s): %s\n", c.Address, lineOf(c.Range), c.Reason)
	}
	for _, a := range q.Alarms {
		text := alarmText(a)
		if len(a.Policies) > 0 {
			text += ", triggers " + strings.Join(a.Policies, ", ")
		}
		fmt.Fprintf(b, "    alarm %s (%s): %s\n", a.Address, lineOf(a.Range), text)
	}
}

// writeLagText writes the consumer's provisioning lag and its warmup
// settings, a line each.
func writeLagText(b *bytes.Buffer, c model.ConsumerExplanation) {
	if l := c.ProvisioningLag; l != nil {
		bound := "not known: "
		if l.Seconds != nil {
			bound = "at least " + decimal(l.Seconds) + " s: "
		}
		fmt.Fprintf(b, "      provisioning lag: %s%s (%s)\n", bound, l.Why, lineOf(l.Range))
	}
	for _, w := range c.Warmup {
		text := w.Attribute
		switch {
		case w.Text != "":
			text += " = " + w.Text
		case w.Attribute != "warm_pool":
			text += " = " + decimal(w.Value)
		}
		if w.Address != c.Address {
			text += " of " + w.Address
		}
		fmt.Fprintf(b, "      warmup, not counted in the lag: %s (%s)\n", text, lineOf(w.Range))
	}
}

// rateText is "<name> = <value>: <source>, <from> at <file>:<line>".
func rateText(r model.RateExplanation) string {
	s := fmt.Sprintf("%s = %s: %s", r.Name, decimal(r.Value), r.Source)
	if r.From != "" {
		s += ", " + r.From
	}
	if r.Range != nil {
		s += " at " + lineOf(*r.Range)
	}
	return s
}

func named(addr, name string) string {
	if name == "" {
		return addr
	}
	return fmt.Sprintf("%s %q", addr, name)
}

func writeSkipsText(b *bytes.Buffer, title string, skips []model.Skip) {
	if len(skips) == 0 {
		return
	}
	indent := strings.Repeat(" ", len(title)-len(strings.TrimLeft(title, " "))+2)
	b.WriteString(title + "\n")
	for _, s := range skips {
		fmt.Fprintf(b, "%s%s: %s (%s)\n", indent, lineOf(s.Range), s.Reason, s.RuleList())
	}
}
