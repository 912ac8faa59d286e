// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules

import (
	"fmt"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

// missingDeadLetterQueue flags a consumed queue without a redrive policy: a
// message that always fails is received again every visibility timeout,
// forever.
type missingDeadLetterQueue struct{ meta }

func newMissingDeadLetterQueue() model.Rule {
	return missingDeadLetterQueue{meta{
		name:     "queuecap_missing_dead_letter_queue",
		severity: model.Warning,
		summary:  "A queue with a consumer has no redrive policy, inline or as aws_sqs_queue_redrive_policy, so poison messages are retried forever.",
	}}
}

func (missingDeadLetterQueue) CheckQueue(q *model.Queue, r model.Reporter) {
	if q.HasRedrive || q.IsDeadLetter || (len(q.Consumers) == 0 && len(q.Mappings) == 0) {
		return
	}
	if q.RedriveUnknown {
		r.Skip(q.RedriveRange, "redrive_policy of "+q.Addr+" is not known before apply")
		return
	}
	// A mapping consumes the queue whether or not its function is in the
	// configuration.
	var consumers []string
	for _, f := range q.Consumers {
		consumers = append(consumers, f.Addr)
	}
	for _, m := range q.Mappings {
		if m.Function == nil {
			consumers = append(consumers, "the function of "+m.Addr)
		}
	}
	consumer := consumers[0]
	if len(consumers) > 1 {
		consumer += fmt.Sprintf(" and %d more", len(consumers)-1)
	}
	vis := q.Visibility
	perDay, err := capacity.ReceivesPerDay(vis.V)
	if !vis.Known || err != nil {
		r.Report(q.DefRange, "no redrive_policy: a message that always fails is received forever; add a dead-letter queue",
			fmt.Sprintf("%s is consumed by %s but has no redrive_policy: a message that always fails is received again after every visibility timeout, forever", q.Addr, consumer))
		return
	}
	visText := "visibility_timeout_seconds"
	if vis.From != "visibility_timeout_seconds" {
		visText += ", the default"
	}
	r.Report(q.DefRange, "no redrive_policy: a message that always fails is received "+n(perDay)+" times a day; add a dead-letter queue",
		fmt.Sprintf("%s is consumed by %s but has no redrive_policy: a message that always fails is received again every %s s (%s), %s / %s = %s times a day, until retention drops it",
			q.Addr, consumer, num(vis.V), visText, num(capacity.SecondsPerDay), num(vis.V), num(perDay)),
		fact("visibility_timeout_seconds", vis.V), fact("receives_per_day", perDay))
}
