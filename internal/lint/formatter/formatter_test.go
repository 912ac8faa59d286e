// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package formatter

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/runner"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

const docs = "https://github.com/queuecap/terraform-provider-queuecap/blob/main/docs/lint/"

// sources are the files the fixture's ranges point into.
var sources = map[string]string{
	"main.tf": `resource "queuecap_queue" "orders" {
  name         = "orders"
  arrival_rate = 120
}

resource "queuecap_fleet" "workers" {
  queue             = queuecap_queue.orders.id
  per_consumer_rate = 10
  max_consumers     = 10
}

resource "queuecap_scaling_policy" "workers" {
  fleet = queuecap_fleet.workers.id
}
`,
	"modules/worker/queues.tf": "resource \"queuecap_fleet\" \"batch\" {\r\n" +
		"  queue             = queuecap_queue.batch.id\r\n" +
		"  per_consumer_rate = 10\r\n" +
		"  min_consumers     = 1\r\n" +
		"  max_consumers     = 40\r\n" +
		"}\r\n" +
		"\r\n" +
		"resource \"queuecap_queue\" \"batch\" {\r\n" +
		"  arrival_rate = 100\r\n" +
		"}\r\n" +
		"\r\n" +
		"resource \"queuecap_queue\" \"events\" {\r\n" +
		"  arrival_rate = var.events_rate\r\n" +
		"}\r\n",
	"app.tf": `module "orders" {
  source = "./modules/app"
  max    = 25
}

module "invoices" {
  source = "./modules/app"
  max    = 25
}
`,
	"modules/app/main.tf": `variable "max" {}

resource "aws_autoscaling_group" "w" {
  max_size = var.max
}
`,
	"broken.tf": `resource "queuecap_queue" {
  name = "x"
}
`,
}

func readSource(name string) ([]byte, error) {
	if s, ok := sources[name]; ok {
		return []byte(s), nil
	}
	return nil, fs.ErrNotExist
}

func rng(file string, l1, c1, l2, c2 int) lint.Range {
	return lint.Range{Filename: file, Start: lint.Pos{Line: l1, Column: c1}, End: lint.Pos{Line: l2, Column: c2}}
}

// fixture is a result with issues in two files, facts, and a skip; with
// errors it also has a parse error with a range and one without.
func fixture(withErrors bool) *lint.Result {
	r := &lint.Result{
		Issues: []lint.Issue{
			{
				Rule:     "queuecap_scaling_surplus",
				Severity: lint.Warning,
				Message:  `Fleet "batch" can process 400 messages/s, 4x its arrival rate of 100/s (capacity > 2 × arrival & max_consumers could be 20).`,
				Range:    rng("modules/worker/queues.tf", 5, 3, 5, 25),
				Subject:  "queuecap_fleet.batch",
				Address:  `module.worker["a"].queuecap_fleet.batch`,
				Instances: []string{`module.worker["a"].queuecap_fleet.batch`, `module.worker["b"].queuecap_fleet.batch`,
					`module.worker["c"].queuecap_fleet.batch`, `module.worker["d"].queuecap_fleet.batch`},
				Facts: []lint.Fact{
					{Name: "arrival_rate", Value: 100},
					{Name: "capacity", Value: 400},
					{Name: "surplus_ratio", Value: 0.75},
				},
				Link: docs + "queuecap_scaling_surplus.md",
			},
			{
				Rule:     "queuecap_queue_underprovisioned",
				Severity: lint.Error,
				Summary:  "max_size 10 cannot keep up with 120 msg/s: raise it to 13",
				Message:  `Queue "orders" receives 120 messages/s but its consumers can process at most 100/s; at 10 msg/s per consumer, 13 consumers of the auto scaling group keep up with it and drain a backlog at 10 msg/s.`,
				Range:    rng("main.tf", 3, 3, 3, 21),
				Subject:  "queuecap_queue.orders",
				Address:  "queuecap_queue.orders",
				Facts: []lint.Fact{
					{Name: "arrival_rate", Value: 120},
					{Name: "per_consumer_rate", Value: 10},
					{Name: "max_consumers", Value: 10},
					{Name: "capacity", Value: 100},
				},
				Link: docs + "queuecap_queue_underprovisioned.md",
			},
			{
				Rule:     "queuecap_alarm_missing",
				Severity: lint.Notice,
				Message:  `Scaling policy "workers" has no backlog alarm.`,
				Range:    rng("main.tf", 12, 1, 14, 2),
				Subject:  "queuecap_scaling_policy.workers",
			},
		},
		Skipped: []lint.Skip{{
			Rule:    "queuecap_queue_underprovisioned",
			Range:   rng("modules/worker/queues.tf", 13, 3, 13, 33),
			Reason:  "arrival_rate of queuecap_queue.events is unknown before apply",
			Address: "module.worker.queuecap_queue.events",
		}},
		Rules: []lint.RuleInfo{
			{Name: "queuecap_alarm_missing", Severity: lint.Notice, Summary: "A scaling policy should have a backlog alarm."},
			{Name: "queuecap_queue_underprovisioned", Severity: lint.Error, Link: docs + "queuecap_queue_underprovisioned.md", Summary: "Consumers must be able to keep up with a queue's arrival rate.", Doc: underprovisionedDoc},
			{Name: "queuecap_scaling_surplus", Severity: lint.Warning, Link: docs + "queuecap_scaling_surplus.md", Summary: "A fleet should not be sized far beyond its queue's arrival rate."},
		},
	}
	if withErrors {
		r.Errors = []lint.ErrorEntry{
			{Message: "cannot read directory modules/missing: open modules/missing: no such file or directory", Severity: lint.Error},
			{
				Message:  "Missing name for resource: All resource blocks must have 2 labels (type, name).",
				Severity: lint.Error,
				Range:    &lint.Range{Filename: "broken.tf", Start: lint.Pos{Line: 1, Column: 27}, End: lint.Pos{Line: 1, Column: 28}},
			},
		}
	}
	r.Sort()
	return r
}

// underprovisionedDoc is a rule page: a title, an opening paragraph with
// code spans and links, relative and absolute, and more sections.
const underprovisionedDoc = "# queuecap_queue_underprovisioned\n\n" +
	"Flags a queue whose consumers complete fewer than `arrival_rate` messages/s, **at their maximum size** " +
	"(see [What it needs](#what-it-needs) and [queuecap_scaling_surplus](queuecap_scaling_surplus.md)).\n\n" +
	"- Default severity: **error**\n\n" +
	"## What it needs\n\n" +
	"A declared `arrival_rate` ([declaring rates](../README.md#rates), [AWS](https://docs.aws.amazon.com/sqs/)).\n"

// argumentsFixture is a finding in a local module called twice with the
// same value, which both calls set: the callers' arguments are where a
// pull request changes it.
func argumentsFixture() *lint.Result {
	r := &lint.Result{
		Issues: []lint.Issue{{
			Rule:      "queuecap_zero_surplus",
			Severity:  lint.Error,
			Summary:   "max_size 25 cannot drain any backlog: raise it to 26",
			Message:   "25 consumers × 400 msg/s = 10,000 msg/s, exactly the arrival rate of 10,000 msg/s: surplus 0.",
			Range:     rng("modules/app/main.tf", 4, 3, 4, 21),
			Subject:   "aws_autoscaling_group.w",
			Address:   "module.invoices.aws_autoscaling_group.w",
			Instances: []string{"module.invoices.aws_autoscaling_group.w", "module.orders.aws_autoscaling_group.w"},
			Callers:   []lint.Range{rng("app.tf", 6, 1, 6, 19), rng("app.tf", 1, 1, 1, 17)},
			Arguments: []lint.Range{rng("app.tf", 8, 3, 8, 15), rng("app.tf", 3, 3, 3, 15)},
			Link:      docs + "queuecap_zero_surplus.md",
		}},
	}
	r.Sort()
	return r
}

var variants = []struct {
	name   string
	result func() *lint.Result
}{
	{"", func() *lint.Result { return fixture(false) }},
	{"_arguments", argumentsFixture},
	{"_with_errors", func() *lint.Result { return fixture(true) }},
	{"_empty", func() *lint.Result { return &lint.Result{} }},
}

func render(t *testing.T, format string, r *lint.Result, opts Options) string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, format, r, opts); err != nil {
		t.Fatalf("Write(%q): %v", format, err)
	}
	return b.String()
}

func TestGolden(t *testing.T) {
	for _, format := range Names() {
		for _, v := range variants {
			name := format + v.name
			t.Run(name, func(t *testing.T) {
				got := render(t, format, v.result(), Options{NoColor: true, ReadSource: readSource, Version: "v1.2.3"})
				path := filepath.Join("testdata", name+".golden")
				if *update {
					if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run with -update to create it)", err)
				}
				if got != string(want) {
					t.Errorf("output differs from %s (run with -update to accept):\n--- got ---\n%s\n--- want ---\n%s", path, got, want)
				}
			})
		}
	}
}

func TestNames(t *testing.T) {
	want := []string{"default", "compact", "json", "sarif", "checkstyle", "junit", "github", "gitlab", "markdown"}
	if got := Names(); !slices.Equal(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	Names()[0] = "changed"
	if Names()[0] != "default" {
		t.Fatal("Names() shares its slice with the registry")
	}
}

func TestEmpty(t *testing.T) {
	tests := []struct {
		format string
		want   string // "" means nothing is written
		check  func(t *testing.T, out string)
	}{
		{format: "default"},
		{format: "compact"},
		{format: "github"},
		{format: "json", want: `{"issues":[],"errors":[],"skipped":[],"queues":{"with_consumer":0,"checked":0,"not_checked":[]},"capacity":[]}` + "\n"},
		{format: "sarif", check: func(t *testing.T, out string) {
			var log struct {
				Runs []struct {
					Results     []any `json:"results"`
					Invocations []struct {
						ExecutionSuccessful bool `json:"executionSuccessful"`
					} `json:"invocations"`
				} `json:"runs"`
			}
			if err := json.Unmarshal([]byte(out), &log); err != nil {
				t.Fatal(err)
			}
			if len(log.Runs) != 1 || log.Runs[0].Results == nil || len(log.Runs[0].Results) != 0 ||
				len(log.Runs[0].Invocations) != 1 || !log.Runs[0].Invocations[0].ExecutionSuccessful {
				t.Errorf("want one successful run with empty results, got %s", out)
			}
		}},
		{format: "checkstyle", want: xml.Header + "<checkstyle></checkstyle>\n"},
		{format: "gitlab", want: "[]\n"},
		// A pull request's comment is edited to say so when a push fixes
		// the last finding.
		{format: "markdown", want: markdownMarker + "\n### queuecap lint: no findings\n"},
		{format: "junit", check: func(t *testing.T, out string) {
			var doc junitSuites
			if err := xml.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatal(err)
			}
			if len(doc.Suites) != 1 || doc.Suites[0].Tests != 0 || len(doc.Suites[0].Cases) != 0 {
				t.Errorf("want one empty suite, got %s", out)
			}
		}},
	}
	if len(tests) != len(Names()) {
		t.Fatalf("TestEmpty covers %d formats, Names() has %d", len(tests), len(Names()))
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			for _, r := range []*lint.Result{{Queues: 1}, {Queues: 1, Rules: fixture(false).Rules}} {
				out := render(t, tt.format, r, Options{NoColor: true, ReadSource: readSource})
				if tt.check != nil {
					tt.check(t, out)
				} else if out != tt.want {
					t.Errorf("got %q, want %q", out, tt.want)
				}
			}
		})
	}
	t.Run("default with only skips", func(t *testing.T) {
		r := &lint.Result{Queues: 1, Skipped: fixture(false).Skipped}
		want := fmt.Sprintf("%d checks skipped: --show-skipped lists them\n", len(r.Skipped))
		if len(r.Skipped) == 1 {
			want = "1 check skipped: --show-skipped lists them\n"
		}
		for _, format := range []string{"default", "compact"} {
			if out := render(t, format, r, Options{}); out != want {
				t.Errorf("%s: got %q, want %q", format, out, want)
			}
		}
	})
	// A run that checked no queue says so: a clean run must never be
	// mistaken for a checked one.
	t.Run("no queue checked", func(t *testing.T) {
		const want = "No aws_sqs_queue was checked: the linted configuration declares none the linter could read\n"
		for _, r := range []*lint.Result{{}, nil} {
			for _, format := range []string{"default", "compact"} {
				if out := render(t, format, r, Options{}); out != want {
					t.Errorf("%s: got %q, want %q", format, out, want)
				}
			}
		}
	})
	t.Run("show skipped", func(t *testing.T) {
		r := &lint.Result{Queues: 1, Skipped: fixture(false).Skipped}
		out := render(t, "default", r, Options{NoColor: true, ShowSkipped: true, ReadSource: readSource})
		for _, s := range r.Skipped {
			if !strings.Contains(out, "Skipped: "+s.Reason+" ("+s.Rule+")") || !strings.Contains(out, fmt.Sprintf("on %s line %d, in %s:", s.Range.Filename, s.Range.Start.Line, s.Address)) {
				t.Errorf("--show-skipped output lacks %q at %s:\n%s", s.Reason, s.Range, out)
			}
		}
		if strings.Contains(out, "--show-skipped lists them") {
			t.Errorf("with --show-skipped the count line still points at the flag:\n%s", out)
		}
	})
}

func TestUnknownFormat(t *testing.T) {
	for _, name := range []string{"", "yaml", "JSON", "sarif "} {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			err := Write(&b, name, fixture(true), Options{})
			if err == nil {
				t.Fatalf("Write(%q) succeeded, writing %q", name, b.String())
			}
			if b.Len() != 0 {
				t.Errorf("Write(%q) wrote %q", name, b.String())
			}
			msg := err.Error()
			if !strings.Contains(msg, "default, compact, json, sarif, checkstyle, junit, github, gitlab") {
				t.Errorf("error %q does not list the valid formats", msg)
			}
			if !strings.Contains(msg, `"`+name+`"`) {
				t.Errorf("error %q does not name %q", msg, name)
			}
		})
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriterError(t *testing.T) {
	for _, format := range Names() {
		t.Run(format, func(t *testing.T) {
			err := Write(failingWriter{}, format, fixture(true), Options{ReadSource: readSource})
			if err == nil || !strings.Contains(err.Error(), "disk full") {
				t.Errorf("got %v, want the writer's error", err)
			}
		})
	}
}

func TestDefaultColor(t *testing.T) {
	r := &lint.Result{Issues: []lint.Issue{
		{Rule: "r1", Severity: lint.Error, Message: "m1", Range: rng("main.tf", 3, 3, 3, 21)},
		{Rule: "r2", Severity: lint.Warning, Message: "m2", Range: rng("u.tf", 1, 10, 1, 18)},
		{Rule: "r3", Severity: lint.Notice, Message: "m3", Range: rng("main.tf", 12, 36, 14, 2)},
	}}
	files := map[string]string{"main.tf": sources["main.tf"], "u.tf": `  name = "café ☕" # über`}
	out := render(t, "default", r, Options{ReadSource: func(name string) ([]byte, error) { return []byte(files[name]), nil }})

	for _, want := range []string{
		ansiRed + "Error" + ansiReset + ": " + ansiBold + "m1" + ansiReset + " (r1)\n",
		ansiYellow + "Warning" + ansiReset + ": ",
		ansiCyan + "Notice" + ansiReset + ": ",
		// the range of a one-line issue
		"   3:   " + ansiHighlight + "arrival_rate = 120" + ansiReset + "\n",
		// columns count characters, not bytes
		`   1:   name = ` + ansiHighlight + `"café ☕"` + ansiReset + " # über\n",
		// a range over lines: from the start column, whole lines, to the end column
		"  12: resource \"queuecap_scaling_policy\" " + ansiHighlight + "\"workers\" {" + ansiReset + "\n",
		"  13: " + ansiHighlight + "  fleet = queuecap_fleet.workers.id" + ansiReset + "\n",
		"  14: " + ansiHighlight + "}" + ansiReset + "\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if plain := render(t, "default", r, Options{NoColor: true, ReadSource: readSource}); strings.Contains(plain, "\x1b") {
		t.Errorf("NoColor output has escape codes:\n%s", plain)
	}
}

func TestDefaultSource(t *testing.T) {
	issue := lint.Issue{Rule: "r", Severity: lint.Warning, Message: "m"}
	t.Run("the run's own files when ReadSource is nil", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "x.tf")
		outside := filepath.Join(t.TempDir(), "y.tf")
		for _, p := range []string{path, outside} {
			if err := os.WriteFile(p, []byte("a = 1\nb = 2\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		res, err := runner.Run(lint.Options{Dirs: []string{dir}})
		if err != nil {
			t.Fatal(err)
		}
		issue.Range = rng(path, 2, 1, 2, 6)
		res.Issues = []lint.Issue{issue}
		out := render(t, "default", res, Options{NoColor: true})
		if !strings.Contains(out, "  on "+path+" line 2:\n   2: b = 2\n") {
			t.Errorf("no snippet from the file:\n%s", out)
		}
		// Outside the run's boundary, or for a result the linter did
		// not make, nothing is read.
		issue.Range = rng(outside, 2, 1, 2, 6)
		res.Issues = []lint.Issue{issue}
		for _, r := range []*lint.Result{res, {Issues: []lint.Issue{issue}}} {
			if out := render(t, "default", r, Options{NoColor: true}); !strings.Contains(out, "   (source code not available)\n") {
				t.Errorf("a snippet from outside the run's boundary:\n%s", out)
			}
		}
	})
	for _, tt := range []struct {
		name string
		rng  lint.Range
	}{
		{"unreadable file", rng("missing.tf", 1, 1, 1, 2)},
		{"line past the end", rng("main.tf", 99, 1, 99, 2)},
		{"no line", rng("main.tf", 0, 0, 0, 0)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			issue.Range = tt.rng
			out := render(t, "default", &lint.Result{Issues: []lint.Issue{issue}}, Options{NoColor: true, ReadSource: readSource})
			if !strings.Contains(out, "   (source code not available)\n") {
				t.Errorf("got:\n%s", out)
			}
		})
	}
	t.Run("each file read once", func(t *testing.T) {
		reads := map[string]int{}
		opts := Options{NoColor: true, ReadSource: func(name string) ([]byte, error) {
			reads[name]++
			return readSource(name)
		}}
		render(t, "default", fixture(true), opts)
		for name, n := range reads {
			if n != 1 {
				t.Errorf("%s read %d times", name, n)
			}
		}
		if len(reads) != 3 {
			t.Errorf("read %v, want the three fixture files", reads)
		}
	})
}

func TestJSON(t *testing.T) {
	out := render(t, "json", fixture(true), Options{})
	if strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "\n") {
		t.Errorf("want one line, got %q", out)
	}
	// Facts keep the issue's order, and nothing is HTML-escaped.
	for _, want := range []string{
		`"facts":{"arrival_rate":120,"per_consumer_rate":10,"max_consumers":10,"capacity":100}`,
		`"facts":{}`,
		`capacity > 2 × arrival & max_consumers`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %s", want)
		}
	}
	var doc struct {
		Issues []struct {
			Rule, Severity, Message, Link string
			Range                         lint.Range
			Facts                         map[string]float64
		}
		Errors []struct {
			Message, Severity string
			Range             *lint.Range
		}
		Skipped []lint.Skip
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	want := fixture(true)
	if len(doc.Issues) != len(want.Issues) || len(doc.Errors) != len(want.Errors) || !slices.EqualFunc(doc.Skipped, want.Skipped, sameSkip) {
		t.Fatalf("got %+v", doc)
	}
	for i, is := range want.Issues {
		got := doc.Issues[i]
		if got.Rule != is.Rule || got.Severity != is.Severity.String() || got.Message != is.Message ||
			got.Link != is.Link || got.Range != is.Range || len(got.Facts) != len(is.Facts) {
			t.Errorf("issue %d: got %+v, want %+v", i, got, is)
		}
		for name, v := range is.FactMap() {
			if got.Facts[name] != v {
				t.Errorf("issue %d: fact %s = %v, want %v", i, name, got.Facts[name], v)
			}
		}
	}
	for i, e := range want.Errors {
		got := doc.Errors[i]
		if got.Message != e.Message || got.Severity != "error" || (got.Range == nil) != (e.Range == nil) ||
			e.Range != nil && *got.Range != *e.Range {
			t.Errorf("error %d: got %+v, want %+v", i, got, e)
		}
	}
	if !strings.Contains(out, `"severity":"error"}`) {
		t.Errorf("an error without a range should have no range key: %s", out)
	}

	t.Run("facts JSON cannot hold", func(t *testing.T) {
		r := &lint.Result{Issues: []lint.Issue{{Rule: "r", Severity: lint.Error, Facts: []lint.Fact{
			{Name: "drain_seconds", Value: math.Inf(1)},
			{Name: "ratio", Value: math.NaN()},
			{Name: "tiny", Value: 1e-9},
			{Name: "tiny", Value: 2.5},
		}}}}
		out := render(t, "json", r, Options{})
		if want := `"facts":{"drain_seconds":null,"ratio":null,"tiny":2.5}`; !strings.Contains(out, want) {
			t.Errorf("output lacks %s: %s", want, out)
		}
	})
}

func TestXMLParses(t *testing.T) {
	for _, v := range variants {
		r := v.result()
		t.Run("checkstyle"+v.name, func(t *testing.T) {
			var doc checkstyleDoc
			if err := xml.Unmarshal([]byte(render(t, "checkstyle", r, Options{})), &doc); err != nil {
				t.Fatal(err)
			}
			n := 0
			for i, f := range doc.Files {
				if i > 0 && doc.Files[i-1].Name >= f.Name {
					t.Errorf("files not sorted: %q before %q", doc.Files[i-1].Name, f.Name)
				}
				n += len(f.Errors)
			}
			if n != len(r.Issues)+len(r.Errors) {
				t.Errorf("%d entries, want %d", n, len(r.Issues)+len(r.Errors))
			}
			for _, f := range doc.Files {
				for _, e := range f.Errors {
					if strings.Contains(e.Message, "capacity >") && !strings.Contains(e.Message, "& max_consumers") {
						t.Errorf("message not round-tripped: %q", e.Message)
					}
				}
			}
		})
		t.Run("junit"+v.name, func(t *testing.T) {
			var doc junitSuites
			if err := xml.Unmarshal([]byte(render(t, "junit", r, Options{})), &doc); err != nil {
				t.Fatal(err)
			}
			s := doc.Suites[0]
			var failures, errs, skips int
			for _, c := range s.Cases {
				if c.Failure != nil {
					failures++
				}
				if c.Error != nil {
					errs++
				}
				if c.Skipped != nil {
					skips++
				}
			}
			if s.Tests != len(s.Cases) || s.Failures != failures || s.Errors != errs || s.Skipped != skips ||
				failures != len(r.Issues) || errs != len(r.Errors) || skips != len(r.Skipped) {
				t.Errorf("counts do not match: %+v", s)
			}
		})
	}
}

func TestGitHubEscaping(t *testing.T) {
	r := &lint.Result{
		Issues: []lint.Issue{{
			Rule:     "rule,with:odd%chars",
			Severity: lint.Warning,
			Message:  "first line\nsecond, with: 100% more\r\nthird",
			Range:    rng(`dir,a/b:c%.tf`, 2, 5, 2, 9),
		}},
		Errors: []lint.ErrorEntry{{Message: "bad: 50%\nreally"}},
	}
	want := "::warning file=dir%2Ca/b%3Ac%25.tf,line=2,col=5,endLine=2,endColumn=9,title=rule%2Cwith%3Aodd%25chars::first line%0Asecond, with: 100%25 more%0D%0Athird\n" +
		"::error::bad: 50%25%0Areally\n"
	if got := render(t, "github", r, Options{}); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestGitHubRanges(t *testing.T) {
	for _, tt := range []struct {
		name string
		rng  lint.Range
		want string
	}{
		{"one line", rng("a.tf", 3, 2, 3, 7), "file=a.tf,line=3,col=2,endLine=3,endColumn=7"},
		{"many lines: no columns", rng("a.tf", 3, 2, 5, 1), "file=a.tf,line=3,endLine=5"},
		{"no end", rng("a.tf", 3, 2, 0, 0), "file=a.tf,line=3,col=2"},
		{"no line", rng("a.tf", 0, 0, 0, 0), "file=a.tf"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := &lint.Result{Issues: []lint.Issue{{Rule: "r", Severity: lint.Notice, Message: "m", Range: tt.rng}}}
			if got, want := render(t, "github", r, Options{}), "::notice "+tt.want+",title=r::m\n"; got != want {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
}

func TestCompactOneLine(t *testing.T) {
	r := &lint.Result{
		Issues: []lint.Issue{{Rule: "r", Severity: lint.Notice, Message: "a\nb\r\nc", Range: rng("x.tf", 1, 2, 1, 3)}},
		Errors: []lint.ErrorEntry{{Message: "e\nf"}},
		Queues: 1,
	}
	want := "x.tf:1:2: Notice - a b c (r)\nError - e f\n"
	if got := render(t, "compact", r, Options{}); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestPlanAddresses: a plan's findings name their resource address in
// JSON; the default format says where one without a file lies, once.
func TestPlanAddresses(t *testing.T) {
	out := render(t, "json", planFixture(), Options{})
	for _, want := range []string{`"address":"aws_sqs_queue.q"`, `"address":"module.a[\"x\"].aws_sqs_queue.q[0]"`} {
		if !strings.Contains(out, want) {
			t.Errorf("JSON lacks %s: %s", want, out)
		}
	}
	out = render(t, "default", planFixture(), Options{NoColor: true})
	if want := "  on module.a[\"x\"].aws_sqs_queue.q[0]\n"; !strings.Contains(out, want) {
		t.Errorf("default output lacks %q:\n%s", want, out)
	}
}

// TestJUnitNames: every test case has a name of its own, the rule and
// where the finding lies, with the column and then a number only where
// they are needed.
func TestJUnitNames(t *testing.T) {
	issue := func(rule string, r lint.Range) lint.Issue {
		return lint.Issue{Rule: rule, Severity: lint.Warning, Message: "m", Range: r}
	}
	r := &lint.Result{
		Issues: []lint.Issue{
			issue("a", rng("main.tf", 3, 1, 3, 9)),
			issue("a", rng("main.tf", 3, 12, 3, 20)), // same line
			issue("a", rng("main.tf", 9, 3, 9, 8)),   // one module called twice
			issue("a", rng("main.tf", 9, 3, 9, 8)),
			issue("b", rng("main.tf", 3, 1, 3, 9)), // another rule on the line
			issue("a", lint.Range{Filename: `module.m["x"].aws_sqs_queue.q`}),
			issue("a", lint.Range{}),
		},
		Errors: []lint.ErrorEntry{{Message: "e1"}, {Message: "e2"}},
	}
	var doc junitSuites
	if err := xml.Unmarshal([]byte(render(t, "junit", r, Options{})), &doc); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range doc.Suites[0].Cases {
		got = append(got, c.Name)
	}
	want := []string{"a main.tf:3:1", "a main.tf:3:12", "a main.tf:9:3", "a main.tf:9:3 (2)", "b main.tf:3",
		`a module.m["x"].aws_sqs_queue.q`, "a", "error", "error (2)"}
	if !slices.Equal(got, want) {
		t.Errorf("names\n got %q\nwant %q", got, want)
	}
}

func sameSkip(a, b lint.Skip) bool {
	return a.Rule == b.Rule && a.Range == b.Range && a.Reason == b.Reason && slices.Equal(a.Rules, b.Rules)
}

// TestInstancesInEveryFormat holds issue 22's item 6 in every format: a
// finding and a skip name the resource instances they are about, all of
// them where the format lists them (JSON, SARIF), the first few in text.
func TestInstancesInEveryFormat(t *testing.T) {
	all := []string{`module.worker["a"].queuecap_fleet.batch`, `module.worker["b"].queuecap_fleet.batch`,
		`module.worker["c"].queuecap_fleet.batch`, `module.worker["d"].queuecap_fleet.batch`}
	shown := strings.Join(all[:3], ", ") + " and 1 more"
	want := map[string][]string{
		"default":    {"  on modules/worker/queues.tf line 5, in " + shown + ":\n", "  on main.tf line 3, in queuecap_queue.orders:\n", "  on modules/worker/queues.tf line 13, in module.worker.queuecap_queue.events:\n"},
		"compact":    {"modules/worker/queues.tf:5:3: Warning - in " + shown + ": Fleet", "main.tf:3:3: Error - in queuecap_queue.orders: max_size 10"},
		"json":       {`"address":"module.worker[\"a\"].queuecap_fleet.batch","subject":"queuecap_fleet.batch","instances":["module.worker[\"a\"].queuecap_fleet.batch","module.worker[\"b\"].queuecap_fleet.batch","module.worker[\"c\"].queuecap_fleet.batch","module.worker[\"d\"].queuecap_fleet.batch"]`, `"address":"module.worker.queuecap_queue.events"`},
		"checkstyle": {`message="in module.worker[&#34;a&#34;].queuecap_fleet.batch, module.worker[&#34;b&#34;].queuecap_fleet.batch, module.worker[&#34;c&#34;].queuecap_fleet.batch and 1 more: Fleet`},
		"junit":      {`message="in queuecap_queue.orders: max_size 10`, `: in module.worker.queuecap_queue.events: arrival_rate`},
		"github":     {"title=queuecap_queue_underprovisioned::in queuecap_queue.orders: max_size 10"},
		"gitlab":     {`"description": "in queuecap_queue.orders: max_size 10`},
	}
	for format, wants := range want {
		out := render(t, format, fixture(false), Options{NoColor: true, ReadSource: readSource, ShowSkipped: true})
		for _, w := range wants {
			if !strings.Contains(out, w) {
				t.Errorf("%s output lacks %q:\n%s", format, w, out)
			}
		}
	}
	// SARIF: every instance a logical location beside the physical one,
	// for findings and skipped checks alike.
	var log struct {
		Runs []struct {
			Results []struct {
				Locations []struct {
					PhysicalLocation *struct{} `json:"physicalLocation"`
					LogicalLocations []struct {
						FullyQualifiedName string `json:"fullyQualifiedName"`
						Kind               string `json:"kind"`
					} `json:"logicalLocations"`
				} `json:"locations"`
			} `json:"results"`
			Invocations []struct {
				Notifications []struct {
					Locations []struct {
						LogicalLocations []struct {
							FullyQualifiedName string `json:"fullyQualifiedName"`
						} `json:"logicalLocations"`
					} `json:"locations"`
				} `json:"toolExecutionNotifications"`
			} `json:"invocations"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(render(t, "sarif", fixture(false), Options{})), &log); err != nil {
		t.Fatal(err)
	}
	var names [][]string
	for _, res := range log.Runs[0].Results {
		var n []string
		for _, l := range res.Locations[0].LogicalLocations {
			if l.Kind != "resource" {
				t.Errorf("logical location %s of kind %q, want resource", l.FullyQualifiedName, l.Kind)
			}
			n = append(n, l.FullyQualifiedName)
		}
		if res.Locations[0].PhysicalLocation == nil {
			t.Errorf("a result at %v has no physical location", n)
		}
		names = append(names, n)
	}
	if len(names) < 2 || !slices.Equal(names[0], []string{"queuecap_queue.orders"}) || !slices.ContainsFunc(names, func(n []string) bool { return slices.Equal(n, all) }) {
		t.Errorf("SARIF results' logical locations %q, want queuecap_queue.orders and the four batch instances", names)
	}
	notes := log.Runs[0].Invocations[0].Notifications
	if len(notes) != 1 || len(notes[0].Locations) != 1 || len(notes[0].Locations[0].LogicalLocations) != 1 ||
		notes[0].Locations[0].LogicalLocations[0].FullyQualifiedName != "module.worker.queuecap_queue.events" {
		t.Errorf("SARIF skip notification %+v, want module.worker.queuecap_queue.events as its logical location", notes)
	}
}

// TestCoverageLine: the default and compact formats say how many of the
// queues with a consumer were checked, and name those that were not; a
// run with no such queue says nothing of it.
func TestCoverageLine(t *testing.T) {
	r := &lint.Result{Queues: 4, QueuesWithConsumer: 3, QueuesNotChecked: []string{"aws_sqs_queue.audit"}}
	for _, format := range []string{"default", "compact"} {
		var b bytes.Buffer
		if err := Write(&b, format, r, Options{NoColor: true}); err != nil {
			t.Fatal(err)
		}
		if want := "Checked 2 of 3 queues with a consumer; not checked: aws_sqs_queue.audit\n"; !strings.Contains(b.String(), want) {
			t.Errorf("%s: %q lacks %q", format, b.String(), want)
		}
	}
	var gh bytes.Buffer
	if err := Write(&gh, "github", r, Options{}); err != nil {
		t.Fatal(err)
	}
	if want := "::notice title=queuecap coverage::Checked 2 of 3 queues with a consumer; not checked: aws_sqs_queue.audit\n"; gh.String() != want {
		t.Errorf("github: %q, want %q", gh.String(), want)
	}
	many := &lint.Result{Queues: 9, QueuesWithConsumer: 9, QueuesNotChecked: []string{"a", "b", "c", "d", "e", "f", "g"}}
	if got := coverageLine(many); got != "Checked 2 of 9 queues with a consumer; not checked: a, b, c, d, e and 2 more" {
		t.Errorf("coverageLine = %q", got)
	}
	if got := coverageLine(&lint.Result{Queues: 2}); got != "" {
		t.Errorf("no queue with a consumer: %q, want nothing", got)
	}
}
