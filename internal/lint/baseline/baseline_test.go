// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package baseline

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/formatter"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

func issue(rule, file string, line int, subject string, maxConsumers float64) model.Issue {
	return model.Issue{
		Rule: rule, Severity: model.Error, Summary: "max_size cannot drain", Message: "arithmetic",
		Range:   model.Range{Filename: file, Start: model.Pos{Line: line, Column: 3}, End: model.Pos{Line: line, Column: 20}},
		Address: subject, Subject: subject,
		Facts: []model.Fact{{Name: "arrival_rate", Value: 10000}, {Name: "max_consumers", Value: maxConsumers}},
	}
}

func readOS(path, _ string) ([]byte, error) { return os.ReadFile(path) }

// written writes r's findings as a baseline and reads it back.
func written(t *testing.T, r *model.Result) (*Baseline, []byte) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "baseline.json")
	if err := Write(path, r, t.TempDir()); err != nil {
		t.Fatal(err)
	}
	b, err := Read(path, readOS)
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b, src
}

// TestApply: a baseline leaves out exactly the findings it records. A
// finding moved within its file is the same finding; one whose numbers
// changed is new, and the entry it was is fixed; one of another subject
// is new.
func TestApply(t *testing.T) {
	today := []model.Issue{
		issue("queuecap_zero_surplus", "main.tf", 12, "aws_autoscaling_group.w", 25),
		issue("queuecap_zero_surplus", "main.tf", 40, "aws_autoscaling_group.v", 5),
	}
	b, _ := written(t, &model.Result{Issues: slices.Clone(today)})

	moved := issue("queuecap_zero_surplus", "main.tf", 19, "aws_autoscaling_group.w", 25)
	changed := issue("queuecap_zero_surplus", "main.tf", 40, "aws_autoscaling_group.v", 6)
	other := issue("queuecap_zero_surplus", "main.tf", 60, "aws_autoscaling_group.u", 25)

	cases := []struct {
		name      string
		issues    []model.Issue
		kept      []string // subjects
		fixed     []string // addresses
		suppresed int
	}{
		{"the same findings", today, nil, nil, 2},
		{"a block moved down its file", []model.Issue{moved, today[1]}, nil, nil, 2},
		{"a changed number", []model.Issue{today[0], changed}, []string{"aws_autoscaling_group.v"}, []string{"aws_autoscaling_group.v"}, 1},
		{"a new finding, one fixed", []model.Issue{today[0], other}, []string{"aws_autoscaling_group.u"}, []string{"aws_autoscaling_group.v"}, 1},
		{"everything fixed", nil, nil, []string{"aws_autoscaling_group.v", "aws_autoscaling_group.w"}, 0},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			r := &model.Result{Issues: slices.Clone(tt.issues)}
			b.Apply(r, t.TempDir())
			var kept, fixed []string
			for _, is := range r.Issues {
				kept = append(kept, is.Subject)
			}
			for _, e := range r.Baseline.Fixed {
				fixed = append(fixed, e.Address)
			}
			if !slices.Equal(kept, tt.kept) || !slices.Equal(fixed, tt.fixed) || r.Baseline.Suppressed != tt.suppresed {
				t.Errorf("kept %q, fixed %q, %d suppressed; want %q, %q, %d", kept, fixed, r.Baseline.Suppressed, tt.kept, tt.fixed, tt.suppresed)
			}
		})
	}
}

// TestApplyWithErrors: a run that errors stopped in part lists no entry
// as fixed: what it did not match may lie in a file it could not read.
// It still leaves out what it matched.
func TestApplyWithErrors(t *testing.T) {
	a := issue("queuecap_zero_surplus", "main.tf", 12, "aws_autoscaling_group.w", 25)
	broken := issue("queuecap_zero_surplus", "broken.tf", 3, "aws_autoscaling_group.v", 5)
	b, _ := written(t, &model.Result{Issues: []model.Issue{a, broken}})
	r := &model.Result{Issues: []model.Issue{a}, Errors: []model.ErrorEntry{{Message: "broken.tf does not parse"}}}
	b.Apply(r, t.TempDir())
	if len(r.Issues) != 0 || r.Baseline.Suppressed != 1 || len(r.Baseline.Fixed) != 0 {
		t.Errorf("kept %d, suppressed %d, fixed %+v; want 0, 1, none", len(r.Issues), r.Baseline.Suppressed, r.Baseline.Fixed)
	}
}

// TestApplyKeepsFingerprints: a finding the baseline leaves keeps the
// fingerprint it had among all the run's findings. Of two findings that
// share rule, file and subject, the second's fingerprint holds its rank;
// recomputed after the first is left out, it would take the first's.
func TestApplyKeepsFingerprints(t *testing.T) {
	first := issue("queuecap_zero_surplus", "main.tf", 12, "aws_autoscaling_group.w", 25)
	second := issue("queuecap_zero_surplus", "main.tf", 12, "aws_autoscaling_group.w", 30)
	work := t.TempDir()
	b, _ := written(t, &model.Result{Issues: []model.Issue{first}})
	r := &model.Result{Issues: []model.Issue{first, second}}
	want := formatter.Fingerprints(r, work)[1]
	b.Apply(r, work)
	if len(r.Issues) != 1 {
		t.Fatalf("kept %d findings, want the second", len(r.Issues))
	}
	if got := formatter.Fingerprints(r, work)[0]; got != want {
		t.Errorf("fingerprint %s after the baseline, want %s as among all", got, want)
	}
}

// TestWriteIsStableAndReadable: the file is sorted, the same bytes
// whatever the findings' order, and says for each finding its rule,
// address, file, summary and facts.
func TestWriteIsStableAndReadable(t *testing.T) {
	a := issue("queuecap_zero_surplus", "b.tf", 1, "aws_autoscaling_group.w", 25)
	c := issue("queuecap_depth_only_scaling", "a.tf", 9, "aws_autoscaling_group.v", 3)
	_, one := written(t, &model.Result{Issues: []model.Issue{a, c}})
	_, two := written(t, &model.Result{Issues: []model.Issue{c, a}})
	if !bytes.Equal(one, two) {
		t.Errorf("two orders wrote\n%s\nand\n%s", one, two)
	}
	var f struct {
		Version      int
		Fingerprints string
		Findings     []struct {
			Fingerprint, Rule, Address, File, Summary string
			Facts                                     map[string]float64
		}
	}
	if err := json.Unmarshal(one, &f); err != nil {
		t.Fatal(err)
	}
	if f.Version != 1 || f.Fingerprints != formatter.FingerprintKey || len(f.Findings) != 2 {
		t.Fatalf("got %+v", f)
	}
	e := f.Findings[0]
	if e.File != "a.tf" || e.Rule != "queuecap_depth_only_scaling" || e.Address != "aws_autoscaling_group.v" ||
		e.Summary != "max_size cannot drain" || e.Facts["max_consumers"] != 3 || len(e.Fingerprint) != 32 {
		t.Errorf("first entry %+v", e)
	}
	if !strings.Contains(string(one), "\n        \"arrival_rate\": 10000,\n        \"max_consumers\": 3\n") {
		t.Errorf("facts not one a line, in the finding's order:\n%s", one)
	}
}

// TestReadErrors: a file that is not a baseline of this queuecap is an
// error saying what is wrong.
func TestReadErrors(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]string{
		"not JSON":            "findings = []",
		"an unknown field":    `{"version":1,"fingerprints":"queuecap/v1","findings":[],"extra":1}`,
		"another version":     `{"version":2,"fingerprints":"queuecap/v1","findings":[]}`,
		"another recipe":      `{"version":1,"fingerprints":"queuecap/v2","findings":[]}`,
		"no fingerprint":      `{"version":1,"fingerprints":"queuecap/v1","findings":[{"rule":"r"}]}`,
		"facts not an object": `{"version":1,"fingerprints":"queuecap/v1","findings":[{"fingerprint":"f","facts":[1]}]}`,
	}
	want := map[string]string{
		"not JSON":            "not a queuecap baseline",
		"an unknown field":    `unknown field "extra"`,
		"another version":     "baseline version 2",
		"another recipe":      `fingerprints "queuecap/v2"`,
		"no fingerprint":      "finding 1 has no fingerprint",
		"facts not an object": "finding 1 (f): facts",
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+".json")
			if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := Read(path, readOS); err == nil || !strings.Contains(err.Error(), want[name]) {
				t.Errorf("error %v, want one saying %q", err, want[name])
			}
		})
	}
	if _, err := Read(filepath.Join(dir, "missing.json"), readOS); err == nil {
		t.Error("a missing file read")
	}
}
