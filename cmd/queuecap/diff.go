// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"archive/tar"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/rules"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/runner"
	"github.com/queuecap/terraform-provider-queuecap/internal/lintdiff"
)

type diffFlags struct {
	format      string
	recursive   bool
	minSeverity string
	force       bool
}

func diffCommand(f *diffFlags) *command {
	cmd := newCommand("diff", "[flags] BASE HEAD [DIR ...]")
	cmd.positional = "BASE HEAD [DIR ...]"
	fs := cmd.fs
	fs.StringVar(&f.format, "format", "text", "output `format`: "+strings.Join(lintdiff.Formats(), "|"))
	fs.BoolVar(&f.recursive, "recursive", false, "lint every directory below each DIR that holds .tf or .tofu files as its own root module (with BASE and HEAD directories or revisions)")
	fs.StringVar(&f.minSeverity, "minimum-failure-severity", "warning", "lowest `severity` of a new finding that fails the run (exit 2): error|warning|notice")
	fs.BoolVar(&f.force, "force", false, "exit 0 even when a new finding fails the run (errors still exit 1)")
	cmd.alias("f", "format")
	cmd.footer = "BASE and HEAD are each a JSON report (queuecap lint --format json), a directory, or a git\n" +
		"revision of the repository the working directory is in (origin/main, HEAD~1, a tag or a commit),\n" +
		"checked out to a temporary directory with git archive. With directories and revisions, DIR ...\n" +
		"(default .) are the root modules to lint in each, relative to it (for a revision, relative to the\n" +
		"working directory's place in the repository), and each reads its own .queuecap.hcl.\n" +
		"Findings are matched by fingerprint; queues by root module and address.\n" +
		"\nExit codes: 0 no new finding at or above the failure severity, 1 an error, 2 new findings (--force: 0 or 1).\n"
	return cmd
}

func runDiff(args []string, stdout, stderr io.Writer) int {
	f := &diffFlags{}
	cmd := diffCommand(f)
	if ok, code := cmd.parse(args, stdout, stderr); !ok {
		return code
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "Error: "+format+"\n", a...)
		return exitError
	}
	if len(cmd.args) < 2 {
		return fail("diff takes BASE and HEAD (see 'queuecap diff --help')")
	}
	if !slices.Contains(lintdiff.Formats(), f.format) {
		return fail("unknown format %q%s (valid formats are %s)", f.format, closestSuffix(f.format, lintdiff.Formats()), strings.Join(lintdiff.Formats(), ", "))
	}
	threshold, err := lint.ParseSeverity(f.minSeverity)
	if err != nil {
		return fail("--minimum-failure-severity: %v", err)
	}
	dirs := cmd.args[2:]
	if len(dirs) == 0 {
		dirs = []string{"."}
	}
	for _, d := range dirs {
		if filepath.IsAbs(d) || d == ".." || strings.HasPrefix(filepath.Clean(d), ".."+string(filepath.Separator)) {
			return fail("%s: a DIR is relative to BASE and HEAD, and inside them", d)
		}
	}
	if len(cmd.args) > 2 && isFile(cmd.args[0]) && isFile(cmd.args[1]) {
		return fail("two JSON reports hold their runs: DIR arguments apply to directories and revisions")
	}
	var runs [2]*lintdiff.Run
	for i, side := range []string{"BASE", "HEAD"} {
		arg := cmd.args[i]
		run, cleanup, err := diffSide(arg, dirs, f.recursive)
		if cleanup != nil {
			defer cleanup()
		}
		if err != nil {
			return fail("%s %s: %v", side, arg, err)
		}
		runs[i] = run
	}
	d := lintdiff.Compare(runs[0], runs[1])
	var b bytes.Buffer
	if err := lintdiff.Write(&b, d, f.format); err != nil {
		return fail("%v", err)
	}
	if _, err := stdout.Write(b.Bytes()); err != nil {
		return fail("%v", err)
	}
	switch {
	case len(d.BaseErrors)+len(d.HeadErrors) > 0:
		return exitError
	case !f.force && d.Fails(threshold):
		return exitFindings
	}
	return exitOK
}

// closestSuffix is " (did you mean X?)" for a near name, or "".
func closestSuffix(s string, names []string) string {
	if c := closest(s, names); c != "" {
		return ": did you mean " + c + "?"
	}
	return ""
}

// diffSide is one side of a comparison: a JSON report read (dirs do not
// apply to it: it holds its run), or a directory or a git revision
// linted. cleanup, when not nil, removes
// what the side checked out.
func diffSide(arg string, dirs []string, recursive bool) (run *lintdiff.Run, cleanup func(), err error) {
	info, statErr := os.Stat(arg)
	switch {
	case statErr == nil && info.Mode().IsRegular():
		file, err := os.Open(arg)
		if err != nil {
			return nil, nil, err
		}
		defer file.Close()
		run, err := lintdiff.ReadReport(file)
		return run, nil, err
	case statErr == nil && info.IsDir():
		base, err := filepath.Abs(arg)
		if err != nil {
			return nil, nil, err
		}
		run, err := lintTree(base, dirs, recursive)
		return run, nil, err
	}
	rev, err := gitRevision(arg)
	if err != nil {
		return nil, nil, fmt.Errorf("not a file, a directory or a git revision of the working directory's repository (%v)", err)
	}
	tmp, err := os.MkdirTemp("", "queuecap-diff-")
	if err != nil {
		return nil, nil, err
	}
	cleanup = func() { _ = os.RemoveAll(tmp) }
	if err := checkout(rev, tmp); err != nil {
		return nil, cleanup, err
	}
	prefix, err := gitOutput("rev-parse", "--show-prefix")
	if err != nil {
		return nil, cleanup, err
	}
	run, err = lintTree(filepath.Join(tmp, filepath.FromSlash(prefix)), dirs, recursive)
	return run, cleanup, err
}

// lintTree lints dirs below base as `queuecap lint` would from base, with
// base's .queuecap.hcl for the run's settings (recursive, skip_dirs) and
// each root's own for its queue and ignore blocks, reading nothing
// outside base.
func lintTree(base string, dirs []string, recursive bool) (*lintdiff.Run, error) {
	abs := make([]string, len(dirs))
	for i, d := range dirs {
		abs[i] = filepath.Join(base, d)
		if err := lint.CheckPath(abs[i]); err != nil {
			return nil, err
		}
	}
	bound, err := lint.NewBoundary(base, abs)
	if err != nil {
		return nil, err
	}
	cfg, diags := lint.LoadConfig(filepath.Join(base, lint.DefaultConfigFile), false, bound)
	if diags.HasErrors() {
		return nil, diags
	}
	if cfg.Recursive != nil && !recursive {
		recursive = *cfg.Recursive
	}
	res, err := runner.Run(lint.Options{
		Dirs: abs, Recursive: recursive, SkipDirs: cfg.SkipDirs, Environ: os.Environ(),
		Config: cfg.WithoutQueues(), DiscoverConfig: true, Rules: rules.All(), Boundary: bound,
		// As lint's default, so that a side linted here and one read from
		// lint's JSON report list the same notices.
		ReportUnusedIgnores: true,
	})
	if err != nil {
		return nil, err
	}
	return lintdiff.FromResult(res, base), nil
}

// gitRevision is the commit arg names in the working directory's
// repository.
func gitRevision(arg string) (string, error) {
	if strings.HasPrefix(arg, "-") {
		return "", errors.New("a revision does not start with -")
	}
	return gitOutput("rev-parse", "--verify", "--quiet", "--end-of-options", arg+"^{commit}")
}

func gitOutput(args ...string) (string, error) {
	var out, errOut bytes.Buffer
	c := exec.Command("git", args...)
	c.Stdout, c.Stderr = &out, &errOut
	if err := c.Run(); err != nil {
		if msg := strings.TrimSpace(errOut.String()); msg != "" {
			return "", fmt.Errorf("git %s: %s", args[0], msg)
		}
		return "", fmt.Errorf("git %s: %w", args[0], err)
	}
	return strings.TrimSpace(out.String()), nil
}

// Caps on a revision's checkout: a repository's tree is the user's own,
// but a checkout that fills the disk is no way to say it is too large.
const (
	maxCheckoutFiles = 200000
	maxCheckoutBytes = 4 << 30
)

// checkout writes the tree of rev into dir through git archive: regular
// files and symbolic links (which the linter's boundary does not follow
// out of dir), no submodules, no .git.
func checkout(rev, dir string) error {
	// From a subdirectory, git archive writes that subdirectory's tree
	// alone: archive from the top.
	top, err := gitOutput("rev-parse", "--show-toplevel")
	if err != nil {
		return err
	}
	c := exec.Command("git", "-C", top, "archive", "--format=tar", rev)
	var errOut bytes.Buffer
	c.Stderr = &errOut
	pipe, err := c.StdoutPipe()
	if err != nil {
		return err
	}
	if err := c.Start(); err != nil {
		return err
	}
	extractErr := extractTar(pipe, dir)
	_, _ = io.Copy(io.Discard, pipe)
	waitErr := c.Wait()
	switch {
	case extractErr != nil:
		return extractErr
	case waitErr != nil:
		return fmt.Errorf("git archive: %v: %s", waitErr, strings.TrimSpace(errOut.String()))
	}
	return nil
}

func extractTar(r io.Reader, dir string) error {
	tr := tar.NewReader(r)
	files, total := 0, int64(0)
	// A git tree cannot hold a file below a symbolic link, but an entry
	// that did would be written through the link, out of dir.
	var links []string
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("git archive: %w", err)
		}
		name := filepath.FromSlash(h.Name)
		if !filepath.IsLocal(name) {
			return fmt.Errorf("git archive: %q is not a path inside the repository", h.Name)
		}
		if files++; files > maxCheckoutFiles {
			return fmt.Errorf("the revision has more than %d files", maxCheckoutFiles)
		}
		path := filepath.Join(dir, name)
		for _, l := range links {
			if strings.HasPrefix(name, l+string(filepath.Separator)) {
				return fmt.Errorf("git archive: %q lies below the symbolic link %q", h.Name, l)
			}
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(path, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if total += h.Size; total > maxCheckoutBytes {
				return fmt.Errorf("the revision's files weigh more than %d GiB", maxCheckoutBytes>>30)
			}
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return err
			}
			out, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
			if err != nil {
				return err
			}
			_, err = io.Copy(out, io.LimitReader(tr, h.Size))
			if cerr := out.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
		case tar.TypeSymlink:
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return err
			}
			if err := os.Symlink(h.Linkname, path); err != nil {
				return err
			}
			links = append(links, filepath.Clean(name))
		}
		// Anything else (git archive writes a global header) is not a
		// file of the tree.
	}
}

// isFile reports whether path is a regular file: a JSON report, for diff.
func isFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}
