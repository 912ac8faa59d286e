// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules

import (
	"fmt"
	"math"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

// conflictingConcurrency flags an SQS event source mapping whose
// concurrency settings AWS does not take together: provisioned mode with
// scaling_config's maximum_concurrency (mutually exclusive), more minimum
// pollers than maximum, a count outside the range AWS publishes.
type conflictingConcurrency struct{ meta }

func newConflictingConcurrency() model.Rule {
	return conflictingConcurrency{meta{
		name:     "queuecap_conflicting_concurrency",
		severity: model.Error,
		summary:  "An SQS event source mapping's concurrency settings contradict each other or AWS's published ranges: provisioned_poller_config together with scaling_config's maximum_concurrency, minimum_pollers above maximum_pollers, or a count AWS does not accept.",
	}}
}

func (conflictingConcurrency) CheckMapping(m *model.EventSourceMapping, r model.Reporter) {
	if m.Queue == nil {
		return // only a mapping known to read an SQS queue: Kafka's ranges differ
	}
	mc := m.MaximumConcurrency
	if m.ModeUnknown != "" {
		if mc.Set {
			checkCount(m, mc, "maximum_concurrency", "lambda_sqs_maximum_concurrency_min", "lambda_sqs_maximum_concurrency_max", r)
		}
		r.Skip(m.PollersRange, "provisioned_poller_config of "+m.Addr+" "+m.ModeUnknown+
			": its pollers, and whether they conflict with scaling_config's maximum_concurrency, are not checked")
		return
	}
	if mc.Set {
		if ok := checkCount(m, mc, "maximum_concurrency", "lambda_sqs_maximum_concurrency_min", "lambda_sqs_maximum_concurrency_max", r); ok && m.Provisioned {
			r.Report(mc.Range, "maximum_concurrency "+n(mc.V)+" cannot be combined with provisioned_poller_config: remove one",
				fmt.Sprintf("%s sets scaling_config's maximum_concurrency %s and provisioned_poller_config (line %d): AWS takes either maximum concurrency or provisioned mode, they are mutually exclusive; in provisioned mode maximum_pollers bounds the concurrency (%s)",
					m.Addr, num(mc.V), m.PollersRange.Start.Line, pollerCeiling(m)),
				fact("maximum_concurrency", mc.V))
		}
	}
	if !m.Provisioned {
		return
	}
	least := "lambda_sqs_minimum_pollers_default" // AWS: "default is 2, and minimum 2 required"
	minOK := checkCount(m, m.MinimumPollers, "minimum_pollers", least, "lambda_sqs_minimum_pollers_max", r)
	maxOK := checkCount(m, m.MaximumPollers, "maximum_pollers", least, "lambda_sqs_maximum_pollers_max", r)
	lo, hi := m.MinimumPollers, m.MaximumPollers
	if minOK && maxOK && lo.V > hi.V {
		r.Report(lo.Range, fmt.Sprintf("minimum_pollers %s is above maximum_pollers %s: lower it to at most %s", n(lo.V), n(hi.V), n(hi.V)),
			fmt.Sprintf("%s keeps minimum_pollers %s%s warm but allows at most maximum_pollers %s%s: %s > %s, which AWS refuses",
				m.Addr, num(lo.V), defaultNote(lo, "minimum_pollers"), num(hi.V), defaultNote(hi, "maximum_pollers"), num(lo.V), num(hi.V)),
			fact("minimum_pollers", lo.V), fact("maximum_pollers", hi.V))
	}
}

// checkCount reports a count of m outside AWS's range [limit least, limit
// most] or not whole, and skips one not known before apply. It returns
// true when the count is known and valid.
func checkCount(m *model.EventSourceMapping, v model.Num, attr, least, most string, r model.Reporter) bool {
	if !v.Known {
		r.Skip(v.Range, attr+" of "+m.Addr+" "+v.Unknown())
		return false
	}
	lo, hi := m.Limit(least), m.Limit(most)
	if v.V >= lo && v.V <= hi && v.V == math.Trunc(v.V) {
		return true
	}
	fix := fmt.Sprintf("a whole number from %s to %s", n(lo), n(hi))
	r.Report(v.Range, fmt.Sprintf("%s %s is not %s: AWS refuses it", attr, n(v.V), fix),
		fmt.Sprintf("%s of %s is %s%s; AWS accepts %s (%s %s, %s %s)",
			attr, m.Addr, num(v.V), defaultNote(v, attr), fix, least, num(lo), most, num(hi)),
		fact(attr, v.V), fact(attr+"_min", lo), fact(attr+"_max", hi))
	return false
}

// defaultNote marks a value that is AWS's default, not written.
func defaultNote(v model.Num, attr string) string {
	if v.From != attr {
		return " (the default)"
	}
	return ""
}

// pollerCeiling says how provisioned mode bounds the concurrency.
func pollerCeiling(m *model.EventSourceMapping) string {
	for _, c := range m.Caps() {
		if c.Attr != "maximum_concurrency" && c.Terms != "" {
			return c.Terms
		}
	}
	return "maximum_pollers × " + num(m.Limit("lambda_sqs_poller_concurrent_invocations")) + " concurrent invokes"
}
