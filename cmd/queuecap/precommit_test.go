// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"bytes"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
)

// TestPreCommitHook runs the hooks of .pre-commit-hooks.yaml with the real
// pre-commit, as a user's repository would: its .pre-commit-config.yaml
// names a hook at a commit of a Git repository holding this working tree,
// and `pre-commit run` lints its files.
//   - queuecap-lint-system runs the queuecap of a release archive built
//     from this tree, on a PATH without Go: files of a clean root pass, a
//     changed .queuecap.hcl alone lints the roots that read it.
//   - queuecap-lint is built by pre-commit with `go install ./...`, once,
//     in an environment of its own (PRE_COMMIT_HOME, a temporary folder),
//     reading modules from this machine's module cache or the proxy: a
//     repository whose roots lint clean passes, then one with findings
//     fails.
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
	rev := gitHead(t, hooks)

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
	// userRepo is a new repository whose .pre-commit-config.yaml names
	// hook; run runs pre-commit there.
	userRepo := func(t *testing.T, hook string) string {
		t.Helper()
		dir := t.TempDir()
		gitInit(t, dir)
		write(t, dir, map[string]string{".pre-commit-config.yaml": "repos:\n  - repo: " + hooks + "\n    rev: " + rev +
			"\n    hooks:\n      - id: " + hook + "\n"})
		return dir
	}
	run := func(t *testing.T, dir string, env []string, args ...string) (string, error) {
		t.Helper()
		cmd := exec.Command(preCommit, append(append([]string{"run"}, args...), "--verbose")...)
		cmd.Dir, cmd.Env = dir, env
		start := time.Now()
		out, err := cmd.CombinedOutput()
		t.Logf("pre-commit run took %s", time.Since(start).Round(100*time.Millisecond))
		return string(out), err
	}

	t.Run("system", func(t *testing.T) {
		// queuecap from its release archive, as docs/ci.md installs it.
		bin := t.TempDir()
		archive := writeRelease(t, t.TempDir(), "9.8.7", buildRelease(t, "9.8.7"), false)
		if out, err := exec.Command("tar", "-xzf", archive, "-C", bin, "queuecap").CombinedOutput(); err != nil {
			t.Fatalf("tar: %v\n%s", err, out)
		}
		user := userRepo(t, "queuecap-lint-system")
		addFiles(t, user, examples, "")
		env := append(os.Environ(), "PRE_COMMIT_HOME="+t.TempDir(), "PRE_COMMIT_COLOR=never",
			"PATH="+bin+string(os.PathListSeparator)+pathWithoutGo(t))
		t.Run("files of a clean root", func(t *testing.T) {
			out, err := run(t, user, env, "--files", "good/orders.tf", "good/variables.tf")
			if err != nil || !strings.Contains(out, "Passed") {
				t.Fatalf("want the hook to pass: %v\n%s", err, out)
			}
		})
		// The repository's .queuecap.hcl declares the rates that make
		// bad/ fail: changed alone, it lints good/ and bad/, which read it.
		t.Run("a changed .queuecap.hcl", func(t *testing.T) {
			out, err := run(t, user, env, "--files", ".queuecap.hcl")
			if err == nil || !strings.Contains(out, "Failed") || !strings.Contains(out, "exit code: 2") {
				t.Fatalf("want the hook to fail with exit code 2: %v\n%s", err, out)
			}
			for _, want := range []string{"bad/orders.tf", "queuecap_zero_surplus", "9 issue(s)"} {
				if !strings.Contains(out, want) {
					t.Errorf("no %q in the hook's output:\n%s", want, out)
				}
			}
		})
		t.Run("every file", func(t *testing.T) {
			out, err := run(t, user, env, "--all-files")
			if err == nil || !strings.Contains(out, "9 issue(s)") {
				t.Fatalf("want the hook to fail with bad/'s 9 findings: %v\n%s", err, out)
			}
		})
	})

	t.Run("golang", func(t *testing.T) {
		user := userRepo(t, "queuecap-lint")
		env := append(os.Environ(),
			"PRE_COMMIT_HOME="+t.TempDir(),
			"PRE_COMMIT_COLOR=never",
			"GOMODCACHE="+goEnv(t, "GOMODCACHE"), // else pre-commit's GOPATH downloads every module again
		)
		t.Run("passing", func(t *testing.T) {
			addFiles(t, user, examples, ".queuecap.hcl", "good/")
			out, err := run(t, user, env, "--all-files")
			if err != nil || !strings.Contains(out, "queuecap lint") || !strings.Contains(out, "Passed") {
				t.Fatalf("want the hook to pass: %v\n%s", err, out)
			}
		})
		t.Run("failing", func(t *testing.T) {
			addFiles(t, user, examples, "bad/")
			out, err := run(t, user, env, "--all-files")
			if err == nil || !strings.Contains(out, "Failed") || !strings.Contains(out, "exit code: 2") {
				t.Fatalf("want the hook to fail with exit code 2: %v\n%s", err, out)
			}
			// queuecap_zero_surplus fires only with the rates of .queuecap.hcl.
			for _, want := range []string{"bad/orders.tf", "queuecap_zero_surplus", "9 issue(s)"} {
				if !strings.Contains(out, want) {
					t.Errorf("no %q in the hook's output:\n%s", want, out)
				}
			}
			if strings.Contains(out, "good/") {
				t.Errorf("findings in good/:\n%s", out)
			}
		})
	})
}

// TestPreCommitHookFiles holds the hooks of .pre-commit-hooks.yaml to one
// definition, and their files pattern (a Python regular expression that
// Go's reads the same) to the files queuecap lint takes.
func TestPreCommitHookFiles(t *testing.T) {
	content, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	type hook struct {
		ID, Name, Description, Entry, Language, Files, Exclude string
		RequireSerial                                          bool `yaml:"require_serial"`
	}
	var hooks []hook
	dec := yaml.NewDecoder(bytes.NewReader(content))
	dec.KnownFields(true)
	if err := dec.Decode(&hooks); err != nil {
		t.Fatal(err)
	}
	languages := map[string]string{}
	for _, h := range hooks {
		languages[h.ID] = h.Language
		if h.Entry != "queuecap lint" || !h.RequireSerial || h.Files != hooks[0].Files || h.Exclude != hooks[0].Exclude {
			t.Errorf("hook %s: %+v, want the entry, files, exclude and require_serial of %s", h.ID, h, hooks[0].ID)
		}
	}
	if want := map[string]string{"queuecap-lint": "golang", "queuecap-lint-system": "system"}; !maps.Equal(languages, want) {
		t.Errorf("hooks and languages %v, want %v", languages, want)
	}
	files, exclude := regexp.MustCompile(hooks[0].Files), regexp.MustCompile(hooks[0].Exclude)
	dir := t.TempDir()
	for _, name := range []string{"main.tf", "a/b.tf.json", "x.tofu", "a/x.tofu.json", "terraform.tfvars", "a/prod.tfvars.json", ".queuecap.hcl", "a/b/.queuecap.hcl"} {
		if !files.MatchString(name) || exclude.MatchString(name) {
			t.Errorf("the hooks do not take %s", name)
		}
		write(t, dir, map[string]string{name: ""})
		if err := lint.CheckPath(filepath.Join(dir, name)); err != nil {
			t.Errorf("queuecap lint does not take %s: %v", name, err)
		}
	}
	for _, name := range []string{"main.tf.bak", "queuecap.hcl", "a/ci.queuecap.hcl", ".terraform.lock.hcl", "README.md", "a/.terraform/modules/m/main.tf"} {
		if files.MatchString(name) && !exclude.MatchString(name) {
			t.Errorf("the hooks take %s", name)
		}
	}
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

// gitHead is the commit checked out in the repository at dir.
func gitHead(t *testing.T, dir string) string {
	t.Helper()
	cmd := exec.Command("git", "rev-parse", "HEAD")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git rev-parse HEAD: %v", err)
	}
	return strings.TrimSpace(string(out))
}

func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out))
}
