// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/rules"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/runner"
)

// ruleCase is one table entry: a configuration written to a temporary
// directory, linted with one rule, and the exact findings and skips.
type ruleCase struct {
	name string
	// files maps a path relative to the module directory to its content.
	files map[string]string
	// config is the content of .queuecap.hcl, read with lint.LoadConfig.
	config string
	vars   []string // --var values
	issues []issue
	skips  []skip
	// err is the one error a case expects, at file:line:col of the case
	// directory and its text, in place of findings and skips.
	err string
}

// issue is an expected finding; File is relative to the case directory.
type issue struct {
	// Summary is the first line, compared where a case gives it; every
	// first line is held to checkSummary.
	Summary string
	Message string
	File    string
	Start   lint.Pos
	End     lint.Pos
	Facts   []lint.Fact
}

type skip struct {
	Reason string
	File   string
	Line   int
}

func at(line, col int) lint.Pos { return lint.Pos{Line: line, Column: col} }

func facts(kv ...any) []lint.Fact {
	var out []lint.Fact
	for i := 0; i < len(kv); i += 2 {
		v := kv[i+1]
		var f float64
		switch n := v.(type) {
		case int:
			f = float64(n)
		case float64:
			f = n
		default:
			panic(fmt.Sprintf("fact %v: %T", kv[i], v))
		}
		name, ok := kv[i].(string)
		if !ok {
			panic(fmt.Sprintf("fact name %v: %T", kv[i], kv[i]))
		}
		out = append(out, lint.Fact{Name: name, Value: f})
	}
	return out
}

func ruleNamed(t *testing.T, name string) lint.Rule {
	t.Helper()
	for _, r := range rules.All() {
		if r.Name() == name {
			return r
		}
	}
	t.Fatalf("no rule %s", name)
	return nil
}

// lintCase writes a case to a temporary directory and runs one rule on it.
func lintCase(t *testing.T, rule string, c ruleCase) (*lint.Result, string) {
	t.Helper()
	dir := t.TempDir()
	for name, content := range c.files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := &lint.Config{}
	if c.config != "" {
		p := filepath.Join(dir, ".queuecap.hcl")
		if err := os.WriteFile(p, []byte(c.config), 0o644); err != nil {
			t.Fatal(err)
		}
		var diags []error
		loaded, d := lint.LoadConfig(p, true, nil)
		for _, e := range d {
			diags = append(diags, e)
		}
		if len(diags) > 0 {
			t.Fatalf("config: %v", diags)
		}
		cfg = loaded
	}
	var vars []lint.VarFlag
	for _, v := range c.vars {
		vars = append(vars, lint.VarFlag{Value: v})
	}
	res, err := runner.Run(lint.Options{Dirs: []string{dir}, Config: cfg, Vars: vars, Rules: []lint.Rule{ruleNamed(t, rule)}})
	if err != nil {
		t.Fatal(err)
	}
	return res, dir
}

func runRuleCases(t *testing.T, rule string, cases []ruleCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, dir := lintCase(t, rule, c)
			if c.err != "" {
				want := filepath.Join(dir, c.err)
				if len(res.Errors) != 1 || !strings.HasPrefix(res.Errors[0].String(), want) {
					t.Errorf("errors %v, want one starting %s", res.Errors, want)
				}
				return
			}
			if len(res.Errors) > 0 {
				t.Fatalf("errors: %v", res.Errors)
			}
			rel := func(p string) string {
				r, err := filepath.Rel(dir, p)
				if err != nil {
					return p
				}
				return filepath.ToSlash(r)
			}
			var got []issue
			for _, is := range res.Issues {
				if is.Rule != rule {
					t.Errorf("issue of rule %s, want %s", is.Rule, rule)
				}
				if is.Link != "https://github.com/queuecap/terraform-provider-queuecap/blob/main/docs/rules/"+rule+".md" {
					t.Errorf("link %s", is.Link)
				}
				if err := checkSummary(is.Summary); err != nil {
					t.Errorf("summary %q: %v", is.Summary, err)
				}
				got = append(got, issue{Message: is.Message, File: rel(is.Range.Filename), Start: is.Range.Start, End: is.Range.End, Facts: is.Facts})
			}
			want := c.issues
			for i := range want {
				if want[i].File == "" {
					want[i].File = "main.tf"
				}
				if i < len(got) && want[i].Summary != "" {
					got[i].Summary = res.Issues[i].Summary
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("issues:\n got %s\nwant %s", formatIssues(got), formatIssues(want))
			}
			var gotSkips []skip
			for _, s := range res.Skipped {
				if s.Rule == "coverage" {
					continue // which queues the rules could not cover: TestCoverage's
				}
				// The linker's own skips (what it could not link or
				// read) belong to no rule and stand beside the rule's.
				if s.Rule != rule && s.Rule != "link" && s.Rule != "module" {
					t.Errorf("skip of rule %s, want %s", s.Rule, rule)
				}
				gotSkips = append(gotSkips, skip{Reason: s.Reason, File: rel(s.Range.Filename), Line: s.Range.Start.Line})
			}
			wantSkips := c.skips
			for i := range wantSkips {
				if wantSkips[i].File == "" {
					wantSkips[i].File = "main.tf"
				}
			}
			if !reflect.DeepEqual(gotSkips, wantSkips) {
				t.Errorf("skips:\n got %#v\nwant %#v", gotSkips, wantSkips)
			}
		})
	}
}

// formatIssues prints issues as Go literals, to compare and to copy.
func formatIssues(is []issue) string {
	if len(is) == 0 {
		return "none"
	}
	var b strings.Builder
	for _, i := range is {
		b.WriteString("\n\t{")
		if i.Summary != "" {
			fmt.Fprintf(&b, "Summary: %q, ", i.Summary)
		}
		fmt.Fprintf(&b, "Message: %q, File: %q, Start: at(%d, %d), End: at(%d, %d), Facts: facts(", i.Message, i.File, i.Start.Line, i.Start.Column, i.End.Line, i.End.Column)
		for j, f := range i.Facts {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%q, %v", f.Name, f.Value)
		}
		b.WriteString(")},")
	}
	return b.String()
}

// tagged is a queue whose tags map (one line) and one extra attribute line
// vary, consumed by an auto scaling group of μ 400 msg/s. max_size is on
// line 9, the queue's retention line is line 4.
func tagged(tags, queueAttr, maxSize string) string {
	return fmt.Sprintf(`resource "aws_sqs_queue" "orders" {
  name = "orders"
  tags = { %s }
  %s
}

resource "aws_autoscaling_group" "workers" {
  name     = "workers"
  max_size = %s
  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = "400"
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
}
`, tags, queueAttr, maxSize)
}

// maxSummary is how long a finding's first line may be, in characters.
const maxSummary = 120

// checkSummary holds a finding's first line to its form: the problem, a
// colon, the fix; short; on one line; and without a resource's address,
// as identical findings of several module instances share one.
func checkSummary(s string) error {
	switch {
	case s == "":
		return errors.New("empty")
	case utf8.RuneCountInString(s) > maxSummary:
		return fmt.Errorf("%d characters, over %d", utf8.RuneCountInString(s), maxSummary)
	case strings.ContainsAny(s, "\n\r"):
		return errors.New("more than one line")
	case !strings.Contains(s, ": "):
		return errors.New("no \"problem: fix\"")
	case strings.Contains(s, "aws_") || strings.Contains(s, "module."):
		return errors.New("names a resource")
	}
	return nil
}

// sizedByConsumers is a queue whose auto scaling group's max_size is the
// required_consumers of a queuecap_consumers data source with args (one
// per line, indented): the fleet the provider sizes.
func sizedByConsumers(args string) string {
	return "data \"queuecap_consumers\" \"orders\" {\n" + args + "\n}" + `

resource "aws_sqs_queue" "orders" {
  name = "orders"
}

resource "aws_autoscaling_group" "workers" {
  max_size = data.queuecap_consumers.orders.required_consumers
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
}
`
}
