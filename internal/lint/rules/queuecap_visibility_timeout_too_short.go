// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules

import (
	"fmt"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

// visibilityTimeoutTooShort flags a queue consumed by a Lambda event source
// mapping whose visibility timeout is under six times the function's
// timeout plus the mapping's batching window: messages still in flight
// reappear and are delivered again.
type visibilityTimeoutTooShort struct{ meta }

func newVisibilityTimeoutTooShort() model.Rule {
	return visibilityTimeoutTooShort{meta{
		name:     "queuecap_visibility_timeout_too_short",
		severity: model.Warning,
		summary:  "A queue consumed by a Lambda event source mapping has a visibility timeout under six times the function's timeout plus its batching window, so redelivery manufactures extra arrivals.",
	}}
}

func (visibilityTimeoutTooShort) CheckMapping(esm *model.EventSourceMapping, r model.Reporter) {
	q, f := esm.Queue, esm.Function
	if q == nil || f == nil {
		return
	}
	vis, timeout := q.Visibility, f.TimeoutSeconds
	if !vis.Known {
		r.Skip(vis.Range, "visibility_timeout_seconds of "+q.Addr+" "+vis.Unknown())
		return
	}
	if !timeout.Known {
		r.Skip(timeout.Range, "timeout of "+f.Addr+" "+timeout.Unknown())
		return
	}
	window := esm.BatchingWindow
	if !window.Known {
		r.Skip(window.Range, "maximum_batching_window_in_seconds of "+esm.Addr+" "+window.Unknown())
		return
	}
	need, product, err := capacity.MinVisibilityTimeout(timeout.V, window.V)
	if err != nil {
		r.Skip(timeout.Range, "timeout of "+f.Addr+" or maximum_batching_window_in_seconds of "+esm.Addr+" is invalid: "+err.Error())
		return
	}
	if vis.V >= need {
		return
	}
	visText, timeoutText := "visibility_timeout_seconds "+num(vis.V), "timeout "+num(timeout.V)+" s"
	if vis.From != "visibility_timeout_seconds" {
		visText += " (the default)"
	}
	if timeout.From != "timeout" {
		timeoutText += " (the default)"
	}
	// Advice in whole seconds, as SQS takes a visibility timeout and as
	// queue_settings recommends it: six timeouts of 4.2123 s are 25.2738 s,
	// raised to 26, not to 25.27 (still under them).
	// The batching window shows only when there is one: AWS's guidance
	// adds it, as the messages received wait in it for the batch to fill.
	plusWindow, windowText, facts := "", "", []model.Fact{fact("visibility_timeout_seconds", vis.V), fact("function_timeout_seconds", timeout.V)}
	if window.V != 0 {
		plusWindow = " + the " + n(window.V) + " s batching window"
		windowText = fmt.Sprintf(" + maximum_batching_window_in_seconds %s s of %s", num(window.V), esm.Addr)
		facts = append(facts, fact("maximum_batching_window_in_seconds", window.V))
	}
	facts = append(facts, fact("required_visibility_timeout_seconds", need))
	summary := fmt.Sprintf("visibility_timeout_seconds %s is under %d × the function's %s s timeout%s: raise it to %s", n(vis.V), capacity.LambdaVisibilityFactor, n(timeout.V), plusWindow, n(need))
	whole := ""
	if need != product {
		whole = fmt.Sprintf(", %s s in whole seconds", num(need))
	}
	r.Report(vis.Range, summary, fmt.Sprintf("%s is under %d × the %s of %s%s = %s s%s: a message still being processed becomes visible again and is delivered a second time, raising the effective arrival rate",
		visText, capacity.LambdaVisibilityFactor, timeoutText, f.Addr, windowText, num(product), whole), facts...)
}
