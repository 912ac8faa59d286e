// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package formatter

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
)

var (
	// gitlabEntrySchema is GitLab's own schema of one report entry, which
	// GitLab checks each entry against (testdata/README.md says where it
	// comes from).
	gitlabEntrySchema = testSchema("gitlab-codeclimate.json")
	// gitlabReportSchema is ours of the whole report, from GitLab's
	// documented format, over GitLab's entry schema.
	gitlabReportSchema = testSchema("gitlab-code-quality-report.json")
)

// validateGitLab checks a report as GitLab reads it, each entry against
// GitLab's schema, and the whole against the documented format.
func validateGitLab(t *testing.T, doc string) error {
	t.Helper()
	var entries []json.RawMessage
	if err := json.Unmarshal([]byte(doc), &entries); err == nil {
		for _, e := range entries {
			if err := validate(t, gitlabEntrySchema, string(e)); err != nil {
				return err
			}
		}
	}
	return validate(t, gitlabReportSchema, doc)
}

type gitlabDoc []struct {
	Description string `json:"description"`
	CheckName   string `json:"check_name"`
	Fingerprint string `json:"fingerprint"`
	Severity    string `json:"severity"`
	Location    struct {
		Path  string `json:"path"`
		Lines struct {
			Begin int `json:"begin"`
		} `json:"lines"`
	} `json:"location"`
}

func TestGitLabValidates(t *testing.T) {
	work := t.TempDir()
	odd := &lint.Result{
		Issues: []lint.Issue{
			{Rule: "r", Severity: 0, Message: "unknown severity, no line", Range: lint.Range{Filename: "main.tf"}},
			{Rule: "r", Severity: lint.Notice, Message: "absolute path", Range: rng(filepath.Join(work, "stacks", "a.tf"), 3, 5, 3, 1)},
			{Rule: "r", Severity: lint.Notice, Message: "the same place", Range: rng(filepath.Join(work, "stacks", "a.tf"), 3, 5, 3, 1)},
		},
		Errors: []lint.ErrorEntry{{Message: "e", Range: &lint.Range{Filename: "x.tf"}}, {Message: "no place"}},
	}
	for _, tt := range []struct {
		name   string
		result *lint.Result
	}{
		{"issues", fixture(false)},
		{"with errors", fixture(true)},
		{"empty", &lint.Result{}},
		{"odd input", odd},
		{"plan findings", planFixture()},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := render(t, "gitlab", tt.result, Options{WorkDir: work})
			if err := validateGitLab(t, out); err != nil {
				t.Fatalf("report does not validate: %v\n%s", err, out)
			}
			var doc gitlabDoc
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatal(err)
			}
			// GitLab keeps one entry per fingerprint.
			seen := map[string]bool{}
			for _, e := range doc {
				if seen[e.Fingerprint] {
					t.Errorf("fingerprint %s repeats: GitLab would drop an entry", e.Fingerprint)
				}
				seen[e.Fingerprint] = true
			}
			errs := 0
			for _, e := range tt.result.Errors {
				if e.Range != nil {
					errs++
				}
			}
			if len(doc) != len(tt.result.Issues)+errs {
				t.Errorf("%d entries, want an issue's and a placed error's each: %s", len(doc), out)
			}
		})
	}

	t.Run("odd input details", func(t *testing.T) {
		var doc gitlabDoc
		if err := json.Unmarshal([]byte(render(t, "gitlab", odd, Options{WorkDir: work})), &doc); err != nil {
			t.Fatal(err)
		}
		if e := doc[0]; e.Severity != "major" || e.Location.Lines.Begin != 1 {
			t.Errorf("no line and an unknown severity: %+v, want major at line 1", e)
		}
		if p := doc[1].Location.Path; p != "stacks/a.tf" {
			t.Errorf("absolute path under the working directory as %q, want stacks/a.tf", p)
		}
		if e := doc[3]; e.CheckName != "error" || e.Severity != "blocker" || e.Location.Path != "x.tf" {
			t.Errorf("run error as %+v", e)
		}
	})
	t.Run("plan addresses", func(t *testing.T) {
		var doc gitlabDoc
		if err := json.Unmarshal([]byte(render(t, "gitlab", planFixture(), Options{})), &doc); err != nil {
			t.Fatal(err)
		}
		if e := doc[1]; e.Location.Path != `module.a["x"].aws_sqs_queue.q[0]` || e.Location.Lines.Begin != 1 {
			t.Errorf("a finding located by its address: %+v", e.Location)
		}
	})
	t.Run("severities and fingerprints", func(t *testing.T) {
		r := fixture(false)
		var doc gitlabDoc
		if err := json.Unmarshal([]byte(render(t, "gitlab", r, Options{})), &doc); err != nil {
			t.Fatal(err)
		}
		want := map[lint.Severity]string{lint.Error: "critical", lint.Warning: "major", lint.Notice: "info"}
		fps := Fingerprints(r, "")
		for i, is := range r.Issues {
			if doc[i].Severity != want[is.Severity] || doc[i].CheckName != is.Rule || doc[i].Description != compactText(r, is) ||
				doc[i].Fingerprint != fps[i] || doc[i].Location.Path != is.Range.Filename || doc[i].Location.Lines.Begin != is.Range.Start.Line {
				t.Errorf("entry %d: %+v for %+v", i, doc[i], is)
			}
		}
	})
}

// TestGitLabValidationIsNotVacuous breaks a valid report in ways GitLab's
// schema or its documented format forbid and requires each to fail.
func TestGitLabValidationIsNotVacuous(t *testing.T) {
	good := render(t, "gitlab", fixture(true), Options{})
	if err := validateGitLab(t, good); err != nil {
		t.Fatalf("the valid report does not validate: %v", err)
	}
	for _, tt := range []struct {
		name string
		edit func(doc []any) any
	}{
		// GitLab's own schema
		{"no fingerprint", func(doc []any) any { delete(entry(doc), "fingerprint"); return doc }},
		{"no description", func(doc []any) any { delete(entry(doc), "description"); return doc }},
		{"severity not a string", func(doc []any) any { entry(doc)["severity"] = 3; return doc }},
		{"line not an integer", func(doc []any) any { object(entry(doc), "location", "lines")["begin"] = "3"; return doc }},
		// the documented format
		{"not an array", func(doc []any) any { return entry(doc) }},
		{"unknown severity", func(doc []any) any { entry(doc)["severity"] = "high"; return doc }},
		{"no check_name", func(doc []any) any { delete(entry(doc), "check_name"); return doc }},
		{"no path", func(doc []any) any { delete(object(entry(doc), "location"), "path"); return doc }},
		{"no line", func(doc []any) any { delete(object(entry(doc), "location"), "lines"); return doc }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var doc []any
			if err := json.Unmarshal([]byte(good), &doc); err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := json.NewEncoder(&b).Encode(tt.edit(doc)); err != nil {
				t.Fatal(err)
			}
			err := validateGitLab(t, b.String())
			if err == nil {
				t.Fatalf("broken report validated:\n%s", b.String())
			}
			t.Logf("rejected: %v", err)
		})
	}
}

func entry(doc []any) map[string]any { return object(doc, 0) }
