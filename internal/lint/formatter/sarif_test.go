package formatter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
)

var sarifSchemaOnce = sync.OnceValues(func() (*jsonschema.Schema, error) {
	path, err := filepath.Abs(filepath.Join("testdata", "sarif-2.1.0-rtm.5.json"))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat() // uri, uri-reference, date-time are checked too
	return c.Compile(path)
})

// validateSARIF checks doc against the SARIF 2.1.0 JSON schema.
func validateSARIF(t *testing.T, doc string) error {
	t.Helper()
	schema, err := sarifSchemaOnce()
	if err != nil {
		t.Fatalf("compiling the SARIF schema: %v", err)
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
	if err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, doc)
	}
	return schema.Validate(v)
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
	good := render(t, "sarif", fixture(true), Options{})
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
