// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
)

var update = flag.Bool("update", false, "rewrite testdata/corpus.golden.json")

// corpusRoot is the shared corpus of real configurations beside the
// repository; a clone on its own does not have it.
var corpusRoot = filepath.Join("..", "..", "..", "shared", "corpus", "real")

type corpusIssue struct {
	Rule     string             `json:"rule"`
	Severity string             `json:"severity"`
	Message  string             `json:"message"`
	Range    lint.Range         `json:"range"`
	Facts    map[string]float64 `json:"facts"`
}

type corpusError struct {
	Message string      `json:"message"`
	Range   *lint.Range `json:"range,omitempty"`
}

type corpusResult struct {
	Issues  []corpusIssue `json:"issues"`
	Errors  []corpusError `json:"errors"`
	Skipped []lint.Skip   `json:"skipped"`
}

// TestCorpus lints every configuration of the real-world corpus as
// `queuecap lint --recursive` would, and compares the findings, errors and
// skips with testdata/corpus.golden.json. Filenames are relative to the
// corpus root, so the golden file is the same on every machine.
func TestCorpus(t *testing.T) {
	if _, err := os.Stat(corpusRoot); err != nil {
		t.Skip("no corpus at", corpusRoot)
	}
	res := lintDir(t, lint.Options{Dirs: []string{corpusRoot}, Recursive: true})

	prefix := corpusRoot + string(filepath.Separator)
	rel := func(r lint.Range) lint.Range {
		r.Filename = filepath.ToSlash(strings.TrimPrefix(r.Filename, prefix))
		return r
	}
	clean := func(s string) string { return strings.ReplaceAll(s, prefix, "") }
	out := corpusResult{Issues: []corpusIssue{}, Errors: []corpusError{}, Skipped: []lint.Skip{}}
	for _, is := range res.Issues {
		out.Issues = append(out.Issues, corpusIssue{Rule: is.Rule, Severity: is.Severity.String(), Message: clean(is.Message), Range: rel(is.Range), Facts: is.FactMap()})
	}
	for _, e := range res.Errors {
		ce := corpusError{Message: clean(e.Message)}
		if e.Range != nil {
			r := rel(*e.Range)
			ce.Range = &r
		}
		out.Errors = append(out.Errors, ce)
	}
	for _, s := range res.Skipped {
		s.Range = rel(s.Range)
		s.Reason = clean(s.Reason)
		out.Skipped = append(out.Skipped, s)
	}
	got, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	golden := filepath.Join("testdata", "corpus.golden.json")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("corpus findings differ from %s (go test ./internal/lint -run TestCorpus -update):\n%s", golden, got)
	}
}

// TestNoFindingTwice lints both corpora as `queuecap lint --recursive`
// does: a finding stands once per rule, place and message, however many
// roots and calls reach its module. Skipped without ../shared.
func TestNoFindingTwice(t *testing.T) {
	for _, corpus := range []string{"real", "wild"} {
		top := filepath.Join(filepath.Dir(corpusRoot), corpus)
		if _, err := os.Stat(top); err != nil {
			t.Skip("no corpus at", top)
		}
		res := lintDir(t, lint.Options{Dirs: []string{top}, Recursive: true})
		seen := map[string]bool{}
		for _, is := range res.Issues {
			key := is.Rule + " " + is.Range.String() + " " + is.Message
			if seen[key] {
				t.Errorf("%s: finding listed twice: %s", corpus, key)
			}
			seen[key] = true
		}
		skips := map[string]bool{}
		for _, s := range res.Skipped {
			key := s.Rule + " " + s.Range.String()
			if skips[key] {
				t.Errorf("%s: skip listed twice at %s: %s", corpus, s.Range, s.Reason)
			}
			skips[key] = true
		}
	}
}
