// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Package baseline records a run's findings in a file, and leaves the
// findings it records out of a later run: `queuecap lint
// --write-baseline FILE` and `--baseline FILE`.
//
// A finding is recorded by its fingerprint (formatter.Fingerprints, the
// identity SARIF and GitLab carry) and its facts, the numbers behind it.
// The fingerprint leaves lines and messages out, so that a block moved
// within its file stays the same finding; the facts put the numbers back,
// so that a new max_size, which makes a different finding, is a new one.
package baseline

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/formatter"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

// fileVersion is the version of the file's layout this package writes and
// reads.
const fileVersion = 1

// file is a baseline file: JSON, so that it is data and not configuration
// (no expressions, no functions), indented one field a line, so that a
// pull request's diff shows each finding added or removed.
type file struct {
	Version int `json:"version"`
	// Fingerprints names the recipe of the entries' fingerprints
	// (formatter.FingerprintKey): a file of another recipe matches none.
	Fingerprints string  `json:"fingerprints"`
	Findings     []entry `json:"findings"`
}

// entry is one recorded finding: model.BaselineEntry for people, and its
// facts, which are part of its identity.
type entry struct {
	model.BaselineEntry
	Facts json.RawMessage `json:"facts"`
}

// Baseline is a baseline file read.
type Baseline struct {
	file    string
	entries []entry
}

// Write records every finding of r in a baseline file at path, sorted by
// file, address, rule and fingerprint, so that one run writes the same
// bytes as the next. workDir is as formatter.Options.WorkDir.
func Write(path string, r *model.Result, workDir string) error {
	out := file{Version: fileVersion, Fingerprints: formatter.FingerprintKey, Findings: []entry{}}
	for i, fp := range formatter.Fingerprints(r, workDir) {
		is := r.Issues[i]
		name := ""
		if !is.Range.AddressOnly() {
			name = formatter.RepoPath(is.Range, workDir)
		}
		facts, err := formatter.FactObject(is.Facts).MarshalJSON()
		if err != nil {
			return err
		}
		out.Findings = append(out.Findings, entry{BaselineEntry: model.BaselineEntry{
			Fingerprint: fp, Rule: is.Rule, Address: is.Address, File: name, Summary: summary(is),
		}, Facts: facts})
	}
	slices.SortFunc(out.Findings, func(a, b entry) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Address, b.Address),
			cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.Fingerprint, b.Fingerprint))
	})
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// summary is a finding's first line, or its message for a rule that gives
// no summary.
func summary(is model.Issue) string {
	if is.Summary != "" {
		return is.Summary
	}
	first, _, _ := strings.Cut(is.Message, "\n")
	return first
}

// Read reads the baseline file at path, its bytes read by read (the run's
// boundary: Boundary.ReadUserFile or ReadRepoFile). The error says what
// is wrong with the file; the caller names it.
func Read(path string, read func(path, what string) ([]byte, error)) (*Baseline, error) {
	src, err := read(path, "a baseline file")
	if err != nil {
		return nil, err
	}
	var f file
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("not a queuecap baseline: %w", err)
	}
	switch {
	case f.Version == 0:
		return nil, fmt.Errorf("not a queuecap baseline: it has no \"version\"")
	case f.Version != fileVersion:
		return nil, fmt.Errorf("baseline version %d: this queuecap reads version %d; write it again with --write-baseline", f.Version, fileVersion)
	case f.Fingerprints != formatter.FingerprintKey:
		return nil, fmt.Errorf("fingerprints %q: this queuecap makes %q; write the baseline again with --write-baseline", f.Fingerprints, formatter.FingerprintKey)
	}
	for i, e := range f.Findings {
		if e.Fingerprint == "" {
			return nil, fmt.Errorf("finding %d has no fingerprint", i+1)
		}
		if _, err := factsKey(e.Facts); err != nil {
			return nil, fmt.Errorf("finding %d (%s): facts: %w", i+1, e.Fingerprint, err)
		}
	}
	return &Baseline{file: path, entries: f.Findings}, nil
}

// Apply leaves out of r the findings the baseline records: each entry
// matches one finding of its fingerprint and facts. Every finding first
// gets its fingerprint among all of them (model.Issue.Fingerprint), which
// those left keep. r.Baseline then counts the findings left out and lists
// the entries that matched none, fixed since, unless errors stopped part
// of the run.
func (b *Baseline) Apply(r *model.Result, workDir string) {
	unmatched := map[string]int{}
	for _, e := range b.entries {
		k, _ := factsKey(e.Facts) // checked by Read
		unmatched[e.Fingerprint+"\x00"+k]++
	}
	report := &model.BaselineReport{File: b.file}
	kept := r.Issues[:0]
	for i, fp := range formatter.Fingerprints(r, workDir) {
		is := r.Issues[i]
		is.Fingerprint = fp
		if k := fp + "\x00" + issueFactsKey(is.Facts); unmatched[k] > 0 {
			unmatched[k]--
			report.Suppressed++
			continue
		}
		kept = append(kept, is)
	}
	r.Issues = kept
	if len(r.Errors) > 0 {
		// An incomplete run: an entry it did not match may lie in what
		// it could not read, and is not known to be fixed.
		r.Baseline = report
		return
	}
	for _, e := range b.entries {
		k, _ := factsKey(e.Facts)
		if unmatched[e.Fingerprint+"\x00"+k] > 0 {
			unmatched[e.Fingerprint+"\x00"+k]--
			report.Fixed = append(report.Fixed, e.BaselineEntry)
		}
	}
	r.Baseline = report
}

// factsKey is the facts of an entry as one string, names sorted: the
// same as issueFactsKey for the same facts.
func factsKey(raw json.RawMessage) (string, error) {
	facts := map[string]*float64{}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &facts); err != nil {
			return "", err
		}
	}
	var parts []string
	for name, v := range facts {
		parts = append(parts, name+"="+number(v))
	}
	slices.Sort(parts)
	return strings.Join(parts, ","), nil
}

// issueFactsKey is factsKey of a finding's facts as Write records them:
// the last of a repeated name, and a value JSON cannot carry as null.
func issueFactsKey(facts []model.Fact) string {
	var parts []string
	for name, v := range (model.Issue{Facts: facts}).FactMap() {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			parts = append(parts, name+"="+number(nil))
			continue
		}
		parts = append(parts, name+"="+number(&v))
	}
	slices.Sort(parts)
	return strings.Join(parts, ",")
}

func number(v *float64) string {
	if v == nil {
		return "null"
	}
	return strconv.FormatFloat(*v, 'g', -1, 64)
}
