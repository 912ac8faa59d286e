// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Package lint is the engine of `queuecap lint`: it loads Terraform
// configurations, evaluates what can be known before apply, links queues to
// the fleets that consume them and to the scaling policies and alarms around
// them into the model (package model), and runs the rules over it.
package lint

import "slices"

// mergeRules makes the sorted skips of several rules at one place for one
// reason one skip listing them.
func mergeRules(skips []Skip) []Skip {
	type key struct {
		file         string
		line, column int
		reason       string
	}
	at := map[key]int{}
	out := skips[:0]
	for _, s := range skips {
		k := key{s.Range.Filename, s.Range.Start.Line, s.Range.Start.Column, s.Reason}
		i, ok := at[k]
		if !ok {
			at[k] = len(out)
			out = append(out, s)
			continue
		}
		if len(out[i].Rules) == 0 {
			out[i].Rules = []string{out[i].Rule}
		}
		if !slices.Contains(out[i].Rules, s.Rule) {
			out[i].Rules = append(out[i].Rules, s.Rule)
		}
	}
	return out
}
