// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestNewBoundary: a linted path's repository is the nearest directory
// above it holding .git, a directory or a worktree's file; without one
// it is the linted directory; --boundary holds every path or is a usage
// error.
func TestNewBoundary(t *testing.T) {
	top := t.TempDir()
	WriteFiles(t, top, map[string]string{
		"repo/.git/HEAD":       "ref: refs/heads/main\n",
		"repo/envs/prod/a.tf":  "",
		"worktree/.git":        "gitdir: ../repo/.git/worktrees/w\n",
		"worktree/envs/b/b.tf": "",
		"plain/c/c.tf":         "",
	})
	resolved := func(rel string) string {
		p, err := filepath.EvalSymlinks(filepath.Join(top, rel))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name  string
		dir   string
		paths []string
		want  []string
	}{
		{"a directory of a repository", "", []string{"repo/envs/prod"}, []string{"repo"}},
		{"a file of a repository", "", []string{"repo/envs/prod/a.tf"}, []string{"repo"}},
		{"a worktree, whose .git is a file", "", []string{"worktree/envs/b"}, []string{"worktree"}},
		{"no repository", "", []string{"plain/c"}, []string{"plain/c"}},
		{"two, once each", "", []string{"repo/envs/prod", "plain/c", "repo"}, []string{"repo", "plain/c"}},
		{"--boundary", "plain", []string{"plain/c"}, []string{"plain"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var paths []string
			for _, p := range tc.paths {
				paths = append(paths, filepath.Join(top, p))
			}
			dir := tc.dir
			if dir != "" {
				dir = filepath.Join(top, dir)
			}
			b, err := NewBoundary(dir, paths)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, w := range tc.want {
				want = append(want, resolved(w))
			}
			if !slices.Equal(b.roots, want) {
				t.Errorf("roots %q, want %q", b.roots, want)
			}
		})
	}
	_, err := NewBoundary(filepath.Join(top, "plain"), []string{filepath.Join(top, "repo")})
	var usage *UsageError
	if !errors.As(err, &usage) || !strings.Contains(err.Error(), "is outside --boundary") {
		t.Errorf("a path outside --boundary: %v, want a usage error", err)
	}
}

// endless is a plan that never ends: '{' and then spaces.
type endless struct{ started bool }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	if !e.started && len(p) > 0 {
		e.started, p[0] = true, '{'
	}
	return len(p), nil
}

// TestPlanCap: a plan on standard input is read up to maxPlanBytes and no
// further, and one that cannot be JSON stops at its first byte.
func TestPlanCap(t *testing.T) {
	defer func(n int64) { maxPlanBytes = n }(maxPlanBytes)
	maxPlanBytes = 1 << 20
	// Reading past the cap by more than one buffer is reading without
	// one; an endless reader would then never end, so the count stops it.
	const slack = 64 << 10
	endlessPlan := &counting{r: &endless{}, stop: 4 * maxPlanBytes}
	if _, err := LoadPlan("-", ".", endlessPlan, nil); err == nil || !strings.Contains(err.Error(), "it is more than the 1048576 bytes a plan may have") {
		t.Errorf("an endless plan: %v", err)
	}
	if endlessPlan.n > maxPlanBytes+slack {
		t.Errorf("an endless plan: read %d bytes, want at most the cap of %d and a buffer", endlessPlan.n, maxPlanBytes)
	}
	// What cannot begin a plan is refused at its first byte, not read
	// to the cap.
	zeros := &counting{r: zeroReader{}, stop: 1 << 30}
	if _, err := LoadPlan("-", ".", zeros, nil); err == nil || !strings.Contains(err.Error(), "it begins with the byte 0x00") {
		t.Errorf("zeros: %v", err)
	}
	if zeros.n > slack {
		t.Errorf("zeros: read %d bytes, want one buffer at most", zeros.n)
	}
}

// counting counts what is read from r, and ends it at stop bytes.
type counting struct {
	r    io.Reader
	n    int64
	stop int64
}

func (c *counting) Read(p []byte) (int, error) {
	if c.n >= c.stop {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), c.stop-c.n)]
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestReadNamed: a file the user names outside the repository is read
// as named, a pipe included (a shell's process substitution), up to the
// cap; one inside it is the repository's, read only if it resolves there.
func TestReadNamed(t *testing.T) {
	repo, outside := t.TempDir(), t.TempDir()
	WriteFiles(t, outside, map[string]string{"vars.tfvars": "x = 1\n"})
	if err := os.Symlink(filepath.Join(outside, "vars.tfvars"), filepath.Join(repo, "link.tfvars")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	b := dirBoundary(repo)
	if got, err := b.readNamed(filepath.Join(outside, "vars.tfvars"), maxFileBytes, "a variables file"); err != nil || string(got) != "x = 1\n" {
		t.Errorf("outside, named: %q, %v", got, err)
	}
	if _, err := b.readNamed(filepath.Join(repo, "link.tfvars"), maxFileBytes, "a variables file"); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("a link in the repository to outside it: %v, want an error", err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	go func() {
		_, _ = w.WriteString("y = 2\n")
		w.Close()
	}()
	fd := "/dev/fd/" + strconv.Itoa(int(r.Fd()))
	if _, err := os.Stat(fd); err != nil {
		t.Skip("no /dev/fd:", err)
	}
	if got, err := b.readNamed(fd, maxFileBytes, "a variables file"); err != nil || string(got) != "y = 2\n" {
		t.Errorf("a pipe: %q, %v", got, err)
	}
}

// TestCheckWrite: a file is written inside the boundary only, as a
// regular file or a new one, never through a symbolic link or a folder
// that resolves outside.
func TestCheckWrite(t *testing.T) {
	repo, outside := t.TempDir(), t.TempDir()
	for _, d := range []string{"sub", "dir.hcl"} {
		if err := os.Mkdir(filepath.Join(repo, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(repo, "there.hcl"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"link.hcl": "there.hcl", "out": outside} {
		if err := os.Symlink(target, filepath.Join(repo, link)); err != nil {
			t.Fatal(err)
		}
	}
	b := dirBoundary(repo)
	for name, want := range map[string]string{
		"there.hcl":        "",
		"new.hcl":          "",
		"sub/new.hcl":      "",
		"link.hcl":         "is a symbolic link: not written through",
		"dir.hcl":          "is not a regular file",
		"out/new.hcl":      "outside",
		"../elsewhere.hcl": "outside",
		"nowhere/new.hcl":  "its folder",
	} {
		err := b.CheckWrite(filepath.Join(repo, name))
		if (want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), want)) {
			t.Errorf("%s: %v, want %q", name, err, want)
		}
	}
}
