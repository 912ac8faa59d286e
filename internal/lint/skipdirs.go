// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"errors"
	"path"
	"slices"
	"strings"
)

// DefaultSkipDirs are the directories a walk for root modules never
// enters besides hidden ones (.terraform, .terragrunt-cache, .git), which
// it never enters either: what package managers install holds modules
// that are no root of the repository.
var DefaultSkipDirs = []string{"node_modules"}

// CheckSkipDir reports why glob is no --skip-dir or skip_dirs pattern:
// empty, absolute, or not a path.Match pattern.
func CheckSkipDir(glob string) error {
	switch {
	case glob == "":
		return errors.New("an empty pattern matches no directory")
	case strings.HasPrefix(glob, "/"):
		return errors.New(glob + ": a pattern is relative to the directory linted, not absolute")
	}
	for _, seg := range strings.Split(strings.TrimSuffix(glob, "/"), "/") {
		if _, err := path.Match(seg, ""); err != nil {
			return errors.New(glob + ": malformed pattern")
		}
	}
	return nil
}

// skipDir reports whether the walk below a directory given to lint skips
// the folder at rel, its slash-separated path relative to that directory.
// A pattern without a slash matches the folder's name (node_modules,
// test*); one with a slash matches rel, each segment a path.Match pattern
// and ** any number of segments, none included (vendor/** is vendor and
// all below it, **/fixtures every fixtures folder, envs/*/legacy).
func skipDir(rel string, globs []string) bool {
	name := path.Base(rel)
	if strings.HasPrefix(name, ".") {
		return true
	}
	return slices.ContainsFunc(DefaultSkipDirs, func(g string) bool { return matchDir(g, rel, name) }) ||
		slices.ContainsFunc(globs, func(g string) bool { return matchDir(g, rel, name) })
}

// matchDir is whether the pattern g matches the folder at rel, whose
// name is name (skipDir).
func matchDir(g, rel, name string) bool {
	g = strings.TrimSuffix(g, "/")
	if !strings.Contains(g, "/") {
		ok, _ := path.Match(g, name)
		return ok
	}
	return matchSegments(strings.Split(g, "/"), strings.Split(rel, "/"))
}

// matchSegments matches a path's segments against a pattern's, ** taking
// any number of them.
func matchSegments(pattern, segs []string) bool {
	if len(pattern) == 0 {
		return len(segs) == 0
	}
	if pattern[0] == "**" {
		for i := 0; i <= len(segs); i++ {
			if matchSegments(pattern[1:], segs[i:]) {
				return true
			}
		}
		return false
	}
	if len(segs) == 0 {
		return false
	}
	ok, _ := path.Match(pattern[0], segs[0])
	return ok && matchSegments(pattern[1:], segs[1:])
}
