// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// explainCases are the folders `queuecap lint --explain` is run in, each
// with a golden per format beside testdata/explain/<name>/: a queue with
// a dead-letter queue, an Auto Scaling group, a step policy, its alarm, a
// mapping whose function is missing and a .queuecap.hcl block that
// matches nothing; consumers that deployments replace (an instance
// refresh on AWS's defaults, a maintenance policy launching first, ECS
// rolling, blue/green and undecided) with predictive policies; and the
// e2e case whose consumer lives in a module.
var explainCases = []struct{ name, dir string }{
	{"basic", filepath.Join("testdata", "explain", "basic")},
	{"deploy", filepath.Join("testdata", "explain", "deploy")},
	{"modules_headroom", filepath.Join("..", "..", "internal", "lint", "testdata", "e2e", "modules_headroom")},
}

var explainGoldenExt = map[string]string{"text": ".txt", "json": ".json", "mermaid": ".md"}

func TestExplainGolden(t *testing.T) {
	for _, c := range explainCases {
		for _, format := range []string{"text", "json", "mermaid"} {
			t.Run(c.name+"/"+format, func(t *testing.T) {
				goldenPath, err := filepath.Abs(filepath.Join("testdata", "explain", c.name+explainGoldenExt[format]))
				if err != nil {
					t.Fatal(err)
				}
				code, stdout, stderr := cli(t, c.dir, "lint", "--explain", "--format", format)
				if code != exitOK || stderr != "" {
					t.Errorf("exit %d, stderr %q; want 0 and nothing", code, stderr)
				}
				if format == "json" {
					stdout = indentJSON(t, stdout)
				}
				golden(t, goldenPath, stdout)
			})
		}
	}
}

// indentJSON checks that out is one line of JSON and indents it for a
// golden that reads well in a diff.
func indentJSON(t *testing.T, out string) string {
	t.Helper()
	if strings.Count(out, "\n") != 1 {
		t.Errorf("JSON output is not one line:\n%s", out)
	}
	var b bytes.Buffer
	if err := json.Indent(&b, []byte(out), "", "  "); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return b.String()
}

// Text is the default; the config file's format is one for findings and
// does not apply; any other format is a usage error.
func TestExplainFormats(t *testing.T) {
	cases := []struct {
		name   string
		config string
		args   []string
		code   int
		stdout string // prefix of stdout
		stderr string // substring of stderr
	}{
		{name: "text by default, findings do not fail it", args: []string{"--explain"}, stdout: "root .\n"},
		{name: "config format ignored", config: "config {\n  format = \"compact\"\n}\n", args: []string{"--explain"}, stdout: "root .\n"},
		{name: "json", args: []string{"--explain", "--format", "json"}, stdout: `{"roots":[{"dir":"."`},
		{name: "mermaid", args: []string{"--format", "mermaid", "--explain"}, stdout: "**Root module `.`**\n\n```mermaid\nflowchart LR\n"},
		{name: "a findings format", args: []string{"--explain", "--format", "compact"}, code: exitError,
			stderr: `unknown format "compact" with --explain: valid formats are text, json, mermaid`},
		{name: "default is a findings format", args: []string{"--explain", "--format", "default"}, code: exitError,
			stderr: `unknown format "default" with --explain`},
		{name: "mermaid without --explain", args: []string{"--format", "mermaid"}, code: exitError,
			stderr: `unknown format "mermaid": valid formats are default, compact`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{"main.tf": errorTF}
			if c.config != "" {
				files[".queuecap.hcl"] = c.config
			}
			write(t, dir, files)
			code, stdout, stderr := cli(t, dir, append([]string{"lint"}, c.args...)...)
			if code != c.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, c.code, stderr)
			}
			if !strings.HasPrefix(stdout, c.stdout) {
				t.Errorf("stdout %q, want it to start with %q", stdout, c.stdout)
			}
			if !strings.Contains(stderr, c.stderr) {
				t.Errorf("stderr %q, want it to contain %q", stderr, c.stderr)
			}
		})
	}
}

// An error fails the run (exit 1) and is part of the explanation, which
// still covers the files that parse.
func TestExplainErrors(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"main.tf": errorTF, "broken.tf": "resource \"aws_sqs_queue\" {\n"})
	for _, format := range []string{"text", "json", "mermaid"} {
		t.Run(format, func(t *testing.T) {
			code, stdout, _ := cli(t, dir, "lint", "--explain", "--format", format)
			if code != exitError {
				t.Errorf("exit %d, want %d", code, exitError)
			}
			if !strings.Contains(stdout, "aws_sqs_queue.orders") || !strings.Contains(stdout, "broken.tf") {
				t.Errorf("want the queue and the error in:\n%s", stdout)
			}
		})
	}
}

// TestExplainMermaidParses hands every flowchart of the mermaid goldens,
// and one with instance addresses and characters that need escaping, to
// Mermaid's own parser: GitHub draws nothing for a diagram that does not
// parse. It needs node and a directory where `npm install mermaid jsdom`
// ran, named by QUEUECAP_MERMAID_DIR; it skips without them.
func TestExplainMermaidParses(t *testing.T) {
	modules := os.Getenv("QUEUECAP_MERMAID_DIR")
	node, err := exec.LookPath("node")
	if modules == "" || err != nil {
		t.Skip("needs node and QUEUECAP_MERMAID_DIR, a directory where `npm install mermaid jsdom` ran")
	}
	var charts []string
	for _, c := range explainCases {
		src, err := os.ReadFile(filepath.Join("testdata", "explain", c.name+".md"))
		if err != nil {
			t.Fatal(err)
		}
		charts = append(charts, mermaidBlocks(string(src))...)
	}
	dir := t.TempDir()
	write(t, dir, map[string]string{"main.tf": `
resource "aws_sqs_queue" "q" {
  for_each = toset(["a#1", "b<2>"])
  name     = "q-${each.key}"
  tags     = { "queuecap:arrival_rate" = 5 }
}

resource "aws_autoscaling_group" "w" {
  for_each = toset(["a#1", "b<2>"])
  max_size = 3
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.q[\"${each.key}\"]"
    propagate_at_launch = false
  }
}
`})
	_, md, _ := cli(t, dir, "lint", "--explain", "--format", "mermaid")
	if !strings.Contains(md, `aws_sqs_queue.q[#quot;a#35;1#quot;]`) {
		t.Errorf("instance address not escaped:\n%s", md)
	}
	charts = append(charts, mermaidBlocks(md)...)
	if len(charts) != len(explainCases)+1 {
		t.Fatalf("%d flowcharts, want %d", len(charts), len(explainCases)+1)
	}

	// One node process for all of them, the first a broken flowchart the
	// parser must reject, or it checks nothing.
	broken := "flowchart LR\n  a[\"x\"] -->> b\n"
	input, err := json.Marshal(append([]string{broken}, charts...))
	if err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(t.TempDir(), "parse.mjs")
	if err := os.WriteFile(script, []byte(mermaidParseScript), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, script)
	cmd.Env = append(os.Environ(), "MERMAID_DIR="+modules)
	cmd.Stdin = bytes.NewReader(input)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var errs []string
	if err := json.Unmarshal(out, &errs); err != nil || len(errs) != len(charts)+1 {
		t.Fatalf("node printed %q, want one result per flowchart", out)
	}
	if errs[0] == "" {
		t.Error("mermaid.parse accepted a broken flowchart: it checks nothing")
	}
	for i, chart := range charts {
		if errs[i+1] != "" {
			t.Errorf("mermaid.parse: %s\n%s", errs[i+1], chart)
		}
	}
}

// mermaidParseScript reads a JSON array of flowcharts on standard input
// and prints, for each, the error of mermaid.parse or "", with the mermaid
// package installed in $MERMAID_DIR, in a jsdom window.
const mermaidParseScript = `import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
const require = createRequire(process.env.MERMAID_DIR + '/');
const { JSDOM } = require('jsdom');
const dom = new JSDOM('');
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const { default: mermaid } = await import(pathToFileURL(require.resolve('mermaid')));
const errors = [];
for (const chart of JSON.parse(readFileSync(0, 'utf8'))) {
  try {
    await mermaid.parse(chart);
    errors.push('');
  } catch (e) {
    errors.push(String(e.message || e));
  }
}
console.log(JSON.stringify(errors));
`

// mermaidBlocks are the contents of the ```mermaid blocks of Markdown.
func mermaidBlocks(md string) []string {
	var out []string
	for {
		_, rest, ok := strings.Cut(md, "```mermaid\n")
		if !ok {
			return out
		}
		block, after, _ := strings.Cut(rest, "```")
		out = append(out, block)
		md = after
	}
}

// TestExplainDocsMermaid checks that the flowchart in docs/rules/README.md
// is the one `--explain --format mermaid` draws for the configuration of
// the docs' --explain example, whose text output TestDocsExamples checks.
func TestExplainDocsMermaid(t *testing.T) {
	const path = "../../docs/rules/README.md"
	var config string
	for _, ex := range readDocExamples(t, path) {
		if len(ex.args) == 1 && ex.args[0] == "--explain" {
			config = ex.config
		}
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	docs := mermaidBlocks(string(src))
	if config == "" || len(docs) != 1 {
		t.Fatalf("want one `queuecap lint --explain` example and one mermaid block in %s, found %d", path, len(docs))
	}
	dir := t.TempDir()
	write(t, dir, map[string]string{"main.tf": config})
	_, md, _ := cli(t, dir, "lint", "--explain", "--format", "mermaid")
	if got := mermaidBlocks(md); len(got) != 1 || got[0] != docs[0] {
		t.Errorf("the docs' flowchart differs from the output:\n--- docs\n%s--- queuecap lint --explain --format mermaid\n%s", docs[0], md)
	}
}
