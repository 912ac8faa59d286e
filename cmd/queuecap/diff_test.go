// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"archive/tar"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/queuecap/terraform-provider-queuecap/internal/lintdiff"
)

// diffFleet is a queue of 10,000 msg/s with a 5,000,000-message backlog
// and its workers at 400 msg/s each, MAX of them.
const diffFleet = `resource "aws_sqs_queue" "orders" {
  name                      = "orders"
  message_retention_seconds = 1209600
  redrive_policy = jsonencode({
    deadLetterTargetArn = aws_sqs_queue.orders_dlq.arn
    maxReceiveCount     = 5
  })
  tags = {
    "queuecap:arrival_rate" = "10000"
    "queuecap:max_backlog"  = "5000000"
  }
}

resource "aws_sqs_queue" "orders_dlq" {
  name = "orders-dlq" # queuecap-ignore: queuecap_zero_surplus
}

resource "aws_autoscaling_group" "workers" {
  min_size = 2
  max_size = MAX
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = "400"
    propagate_at_launch = false
  }
}
`

// diffRepo is a git repository whose first commit has app/main.tf with 32
// workers and whose second lowers them to 25; the working directory is
// changed to it.
func diffRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		c := exec.Command("git", append([]string{"-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "commit.gpgsign=false"}, args...)...)
		c.Dir = repo
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(size string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(repo, "app"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, "app", "main.tf"), []byte(strings.Replace(diffFleet, "MAX", size, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	write("32")
	git("add", "-A")
	git("commit", "-q", "-m", "32 workers")
	write("25")
	git("commit", "-q", "-a", "-m", "25 workers")
	t.Chdir(repo)
	return repo
}

func runQueuecap(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestDiff: `queuecap diff` between two revisions, a revision and the
// working tree, two directories and two JSON reports says the same: the
// change lowers max consumers from 32 to 25, the surplus goes from 2,800
// to 0 msg/s, the backlog never drains, and two findings are new.
func TestDiff(t *testing.T) {
	doc, err := os.ReadFile("../../docs/rules/README.md")
	if err != nil {
		t.Fatal(err)
	}
	repo := diffRepo(t)
	const headline = "aws_sqs_queue.orders (app): lowers max consumers from 32 to 25: surplus 2,800 → 0 msg/s, the 5,000,000-message backlog never drains (it drained in 29 min 46 s)"

	code, out, errOut := runQueuecap("diff", "HEAD~1", "HEAD", "app")
	if code != exitFindings || !strings.Contains(out, headline) || !strings.Contains(out, "New findings (2):") ||
		!strings.Contains(out, "Error: app/main.tf:20: max_size 25 cannot drain any backlog: raise it to 26 (queuecap_zero_surplus)") {
		t.Fatalf("diff HEAD~1 HEAD app: exit %d, want 2 and the headline and 2 new findings:\n%s%s", code, out, errOut)
	}
	revs := out
	// The session docs/rules/README.md shows is this one.
	_, section, _ := strings.Cut(string(doc), "\n### Comparing two runs\n")
	_, session, _ := strings.Cut(section, "```console\n$ queuecap diff HEAD~1 HEAD app\n")
	if want := revs + "$ echo $?\n2\n```"; !strings.HasPrefix(session, want) {
		t.Errorf("docs/rules/README.md's diff session is not the output:\n%s\n--- docs ---\n%.1500s", want, session)
	}

	// The working tree against a revision: the second commit undone in
	// the working tree raises the fleet back, and fixes both findings.
	if err := os.WriteFile(filepath.Join(repo, "app", "main.tf"), []byte(strings.Replace(diffFleet, "MAX", "32", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runQueuecap("diff", "HEAD", ".", "app")
	if code != exitOK || !strings.Contains(out, "raises max consumers from 25 to 32: surplus 0 → 2,800 msg/s, the 5,000,000-message backlog now drains in 29 min 46 s (it never drained)") ||
		!strings.Contains(out, "Fixed findings (2):") || !strings.Contains(out, "New findings: none") {
		t.Errorf("diff HEAD . app: exit %d, want 0, the fleet raised and two fixed findings:\n%s", code, out)
	}

	// Two directories, and two JSON reports of queuecap lint.
	dirs := t.TempDir()
	for name, size := range map[string]string{"base": "32", "head": "25"} {
		if err := os.MkdirAll(filepath.Join(dirs, name, "app"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dirs, name, "app", "main.tf"), []byte(strings.Replace(diffFleet, "MAX", size, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, _ = runQueuecap("diff", filepath.Join(dirs, "base"), filepath.Join(dirs, "head"), "app")
	if code != exitFindings || out != revs {
		t.Errorf("diff of two directories: exit %d, and it says otherwise than the revisions:\n%s\n--- revisions ---\n%s", code, out, revs)
	}
	for _, name := range []string{"base", "head"} {
		t.Chdir(filepath.Join(dirs, name))
		_, report, _ := runQueuecap("lint", "--format", "json", "app")
		if err := os.WriteFile(filepath.Join(dirs, name+".json"), []byte(report), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(repo)
	code, out, errOut = runQueuecap("diff", filepath.Join(dirs, "base.json"), filepath.Join(dirs, "head.json"))
	if code != exitFindings || out != revs {
		t.Errorf("diff of two JSON reports: exit %d, and it says otherwise than the revisions:\n%s%s\n--- revisions ---\n%s", code, out, errOut, revs)
	}

	// A report and a directory: lint's notices (an unused ignore) are on
	// both sides, so they are neither new nor fixed.
	code, out, errOut = runQueuecap("diff", filepath.Join(dirs, "head.json"), filepath.Join(dirs, "head"), "app")
	if code != exitOK || !strings.Contains(out, "New findings: none\n\nFixed findings: none\n") {
		t.Errorf("diff of a report and the directory it was made from: exit %d, want 0 and no change:\n%s%s", code, out, errOut)
	}

	// From a subdirectory, DIR defaults to it, in each revision too.
	t.Chdir(filepath.Join(repo, "app"))
	code, out, _ = runQueuecap("diff", "HEAD~1", "HEAD", "--force", "--format", "json")
	var d struct {
		New      []json.RawMessage `json:"new"`
		Capacity []struct {
			Root    string   `json:"root"`
			Changed []string `json:"changed"`
		} `json:"capacity"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil || code != exitOK || len(d.New) != 2 || len(d.Capacity) != 1 || d.Capacity[0].Root != "." {
		t.Errorf("diff --force --format json from app/: exit %d (%v), want 0, 2 new findings and the queue of root \".\":\n%s", code, err, out)
	}
}

// TestDiffErrors: what diff cannot compare is an error naming the
// argument and the reason, exit 1.
func TestDiffErrors(t *testing.T) {
	repo := diffRepo(t)
	report := filepath.Join(t.TempDir(), "r.json")
	if err := os.WriteFile(report, []byte(`{"issues":[],"capacity":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"diff", "HEAD"}, "diff takes BASE and HEAD"},
		{[]string{"diff", "no-such-rev", "HEAD"}, "BASE no-such-rev: not a file, a directory or a git revision"},
		{[]string{"diff", report, report, "app"}, "two JSON reports hold their runs: DIR arguments apply to directories and revisions"},
		{[]string{"diff", "HEAD~1", "HEAD", "../outside"}, "../outside: a DIR is relative to BASE and HEAD, and inside them"},
		{[]string{"diff", "--format", "markdwn", "HEAD~1", "HEAD"}, `unknown format "markdwn": did you mean markdown?`},
		{[]string{"diff", "HEAD~1", filepath.Join(repo, "app", "main.tf")}, "HEAD " + filepath.Join(repo, "app", "main.tf") + ": not a JSON report of queuecap lint"},
	} {
		code, out, errOut := runQueuecap(tt.args...)
		if code != exitError || out != "" || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 1, nothing and %q", tt.args, code, out, errOut, tt.want)
		}
	}
}

// TestPullRequestCommentWorkflow runs the steps of the comment workflow
// users copy, examples/ci/github-pr-comment.yml, as the runner would
// (bash -eo pipefail), on a pull request's merge commit: its diff step
// writes the comment, and its post step posts it the first time and
// edits the comment it finds by queuecap diff's marker after that. The
// GitHub CLI is a stand-in on PATH that records its calls and plays the
// comments the API would list: GitHub's API cannot be reached here.
func TestPullRequestCommentWorkflow(t *testing.T) {
	bin := buildCLI(t, "")
	src, err := os.ReadFile("../../examples/ci/github-pr-comment.yml")
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		Jobs map[string]struct {
			Steps []struct {
				Name string            `yaml:"name"`
				Run  string            `yaml:"run"`
				Env  map[string]string `yaml:"env"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(src, &wf); err != nil {
		t.Fatal(err)
	}
	steps := map[string]string{}
	for _, s := range wf.Jobs["comment"].Steps {
		if s.Run != "" {
			steps[s.Name] = s.Run
		}
	}
	compare, post := steps["Compare the pull request with its base"], steps["Post the comment, or edit the one posted before"]
	if compare == "" || post == "" {
		t.Fatalf("the workflow's steps are not the ones this test runs: %v", steps)
	}
	if !strings.Contains(post, `startswith("`+lintdiff.Marker+`")`) {
		t.Errorf("the post step does not find its comment by queuecap diff's marker %q:\n%s", lintdiff.Marker, post)
	}

	// A pull request's merge commit: its first parent is the base.
	repo := diffRepo(t) // its second commit lowers the workers to 25
	git := func(args ...string) {
		t.Helper()
		c := exec.Command("git", append([]string{"-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "commit.gpgsign=false"}, args...)...)
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("branch", "feature")
	git("reset", "-q", "--hard", "HEAD~1")
	git("merge", "-q", "--no-ff", "-m", "Merge feature", "feature")

	fake := t.TempDir()
	gh := "#!/bin/sh\n" +
		"echo \"$*\" >> \"$GH_LOG\"\n" +
		"case \"$*\" in\n" +
		"*--paginate*) cat \"$GH_EXISTING\" ;;\n" +
		"*body=@*) for a; do case \"$a\" in body=@*) cp \"${a#body=@}\" \"$GH_LOG.body\" ;; esac; done; echo '{}' ;;\n" +
		"esac\n"
	if err := os.WriteFile(filepath.Join(fake, "gh"), []byte(gh), 0o755); err != nil {
		t.Fatal(err)
	}
	runStep := func(script, existing string) (log, body string) {
		t.Helper()
		logFile, existingFile := filepath.Join(t.TempDir(), "gh.log"), filepath.Join(t.TempDir(), "existing")
		if err := os.WriteFile(existingFile, []byte(existing), 0o644); err != nil {
			t.Fatal(err)
		}
		c := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script)
		c.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+fake+string(os.PathListSeparator)+os.Getenv("PATH"),
			"GH_LOG="+logFile, "GH_EXISTING="+existingFile, "GH_TOKEN=token", "REPO=acme/infra", "PR=7")
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("the step fails: %v\n%s\n%s", err, out, script)
		}
		l, _ := os.ReadFile(logFile)
		b, _ := os.ReadFile(logFile + ".body")
		return string(l), string(b)
	}

	runStep(compare, "")
	comment, err := os.ReadFile(filepath.Join(repo, "queuecap-diff.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(comment), lintdiff.Marker+"\n### queuecap diff: 2 new findings, capacity of 1 queue changed") ||
		!strings.Contains(string(comment), "lowers max consumers from 32 to 25") {
		t.Errorf("the comment the diff step writes:\n%s", comment)
	}
	log, body := runStep(post, "")
	if !strings.Contains(log, "api --method POST repos/acme/infra/issues/7/comments -F body=@queuecap-diff.md") || body != string(comment) {
		t.Errorf("with no comment yet the step does not post one with the diff:\n%s\n--- body ---\n%s", log, body)
	}
	log, body = runStep(post, "42\n")
	if !strings.Contains(log, "api --method PATCH repos/acme/infra/issues/comments/42 -F body=@queuecap-diff.md") || strings.Contains(log, "POST") || body != string(comment) {
		t.Errorf("with its comment there the step does not edit it:\n%s", log)
	}
}

// TestExtractTar: a revision's checkout writes nothing outside its
// directory: not a path out of it, not a file below a symbolic link.
func TestExtractTar(t *testing.T) {
	tarOf := func(entries ...*tar.Header) *bytes.Buffer {
		var b bytes.Buffer
		tw := tar.NewWriter(&b)
		for _, h := range entries {
			if err := tw.WriteHeader(h); err != nil {
				t.Fatal(err)
			}
			if h.Typeflag == tar.TypeReg {
				if _, err := tw.Write(make([]byte, h.Size)); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := tw.Close(); err != nil {
			t.Fatal(err)
		}
		return &b
	}
	outside := t.TempDir()
	for name, archive := range map[string]*bytes.Buffer{
		"a path out of it": tarOf(&tar.Header{Name: "../escape.tf", Typeflag: tar.TypeReg, Size: 1, Mode: 0o644}),
		"an absolute path": tarOf(&tar.Header{Name: filepath.Join(outside, "abs.tf"), Typeflag: tar.TypeReg, Size: 1, Mode: 0o644}),
		"a file below a link": tarOf(&tar.Header{Name: "d", Typeflag: tar.TypeSymlink, Linkname: outside},
			&tar.Header{Name: "d/evil.tf", Typeflag: tar.TypeReg, Size: 1, Mode: 0o644}),
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := extractTar(archive, dir); err == nil {
				t.Error("no error")
			}
			if entries, _ := os.ReadDir(outside); len(entries) > 0 {
				t.Errorf("wrote %s outside the checkout", entries[0].Name())
			}
		})
	}
	dir := t.TempDir()
	if err := extractTar(tarOf(&tar.Header{Name: "app/", Typeflag: tar.TypeDir, Mode: 0o755},
		&tar.Header{Name: "app/main.tf", Typeflag: tar.TypeReg, Size: 3, Mode: 0o644}), dir); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(filepath.Join(dir, "app", "main.tf")); err != nil || info.Size() != 3 {
		t.Errorf("a regular tree: %v", err)
	}
}

// TestDiffSkipDirs: with --recursive, each side walks as its own
// .queuecap.hcl says: a folder its skip_dirs names is not linted.
func TestDiffSkipDirs(t *testing.T) {
	dirs := t.TempDir()
	for name, size := range map[string]string{"base": "32", "head": "25"} {
		for _, sub := range []string{"app", "vendor/app"} {
			if err := os.MkdirAll(filepath.Join(dirs, name, sub), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dirs, name, sub, "main.tf"), []byte(strings.Replace(diffFleet, "MAX", size, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dirs, name, ".queuecap.hcl"), []byte("config {\n  skip_dirs = [\"vendor\"]\n}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := runQueuecap("diff", "--recursive", filepath.Join(dirs, "base"), filepath.Join(dirs, "head"))
	if code != exitFindings || !strings.Contains(out, "Capacity: 1 queue changed") || strings.Contains(out, "vendor") {
		t.Errorf("diff --recursive with skip_dirs = [\"vendor\"]: exit %d, want 2 and app's queue alone:\n%s%s", code, out, errOut)
	}
}
