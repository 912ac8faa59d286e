// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestGitHubAction runs the step of action.yml, tools/github-action.sh, as
// the runner would, with GitHub's files in temporary folders, on a
// workspace holding examples/lint: bad/ fails with its nine findings in
// SARIF, annotations and the log, good/ passes. queuecap comes from a
// release served on loopback, as GitHub serves release downloads, built
// from this tree and checked against its SHA256SUMS, with no Go on PATH;
// or, with version source, is built with Go from the action's source.
func TestGitHubAction(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the CLI")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	_, _, runnerOS, runnerArch := releasePlatform(t)
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
	// One lint run writes every report.
	if n := strings.Count(string(script), `"$queuecap" lint `); n != 1 {
		t.Errorf("tools/github-action.sh runs queuecap lint %d times, want once", n)
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

	// Release 9.8.7, and 6.6.6 whose archive is not the one its sums list.
	releases := t.TempDir()
	bin := buildRelease(t, "9.8.7")
	writeRelease(t, releases, "9.8.7", bin, false)
	writeRelease(t, releases, "6.6.6", bin, true)
	url, requests := releaseServer(t, releases)
	toolCache := t.TempDir() // the runner's, kept from one run to the next
	cached := filepath.Join(toolCache, "queuecap", "9.8.7", strings.ToLower(runnerArch))

	type step struct {
		code                   int
		log, output, path      string
		summary, sarif, runner string
		requests               int64
	}
	runStep := func(t *testing.T, env ...string) step {
		t.Helper()
		runner := t.TempDir()
		gh := func(name string) string { return filepath.Join(runner, name) }
		sarifPath := filepath.Join(workspace, "queuecap.sarif")
		if err := os.RemoveAll(sarifPath); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("bash", filepath.Join(root, "tools/github-action.sh"))
		cmd.Dir = workspace
		// Later entries win: a case's env overrides these.
		cmd.Env = append(os.Environ(),
			"GITHUB_ACTION_PATH="+root, "GITHUB_ACTION_REF=v9.8.7", "RUNNER_TEMP="+runner,
			"RUNNER_OS="+runnerOS, "RUNNER_ARCH="+runnerArch, "RUNNER_TOOL_CACHE="+toolCache,
			"GITHUB_OUTPUT="+gh("output"), "GITHUB_PATH="+gh("path"), "GITHUB_STEP_SUMMARY="+gh("summary"),
			"QUEUECAP_DOWNLOAD_URL="+url, "QUEUECAP_ARGS=--config ci/queuecap.hcl", "PATH="+pathWithoutGo(t))
		cmd.Env = append(cmd.Env, env...)
		before := requests.Load()
		out, err := cmd.CombinedOutput()
		s := step{log: string(out), runner: runner, requests: requests.Load() - before, code: exitCode(t, err)}
		read := func(p string) string {
			b, _ := os.ReadFile(p)
			return string(b)
		}
		s.output, s.path, s.summary = read(gh("output")), read(gh("path")), read(gh("summary"))
		s.sarif = read(sarifPath)
		return s
	}
	// checkFindings checks what a run on bad/ leaves: exit 2, nine
	// annotations, the log, SARIF linking to v9.8.7's docs, outputs,
	// queuecap on PATH and the job summary.
	checkFindings := func(t *testing.T, s step, version *regexp.Regexp) {
		t.Helper()
		if s.code != 2 {
			t.Fatalf("exit %d, want 2:\n%s", s.code, s.log)
		}
		if !version.MatchString(s.log) {
			t.Errorf("no version line %s in the log:\n%s", version, s.log)
		}
		for _, want := range []string{
			"::warning file=bad/orders.tf,line=",    // an annotation
			fmt.Sprintf("%d issue(s)", badFindings), // the default format
		} {
			if !strings.Contains(s.log, want) {
				t.Errorf("no %q in the log:\n%s", want, s.log)
			}
		}
		if n := strings.Count(s.log, "::warning ") + strings.Count(s.log, "::error "); n != badFindings {
			t.Errorf("%d annotations, want %d:\n%s", n, badFindings, s.log)
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
		if n := len(sarif.Runs[0].Results); n != badFindings {
			t.Errorf("%d SARIF results, want %d", n, badFindings)
		}
		if rules := sarif.Runs[0].Tool.Driver.Rules; len(rules) == 0 || !strings.Contains(rules[0].HelpURI, "/blob/v9.8.7/docs/rules/") {
			t.Errorf("rule links %+v, want the docs of v9.8.7", rules)
		}
		if s.output != "sarif-file=queuecap.sarif\nexit-code=2\n" {
			t.Errorf("GITHUB_OUTPUT:\n%s", s.output)
		}
		bin := strings.TrimSpace(s.path)
		if out, err := exec.Command(filepath.Join(bin, "queuecap"), "--version").Output(); err != nil || !version.Match(out) {
			t.Errorf("GITHUB_PATH %q: queuecap --version = %q, %v", bin, out, err)
		}
		if !strings.Contains(s.summary, "### queuecap lint") || !strings.Contains(s.summary, fmt.Sprintf("%d issue(s)", badFindings)) {
			t.Errorf("GITHUB_STEP_SUMMARY:\n%s", s.summary)
		}
	}
	released := regexp.MustCompile(`(?m)^queuecap v9\.8\.7 \(commit ` + releaseCommit + `\)$`)
	// checkFailed checks a run that installs nothing: exit 1 with a message.
	checkFailed := func(t *testing.T, s step, want string) {
		t.Helper()
		if s.code != 1 || !strings.Contains(s.log, "::error title=queuecap action::"+want) {
			t.Errorf("exit %d, want 1 and an error %q:\n%s", s.code, want, s.log)
		}
		if s.path != "" || s.output != "" || s.sarif != "" {
			t.Errorf("a failed install left GITHUB_PATH %q, GITHUB_OUTPUT %q, SARIF %q", s.path, s.output, s.sarif)
		}
	}

	t.Run("the release of the action's tag", func(t *testing.T) {
		s := runStep(t, "QUEUECAP_PATHS=bad")
		checkFindings(t, s, released)
		if s.requests != 2 || !strings.Contains(s.log, "queuecap 9.8.7 downloaded from "+url+"/v9.8.7, checked against queuecap_9.8.7_SHA256SUMS") {
			t.Errorf("%d requests, want the archive and the sums:\n%s", s.requests, s.log)
		}
		if got := strings.TrimSpace(s.path); got != cached {
			t.Errorf("GITHUB_PATH %q, want the tool cache's %q", got, cached)
		}
		if _, err := os.Stat(cached + ".complete"); err != nil {
			t.Errorf("no marker of a complete tool cache entry: %v", err)
		}
	})
	t.Run("from the tool cache", func(t *testing.T) {
		s := runStep(t, "QUEUECAP_PATHS=bad")
		checkFindings(t, s, released)
		if s.requests != 0 || !strings.Contains(s.log, "queuecap 9.8.7 from the tool cache, "+cached) {
			t.Errorf("%d requests, want none:\n%s", s.requests, s.log)
		}
	})
	t.Run("findings without failing, and more reports", func(t *testing.T) {
		s := runStep(t, "QUEUECAP_PATHS=bad", "QUEUECAP_FAIL_ON_FINDINGS=false",
			"QUEUECAP_ARGS=--config ci/queuecap.hcl --output junit=queuecap.xml")
		if s.code != 0 || !strings.Contains(s.output, "exit-code=2\n") {
			t.Errorf("exit %d, outputs %q; want 0 and exit-code=2:\n%s", s.code, s.output, s.log)
		}
		if b, err := os.ReadFile(filepath.Join(workspace, "queuecap.xml")); err != nil || strings.Count(string(b), "<failure") != badFindings {
			t.Errorf("queuecap.xml (%v) does not hold the %d findings:\n%s", err, badFindings, b)
		}
	})
	t.Run("clean", func(t *testing.T) {
		s := runStep(t, "QUEUECAP_PATHS=good")
		if s.code != 0 || strings.Contains(s.log, "::warning") || !strings.Contains(s.output, "exit-code=0\n") {
			t.Errorf("exit %d, outputs %q; want a clean run:\n%s", s.code, s.output, s.log)
		}
	})
	t.Run("a version at a branch", func(t *testing.T) {
		s := runStep(t, "QUEUECAP_PATHS=bad", "GITHUB_ACTION_REF=main", "QUEUECAP_VERSION=9.8.7", "RUNNER_TOOL_CACHE="+t.TempDir())
		checkFindings(t, s, released)
		if s.requests != 2 {
			t.Errorf("%d requests, want the archive and the sums", s.requests)
		}
	})
	t.Run("no version at a branch", func(t *testing.T) {
		s := runStep(t, "QUEUECAP_PATHS=bad", "GITHUB_ACTION_REF=main")
		checkFailed(t, s, "the action is used at main, not a release tag such as v0.1.0: set its input version to a release (version: v0.1.0), or to source")
	})
	t.Run("an archive that does not match the sums", func(t *testing.T) {
		cache := t.TempDir()
		s := runStep(t, "QUEUECAP_PATHS=bad", "QUEUECAP_VERSION=v6.6.6", "RUNNER_TOOL_CACHE="+cache)
		goos, goarch, _, _ := releasePlatform(t)
		archive := "queuecap_6.6.6_" + goos + "_" + goarch + ".tar.gz"
		checkFailed(t, s, archive+" from "+url+"/v6.6.6 does not match queuecap_6.6.6_SHA256SUMS: its SHA-256 is ")
		if !strings.Contains(s.log, "queuecap is not installed") {
			t.Errorf("the error does not say nothing was installed:\n%s", s.log)
		}
		if entries, _ := os.ReadDir(cache); len(entries) != 0 {
			t.Errorf("the tool cache holds %d entries, want none", len(entries))
		}
	})
	t.Run("a release that does not exist", func(t *testing.T) {
		s := runStep(t, "QUEUECAP_PATHS=bad", "QUEUECAP_VERSION=v7.7.7", "RUNNER_TOOL_CACHE="+t.TempDir())
		goos, goarch, _, _ := releasePlatform(t)
		checkFailed(t, s, "cannot download "+url+"/v7.7.7/queuecap_7.7.7_"+goos+"_"+goarch+".tar.gz: is v7.7.7 a queuecap release?")
	})
	t.Run("not a version", func(t *testing.T) {
		s := runStep(t, "QUEUECAP_PATHS=bad", "QUEUECAP_VERSION=latest")
		checkFailed(t, s, "version latest: want a release such as v0.1.0, or source")
	})
	t.Run("source", func(t *testing.T) {
		s := runStep(t, "QUEUECAP_PATHS=bad", "QUEUECAP_VERSION=source", "PATH="+os.Getenv("PATH"))
		// The build records its commit when Go can read the checkout's
		// VCS information (not with -buildvcs=false).
		checkFindings(t, s, regexp.MustCompile(`(?m)^queuecap v9\.8\.7( \(commit [0-9a-f]{7,40}\))?$`))
		if s.requests != 0 {
			t.Errorf("%d requests, want none", s.requests)
		}
		if bin := strings.TrimSpace(s.path); !strings.HasPrefix(bin, s.runner) {
			t.Errorf("queuecap built into %s, outside RUNNER_TEMP", bin)
		}
	})
	t.Run("source without Go", func(t *testing.T) {
		s := runStep(t, "QUEUECAP_PATHS=bad", "QUEUECAP_VERSION=source")
		checkFailed(t, s, "version source builds queuecap with Go, which is not on PATH")
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
