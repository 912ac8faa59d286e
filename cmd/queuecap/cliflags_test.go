// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// jsonIssues is what the tests here read of --format json.
type jsonIssues struct {
	Issues []struct {
		Rule  string
		Range struct{ Filename string }
	}
}

// lintJSON runs queuecap lint --format json with args in the working
// directory, exiting 0 or 2.
func lintJSON(t *testing.T, args ...string) jsonIssues {
	t.Helper()
	code, stdout, stderr := cli(t, "", append([]string{"lint", "--format", "json"}, args...)...)
	if code == exitError {
		t.Fatalf("lint %v: exit 1: %s", args, stderr)
	}
	var res jsonIssues
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	return res
}

// queueTF is a queue nothing consumes: one coverage skip, no finding.
const queueTF = `resource "aws_sqs_queue" "q" {
  name = "q"
}
`

// TestVarValueErrorAlone: a --var value that does not fit its variable's
// type is the run's message; the root module declares a queue, so no line
// says that the configuration declares none.
func TestVarValueErrorAlone(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"main.tf": "variable \"max\" {\n  type = number\n}\n\n" + queueTF})
	const want = `main.tf:1:1: Error - Invalid value for input variable: unsuitable value for var.max set using --var="max=..." (declared at main.tf:1): a number is required; the root module is not checked until the value fits` + "\n"
	code, stdout, stderr := cli(t, dir, "lint", "--format", "compact", "--var", "max=abc")
	if code != exitError || stdout != want || stderr != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and stdout %q", code, stdout, stderr, want)
	}
	code, stdout, _ = cli(t, "", "lint", "--no-color", "--var", "max=abc")
	if code != exitError || !strings.Contains(stdout, "Invalid value for input variable") || strings.Contains(stdout, "No aws_sqs_queue was checked") {
		t.Errorf("the default format says no queue was declared:\n%s", stdout)
	}
}

// TestCompactShowSkipped: --show-skipped lists the skipped checks in the
// compact format too, one line each, and the count no longer points at
// the flag given.
func TestCompactShowSkipped(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"main.tf": queueTF})
	code, stdout, _ := cli(t, dir, "lint", "--format", "compact", "--show-skipped")
	if code != exitOK {
		t.Errorf("exit %d, want 0", code)
	}
	const skip = "main.tf:1:1: Skipped - in aws_sqs_queue.q: no consumer of aws_sqs_queue.q is linked"
	if !strings.HasPrefix(stdout, skip) || !strings.HasSuffix(stdout, "(coverage)\n1 check skipped\n") {
		t.Errorf("compact --show-skipped output:\n%s\nwant it to start %q and end with the count alone", stdout, skip)
	}
	_, stdout, _ = cli(t, "", "lint", "--format", "compact")
	if stdout != "1 check skipped: --show-skipped lists them\n" {
		t.Errorf("compact output without --show-skipped: %q", stdout)
	}
}

// TestColor: --color always and never, --no-color, NO_COLOR and
// FORCE_COLOR, in that order of precedence; standard output here is no
// terminal, so auto is off unless FORCE_COLOR says otherwise.
func TestColor(t *testing.T) {
	cases := []struct {
		name string
		env  map[string]string
		args []string
		want bool // ANSI escapes in the output
	}{
		{"auto, not a terminal", nil, nil, false},
		{"--color always", nil, []string{"--color", "always"}, true},
		{"--color always beats NO_COLOR", map[string]string{"NO_COLOR": "1"}, []string{"--color=always"}, true},
		{"FORCE_COLOR", map[string]string{"FORCE_COLOR": "1"}, nil, true},
		{"FORCE_COLOR empty", map[string]string{"FORCE_COLOR": ""}, nil, false},
		{"NO_COLOR beats FORCE_COLOR", map[string]string{"NO_COLOR": "1", "FORCE_COLOR": "1"}, nil, false},
		{"--color never beats FORCE_COLOR", map[string]string{"FORCE_COLOR": "1"}, []string{"--color", "never"}, false},
		{"--no-color beats FORCE_COLOR", map[string]string{"FORCE_COLOR": "1"}, []string{"--no-color"}, false},
	}
	dir := t.TempDir()
	write(t, dir, map[string]string{"main.tf": warningTF})
	t.Chdir(dir)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("NO_COLOR", "")
			t.Setenv("FORCE_COLOR", "")
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			code, stdout, stderr := cli(t, "", append([]string{"lint"}, c.args...)...)
			if code != exitFindings {
				t.Fatalf("exit %d, want 2: %s", code, stderr)
			}
			if got := strings.Contains(stdout, "\x1b["); got != c.want {
				t.Errorf("colored %v, want %v:\n%q", got, c.want, stdout)
			}
		})
	}
	for _, args := range [][]string{{"--color", "sometimes"}, {"--no-color", "--color", "always"}} {
		code, stdout, stderr := cli(t, "", append([]string{"lint"}, args...)...)
		if code != exitError || stdout != "" || !strings.Contains(stderr, "--color") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want an error about --color", args, code, stdout, stderr)
		}
	}
}

// TestForceInConfig: force = true in config {} exits 0 on findings, as
// --force does, and a flag given still wins over the file's setting of
// it only where it is set (--force=false).
func TestForceInConfig(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"main.tf": warningTF, ".queuecap.hcl": "config {\n  force = true\n}\n"})
	if code, _, stderr := cli(t, dir, "lint"); code != exitOK {
		t.Errorf("force = true: exit %d, want 0 (%s)", code, stderr)
	}
	if code, _, _ := cli(t, "", "lint", "--force=false"); code != exitFindings {
		t.Errorf("force = true, --force=false: exit %d, want 2", code)
	}
	write(t, dir, map[string]string{".queuecap.hcl": "config {\n  force = \"yes please\"\n}\n"})
	if code, _, stderr := cli(t, "", "lint"); code != exitError || !strings.Contains(stderr, "force must be a bool") {
		t.Errorf("force = \"yes please\": exit %d, stderr %q; want 1 and why", code, stderr)
	}
}

// noRedrive is errorTF without its redrive policy: one finding each of
// queuecap_zero_surplus and queuecap_missing_dead_letter_queue.
func noRedrive(t *testing.T) string {
	t.Helper()
	var kept []string
	for _, line := range strings.Split(errorTF, "\n") {
		if !strings.Contains(line, "redrive_policy") {
			kept = append(kept, line)
		}
	}
	if len(kept) == len(strings.Split(errorTF, "\n")) {
		t.Fatal("errorTF has no redrive_policy line")
	}
	return strings.Join(kept, "\n")
}

// TestOnly: --only runs the rules it names and no other, even one the
// config file or --enable-rule enables; a misspelled ID is an error with
// the nearest one.
func TestOnly(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"main.tf": noRedrive(t),
		".queuecap.hcl": "rule \"queuecap_missing_dead_letter_queue\" {\n  enabled = true\n}\n"})
	rulesOf := func(args ...string) []string {
		t.Helper()
		var out []string
		for _, is := range lintJSON(t, args...).Issues {
			out = append(out, is.Rule)
		}
		return out
	}
	t.Chdir(dir)
	if got := rulesOf(); !slices.Contains(got, "queuecap_missing_dead_letter_queue") || !slices.Contains(got, "queuecap_zero_surplus") {
		t.Fatalf("without --only the rules found are %v", got)
	}
	if got := rulesOf("--only", "queuecap_zero_surplus", "--enable-rule", "queuecap_missing_dead_letter_queue"); !slices.Equal(got, []string{"queuecap_zero_surplus"}) {
		t.Errorf("--only queuecap_zero_surplus: rules %v", got)
	}
	if got := rulesOf("--only", "queuecap_zero_surplus", "--only", "queuecap_missing_dead_letter_queue"); len(got) < 2 {
		t.Errorf("--only twice: rules %v, want both", got)
	}
	code, stdout, stderr := cli(t, "", "lint", "--only", "queuecap_zero_surplsu")
	if code != exitError || stdout != "" || !strings.Contains(stderr, `unknown rule ID "queuecap_zero_surplsu" in --only: did you mean queuecap_zero_surplus?`) {
		t.Errorf("misspelled --only: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestSkipDir: with --recursive, node_modules is skipped as hidden
// folders are, and --skip-dir and skip_dirs skip folders by name or by
// their path below the directory linted.
func TestSkipDir(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"live/main.tf":                warningTF,
		"node_modules/pkg/main.tf":    warningTF,
		".terragrunt-cache/x/main.tf": warningTF,
		"vendor/mod/main.tf":          warningTF,
		"envs/prod/legacy/main.tf":    warningTF,
		"envs/prod/main.tf":           warningTF,
		"deep/a/fixtures/main.tf":     warningTF,
		"other/vendor/main.tf":        warningTF,
	})
	t.Chdir(dir)
	files := func(args ...string) []string {
		t.Helper()
		var out []string
		for _, is := range lintJSON(t, append([]string{"--recursive"}, args...)...).Issues {
			out = append(out, filepath.ToSlash(is.Range.Filename))
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	all := []string{"deep/a/fixtures/main.tf", "envs/prod/legacy/main.tf", "envs/prod/main.tf", "live/main.tf", "other/vendor/main.tf", "vendor/mod/main.tf"}
	if got := files(); !slices.Equal(got, all) {
		t.Errorf("--recursive lints %v, want %v (node_modules and hidden folders skipped)", got, all)
	}
	if got, want := files("--skip-dir", "vendor/**", "--skip-dir", "envs/*/legacy", "--skip-dir", "fix*"), []string{"envs/prod/main.tf", "live/main.tf", "other/vendor/main.tf"}; !slices.Equal(got, want) {
		t.Errorf("--skip-dir vendor/** envs/*/legacy fix*: lints %v, want %v", got, want)
	}
	if got, want := files("--skip-dir", "vendor"), []string{"deep/a/fixtures/main.tf", "envs/prod/legacy/main.tf", "envs/prod/main.tf", "live/main.tf"}; !slices.Equal(got, want) {
		t.Errorf("--skip-dir vendor: lints %v, want %v", got, want)
	}
	write(t, dir, map[string]string{".queuecap.hcl": "config {\n  skip_dirs = [\"**/fixtures\", \"envs\"]\n}\n"})
	if got, want := files("--skip-dir", "other"), []string{"live/main.tf", "vendor/mod/main.tf"}; !slices.Equal(got, want) {
		t.Errorf("skip_dirs and --skip-dir: lints %v, want %v", got, want)
	}
	code, _, stderr := cli(t, "", "lint", "--recursive", "--skip-dir", "[")
	if code != exitError || !strings.Contains(stderr, "--skip-dir: [: malformed pattern") {
		t.Errorf("--skip-dir [: exit %d, stderr %q", code, stderr)
	}
}

// TestTFDataDir: the installed modules are read from TF_DATA_DIR as
// Terraform reads it, relative to each root module (and not walked into
// as roots by --recursive); one outside the reading boundary is not read,
// and an error says so.
func TestTFDataDir(t *testing.T) {
	t.Setenv("TF_DATA_DIR", "")
	base := t.TempDir()
	repo, outside := filepath.Join(base, "repo"), filepath.Join(base, "outside")
	manifest := func(dir string) string {
		return `{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"q","Source":"registry.terraform.io/acme/queue/aws","Version":"1.0.0","Dir":` + strconv.Quote(dir) + `}]}`
	}
	write(t, repo, map[string]string{
		".git/HEAD":                            "ref: refs/heads/main\n",
		"live/main.tf":                         "module \"q\" {\n  source = \"acme/queue/aws\"\n}\n",
		"live/tfdata/modules/modules.json":     manifest("tfdata/modules/q"),
		"live/tfdata/modules/q/main.tf":        warningTF,
		"live/.terraform/modules/modules.json": manifest(".terraform/modules/q"),
		"live/.terraform/modules/q/main.tf":    queueTF,
	})
	write(t, outside, map[string]string{
		"modules/modules.json": manifest(filepath.Join(outside, "modules", "q")),
		"modules/q/main.tf":    warningTF,
	})
	const finding = "main.tf:1:1: Warning - in module.q.aws_sqs_queue.orders: no redrive_policy"
	t.Chdir(filepath.Join(repo, "live"))
	if code, stdout, _ := cli(t, "", "lint", "--format", "compact"); code != exitOK || strings.Contains(stdout, finding) {
		t.Errorf("without TF_DATA_DIR, .terraform's module: exit %d\n%s", code, stdout)
	}
	t.Setenv("TF_DATA_DIR", "tfdata")
	if code, stdout, _ := cli(t, "", "lint", "--format", "compact"); code != exitFindings || !strings.HasPrefix(stdout, finding) {
		t.Errorf("TF_DATA_DIR=tfdata: exit %d, want 2 and %q\n%s", code, finding, stdout)
	}
	t.Chdir(repo)
	if code, stdout, _ := cli(t, "", "lint", "--format", "compact", "--recursive"); code != exitFindings || !strings.HasPrefix(stdout, "live/"+finding) || strings.Count(stdout, "Warning") != 1 {
		t.Errorf("TF_DATA_DIR=tfdata --recursive: exit %d, want 2 and one finding, %q\n%s", code, "live/"+finding, stdout)
	}
	t.Setenv("TF_DATA_DIR", filepath.Join(outside, "modules", ".."))
	code, stdout, _ := cli(t, "", "lint", "--format", "compact", "live")
	if code != exitError || strings.Contains(stdout, "Warning") || !strings.Contains(stdout, "modules.json:1:1: Error - Cannot read file: it resolves to "+filepath.Join(outside, "modules", "modules.json")+", outside "+repo) {
		t.Errorf("TF_DATA_DIR outside the boundary: exit %d, want 1, no finding and why\n%s", code, stdout)
	}
}

// TestChdir: --chdir DIR without --plan lints as if run in DIR, as
// tflint's --chdir: DIR is what is linted, its .queuecap.hcl sets the
// run, and relative --var-file, --output and DIR arguments are found from
// there, while findings name files from where queuecap runs.
func TestChdir(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"infra/main.tf":       errorTF,
		"infra/.queuecap.hcl": "config {\n  format = \"compact\"\n}\n",
		"infra/big.tfvars":    "max_size = 30\n",
		"infra/sub/main.tf":   warningTF,
		".queuecap.hcl":       "config {\n  format = \"json\"\n}\n",
	})
	t.Chdir(dir)
	code, stdout, stderr := cli(t, "", "lint", "--chdir", "infra")
	if code != exitFindings || !strings.HasPrefix(stdout, "infra/main.tf:13:3: Error - in aws_autoscaling_group.workers: max_size 25 cannot drain") {
		t.Errorf("--chdir infra: exit %d, stderr %q, stdout:\n%s\nwant infra's finding, named from here, in infra's format (compact)", code, stderr, stdout)
	}
	if code, stdout, stderr := cli(t, "", "lint", "--chdir", "infra", "--var-file", "big.tfvars"); code != exitOK || strings.Contains(stdout, "Error") {
		t.Errorf("--chdir infra --var-file big.tfvars: exit %d, stderr %q, stdout:\n%s\nwant infra/big.tfvars read", code, stderr, stdout)
	}
	if code, stdout, stderr := cli(t, "", "lint", "--chdir", "infra", "sub"); code != exitFindings || !strings.HasPrefix(stdout, "infra/sub/main.tf:1:1: Warning") {
		t.Errorf("--chdir infra sub: exit %d, stderr %q, stdout:\n%s\nwant infra/sub linted", code, stderr, stdout)
	}
	if code, _, stderr := cli(t, "", "lint", "--chdir", "infra", "--output", "json=out.json"); code != exitFindings || !fileHas(t, "infra/out.json", `"filename":"infra/main.tf"`) {
		t.Errorf("--chdir infra --output json=out.json: exit %d, stderr %q; want infra/out.json", code, stderr)
	}
	// The baseline files are found from DIR too.
	if code, _, stderr := cli(t, "", "lint", "--chdir", "infra", "--write-baseline", "base.json"); code != exitOK || !fileHas(t, "infra/base.json", `"fingerprint"`) {
		t.Errorf("--chdir infra --write-baseline base.json: exit %d, stderr %q; want infra/base.json", code, stderr)
	}
	if code, stdout, stderr := cli(t, "", "lint", "--chdir", "infra", "--baseline", "base.json"); code != exitOK || strings.Contains(stdout, "Error -") {
		t.Errorf("--chdir infra --baseline base.json: exit %d, stderr %q, stdout:\n%s\nwant infra/base.json read and its finding left out", code, stderr, stdout)
	}
	if code, stdout, _ := cli(t, "", "lint", "--chdir", "infra", "--explain"); code != exitOK || !strings.HasPrefix(stdout, "root infra\n") {
		t.Errorf("--chdir infra --explain: exit %d, stdout:\n%s", code, stdout)
	}
	if code, stdout, stderr := cli(t, "", "lint", "--chdir", "nowhere"); code != exitError || stdout != "" || stderr != "Error: --chdir nowhere: no such directory\n" {
		t.Errorf("--chdir nowhere: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}

	// A root named by a file looks for its .queuecap.hcl up to DIR, not
	// up to where queuecap runs: this one's queue block is not read.
	dir = t.TempDir()
	write(t, dir, map[string]string{
		".queuecap.hcl":   "queue \"aws_sqs_queue.nope\" {\n  arrival_rate = 1\n}\n",
		"infra/a/main.tf": queueTF,
	})
	t.Chdir(dir)
	if code, stdout, _ := cli(t, "", "lint", "--chdir", "infra", "--format", "compact", "--show-skipped", "a/main.tf"); code != exitOK || strings.Contains(stdout, "aws_sqs_queue.nope") || !strings.HasPrefix(stdout, "infra/a/main.tf:1:1: Skipped") {
		t.Errorf("--chdir infra a/main.tf: exit %d, stdout:\n%s\nwant infra/a linted without the .queuecap.hcl above infra", code, stdout)
	}
}

// fileHas reports whether the file at path holds want.
func fileHas(t *testing.T, path, want string) bool {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Log(err)
		return false
	}
	return strings.Contains(string(b), want)
}
