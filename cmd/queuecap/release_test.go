// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

// releaseCommit is the commit the test releases are stamped with.
const releaseCommit = "0123456789abcdef0123456789abcdef01234567"

// releasePlatform is this machine's platform as GoReleaser names it in the
// CLI's archives and as a GitHub runner names it (RUNNER_OS, RUNNER_ARCH).
func releasePlatform(t *testing.T) (goos, goarch, runnerOS, runnerArch string) {
	t.Helper()
	runnerOS = map[string]string{"linux": "Linux", "darwin": "macOS"}[runtime.GOOS]
	runnerArch = map[string]string{"amd64": "X64", "arm64": "ARM64", "386": "X86", "arm": "ARM"}[runtime.GOARCH]
	if runnerOS == "" || runnerArch == "" {
		t.Skipf("no GitHub runner is %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	return runtime.GOOS, runtime.GOARCH, runnerOS, runnerArch
}

// buildRelease builds the CLI of this tree as the release build stamps
// it, with version v<number> and releaseCommit, and returns its path.
func buildRelease(t *testing.T, number string) string {
	t.Helper()
	return buildCLI(t, "-s -w -X main.version=v"+number+" -X main.commit="+releaseCommit)
}

// buildCLI builds the CLI of this tree with ldflags and returns its path.
func buildCLI(t *testing.T, ldflags string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "queuecap")
	build := exec.Command("go", "build", "-trimpath", "-o", bin, "-ldflags", ldflags, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// writeRelease writes the files of release <number>, with the CLI at bin,
// under dir/v<number>, named as .goreleaser.yml names them: the archive for
// this machine's platform (queuecap at its top, beside LICENSE) and
// queuecap_<number>_SHA256SUMS, which also lists another platform's
// archive. With tamper, the archive served is not the one the sums list.
// It returns the archive's path.
func writeRelease(t *testing.T, dir, number, bin string, tamper bool) string {
	t.Helper()
	goos, goarch, _, _ := releasePlatform(t)
	dir = filepath.Join(dir, "v"+number)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("queuecap_%s_%s_%s.tar.gz", number, goos, goarch)
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	for _, e := range []struct{ src, name string }{{bin, "queuecap"}, {"../../LICENSE", "LICENSE"}} {
		content, err := os.ReadFile(e.src)
		if err != nil {
			t.Fatal(err)
		}
		info, err := os.Stat(e.src)
		if err != nil {
			t.Fatal(err)
		}
		if err := tw.WriteHeader(&tar.Header{Name: e.name, Mode: int64(info.Mode().Perm()), Size: int64(len(content))}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(content); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []interface{ Close() error }{tw, gz, f} {
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
	}
	archive, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(archive)
	other := sha256.Sum256([]byte("another platform's archive"))
	sums := fmt.Sprintf("%s  queuecap_%s_plan9_amd64.tar.gz\n%s  %s\n", hex.EncodeToString(other[:]), number, hex.EncodeToString(sum[:]), name)
	if err := os.WriteFile(filepath.Join(dir, "queuecap_"+number+"_SHA256SUMS"), []byte(sums), 0o644); err != nil {
		t.Fatal(err)
	}
	if tamper {
		if err := os.WriteFile(path, append(archive, 0), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// releaseServer serves the releases under dir as GitHub serves release
// downloads, BASE/vVERSION/FILE, on loopback until the test ends, and
// counts the requests it answers.
func releaseServer(t *testing.T, dir string) (string, *atomic.Int64) {
	t.Helper()
	var requests atomic.Int64
	files := http.FileServer(http.Dir(dir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		if strings.HasSuffix(r.URL.Path, "/") { // no listings
			http.NotFound(w, r)
			return
		}
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, &requests
}

// pathWithoutGo is PATH less every folder that holds a go command, for a
// step that must not need Go.
func pathWithoutGo(t *testing.T) string {
	t.Helper()
	var keep []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if info, err := os.Stat(filepath.Join(d, "go")); err == nil && !info.IsDir() {
			continue
		}
		keep = append(keep, d)
	}
	return strings.Join(keep, string(os.PathListSeparator))
}
