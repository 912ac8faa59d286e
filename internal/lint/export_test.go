// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// SetRootEvalTime sets how long one root module's evaluation may take.
func SetRootEvalTime(d time.Duration) { rootEvalTime = d }

// WithoutPrefix is withoutPrefix, for tests.
var WithoutPrefix = withoutPrefix

// ModulePrefix is modulePrefix, for tests.
var ModulePrefix = modulePrefix

// WriteFiles writes files (path relative to dir → content) under dir: one
// helper for this package's tests and lint_test's.
func WriteFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// runSerially runs a Session's stages as runner.Run does, one root after
// another: for this package's own tests, which cannot import the runner.
func runSerially(opts Options) (*Result, error) {
	s, err := Prepare(opts)
	if err != nil {
		return nil, err
	}
	s.DiscoverRoots()
	s.StartLinting()
	for i := range s.Roots() {
		s.Fold(i, s.LintRoot(i))
	}
	s.StopLinting()
	if err := s.SkipRunInputs(); err != nil {
		return nil, err
	}
	for _, p := range s.Processors() {
		p.Run()
	}
	return s.Result(), nil
}
