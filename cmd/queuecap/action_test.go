// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestGitHubAction runs the step of action.yml, tools/github-action.sh, as
// the runner would, with GitHub's files in a temporary folder, on a
// workspace holding examples/lint: bad/ fails with its eight findings in
// SARIF, annotations and the log, good/ passes.
func TestGitHubAction(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the CLI")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	action, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile(filepath.Join(root, "tools/github-action.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(action), `run: '"$GITHUB_ACTION_PATH/tools/github-action.sh"'`) {
		t.Error("action.yml does not run tools/github-action.sh")
	}
	// Every input the script reads is passed by action.yml.
	for _, name := range regexp.MustCompile(`QUEUECAP_[A-Z_]+`).FindAllString(string(script), -1) {
		if !strings.Contains(string(action), name+": ${{ inputs.") {
			t.Errorf("tools/github-action.sh reads %s, which action.yml does not set", name)
		}
	}

	workspace := t.TempDir()
	files := map[string]string{"ci/queuecap.hcl": "../../examples/lint/queuecap.hcl"}
	for _, name := range []string{"good", "bad"} {
		entries, err := os.ReadDir("../../examples/lint/" + name)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			files[name+"/"+e.Name()] = "../../examples/lint/" + name + "/" + e.Name()
		}
	}
	for name, src := range files {
		content, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		write(t, workspace, map[string]string{name: string(content)})
	}

	type step struct {
		code                   int
		log, output, path      string
		summary, sarif, runner string
	}
	runStep := func(t *testing.T, env ...string) step {
		t.Helper()
		runner := t.TempDir()
		gh := func(name string) string { return filepath.Join(runner, name) }
		cmd := exec.Command("bash", filepath.Join(root, "tools/github-action.sh"))
		cmd.Dir = workspace
		cmd.Env = append(os.Environ(),
			"GITHUB_ACTION_PATH="+root, "GITHUB_ACTION_REF=v9.8.7", "RUNNER_TEMP="+runner,
			"GITHUB_OUTPUT="+gh("output"), "GITHUB_PATH="+gh("path"), "GITHUB_STEP_SUMMARY="+gh("summary"),
			"QUEUECAP_ARGS=--config ci/queuecap.hcl")
		cmd.Env = append(cmd.Env, env...)
		out, err := cmd.CombinedOutput()
		s := step{log: string(out), runner: runner}
		if ee, ok := err.(*exec.ExitError); ok {
			s.code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		read := func(p string) string {
			b, _ := os.ReadFile(p)
			return string(b)
		}
		s.output, s.path, s.summary = read(gh("output")), read(gh("path")), read(gh("summary"))
		s.sarif = read(filepath.Join(workspace, "queuecap.sarif"))
		return s
	}

	versionLine987 := regexp.MustCompile(`(?m)^queuecap v9\.8\.7( \(commit [0-9a-f]{7,40}\))?$`)
	t.Run("findings", func(t *testing.T) {
		s := runStep(t, "QUEUECAP_PATHS=bad")
		if s.code != 2 {
			t.Fatalf("exit %d, want 2:\n%s", s.code, s.log)
		}
		// The build records its commit when Go can read the checkout's
		// VCS information (not with -buildvcs=false).
		if !versionLine987.MatchString(s.log) {
			t.Errorf("no queuecap v9.8.7 version line in the log:\n%s", s.log)
		}
		for _, want := range []string{
			"::warning file=bad/orders.tf,line=", // an annotation
			"8 issue(s)",                         // the default format
		} {
			if !strings.Contains(s.log, want) {
				t.Errorf("no %q in the log:\n%s", want, s.log)
			}
		}
		if n := strings.Count(s.log, "::warning ") + strings.Count(s.log, "::error "); n != 8 {
			t.Errorf("%d annotations, want 8:\n%s", n, s.log)
		}
		var sarif struct {
			Runs []struct {
				Tool struct {
					Driver struct{ Rules []struct{ HelpURI string } }
				}
				Results []struct{ RuleID string }
			}
		}
		if err := json.Unmarshal([]byte(s.sarif), &sarif); err != nil || len(sarif.Runs) != 1 {
			t.Fatalf("queuecap.sarif: %v\n%s", err, s.sarif)
		}
		if n := len(sarif.Runs[0].Results); n != 8 {
			t.Errorf("%d SARIF results, want 8", n)
		}
		if rules := sarif.Runs[0].Tool.Driver.Rules; len(rules) == 0 || !strings.Contains(rules[0].HelpURI, "/blob/v9.8.7/docs/rules/") {
			t.Errorf("rule links %+v, want the docs of v9.8.7", rules)
		}
		if s.output != "sarif-file=queuecap.sarif\nexit-code=2\n" {
			t.Errorf("GITHUB_OUTPUT:\n%s", s.output)
		}
		bin := strings.TrimSpace(s.path)
		if out, err := exec.Command(filepath.Join(bin, "queuecap"), "--version").Output(); err != nil || !versionLine987.Match(out) {
			t.Errorf("GITHUB_PATH %q: queuecap --version = %q, %v", bin, out, err)
		}
		if !strings.HasPrefix(bin, s.runner) {
			t.Errorf("queuecap installed to %s, outside RUNNER_TEMP", bin)
		}
		if !strings.Contains(s.summary, "### queuecap lint") || !strings.Contains(s.summary, "8 issue(s)") {
			t.Errorf("GITHUB_STEP_SUMMARY:\n%s", s.summary)
		}
	})
	t.Run("findings without failing", func(t *testing.T) {
		s := runStep(t, "QUEUECAP_PATHS=bad", "QUEUECAP_FAIL_ON_FINDINGS=false")
		if s.code != 0 || !strings.Contains(s.output, "exit-code=2\n") {
			t.Errorf("exit %d, outputs %q; want 0 and exit-code=2:\n%s", s.code, s.output, s.log)
		}
	})
	t.Run("clean", func(t *testing.T) {
		s := runStep(t, "QUEUECAP_PATHS=good")
		if s.code != 0 || strings.Contains(s.log, "::warning") || !strings.Contains(s.output, "exit-code=0\n") {
			t.Errorf("exit %d, outputs %q; want a clean run:\n%s", s.code, s.output, s.log)
		}
	})
}

// TestCIExamples holds examples/ci to what it uses: the workflow passes
// only inputs action.yml declares and reads only its outputs, the
// pre-commit config names a hook of .pre-commit-hooks.yaml, and docs/ci.md
// shows both files as they are, less their comments.
func TestCIExamples(t *testing.T) {
	read := func(name string) string {
		t.Helper()
		b, err := os.ReadFile("../../" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	action, workflow, preCommit := read("action.yml"), read("examples/ci/github-workflow.yml"), read("examples/ci/pre-commit-config.yaml")
	docs, hooks := read("docs/ci.md"), read(".pre-commit-hooks.yaml")
	section := func(name string) string { // a top-level mapping of action.yml
		_, after, _ := strings.Cut(action, "\n"+name+":\n")
		if i := regexp.MustCompile(`\n\S`).FindStringIndex(after); i != nil {
			after = after[:i[0]]
		}
		return "\n" + after
	}
	inputs, outputs := section("inputs"), section("outputs")

	if !strings.Contains(workflow, "uses: queuecap/terraform-provider-queuecap@") || !strings.Contains(workflow, "uses: github/codeql-action/upload-sarif@") {
		t.Error("the workflow does not use the action and upload-sarif")
	}
	_, with, _ := strings.Cut(workflow, "uses: queuecap/terraform-provider-queuecap@")
	with, _, _ = strings.Cut(with, "\n      - ")
	for _, m := range regexp.MustCompile(`(?m)^          ([a-z-]+):`).FindAllStringSubmatch(with, -1) {
		if !strings.Contains(inputs, "\n  "+m[1]+":\n") {
			t.Errorf("the workflow passes %s, not an input of action.yml", m[1])
		}
	}
	for _, m := range regexp.MustCompile(`steps\.queuecap\.outputs\.([a-z-]+)`).FindAllStringSubmatch(workflow, -1) {
		if !strings.Contains(outputs, "\n  "+m[1]+":\n") {
			t.Errorf("the workflow reads output %s, which action.yml does not declare", m[1])
		}
	}
	for _, m := range regexp.MustCompile(`(?m)^      - id: (\S+)`).FindAllStringSubmatch(preCommit, -1) {
		if !strings.Contains(hooks, "- id: "+m[1]+"\n") {
			t.Errorf("examples/ci/pre-commit-config.yaml names hook %s, not in .pre-commit-hooks.yaml", m[1])
		}
	}
	for name, file := range map[string]string{"github-workflow.yml": workflow, "pre-commit-config.yaml": preCommit} {
		if want := "```yaml\n" + withoutComments(file) + "```\n"; !strings.Contains(docs, want) {
			t.Errorf("docs/ci.md does not show examples/ci/%s as it is, less its comments:\n%s", name, want)
		}
	}
}

// withoutComments is YAML without its comment lines and end-of-line
// comments (the examples hold no "#" in a value).
func withoutComments(yaml string) string {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSuffix(yaml, "\n"), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		line, _, _ = strings.Cut(line, " #")
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	return b.String()
}
