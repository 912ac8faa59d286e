// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package formatter

import (
	"fmt"
	"io"
	"strings"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
	"github.com/queuecap/terraform-provider-queuecap/internal/textfmt"
)

// explainFormats render what `queuecap lint --explain` found, the result's
// Explanation and its errors, in the order ExplainNames reports.
var explainFormats = []format{
	{"text", renderExplainText, textGuard, true},
	{"json", renderExplainJSON, jsonGuard, false},
	{"mermaid", renderExplainMermaid, textGuard, true},
}

// ExplainNames lists the formats of --explain: text, json, mermaid.
func ExplainNames() []string {
	names := make([]string, len(explainFormats))
	for i, f := range explainFormats {
		names[i] = f.name
	}
	return names
}

// WriteExplanation renders result's Explanation in the named --explain
// format to w. An unknown name is an error naming the valid formats.
func WriteExplanation(w io.Writer, format string, result *model.Result) error {
	f, ok := formatNamed(explainFormats, format)
	if !ok {
		return fmt.Errorf("unknown --explain format %q: valid formats are %s", format, strings.Join(ExplainNames(), ", "))
	}
	if result == nil {
		result = &model.Result{}
	}
	if result.Explanation == nil {
		result.Explanation = &model.Explanation{}
	}
	return f.write(w, result, Options{})
}

// decimal is a number as findings write it (textfmt.Number), or
// "unknown" for a value not known before apply.
func decimal(v *float64) string {
	if v == nil {
		return "unknown"
	}
	return textfmt.Number(*v)
}

// sizeText is "max_size 12", "max_size unknown" or "max_size not set".
func sizeText(s model.SizeExplanation) string {
	switch {
	case !s.Set:
		return s.Attribute + " not set"
	case s.Terms != "":
		return s.Terms
	}
	return s.Attribute + " " + decimal(s.Value)
}

// alarmText is what an alarm reads and when it fires.
func alarmText(a model.AlarmExplanation) string {
	parts := []string{strings.Join(a.Metrics, ", ")}
	if len(a.Metrics) == 0 {
		parts[0] = "no known metric"
	}
	if a.Comparison != "" {
		parts = append(parts, a.Comparison)
	}
	if a.Threshold != nil {
		parts = append(parts, decimal(a.Threshold))
	}
	return strings.Join(parts, " ")
}

// policyText is a policy's kind, what it tracks and whether it only
// scales in.
func policyText(p model.PolicyExplanation) string {
	s := string(p.Kind)
	if len(p.Metrics) > 0 {
		s += " tracking " + strings.Join(p.Metrics, ", ")
	}
	if !p.ScaleOut {
		s += ", scale-in only"
	}
	return s
}

// lineOf is file:line.
func lineOf(r model.Range) string { return fmt.Sprintf("%s:%d", r.Filename, r.Start.Line) }
