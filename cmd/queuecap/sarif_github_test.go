// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// githubSARIFProblems lists what of a SARIF log GitHub code scanning would
// not take: an upload is rejected whole when a result has no physical
// location, and a result it cannot place or tie to a rule is lost. Beyond
// the schema (sarif_test.go in the formatter), each result needs a ruleId
// that names a rule of tool.driver.rules (its ruleIndex that rule), a
// message, partialFingerprints, and a first location with a physical
// location: an artifactLocation.uri and a region whose startLine is 1 or
// more. Related locations that have a physical location need a uri too.
func githubSARIFProblems(log []byte) []string {
	type location struct {
		PhysicalLocation *struct {
			ArtifactLocation struct {
				URI string `json:"uri"`
			} `json:"artifactLocation"`
			Region *struct {
				StartLine int `json:"startLine"`
			} `json:"region"`
		} `json:"physicalLocation"`
	}
	var doc struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID string `json:"id"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex *int   `json:"ruleIndex"`
				Message   struct {
					Text string `json:"text"`
				} `json:"message"`
				Locations           []location        `json:"locations"`
				RelatedLocations    []location        `json:"relatedLocations"`
				PartialFingerprints map[string]string `json:"partialFingerprints"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(log, &doc); err != nil {
		return []string{err.Error()}
	}
	var problems []string
	if doc.Version != "2.1.0" || len(doc.Runs) == 0 {
		problems = append(problems, fmt.Sprintf("version %q with %d runs", doc.Version, len(doc.Runs)))
	}
	for _, run := range doc.Runs {
		rules := run.Tool.Driver.Rules
		if run.Tool.Driver.Name == "" {
			problems = append(problems, "no tool.driver.name")
		}
		for i, res := range run.Results {
			say := func(format string, args ...any) {
				problems = append(problems, fmt.Sprintf("result %d (%s): ", i, res.RuleID)+fmt.Sprintf(format, args...))
			}
			known := false
			for _, r := range rules {
				known = known || r.ID == res.RuleID
			}
			switch {
			case res.RuleID == "" || !known:
				say("ruleId is no rule of tool.driver.rules")
			case res.RuleIndex != nil && (*res.RuleIndex < 0 || *res.RuleIndex >= len(rules) || rules[*res.RuleIndex].ID != res.RuleID):
				say("ruleIndex %d is not its rule", *res.RuleIndex)
			}
			if res.Message.Text == "" {
				say("no message.text")
			}
			if len(res.PartialFingerprints) == 0 {
				say("no partialFingerprints")
			}
			for k, v := range res.PartialFingerprints {
				if k == "" || v == "" {
					say("partialFingerprints %q: %q", k, v)
				}
			}
			switch {
			case len(res.Locations) == 0 || res.Locations[0].PhysicalLocation == nil:
				say("no physical location")
			case res.Locations[0].PhysicalLocation.ArtifactLocation.URI == "":
				say("no artifactLocation.uri")
			case res.Locations[0].PhysicalLocation.Region == nil || res.Locations[0].PhysicalLocation.Region.StartLine < 1:
				say("no region.startLine of 1 or more")
			}
			for j, rel := range res.RelatedLocations {
				if rel.PhysicalLocation != nil && rel.PhysicalLocation.ArtifactLocation.URI == "" {
					say("related location %d has no artifactLocation.uri", j)
				}
			}
		}
	}
	return problems
}

// TestSARIFForGitHub holds every SARIF log `queuecap lint` writes to what
// GitHub code scanning takes (githubSARIFProblems): on every end-to-end
// case, and on a plan read from a file or standard input, without its
// configuration (whose findings are located by address alone) and with it.
func TestSARIFForGitHub(t *testing.T) {
	e2e, err := filepath.Abs(filepath.Join("..", "..", "internal", "lint", "testdata", "e2e"))
	if err != nil {
		t.Fatal(err)
	}
	plan, err := filepath.Abs("../../internal/lint/testdata/plans/zero_surplus.json")
	if err != nil {
		t.Fatal(err)
	}
	config, err := filepath.Abs("../../internal/lint/plantest/testdata/zero_surplus")
	if err != nil {
		t.Fatal(err)
	}
	type lintCase struct {
		dir   string
		args  []string
		stdin string // a file for standard input
	}
	cases := map[string]lintCase{
		"a plan without its configuration": {t.TempDir(), []string{"--plan", plan}, ""},
		"a plan from standard input":       {t.TempDir(), []string{"--plan", "-"}, plan},
		"a plan with its configuration":    {t.TempDir(), []string{"--plan", plan, "--chdir", config}, ""},
	}
	entries, err := os.ReadDir(e2e)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			cases[e.Name()] = lintCase{dir: filepath.Join(e2e, e.Name())}
		}
	}
	for name, tt := range cases {
		t.Run(name, func(t *testing.T) {
			t.Chdir(tt.dir)
			if tt.stdin != "" {
				f, err := os.Open(tt.stdin)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				stdin := os.Stdin
				os.Stdin = f
				defer func() { os.Stdin = stdin }()
			}
			var stdout, stderr bytes.Buffer
			// A run error (parse_error_keeps_going) still writes the log.
			if code := run(append([]string{"lint", "--format", "sarif"}, tt.args...), &stdout, &stderr); stdout.Len() == 0 {
				t.Fatalf("exit %d, no SARIF: %s", code, stderr.String())
			}
			if !strings.Contains(stdout.String(), `"results": [`) || strings.Contains(stdout.String(), `"results": []`) && strings.HasPrefix(name, "a plan") {
				t.Fatalf("no results to check:\n%s", stdout.String())
			}
			for _, p := range githubSARIFProblems(stdout.Bytes()) {
				t.Error(p)
			}
		})
	}
}

// TestPlanFindingsHaveAFile: a plan's finding located by its resource
// address alone is, in every format that places findings in files, at
// line 1 of the plan file (`<stdin>` for standard input), its address
// still named.
func TestPlanFindingsHaveAFile(t *testing.T) {
	plan, err := filepath.Abs("../../internal/lint/testdata/plans/zero_surplus.json")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	const address = "aws_autoscaling_group.workers"
	want := map[string][]string{
		"default":    {"  on PLAN, in " + address + "\n"},
		"compact":    {"PLAN:1:1: Error - in " + address + ": max_size 25"},
		"github":     {"::error file=PLAN,line=1,", "::in " + address + ": max_size 25"},
		"gitlab":     {`"path": "PLAN",`, `"begin": 1`, `"description": "in ` + address + `: max_size 25`},
		"checkstyle": {`<file name="PLANXML">`, `line="1"`, `message="in ` + address + `: max_size 25`},
		"junit":      {`classname="PLANXML"`, "PLAN:1:1: Error - in " + address + ": max_size 25"},
		"sarif":      {`"uri": "PLANURI"`, `"startLine": 1`, `"fullyQualifiedName": "` + address + `"`},
	}
	for _, from := range []struct{ flag, name, uri string }{
		{plan, plan, "file://" + filepath.ToSlash(plan)},
		{"-", "<stdin>", "%3Cstdin%3E"},
	} {
		var attr strings.Builder
		if err := xml.EscapeText(&attr, []byte(from.name)); err != nil {
			t.Fatal(err)
		}
		for format, wants := range want {
			t.Run(format+" "+from.name, func(t *testing.T) {
				f, err := os.Open(plan)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				stdin := os.Stdin
				os.Stdin = f
				defer func() { os.Stdin = stdin }()
				var stdout, stderr bytes.Buffer
				if code := run([]string{"lint", "--format", format, "--plan", from.flag}, &stdout, &stderr); code != exitFindings {
					t.Fatalf("exit %d: %s", code, stderr.String())
				}
				for _, w := range wants {
					w = strings.NewReplacer("PLANURI", from.uri, "PLANXML", attr.String(), "PLAN", from.name).Replace(w)
					if !strings.Contains(stdout.String(), w) {
						t.Errorf("lacks %q:\n%s", w, stdout.String())
					}
				}
			})
		}
	}
}
