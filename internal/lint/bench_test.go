// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

// Benchmarks of the whole linter against a bare HCL parse of the same files,
// over the real-world corpus in ../shared/corpus/real (or the directory in
// $QUEUECAP_BENCH_CORPUS, which tools/bench-lint.sh points at a scaled copy).
// They skip when neither is there.
//
//	go test -run '^$' -bench Corpus -benchmem ./internal/lint

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/rules"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/runner"
)

// corpusEnv names a directory to benchmark instead of the shared corpus.
const corpusEnv = "QUEUECAP_BENCH_CORPUS"

// benchCorpus returns the directory to benchmark, skipping when it is absent.
func benchCorpus(b *testing.B) string {
	b.Helper()
	if dir := os.Getenv(corpusEnv); dir != "" {
		if info, err := os.Stat(dir); err != nil || !info.IsDir() {
			b.Fatalf("$%s=%s is not a directory", corpusEnv, dir)
		}
		return dir
	}
	// The module root is the nearest directory above with a go.mod; the
	// shared folder sits beside the repository.
	wd, err := os.Getwd()
	if err != nil {
		b.Fatal(err)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			corpus := filepath.Join(dir, "..", "shared", "corpus", "real")
			if info, err := os.Stat(corpus); err != nil || !info.IsDir() {
				b.Skipf("no corpus at %s (set $%s to benchmark another directory)", corpus, corpusEnv)
			}
			return corpus
		}
		if filepath.Dir(dir) == dir {
			b.Skipf("no go.mod above %s", wd)
		}
	}
}

// BenchmarkLintCorpus is `queuecap lint --recursive` over the corpus with
// every rule, in process (no output formatting).
func BenchmarkLintCorpus(b *testing.B) {
	dir := benchCorpus(b)
	files := configFilesUnder(b, dir)
	b.ReportAllocs()
	var issues, errs int
	for b.Loop() {
		res, err := runner.Run(lint.Options{Dirs: []string{dir}, Recursive: true, Rules: rules.All(), Config: &lint.Config{}})
		if err != nil {
			b.Fatal(err)
		}
		issues, errs = len(res.Issues), len(res.Errors)
	}
	b.ReportMetric(float64(len(files)), "files/op")
	b.ReportMetric(float64(issues), "issues/op")
	b.ReportMetric(float64(errs), "errors/op")
}

// BenchmarkParseCorpus is the floor the linter is measured against: the
// same walk for configuration files, then a read and a parse of each with
// hclsyntax.ParseConfig or hcljson.Parse, nothing else. "seq" parses on one
// goroutine and "par" on GOMAXPROCS workers, as many as the linter lints
// root modules with; both drop each file once parsed. "par-keep" keeps
// every parsed file until the walk is done, to show what holding them all
// costs in memory and GC time (the linter keeps a module's declarations
// only while a root module still to lint may read it).
func BenchmarkParseCorpus(b *testing.B) {
	dir := benchCorpus(b)
	for _, bc := range []struct {
		name    string
		workers int
		keep    bool
	}{{"seq", 1, false}, {"par", runtime.GOMAXPROCS(0), false}, {"par-keep", runtime.GOMAXPROCS(0), true}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			var n, bad int
			for b.Loop() {
				n, bad = parseTree(b, dir, bc.workers, bc.keep)
			}
			b.ReportMetric(float64(n), "files/op")
			b.ReportMetric(float64(bad), "errors/op")
			b.ReportMetric(float64(bc.workers), "workers")
		})
	}
}

// parseTree walks dir as the linter does and parses every configuration
// file on the given number of workers, keeping the parsed files until all
// are done or dropping each at once. It returns how many files it parsed
// and how many had errors.
func parseTree(b *testing.B, dir string, workers int, keep bool) (files, bad int) {
	paths := configFilesUnder(b, dir)
	var parsed []*hcl.File
	if keep {
		parsed = make([]*hcl.File, len(paths))
	}
	var next, errs atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(paths) {
					return
				}
				src, err := os.ReadFile(paths[i])
				if err != nil {
					b.Error(err)
					return
				}
				var f *hcl.File
				var diags hcl.Diagnostics
				if strings.HasSuffix(paths[i], ".json") {
					f, diags = hcljson.Parse(src, paths[i])
				} else {
					f, diags = hclsyntax.ParseConfig(src, paths[i], hcl.InitialPos)
				}
				if diags.HasErrors() {
					errs.Add(1)
				}
				if keep {
					parsed[i] = f
				}
			}
		})
	}
	wg.Wait()
	runtime.KeepAlive(parsed)
	return len(paths), int(errs.Load())
}

// configFilesUnder lists the configuration files the linter's --recursive
// walk reads: .tf and .tf.json files that are regular or link to regular
// files, not hidden, not editor backups, in directories that are not
// hidden (.terraform, .git) and not reached through a symlink.
func configFilesUnder(b *testing.B, top string) []string {
	var out []string
	err := filepath.WalkDir(top, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != top && strings.HasPrefix(name, ".") {
				return fs.SkipDir
			}
			return nil
		}
		if strings.HasPrefix(name, ".") || strings.HasPrefix(name, "#") || strings.HasSuffix(name, "~") ||
			(!strings.HasSuffix(name, ".tf") && !strings.HasSuffix(name, ".tf.json")) {
			return nil
		}
		if d.Type().IsRegular() {
			out = append(out, path)
		} else if d.Type()&fs.ModeSymlink != 0 {
			if info, err := os.Stat(path); err == nil && info.Mode().IsRegular() {
				out = append(out, path)
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return out
}
