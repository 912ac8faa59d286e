// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package formatter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/rules"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/runner"
)

// testSchema compiles the JSON schema testdata/<file> once.
func testSchema(file string) func() (*jsonschema.Schema, error) {
	return sync.OnceValues(func() (*jsonschema.Schema, error) {
		path, err := filepath.Abs(filepath.Join("testdata", file))
		if err != nil {
			return nil, err
		}
		c := jsonschema.NewCompiler()
		c.AssertFormat() // uri, uri-reference, date-time are checked too
		return c.Compile(path)
	})
}

// validate checks the JSON document doc against a schema.
func validate(t *testing.T, schema func() (*jsonschema.Schema, error), doc string) error {
	t.Helper()
	s, err := schema()
	if err != nil {
		t.Fatalf("compiling the schema: %v", err)
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
	if err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, doc)
	}
	return s.Validate(v)
}

var sarifSchemaFile = testSchema("sarif-2.1.0-rtm.5.json")

// validateSARIF checks doc against the SARIF 2.1.0 JSON schema.
func validateSARIF(t *testing.T, doc string) error {
	t.Helper()
	return validate(t, sarifSchemaFile, doc)
}

// planFixture is a plan's findings: one in its configuration directory,
// one located by its resource address alone.
func planFixture() *lint.Result {
	return &lint.Result{
		Issues: []lint.Issue{
			{Rule: "r", Severity: lint.Warning, Message: "m", Range: rng("main.tf", 3, 1, 3, 9), Address: "aws_sqs_queue.q"},
			{Rule: "r", Severity: lint.Warning, Message: "m", Range: lint.Range{Filename: `module.a["x"].aws_sqs_queue.q[0]`}, Address: `module.a["x"].aws_sqs_queue.q[0]`},
		},
		Rules: []lint.RuleInfo{{Name: "r"}},
	}
}

// TestSARIFPlanLocations: a finding of a plan carries its resource address
// as a logical location, its only one without the configuration.
func TestSARIFPlanLocations(t *testing.T) {
	var log struct {
		Runs []struct {
			Results []struct {
				Locations []struct {
					PhysicalLocation *struct{ ArtifactLocation struct{ URI string } }
					LogicalLocations []struct{ FullyQualifiedName, Kind string }
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(render(t, "sarif", planFixture(), Options{})), &log); err != nil {
		t.Fatal(err)
	}
	results := log.Runs[0].Results
	if loc := results[0].Locations[0]; loc.PhysicalLocation == nil || loc.PhysicalLocation.ArtifactLocation.URI != "main.tf" ||
		len(loc.LogicalLocations) != 1 || loc.LogicalLocations[0].FullyQualifiedName != "aws_sqs_queue.q" {
		t.Errorf("in a file: %+v", loc)
	}
	if loc := results[1].Locations[0]; loc.PhysicalLocation != nil || len(loc.LogicalLocations) != 1 ||
		loc.LogicalLocations[0].FullyQualifiedName != `module.a["x"].aws_sqs_queue.q[0]` || loc.LogicalLocations[0].Kind != "resource" {
		t.Errorf("by address: %+v", loc)
	}
}

// TestSARIFPlanFile: with the plan file named (model.Result.PlanFile),
// a finding located by address alone is at its line 1, the address kept
// as the logical location; so are its module calls (relatedLocations) and
// a skip's notification.
func TestSARIFPlanFile(t *testing.T) {
	r := planFixture()
	r.PlanFile = "tfplan.json"
	r.Issues[1].Callers = []lint.Range{{Filename: `module.a["x"]`}}
	r.Skipped = []lint.Skip{{Rule: "r", Range: lint.Range{Filename: "aws_sqs_queue.p"}, Reason: "unknown", Address: "aws_sqs_queue.p"}}
	type location struct {
		PhysicalLocation *struct {
			ArtifactLocation struct{ URI string }
			Region           struct{ StartLine int }
		}
		LogicalLocations []struct{ FullyQualifiedName string }
	}
	var log struct {
		Runs []struct {
			Results []struct {
				Locations, RelatedLocations []location
			}
			Invocations []struct {
				Notifications []struct{ Locations []location } `json:"toolExecutionNotifications"`
			}
		}
	}
	if err := json.Unmarshal([]byte(render(t, "sarif", r, Options{})), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	for what, loc := range map[string]location{
		`module.a["x"].aws_sqs_queue.q[0]`: run.Results[1].Locations[0],
		`module.a["x"]`:                    run.Results[1].RelatedLocations[0],
		"aws_sqs_queue.p":                  run.Invocations[0].Notifications[0].Locations[0],
	} {
		if loc.PhysicalLocation == nil || loc.PhysicalLocation.ArtifactLocation.URI != "tfplan.json" || loc.PhysicalLocation.Region.StartLine != 1 ||
			len(loc.LogicalLocations) != 1 || loc.LogicalLocations[0].FullyQualifiedName != what {
			t.Errorf("%s: %+v", what, loc)
		}
	}
}

func TestSARIFValidates(t *testing.T) {
	odd := &lint.Result{
		Issues: []lint.Issue{
			// a rule missing from Rules, a file name needing escapes, an
			// unknown severity, facts JSON cannot hold, no end
			{Rule: "unlisted", Severity: 0, Message: "m", Range: rng("dir with space/a%b.tf", 2, 1, 0, 0),
				Facts: []lint.Fact{{Name: "x", Value: math.Inf(-1)}}},
			// an absolute path, an end before the start
			{Rule: "r", Severity: lint.Notice, Message: "m", Range: rng("/abs/main.tf", 3, 5, 3, 1)},
			// no place at all
			{Rule: "r", Severity: lint.Warning, Message: "m"},
			// a relative link cannot be a helpUri
			{Rule: "relative_link", Severity: lint.Warning, Message: "m", Link: "docs/relative_link.md"},
		},
		Errors:  []lint.ErrorEntry{{Message: "e", Range: &lint.Range{Filename: "x.tf"}}},
		Skipped: []lint.Skip{{Rule: "skipped_only", Reason: "unknown"}},
		Rules:   []lint.RuleInfo{{Name: "r"}, {Name: "r", Severity: lint.Error}},
	}
	cases := []struct {
		name   string
		result *lint.Result
	}{
		{"issues", fixture(false)},
		{"with errors", fixture(true)},
		{"empty", &lint.Result{}},
		{"odd input", odd},
		{"plan findings", planFixture()},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			out := render(t, "sarif", tt.result, Options{})
			if err := validateSARIF(t, out); err != nil {
				t.Errorf("SARIF output does not validate: %v\n%s", err, out)
			}
		})
	}

	t.Run("odd input details", func(t *testing.T) {
		var log struct {
			Runs []struct {
				Tool struct {
					Driver struct {
						Rules []struct{ ID string }
					}
				}
				Results []struct {
					RuleID    string
					RuleIndex int
					Level     string
					Locations []struct {
						PhysicalLocation struct {
							ArtifactLocation struct{ URI string }
							Region           map[string]int
						}
					}
				}
			}
		}
		if err := json.Unmarshal([]byte(render(t, "sarif", odd, Options{})), &log); err != nil {
			t.Fatal(err)
		}
		run := log.Runs[0]
		var ids []string
		for _, r := range run.Tool.Driver.Rules {
			ids = append(ids, r.ID)
		}
		if got, want := strings.Join(ids, " "), "r unlisted relative_link skipped_only"; got != want {
			t.Errorf("rules %q, want %q", got, want)
		}
		for _, res := range run.Results {
			if ids[res.RuleIndex] != res.RuleID {
				t.Errorf("result for %s points at rule %d (%s)", res.RuleID, res.RuleIndex, ids[res.RuleIndex])
			}
		}
		loc := run.Results[0].Locations[0].PhysicalLocation
		if loc.ArtifactLocation.URI != "dir%20with%20space/a%25b.tf" {
			t.Errorf("uri %q", loc.ArtifactLocation.URI)
		}
		if _, ok := loc.Region["endLine"]; ok {
			t.Errorf("region without an end has one: %v", loc.Region)
		}
		if run.Results[0].Level != "warning" {
			t.Errorf("unknown severity reported as %q", run.Results[0].Level)
		}
		if uri := run.Results[1].Locations[0].PhysicalLocation.ArtifactLocation.URI; filepath.IsAbs("/abs") && uri != "file:///abs/main.tf" {
			t.Errorf("absolute path as %q", uri)
		}
		if len(run.Results[2].Locations) != 0 {
			t.Errorf("an issue without a file has locations %+v", run.Results[2].Locations)
		}
	})
}

// TestSARIFValidationIsNotVacuous breaks valid output in ways the schema
// forbids and requires each to fail, so a schema that accepts anything
// cannot pass TestSARIFValidates unnoticed.
func TestSARIFValidationIsNotVacuous(t *testing.T) {
	good := render(t, "sarif", fixture(true), Options{Version: "v1.2.3"})
	if err := validateSARIF(t, good); err != nil {
		t.Fatalf("the valid document does not validate: %v", err)
	}
	for _, tt := range []struct {
		name string
		edit func(log map[string]any)
	}{
		{"no version", func(log map[string]any) { delete(log, "version") }},
		{"wrong version", func(log map[string]any) { log["version"] = "2.0.0" }},
		{"unknown top-level property", func(log map[string]any) { log["extra"] = true }},
		{"runs not an array", func(log map[string]any) { log["runs"] = map[string]any{} }},
		{"tool without driver", func(log map[string]any) { run(log)["tool"] = map[string]any{} }},
		{"unknown level", func(log map[string]any) { result(log)["level"] = "fatal" }},
		{"message without text", func(log map[string]any) { result(log)["message"] = map[string]any{} }},
		{"line 0", func(log map[string]any) { region(log)["startLine"] = 0 }},
		{"column as a string", func(log map[string]any) { region(log)["startColumn"] = "3" }},
		{"negative rule index", func(log map[string]any) { result(log)["ruleIndex"] = -2 }},
		{"helpUri not a URI", func(log map[string]any) {
			object(run(log), "tool", "driver", "rules", 1)["helpUri"] = "not a uri"
		}},
		{"fingerprint not a string", func(log map[string]any) {
			result(log)["partialFingerprints"] = map[string]any{FingerprintKey: 1}
		}},
		{"help without text", func(log map[string]any) {
			delete(object(run(log), "tool", "driver", "rules", 1, "help"), "text")
		}},
		{"version not a string", func(log map[string]any) { object(run(log), "tool", "driver")["version"] = 1 }},
		{"invocation without executionSuccessful", func(log map[string]any) {
			delete(object(run(log), "invocations", 0), "executionSuccessful")
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var log map[string]any
			if err := json.Unmarshal([]byte(good), &log); err != nil {
				t.Fatal(err)
			}
			tt.edit(log)
			var b bytes.Buffer
			if err := json.NewEncoder(&b).Encode(log); err != nil {
				t.Fatal(err)
			}
			err := validateSARIF(t, b.String())
			if err == nil {
				t.Fatalf("broken SARIF validated:\n%s", b.String())
			}
			t.Logf("rejected: %v", err)
		})
	}
}

func run(log map[string]any) map[string]any { return object(log, "runs", 0) }

func result(log map[string]any) map[string]any { return object(run(log), "results", 0) }

func region(log map[string]any) map[string]any {
	return object(result(log), "locations", 0, "physicalLocation", "region")
}

// object is the JSON object at path (object keys and array indexes) in a
// decoded document. A path the document lacks panics, failing the test.
func object(doc any, path ...any) map[string]any {
	v := doc
	for _, step := range path {
		switch s := step.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[s]
		case int:
			if a, _ := v.([]any); s < len(a) {
				v = a[s]
			} else {
				v = nil
			}
		}
	}
	m, ok := v.(map[string]any)
	if !ok {
		panic(fmt.Sprintf("no JSON object at %v", path))
	}
	return m
}

// TestSARIFRuleDocs: with the real rules, each rule's page is its
// fullDescription and help, its links absolute, and the log validates.
func TestSARIFRuleDocs(t *testing.T) {
	res, err := runner.Run(lint.Options{Dirs: []string{t.TempDir()}, Rules: rules.All()})
	if err != nil {
		t.Fatal(err)
	}
	out := render(t, "sarif", res, Options{Version: "v0.1.0"})
	if err := validateSARIF(t, out); err != nil {
		t.Fatalf("SARIF output does not validate: %v", err)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Version string
					Rules   []struct {
						ID                    string
						FullDescription, Help *struct{ Text, Markdown string }
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	driver := log.Runs[0].Tool.Driver
	if driver.Version != "v0.1.0" {
		t.Errorf("tool.driver.version %q, want v0.1.0", driver.Version)
	}
	if len(driver.Rules) != len(rules.All()) {
		t.Fatalf("%d rules, want %d", len(driver.Rules), len(rules.All()))
	}
	relative := regexp.MustCompile(`\]\((?:[^h)]|h[^t])`)
	for _, r := range driver.Rules {
		d, h := r.FullDescription, r.Help
		if d == nil || h == nil || !strings.HasPrefix(d.Text, "Flags ") || d.Markdown == "" || h.Text == "" || !strings.Contains(h.Markdown, "\n## How To Fix\n") {
			t.Errorf("%s: fullDescription %+v, help %+v: want the page's opening paragraph and the page", r.ID, d, h)
			continue
		}
		if strings.HasPrefix(h.Markdown, "# ") || strings.ContainsAny(d.Text, "`[") {
			t.Errorf("%s: help keeps the title or the description's text keeps Markdown: %q", r.ID, d.Text)
		}
		if m := relative.FindString(h.Markdown); m != "" {
			t.Errorf("%s: a relative link is left in help: %q", r.ID, m)
		}
	}
}

// TestSARIFRuleDocLinks: relative links resolve against the page's own
// address; without an absolute one they are left as they are.
func TestSARIFRuleDocLinks(t *testing.T) {
	const page = "# r\n\nSee [a](a.md#x), [b](#y), [c](../c.md) and [d](https://example.com/d).\n\nMore."
	desc, help := sarifRuleDoc(page, "https://example.org/blob/v1/docs/rules/r.md")
	want := "See [a](https://example.org/blob/v1/docs/rules/a.md#x), [b](https://example.org/blob/v1/docs/rules/r.md#y), " +
		"[c](https://example.org/blob/v1/docs/c.md) and [d](https://example.com/d)."
	if desc.Markdown != want || desc.Text != "See a, b, c and d." || help.Markdown != want+"\n\nMore." {
		t.Errorf("got %+v and %+v", desc, help)
	}
	if desc, _ := sarifRuleDoc(page, ""); !strings.Contains(desc.Markdown, "[a](a.md#x)") {
		t.Errorf("without a base: %+v", desc)
	}
	if desc, help := sarifRuleDoc("", "https://example.org/r.md"); desc != nil || help != nil {
		t.Errorf("a rule without a page has %+v, %+v", desc, help)
	}
}

// TestFingerprints: a finding keeps its fingerprint when its line, column
// or message change, or when it is named by an absolute path under the
// working directory; the rule, the file and the subject change it, and
// findings sharing all three still differ.
func TestFingerprints(t *testing.T) {
	work := t.TempDir()
	base := lint.Issue{Rule: "r", Severity: lint.Warning, Message: "m", Range: rng("stacks/a/main.tf", 3, 1, 3, 9), Subject: "aws_sqs_queue.q"}
	fp := func(issues ...lint.Issue) []string {
		return Fingerprints(&lint.Result{Issues: issues}, work)
	}
	same := map[string]func(is *lint.Issue){
		"another line and column": func(is *lint.Issue) { is.Range = rng("stacks/a/main.tf", 30, 5, 31, 2) },
		"another message":         func(is *lint.Issue) { is.Message = "m with 26 × 400 msg/s" },
		"another severity":        func(is *lint.Issue) { is.Severity = lint.Error },
		"an absolute path":        func(is *lint.Issue) { is.Range.Filename = filepath.Join(work, "stacks", "a", "main.tf") },
		"an unclean path":         func(is *lint.Issue) { is.Range.Filename = "./stacks/a/../a/main.tf" },
	}
	differ := map[string]func(is *lint.Issue){
		"another rule":       func(is *lint.Issue) { is.Rule = "s" },
		"another file":       func(is *lint.Issue) { is.Range.Filename = "stacks/b/main.tf" },
		"another subject":    func(is *lint.Issue) { is.Subject = "aws_sqs_queue.other" },
		"a plan's address":   func(is *lint.Issue) { is.Address = `module.a["x"].aws_sqs_queue.q` },
		"a path outside":     func(is *lint.Issue) { is.Range.Filename = filepath.Join(filepath.Dir(work), "elsewhere", "main.tf") },
		"an address as file": func(is *lint.Issue) { is.Range = lint.Range{Filename: "aws_sqs_queue.q"} },
	}
	want := fp(base)[0]
	if len(want) != 32 {
		t.Fatalf("fingerprint %q, want 32 hex digits", want)
	}
	for name, edit := range same {
		is := base
		edit(&is)
		if got := fp(is)[0]; got != want {
			t.Errorf("%s: fingerprint changed from %s to %s", name, want, got)
		}
	}
	for name, edit := range differ {
		is := base
		edit(&is)
		if got := fp(is)[0]; got == want {
			t.Errorf("%s: fingerprint unchanged", name)
		}
	}
	twice := fp(base, base, base)
	if twice[0] != want || twice[1] == want || twice[2] == twice[1] || twice[2] == want {
		t.Errorf("findings sharing rule, file and subject: %v, want the first %s and two others", twice, want)
	}
}
