// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"os"
	"path/filepath"
)

// Each root module reads its own .queuecap.hcl: the nearest one from the
// root's folder up to the directory the run was asked to lint, so that a
// file's queue blocks, whose addresses are relative to the root that reads
// them, mean the same whatever the working directory. Without one, the
// file given with --config (or QUEUECAP_CONFIG) applies.

// rootAt is a root module's directory and the directory given on the
// command line that reached it.
type rootAt struct {
	dir, top string
}

// configFinder finds and reads each root's configuration file, each file
// once.
type configFinder struct {
	bound    *Boundary
	fallback *Config
	loaded   map[string]*Config
	errs     []ErrorEntry
	// nearest memoizes nearestConfig by top and directory: sibling roots
	// share the folders above them.
	nearest map[[2]string]string
	// workDir is Options.WorkDir: where a root named by a file stops
	// looking for its .queuecap.hcl.
	workDir string
}

func newConfigFinder(fallback *Config, bound *Boundary) *configFinder {
	return &configFinder{bound: bound, fallback: fallback, loaded: map[string]*Config{}, nearest: map[[2]string]string{}}
}

// forRoot is the configuration of the root at r.
func (f *configFinder) forRoot(r rootAt) *Config {
	if path := nearestConfig(r.dir, r.top, f.nearest); path != "" {
		return f.load(path)
	}
	return f.fallback
}

// load reads the file at path once, its errors kept for the run; one that
// does not load leaves the fallback in its place.
func (f *configFinder) load(path string) *Config {
	if cfg, ok := f.loaded[path]; ok {
		return cfg
	}
	cfg, diags := loadConfig(f.bound.readFile, path, true)
	for _, d := range diags {
		f.errs = append(f.errs, diagEntry(d))
	}
	if diags.HasErrors() {
		cfg = f.fallback
	}
	f.loaded[path] = cfg
	return cfg
}

// governed lists the root modules that the .queuecap.hcl at path, given to
// lint as a file (pre-commit passes it when a commit changes it), governs:
// those at or below its folder, as --recursive finds them, whose nearest
// .queuecap.hcl up to the working directory it is, as for a root a .tf
// file names. The file is read even when no root reads it, so that a
// mistake in it is reported; unreadable is told of folders the walk
// cannot read. The walk skips what skipDirs skip (skipDir).
func (f *configFinder) governed(path string, skipDirs []string, unreadable func(string, error), listed func(dir string, files []string)) []rootAt {
	path = filepath.Clean(path)
	f.load(path)
	dir := filepath.Dir(path)
	top := workingDirAbove(dir, f.workDir)
	var roots []rootAt
	for _, r := range walkRoots(dir, skipDirs, unreadable, listed, nil) {
		if nearestConfig(r, top, f.nearest) == path {
			roots = append(roots, rootAt{dir: r, top: top})
		}
	}
	return roots
}

// nearestConfig is the .queuecap.hcl in dir or the closest folder above
// it, up to and including top; "" when there is none. One that is there
// but not a regular file is found, so that reading it says why it is not
// read. memo holds the answers already found, by top and directory.
func nearestConfig(dir, top string, memo map[[2]string]string) string {
	dir, top = filepath.Clean(dir), filepath.Clean(top)
	key := [2]string{top, dir}
	if p, ok := memo[key]; ok {
		return p
	}
	p := filepath.Join(dir, DefaultConfigFile)
	if info, err := os.Lstat(p); err != nil || info.IsDir() {
		p = ""
		if parent := filepath.Dir(dir); dir != top && within(dir, top) && parent != dir {
			p = nearestConfig(parent, top, memo)
		}
	}
	memo[key] = p
	return p
}
