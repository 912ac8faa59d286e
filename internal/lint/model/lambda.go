// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"fmt"
	"math"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
	"github.com/queuecap/terraform-provider-queuecap/internal/textfmt"
)

// ConcurrencyCap is one bound on the concurrency of a Lambda function that
// consumes an SQS queue through an event source mapping.
type ConcurrencyCap struct {
	// Size is the concurrency, at the argument it comes from (the mapping
	// for a cap AWS publishes).
	Size Num
	// Attr names it: the argument, or the AWS limit's name.
	Attr string
	// Terms says how Size is made when it is not Attr's own value
	// ("maximum_pollers 20 × 10 = 200 concurrent invokes"), else "".
	Terms string
	// Of is the address Attr is an argument of: the mapping's, or "" for
	// the function's own.
	Of string
}

// Limit is the value of a published limit in m's table.
func (m *EventSourceMapping) Limit(name string) float64 {
	e, _ := m.Limits.Limit(name)
	return e.Value
}

// Caps are the bounds m puts on its function's concurrency: maximum_concurrency
// when set, then its mode's: provisioned mode's maximum_pollers × the
// concurrent invocations AWS gives a poller, within provisioned mode's
// most, or standard mode's per-mapping cap. The pollers' and the modes'
// are upper bounds: AWS says "up to", and the account's unreserved
// concurrency may be lower.
func (m *EventSourceMapping) Caps() []ConcurrencyCap {
	var caps []ConcurrencyCap
	if m.MaximumConcurrency.Set {
		caps = append(caps, ConcurrencyCap{Size: m.MaximumConcurrency, Attr: "maximum_concurrency"})
	}
	if m.ModeUnknown != "" {
		if m.MaximumConcurrency.Set && m.MaximumConcurrency.Known {
			return caps // either mode's ceiling is at most maximum_concurrency
		}
		return append(caps, ConcurrencyCap{Size: Num{Set: true, Range: m.PollersRange, From: "provisioned_poller_config", Why: m.ModeUnknown},
			Attr: "provisioned_poller_config"})
	}
	if !m.Provisioned {
		const name = capacity.LimitLambdaStandardMaxConcurrency
		most := m.Limit(name)
		return append(caps, ConcurrencyCap{Size: KnownNum(most, m.DefRange, name), Attr: name,
			Terms: fmt.Sprintf("at most %s concurrent invokes, standard mode's cap per mapping (%s)", textfmt.Number(most), name)})
	}
	p := m.MaximumPollers
	if !p.Known || p.V < 1 || p.V != math.Trunc(p.V) {
		// Unknown, or not a number of pollers: the supply skips it as it
		// is, at maximum_pollers.
		return append(caps, ConcurrencyCap{Size: p, Attr: "maximum_pollers"})
	}
	c, per, most := m.Limits.PollerConcurrency(p.V)
	pollers := fmt.Sprintf("maximum_pollers %s × %s = %s concurrent invokes", textfmt.Number(p.V), textfmt.Number(per), textfmt.Number(c))
	if p.From != "maximum_pollers" {
		pollers = "maximum_pollers " + textfmt.Number(p.V) + " (the default)" + pollers[len("maximum_pollers "+textfmt.Number(p.V)):]
	}
	if c > most {
		return append(caps, ConcurrencyCap{Size: Num{V: most, Set: true, Known: true, Range: p.Range, From: p.From}, Attr: capacity.LimitLambdaProvisionedMaxConcurrency,
			Terms: fmt.Sprintf("at most %s concurrent invokes, provisioned mode's most per mapping (lambda_sqs_provisioned_max_concurrency), under %s", textfmt.Number(most), pollers)})
	}
	return append(caps, ConcurrencyCap{Size: Num{V: c, Set: true, Known: true, Range: p.Range, From: p.From}, Attr: "maximum_pollers", Terms: pollers})
}

// Ceiling is the smallest of m's caps and its function's reserved
// concurrency (reserved, when set and not -1): the concurrency the
// function reaches at most through m. A cap not known before apply is the
// ceiling, so that what needs it is skipped there rather than judged on
// the others.
func (m *EventSourceMapping) Ceiling(reserved Num) ConcurrencyCap {
	caps := m.Caps()
	if reserved.Set && (reserved.Known || reserved.V >= 0) {
		caps = append(caps, ConcurrencyCap{Size: reserved, Attr: "reserved_concurrent_executions"})
	}
	for i := range caps {
		if caps[i].Attr != "reserved_concurrent_executions" {
			caps[i].Of = m.Addr
		}
	}
	best := caps[0]
	for _, c := range caps {
		if !c.Size.Known {
			return c
		}
		if c.Size.V < best.Size.V {
			best = c
		}
	}
	return best
}

// SetSize makes c the fleet's maximum size: MaxSize, SizeAttr,
// SizeTerms and SizeOf change together.
func (f *Fleet) SetSize(c ConcurrencyCap) {
	f.MaxSize, f.SizeAttr, f.SizeTerms, f.SizeOf = c.Size, c.Attr, c.Terms, c.Of
}

// SizeText is the fleet's maximum size as a finding's arithmetic states
// it: "max_size 25", or how it is made when that is not an argument's own
// value.
func (f *Fleet) SizeText() string {
	if f.SizeTerms != "" {
		return f.SizeTerms
	}
	return f.SizeAttr + " " + textfmt.Number(f.MaxSize.V)
}
