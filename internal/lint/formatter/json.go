// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package formatter

import (
	"bytes"
	"cmp"
	"encoding/json"
	"math"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

type jsonIssue struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	// Summary is the first line, the problem and the fix; Message the
	// arithmetic in full.
	Summary string      `json:"summary"`
	Message string      `json:"message"`
	Range   model.Range `json:"range"`
	Facts   FactObject  `json:"facts"`
	Link    string      `json:"link"`
	// Fingerprint is the finding's identity across runs, as SARIF's
	// partialFingerprints and GitLab's fingerprint give it (Fingerprints).
	Fingerprint string `json:"fingerprint"`
	// Address is the resource instance at the finding's place;
	// Instances, every instance it stands for when there are several.
	// Subject is the object the rule judged, inside its own module.
	Address   string   `json:"address"`
	Subject   string   `json:"subject"`
	Instances []string `json:"instances,omitempty"`
	// Callers are the module calls that reach the finding, as tflint's
	// JSON lists them; ModuleRange is where inside an installed remote
	// module a finding moved to its call lies.
	Callers     []model.Range `json:"callers,omitempty"`
	ModuleRange *model.Range  `json:"module_range,omitempty"`
	// Arguments are the callers' module arguments that set the value at
	// fault in a local module (model.Issue.Arguments).
	Arguments []model.Range `json:"arguments,omitempty"`
}

type jsonError struct {
	Message  string       `json:"message"`
	Severity string       `json:"severity"`
	Range    *model.Range `json:"range,omitempty"`
}

type jsonOutput struct {
	Issues  []jsonIssue  `json:"issues"`
	Errors  []jsonError  `json:"errors"`
	Skipped []model.Skip `json:"skipped"`
	// Queues counts the queues with a consumer, and how many of them the
	// capacity rules checked.
	Queues jsonQueues `json:"queues"`
	// Capacity is what each checked queue's consumers can do, per root
	// module, for `queuecap diff`.
	Capacity []model.QueueCapacity `json:"capacity"`
	// With a baseline, how many findings it left out and its entries
	// that matched none; left out without one.
	*jsonBaseline
}

type jsonBaseline struct {
	Suppressed int                   `json:"baseline_suppressed"`
	Fixed      []model.BaselineEntry `json:"baseline_fixed"`
}

type jsonQueues struct {
	WithConsumer int      `json:"with_consumer"`
	Checked      int      `json:"checked"`
	NotChecked   []string `json:"not_checked"`
}

// renderJSON writes one line of JSON:
//
//	{"issues":[...],"errors":[...],"skipped":[...],"queues":{"with_consumer":N,"checked":N,"not_checked":[...]},"capacity":[...]}
//
// and with a baseline "baseline_suppressed":N,"baseline_fixed":[...]
// after them. The arrays are never null. Facts are an object of numbers in the order
// the issue lists them.
func renderJSON(b *bytes.Buffer, r *model.Result, opts Options) error {
	out := jsonOutput{
		Issues:  make([]jsonIssue, 0, len(r.Issues)),
		Skipped: make([]model.Skip, 0, len(r.Skipped)),
		Queues: jsonQueues{WithConsumer: r.QueuesWithConsumer, Checked: r.QueuesChecked(),
			NotChecked: append([]string{}, r.QueuesNotChecked...)},
		Capacity: append([]model.QueueCapacity{}, r.Capacity...),
	}
	for i, fp := range Fingerprints(r, opts.WorkDir) {
		is := r.Issues[i]
		out.Issues = append(out.Issues, jsonIssue{
			Rule:        is.Rule,
			Severity:    is.Severity.String(),
			Summary:     is.Summary,
			Message:     is.Message,
			Range:       is.Range,
			Facts:       FactObject(is.Facts),
			Link:        is.Link,
			Fingerprint: fp,
			Address:     cmp.Or(is.Address, is.Subject), // a notice about an ignore, about no resource
			Subject:     is.Subject,
			Instances:   is.Instances,
			Callers:     is.Callers,
			ModuleRange: is.ModuleRange,
			Arguments:   is.Arguments,
		})
	}
	out.Errors = jsonErrors(r.Errors)
	out.Skipped = append(out.Skipped, r.Skipped...)
	if b := r.Baseline; b != nil {
		out.jsonBaseline = &jsonBaseline{Suppressed: b.Suppressed, Fixed: append([]model.BaselineEntry{}, b.Fixed...)}
	}
	return encodeJSON(b, out, "")
}

// jsonErrors are the error entries as JSON writes them, never null.
func jsonErrors(errs []model.ErrorEntry) []jsonError {
	out := make([]jsonError, 0, len(errs))
	for _, e := range errs {
		out = append(out, jsonError{
			Message:  e.Message,
			Severity: errorSeverity(e).String(),
			Range:    e.Range,
		})
	}
	return out
}

// encodeJSON writes v without HTML escaping, followed by a newline.
func encodeJSON(b *bytes.Buffer, v any, indent string) error {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if indent != "" {
		enc.SetIndent("", indent)
	}
	return enc.Encode(v)
}

// FactObject encodes facts as a JSON object, keys in the order given (the
// last value wins when a name repeats). Values that JSON cannot carry
// (NaN, ±Inf) are written as null.
type FactObject []model.Fact

func (f FactObject) MarshalJSON() ([]byte, error) {
	var order []string
	values := make(map[string]float64, len(f))
	for _, fact := range f {
		if _, seen := values[fact.Name]; !seen {
			order = append(order, fact.Name)
		}
		values[fact.Name] = fact.Value
	}
	b := []byte{'{'}
	for i, name := range order {
		if i > 0 {
			b = append(b, ',')
		}
		key, err := json.Marshal(name)
		if err != nil {
			return nil, err
		}
		b = append(b, key...)
		b = append(b, ':')
		b = appendNumber(b, values[name])
	}
	return append(b, '}'), nil
}

func appendNumber(b []byte, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return append(b, "null"...)
	}
	n, _ := json.Marshal(v) // cannot fail for a finite float
	return append(b, n...)
}
