// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package formatter

import (
	"cmp"
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
	switch {
	case p.Predictive != nil && !p.ScaleOut:
		s += ", forecast only: scales nothing"
	case !p.ScaleOut:
		s += ", scale-in only"
	}
	return s
}

// predictiveText is a predictive policy's settings and what they mean
// for the fleet's maximum.
func predictiveText(p model.PredictiveExplanation) string {
	s := "mode " + cmp.Or(p.Mode, "unknown") + ", max_capacity_breach_behavior " + cmp.Or(p.MaxCapacityBreachBehavior, "unknown")
	if p.MaxCapacityBuffer != nil {
		s += ", max_capacity_buffer " + textfmt.Number(*p.MaxCapacityBuffer) + " %"
	}
	if p.MayExceedMax {
		return s + ": may scale past the maximum size, so the capacity rules take none"
	}
	return s + ": keeps within the maximum size"
}

// deploymentText is what replaces a fleet's consumers and what it keeps.
func deploymentText(d model.DeploymentExplanation) string {
	s := d.Kind + " (" + lineOf(d.Range) + ")"
	var parts []string
	for _, p := range []*model.PercentExplanation{d.MinHealthy, d.MaxHealthy} {
		if p == nil {
			continue
		}
		t := p.Attribute + " " + decimal(p.Value)
		switch p.Source {
		case "default":
			t += " % (AWS's default, " + p.Limit + ")"
		case "required":
			t = p.Attribute + " not set (AWS requires it)"
		default:
			if p.Value != nil {
				t += " %"
			}
			if p.Range != nil {
				t += " at " + lineOf(*p.Range)
			}
		}
		parts = append(parts, t)
	}
	if len(parts) > 0 {
		s += ": " + strings.Join(parts, ", ")
	}
	if d.Strategy != "" {
		s += "; " + d.Strategy
	}
	if d.InService != nil {
		s += "; keeps " + textfmt.Number(*d.InService) + " consumers in service at the maximum size"
	}
	return s
}

// lineOf is file:line.
func lineOf(r model.Range) string { return fmt.Sprintf("%s:%d", r.Filename, r.Start.Line) }
