// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules

import (
	"fmt"
	"math"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

// batchRetryAmplification flags an SQS event source mapping that takes
// batches of more than one message without ReportBatchItemFailures: one
// failing message returns its whole batch to the queue.
type batchRetryAmplification struct{ meta }

func newBatchRetryAmplification() model.Rule {
	return batchRetryAmplification{meta{
		name:     "queuecap_batch_retry_amplification",
		severity: model.Warning,
		summary:  "A Lambda event source mapping takes batches of more than one SQS message without ReportBatchItemFailures, so one failing message makes its whole batch be received again.",
	}}
}

const batchFix = `add function_response_types = ["ReportBatchItemFailures"] and return batchItemFailures, or set batch_size = 1`

func (batchRetryAmplification) CheckMapping(esm *model.EventSourceMapping, r model.Reporter) {
	q, b, rt := esm.Queue, esm.BatchSize, esm.ResponseTypes
	if q == nil {
		return
	}
	if !rt.Known {
		why := rt.Why
		if why == "" {
			why = "is not known before apply"
		}
		r.Skip(rt.Range, "function_response_types of "+esm.Addr+" "+why)
		return
	}
	if rt.ReportBatchItemFailures {
		return
	}
	if !b.Known {
		r.Skip(b.Range, "batch_size of "+esm.Addr+" "+b.Unknown())
		return
	}
	if b.V <= 1 {
		return
	}
	f := q.Rates.RetryRate
	if f.Set && !f.Known {
		r.Skip(f.Range, "retry_rate of "+q.Addr+" "+f.Unknown())
		return
	}
	// Not "(the default)": a plan leaves batch_size null as the
	// configuration does, so the default is as much the plan's.
	batchText := "batch_size " + num(b.V)
	if b.From != "batch_size" {
		batchText = "batch_size unset: AWS's default"
	}
	summary := fmt.Sprintf("batch_size %s: one failing message re-drives the whole batch; add ReportBatchItemFailures or set batch_size = 1", n(b.V))
	lead := fmt.Sprintf("%s takes batches of %s messages (%s) from %s without ReportBatchItemFailures in function_response_types, so a message is received again whenever any message of its batch fails",
		esm.Addr, num(b.V), batchText, q.Addr)
	// A queue without a redrive policy receives a message until it
	// succeeds, and one whose maxReceiveCount cannot be read is taken
	// so: no limit is the most any gives.
	limit, m := "no maxReceiveCount: "+q.Addr+" has no redrive policy", q.MaxReceiveCount
	switch {
	case m.Set && m.Known && m.V >= 1 && m.V == math.Trunc(m.V):
		limit = "at most maxReceiveCount " + num(m.V) + " receives, from the redrive policy of " + q.Addr
	case q.HasRedrive || q.RedriveUnknown:
		why := "cannot be read"
		if m.Set {
			why = m.Unknown()
		}
		limit = "no maxReceiveCount assumed (the redrive policy's " + why + "), the most any gives"
		m = model.Num{}
	default:
		m = model.Num{}
	}
	if f.Set && f.V > 0 {
		amp, err := capacity.BatchRetryAmplification(capacity.BatchRetryInput{BatchSize: b.V, FailureRate: f.V, MaxReceiveCount: m.V})
		if err == nil {
			formula := "1 / (1 − p)"
			if m.V > 0 {
				formula = fmt.Sprintf("(1 − p^%s) / (1 − p)", num(m.V))
			}
			facts := append([]model.Fact{fact("batch_size", b.V), fact("retry_rate", f.V), fact("batch_failure_probability", amp.BatchFailureProbability),
				fact("receives_per_message", amp.ReceivesPerMessage), fact("receives_per_message_reported", amp.ReceivesPerMessageReported)}, maxReceiveFact(m)...)
			r.Report(rt.Range, summary, fmt.Sprintf("%s: with retry_rate %s per message, a batch fails with p_b = 1 − (1 − %s)^%s = %s, so a message is received %s times instead of %s (%s, %s): the consumers see %s × the arrival rate instead of %s ×; %s",
				lead, num(f.V), num(f.V), num(b.V), percent(amp.BatchFailureProbability), num(amp.ReceivesPerMessage), num(amp.ReceivesPerMessageReported), formula, limit,
				num(amp.ReceivesPerMessage), num(amp.ReceivesPerMessageReported), batchFix),
				facts...)
			return
		}
	}
	// Without a failure rate there is no multiplier to state, but the
	// mistake is the configuration's: every poison message takes the
	// others of its batch back to the queue with it.
	// Whether or not a rate of 0 was declared: a plan holds the 0 a
	// queuecap data source defaults retry_rate to, which the
	// configuration leaves unset.
	declare := fmt.Sprintf("; a retry_rate above 0 declared for %s (a queuecap:retry_rate tag or its block in %s) gives the arrival multiplier", q.Addr, model.DefaultConfigFile)
	r.Report(rt.Range, summary, fmt.Sprintf("%s: a poison message takes the %s other messages of its batch back to the queue every time it is received, and they are processed again%s; %s",
		lead, num(b.V-1), declare, batchFix),
		fact("batch_size", b.V))
}

// maxReceiveFact is the maxReceiveCount a finding's arithmetic used, none
// when it assumed no limit.
func maxReceiveFact(m model.Num) []model.Fact {
	if m.V <= 0 {
		return nil
	}
	return []model.Fact{fact("max_receive_count", m.V)}
}
