// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPreCommitHook runs the queuecap-lint hook of .pre-commit-hooks.yaml
// with the real pre-commit, as a user's repository would: `pre-commit
// try-repo` against a Git repository holding this working tree, on a
// repository whose roots lint clean, then on one with findings. pre-commit
// builds the hook with `go install ./...` in an environment of its own
// (PRE_COMMIT_HOME, a temporary folder), reading modules from this
// machine's module cache or the proxy.
func TestPreCommitHook(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the module inside pre-commit")
	}
	preCommit, err := exec.LookPath("pre-commit")
	if err != nil {
		t.Skip("pre-commit is not installed (apt-get install pre-commit; .ci/run installs it)")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	hooks := gitRepo(t, trackedFiles(t, "../.."))

	// The examples of examples/lint: good/ lints clean and bad/ has a
	// finding per rule with the queue blocks of its queuecap.hcl, which the
	// roots of the files passed read from the repository's root.
	examples := map[string]string{".queuecap.hcl": "../../examples/lint/queuecap.hcl"}
	for _, name := range []string{"good", "bad"} {
		entries, err := os.ReadDir("../../examples/lint/" + name)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			examples[name+"/"+e.Name()] = "../../examples/lint/" + name + "/" + e.Name()
		}
	}
	user := t.TempDir()
	gitInit(t, user)
	env := append(os.Environ(),
		"PRE_COMMIT_HOME="+t.TempDir(),
		"PRE_COMMIT_COLOR=never",
		"GOMODCACHE="+goEnv(t, "GOMODCACHE"), // else pre-commit's GOPATH downloads every module again
	)
	tryRepo := func(t *testing.T) (string, error) {
		t.Helper()
		cmd := exec.Command(preCommit, "try-repo", hooks, "queuecap-lint", "--all-files", "--verbose")
		cmd.Dir, cmd.Env = user, env
		start := time.Now()
		out, err := cmd.CombinedOutput()
		t.Logf("pre-commit try-repo took %s", time.Since(start).Round(100*time.Millisecond))
		return string(out), err
	}

	t.Run("passing", func(t *testing.T) {
		addFiles(t, user, examples, ".queuecap.hcl", "good/")
		out, err := tryRepo(t)
		if err != nil || !strings.Contains(out, "queuecap lint") || !strings.Contains(out, "Passed") {
			t.Fatalf("want the hook to pass: %v\n%s", err, out)
		}
	})
	t.Run("failing", func(t *testing.T) {
		addFiles(t, user, examples, "bad/")
		out, err := tryRepo(t)
		if err == nil || !strings.Contains(out, "Failed") || !strings.Contains(out, "exit code: 2") {
			t.Fatalf("want the hook to fail with exit code 2: %v\n%s", err, out)
		}
		// queuecap_zero_surplus fires only with the rates of .queuecap.hcl.
		for _, want := range []string{"bad/orders.tf", "queuecap_zero_surplus", "8 issue(s)"} {
			if !strings.Contains(out, want) {
				t.Errorf("no %q in the hook's output:\n%s", want, out)
			}
		}
		if strings.Contains(out, "good/") {
			t.Errorf("findings in good/:\n%s", out)
		}
	})
}

// trackedFiles lists the files of the working tree at root that Git tracks
// or would track (untracked but not ignored), as paths relative to root.
func trackedFiles(t *testing.T, root string) map[string]string {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("not a Git checkout: %v", err)
	}
	files := map[string]string{}
	for _, name := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		if _, err := os.Stat(filepath.Join(root, name)); err == nil { // not deleted
			files[name] = filepath.Join(root, name)
		}
	}
	return files
}

// gitRepo is a new Git repository with one commit of files (name in the
// repository: path to copy).
func gitRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	gitInit(t, dir)
	addFiles(t, dir, files, "")
	git(t, dir, "commit", "-q", "-m", "the working tree")
	return dir
}

func gitInit(t *testing.T, dir string) {
	t.Helper()
	git(t, dir, "init", "-q")
}

// addFiles copies the files whose names start with one of prefixes into
// the repository at dir and stages them.
func addFiles(t *testing.T, dir string, files map[string]string, prefixes ...string) {
	t.Helper()
	for name, src := range files {
		if !hasAnyPrefix(name, prefixes) {
			continue
		}
		content, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		info, err := os.Stat(src)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, content, info.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	git(t, dir, "add", "-A")
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=queuecap test", "-c", "user.email=test@queuecap.invalid", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out))
}
