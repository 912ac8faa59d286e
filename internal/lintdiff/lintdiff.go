// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Package lintdiff compares two runs of `queuecap lint`: the findings a
// change brings and fixes, and what it does to each queue's capacity.
// `queuecap diff` reads the runs (JSON reports, or directories and git
// revisions it lints) and prints the comparison in text, Markdown or JSON.
package lintdiff

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/formatter"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

// Finding is one finding of a run, as the JSON report writes it: what a
// comparison needs of it.
type Finding struct {
	Rule        string      `json:"rule"`
	Severity    string      `json:"severity"`
	Summary     string      `json:"summary,omitempty"`
	Message     string      `json:"message"`
	Range       model.Range `json:"range"`
	Link        string      `json:"link,omitempty"`
	Fingerprint string      `json:"fingerprint"`
	Address     string      `json:"address,omitempty"`
}

// Title is the finding's summary, or its message when it has none.
func (f Finding) Title() string {
	if f.Summary != "" {
		return f.Summary
	}
	return f.Message
}

// Run is one side of a comparison: its findings, the capacity of each
// queue it checked, and its errors (what it could not lint).
type Run struct {
	Findings []Finding
	Capacity []model.QueueCapacity
	Errors   []string
}

// maxReport is the most of a JSON report ReadReport reads.
const maxReport = 256 << 20

// ReadReport reads a JSON report of `queuecap lint --format json`. A
// finding without a fingerprint (a report from before they were written)
// is an error: it cannot be matched with the other run's.
func ReadReport(r io.Reader) (*Run, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxReport+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxReport {
		return nil, fmt.Errorf("larger than %d MiB", maxReport>>20)
	}
	var rep struct {
		Issues   *[]Finding             `json:"issues"`
		Capacity *[]model.QueueCapacity `json:"capacity"`
		Errors   []struct {
			Message string       `json:"message"`
			Range   *model.Range `json:"range"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		return nil, fmt.Errorf("not a JSON report of queuecap lint: %w", err)
	}
	if rep.Issues == nil {
		return nil, errors.New(`not a JSON report of queuecap lint: no "issues"`)
	}
	if rep.Capacity == nil {
		return nil, errors.New(`written by a queuecap lint without "capacity": lint again with this version`)
	}
	run := &Run{Findings: *rep.Issues, Capacity: *rep.Capacity}
	for i, f := range run.Findings {
		if f.Fingerprint == "" {
			return nil, fmt.Errorf("finding %d (%s) has no fingerprint: lint again with this version", i+1, f.Rule)
		}
	}
	for _, e := range rep.Errors {
		msg := e.Message
		if e.Range != nil && e.Range.Filename != "" {
			msg = e.Range.String() + ": " + msg
		}
		run.Errors = append(run.Errors, msg)
	}
	return run, nil
}

// Diff is what a change does: findings it brings (New), fixes (Fixed) or
// changes the words of (Changed: the same finding, by fingerprint, whose
// summary or message differ), and the queues whose capacity it changes.
type Diff struct {
	New      []Finding        `json:"new"`
	Fixed    []Finding        `json:"fixed"`
	Changed  []ChangedFinding `json:"changed"`
	Capacity []QueueChange    `json:"capacity"`
	// BaseErrors and HeadErrors are what each run could not lint: the
	// comparison says nothing of it.
	BaseErrors []string `json:"base_errors"`
	HeadErrors []string `json:"head_errors"`
}

// ChangedFinding is a finding in both runs whose text changed.
type ChangedFinding struct {
	Before Finding `json:"before"`
	After  Finding `json:"after"`
}

// QueueChange is a queue whose capacity differs between the runs: Before
// is nil for a queue the base run did not check, After for one the head
// run does not; Changed names the fields that differ.
type QueueChange struct {
	Root    string               `json:"root"`
	Queue   string               `json:"queue"`
	Before  *model.QueueCapacity `json:"before"`
	After   *model.QueueCapacity `json:"after"`
	Changed []string             `json:"changed"`
}

// Compare compares two runs.
func Compare(base, head *Run) *Diff {
	d := &Diff{New: []Finding{}, Fixed: []Finding{}, Changed: []ChangedFinding{}, Capacity: []QueueChange{},
		BaseErrors: append([]string{}, base.Errors...), HeadErrors: append([]string{}, head.Errors...)}
	before := map[string]Finding{}
	for _, f := range base.Findings {
		before[f.Fingerprint] = f
	}
	after := map[string]bool{}
	for _, f := range head.Findings {
		after[f.Fingerprint] = true
		b, ok := before[f.Fingerprint]
		switch {
		case !ok:
			d.New = append(d.New, f)
		case b.Summary != f.Summary || b.Message != f.Message || b.Severity != f.Severity:
			d.Changed = append(d.Changed, ChangedFinding{Before: b, After: f})
		}
	}
	for _, f := range base.Findings {
		if !after[f.Fingerprint] {
			d.Fixed = append(d.Fixed, f)
		}
	}

	type key struct{ root, queue string }
	was := map[key]*model.QueueCapacity{}
	for i := range base.Capacity {
		c := &base.Capacity[i]
		was[key{c.Root, c.Queue}] = c
	}
	seen := map[key]bool{}
	for i := range head.Capacity {
		c := &head.Capacity[i]
		k := key{c.Root, c.Queue}
		seen[k] = true
		b := was[k]
		if b == nil {
			d.Capacity = append(d.Capacity, QueueChange{Root: c.Root, Queue: c.Queue, After: c, Changed: []string{}})
			continue
		}
		if changed := changedFields(b, c); len(changed) > 0 {
			d.Capacity = append(d.Capacity, QueueChange{Root: c.Root, Queue: c.Queue, Before: b, After: c, Changed: changed})
		}
	}
	for i := range base.Capacity {
		c := &base.Capacity[i]
		if !seen[key{c.Root, c.Queue}] {
			d.Capacity = append(d.Capacity, QueueChange{Root: c.Root, Queue: c.Queue, Before: c, Changed: []string{}})
		}
	}
	slices.SortStableFunc(d.Capacity, func(a, b QueueChange) int {
		return cmp.Or(cmp.Compare(a.Root, b.Root), cmp.Compare(a.Queue, b.Queue))
	})
	return d
}

// changedFields names the fields of a queue's capacity that differ, in
// the order a reader weighs them.
func changedFields(a, b *model.QueueCapacity) []string {
	var out []string
	add := func(name string, differ bool) {
		if differ {
			out = append(out, name)
		}
	}
	add("arrival_rate", a.ArrivalRate != b.ArrivalRate)
	add("effective_arrival_rate", a.EffectiveArrivalRate != b.EffectiveArrivalRate)
	add("max_consumers", a.MaxConsumers != b.MaxConsumers)
	add("capacity", a.Capacity != b.Capacity)
	add("surplus", a.Surplus != b.Surplus)
	add("headroom", !samePtr(a.Headroom, b.Headroom))
	add("max_backlog", !samePtr(a.MaxBacklog, b.MaxBacklog))
	add("drain", !samePtr(a.DrainSeconds, b.DrainSeconds) || !sameBool(a.Drains, b.Drains))
	add("alarms", !slices.EqualFunc(a.Alarms, b.Alarms, func(x, y model.AlarmThreshold) bool {
		return x.Alarm == y.Alarm && samePtr(x.Threshold, y.Threshold)
	}))
	add("consumers", !slices.Equal(a.Consumers, b.Consumers))
	return out
}

func samePtr(a, b *float64) bool {
	return a == nil && b == nil || a != nil && b != nil && (*a == *b || math.IsNaN(*a) && math.IsNaN(*b))
}

func sameBool(a, b *bool) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }

// Fails reports whether a new finding, or one whose severity rose, is at
// or above threshold.
func (d *Diff) Fails(threshold model.Severity) bool {
	at := func(s string) bool {
		sev, err := model.ParseSeverity(s)
		return err == nil && sev >= threshold
	}
	for _, f := range d.New {
		if at(f.Severity) {
			return true
		}
	}
	for _, c := range d.Changed {
		if at(c.After.Severity) && !at(c.Before.Severity) {
			return true
		}
	}
	return false
}

// FromResult is a run of the linter as a comparison's side: every file
// and root module named relative to base (the directory, or the checkout
// of a revision, that was linted), so that two checkouts in different
// places name the same file alike, with the findings' fingerprints
// taken relative to base too.
func FromResult(res *model.Result, base string) *Run {
	run := &Run{Findings: []Finding{}, Capacity: []model.QueueCapacity{}}
	for i, fp := range formatter.Fingerprints(res, base) {
		is := res.Issues[i]
		rng := is.Range
		if !rng.AddressOnly() {
			rng.Filename = relTo(base, rng.Filename)
		}
		run.Findings = append(run.Findings, Finding{Rule: is.Rule, Severity: is.Severity.String(), Summary: is.Summary,
			Message: is.Message, Range: rng, Link: is.Link, Fingerprint: fp, Address: is.Address})
	}
	for _, c := range res.Capacity {
		c.Root = relTo(base, c.Root)
		run.Capacity = append(run.Capacity, c)
	}
	for _, e := range res.Errors {
		msg := e.Message
		if e.Range != nil && e.Range.Filename != "" {
			r := *e.Range
			r.Filename = relTo(base, r.Filename)
			msg = r.String() + ": " + msg
		}
		run.Errors = append(run.Errors, msg)
	}
	return run
}

// relTo is name relative to base with forward slashes when it lies
// inside base, else name cleaned.
func relTo(base, name string) string {
	abs, err := filepath.Abs(name)
	if err == nil {
		if rel, err := filepath.Rel(base, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(filepath.Clean(name))
}
