// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// rootsToLint lists the root modules that paths name. A directory is a root
// module, or with recursive every folder below it that holds configuration
// files. A .tf, .tofu or .tfvars file stands for its folder's root module,
// linted once however many of its files are given (pre-commit passes each
// changed file) and not again when a directory given reaches it; it reads
// the nearest .queuecap.hcl up to the working directory, as --recursive
// from there would. A .queuecap.hcl stands for the roots it governs
// (configFinder.governed), linted as if a file of each were given.
//
// It also returns the terragrunt.hcl of each directory given or walked
// that holds no configuration but a Terragrunt unit (terragruntSkip).
//
// skipDirs are the --skip-dir globs the walks apply (skipDir).
func rootsToLint(paths []string, recursive bool, skipDirs []string, listed func(dir string, files []string), configs *configFinder) ([]rootAt, []ErrorEntry, []string) {
	var roots, fileRoots []rootAt
	var errs []ErrorEntry
	var units []string
	unit := func(p string) { units = append(units, p) }
	unreadable := func(path string, err error) {
		errs = append(errs, ErrorEntry{Message: fmt.Sprintf("cannot read %s: %v", path, err), Severity: Error})
	}
	for _, path := range paths {
		info, err := os.Stat(path)
		if err == nil {
			err = CheckPath(path)
		}
		switch {
		case err != nil:
			errs = append(errs, ErrorEntry{Message: err.Error(), Severity: Error})
		case !info.IsDir() && isConfigFile(path):
			fileRoots = append(fileRoots, configs.governed(path, skipDirs, unreadable, listed)...)
		case info.IsDir() && recursive:
			for _, r := range walkRoots(path, skipDirs, unreadable, listed, unit) {
				roots = append(roots, rootAt{dir: r, top: path})
			}
		case info.IsDir():
			roots = append(roots, rootAt{dir: path, top: path})
			// Listed once, for its loader as for a walked root.
			if entries, err := os.ReadDir(path); err == nil {
				noteDir(path, entries, listed, unit)
			}
		default:
			fileRoots = append(fileRoots, rootAt{dir: filepath.Dir(path), top: workingDirAbove(filepath.Dir(path), configs.workDir)})
		}
	}
	seen := map[string]bool{}
	for _, r := range roots {
		seen[filepath.Clean(r.dir)] = true
	}
	for _, r := range fileRoots {
		if !seen[r.dir] {
			seen[r.dir] = true
			roots = append(roots, r)
		}
	}
	return roots, errs, units
}

// CheckPath reports why path, given to lint, cannot be: it does not exist,
// or is a file that is neither configuration nor variables.
func CheckPath(path string) error {
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: no such file or directory", path)
	case err != nil:
		return err
	case !info.IsDir() && configExt(filepath.Base(path)) == "" && !isVarsFile(path) && !isConfigFile(path):
		return errors.New(path + " is neither a directory nor a .tf, .tf.json, .tofu, .tofu.json, .tfvars, .tfvars.json or " + DefaultConfigFile + " file")
	}
	return nil
}

// isConfigFile is whether path names a .queuecap.hcl.
func isConfigFile(path string) bool {
	return filepath.Base(path) == DefaultConfigFile
}

func isVarsFile(path string) bool {
	return strings.HasSuffix(path, ".tfvars") || strings.HasSuffix(path, ".tfvars.json")
}

// workingDirAbove is the working directory, spelled as dir is (relative or
// absolute), when dir is within it; else dir itself. workDir is the
// directory the run acts as if started in (Options.WorkDir), "" for the
// working directory.
func workingDirAbove(dir, workDir string) string {
	wd := filepath.Clean("./" + workDir)
	if filepath.IsAbs(workDir) {
		wd = workDir
	}
	if filepath.IsAbs(dir) && !filepath.IsAbs(wd) {
		abs, err := filepath.Abs(wd)
		if err != nil {
			return dir
		}
		wd = abs
	}
	if within(dir, wd) {
		return wd
	}
	return dir
}
