// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"archive/tar"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

const created = "2026-03-04T05:06:07Z"

// artifact is one binary of a GoReleaser run: its build, platform and bytes.
type artifact struct {
	id, goos, goarch, goarm, content string
}

// writeDist writes what GoReleaser leaves in dist/ for the artifacts, with
// the paths relative to the test's directory as GoReleaser writes them
// relative to its own, and returns the dist directory.
func writeDist(t *testing.T, artifacts ...artifact) string {
	t.Helper()
	dir := t.TempDir()
	t.Chdir(dir)
	var list []map[string]any
	for _, a := range artifacts {
		path := filepath.Join("dist", a.id+"_"+a.goos+"_"+a.goarch+a.goarm, a.id)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(a.content), 0o755); err != nil {
			t.Fatal(err)
		}
		list = append(list, map[string]any{
			"name": a.id, "path": path, "goos": a.goos, "goarch": a.goarch, "goarm": a.goarm,
			"type": "Binary", "extra": map[string]any{"ID": a.id, "Binary": a.id},
		})
	}
	// An archive of the same build is no binary.
	list = append(list, map[string]any{"name": "queuecap_1.2.3_linux_amd64.tar.gz", "path": "dist/queuecap_1.2.3_linux_amd64.tar.gz",
		"goos": "linux", "goarch": "amd64", "type": "Archive", "extra": map[string]any{"ID": "queuecap"}})
	writeJSON(t, "dist/artifacts.json", list)
	writeJSON(t, "dist/metadata.json", map[string]any{"project_name": "terraform-provider-queuecap", "version": "1.2.3", "commit": "0123abcd"})
	return "dist"
}

func writeJSON(t *testing.T, name string, v any) {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func build(t *testing.T, dist, out string) {
	t.Helper()
	if err := run([]string{"-dist", dist, "-out", out, "-created", created}, io.Discard); err != nil {
		t.Fatal(err)
	}
}

// entry is the layout's one entry, which must be named v1.2.3.
func entry(t *testing.T, out string) (v1.ImageIndex, v1.Descriptor) {
	t.Helper()
	idx, err := layout.ImageIndexFromPath(out)
	if err != nil {
		t.Fatal(err)
	}
	m, err := idx.IndexManifest()
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Manifests) != 1 {
		t.Fatalf("index.json has %d entries, want 1", len(m.Manifests))
	}
	d := m.Manifests[0]
	if got := d.Annotations["org.opencontainers.image.ref.name"]; got != "v1.2.3" {
		t.Errorf("index.json names its entry %q, want v1.2.3", got)
	}
	return idx, d
}

// checkImage checks what a user runs: the entry point, the directory, the
// user, the labels, and the one layer's files, the binary's bytes among them.
func checkImage(t *testing.T, img v1.Image, platform v1.Platform, content string) {
	t.Helper()
	mt, err := img.MediaType()
	if err != nil || mt != types.OCIManifestSchema1 {
		t.Errorf("manifest media type %q (%v), want %q", mt, err, types.OCIManifestSchema1)
	}
	cf, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	got := v1.Platform{OS: cf.OS, Architecture: cf.Architecture, Variant: cf.Variant}
	if !got.Equals(platform) {
		t.Errorf("config's platform %s, want %s", got, platform)
	}
	if want := []string{"/usr/local/bin/queuecap"}; !reflect.DeepEqual(cf.Config.Entrypoint, want) || cf.Config.Cmd != nil {
		t.Errorf("entry point %q and command %q, want %q alone", cf.Config.Entrypoint, cf.Config.Cmd, want)
	}
	if cf.Config.WorkingDir != "/workdir" || cf.Config.User != "65532:65532" {
		t.Errorf("working directory %q as user %q, want /workdir as 65532:65532", cf.Config.WorkingDir, cf.Config.User)
	}
	if cf.Created.UTC().Format("2006-01-02T15:04:05Z") != created {
		t.Errorf("created %s, want %s", cf.Created, created)
	}
	for k, want := range map[string]string{
		"org.opencontainers.image.source":   "https://github.com/queuecap/terraform-provider-queuecap",
		"org.opencontainers.image.licenses": "MPL-2.0",
		"org.opencontainers.image.version":  "v1.2.3",
		"org.opencontainers.image.revision": "0123abcd",
		"org.opencontainers.image.created":  created,
	} {
		if got := cf.Config.Labels[k]; got != want {
			t.Errorf("label %s = %q, want %q", k, got, want)
		}
	}
	layers, err := img.Layers()
	if err != nil {
		t.Fatal(err)
	}
	if len(layers) != 1 {
		t.Fatalf("%d layers, want 1", len(layers))
	}
	rc, err := layers[0].Uncompressed()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	var files []string
	tr := tar.NewReader(rc)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fmt.Sprintf("%s %o %d:%d", h.Name, h.Mode, h.Uid, h.Gid))
		if h.Name == "usr/local/bin/queuecap" {
			data, err := io.ReadAll(tr)
			if err != nil || string(data) != content {
				t.Errorf("the image's queuecap holds %q (%v), want %q", data, err, content)
			}
		}
	}
	want := []string{
		"usr/ 755 0:0",
		"usr/local/ 755 0:0",
		"usr/local/bin/ 755 0:0",
		"usr/local/bin/queuecap 755 0:0",
		"workdir/ 755 65532:65532",
	}
	if !reflect.DeepEqual(files, want) {
		t.Errorf("layer holds\n%s\nwant\n%s", strings.Join(files, "\n"), strings.Join(want, "\n"))
	}
}

// One linux binary of the queuecap build, as a snapshot for this machine
// has, is one image; the other builds' and platforms' binaries are left out.
func TestOneBinaryIsAnImage(t *testing.T) {
	dist := writeDist(t,
		artifact{"queuecap", "linux", "amd64", "", "queuecap for linux/amd64"},
		artifact{"queuecap", "darwin", "arm64", "", "queuecap for darwin/arm64"},
		artifact{"tflint-ruleset-queuecap", "linux", "amd64", "", "the tflint plugin"},
	)
	build(t, dist, "image")
	top, d := entry(t, "image")
	if d.MediaType != types.OCIManifestSchema1 {
		t.Fatalf("index.json's entry is a %s, want an image manifest", d.MediaType)
	}
	if d.Platform == nil || d.Platform.String() != "linux/amd64" {
		t.Errorf("index.json's entry is for %v, want linux/amd64", d.Platform)
	}
	img, err := top.Image(d.Digest)
	if err != nil {
		t.Fatal(err)
	}
	checkImage(t, img, v1.Platform{OS: "linux", Architecture: "amd64"}, "queuecap for linux/amd64")
}

// A release's linux binaries are one image index, an image per platform.
func TestSeveralBinariesAreAnIndex(t *testing.T) {
	dist := writeDist(t,
		artifact{"queuecap", "linux", "arm64", "", "queuecap for linux/arm64"},
		artifact{"queuecap", "linux", "amd64", "", "queuecap for linux/amd64"},
		artifact{"queuecap", "linux", "arm", "6", "queuecap for linux/arm/v6"},
		artifact{"queuecap", "windows", "amd64", "", "queuecap.exe"},
	)
	build(t, dist, "image")
	top, d := entry(t, "image")
	if d.MediaType != types.OCIImageIndex {
		t.Fatalf("index.json's entry is a %s, want an image index", d.MediaType)
	}
	idx, err := top.ImageIndex(d.Digest)
	if err != nil {
		t.Fatal(err)
	}
	m, err := idx.IndexManifest()
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Annotations["org.opencontainers.image.source"]; got != "https://github.com/queuecap/terraform-provider-queuecap" {
		t.Errorf("the index's source annotation is %q", got)
	}
	var platforms []string
	for _, desc := range m.Manifests {
		platforms = append(platforms, desc.Platform.String())
		img, err := idx.Image(desc.Digest)
		if err != nil {
			t.Fatal(err)
		}
		checkImage(t, img, *desc.Platform, "queuecap for "+desc.Platform.String())
	}
	if want := []string{"linux/amd64", "linux/arm/v6", "linux/arm64"}; !reflect.DeepEqual(platforms, want) {
		t.Errorf("the index's platforms are %q, want %q", platforms, want)
	}
}

// The same binaries and time give the same digest: the release can be
// rebuilt and compared.
func TestReproducible(t *testing.T) {
	dist := writeDist(t,
		artifact{"queuecap", "linux", "amd64", "", "queuecap for linux/amd64"},
		artifact{"queuecap", "linux", "arm64", "", "queuecap for linux/arm64"},
	)
	build(t, dist, "first")
	build(t, dist, "second")
	_, first := entry(t, "first")
	_, second := entry(t, "second")
	if first.Digest != second.Digest {
		t.Errorf("two builds have digests %s and %s", first.Digest, second.Digest)
	}
}

func TestBadInput(t *testing.T) {
	dist := writeDist(t, artifact{"queuecap", "darwin", "arm64", "", "queuecap for darwin/arm64"})
	if err := os.Mkdir("exists", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-dist", dist, "-created", created}, "-out: the layout directory is required"},
		{[]string{"-dist", dist, "-out", "exists", "-created", created}, "-out exists: already exists"},
		{[]string{"-dist", dist, "-out", "new", "-created", "yesterday"}, `-created "yesterday": not an RFC 3339 time`},
		{[]string{"-dist", dist, "-out", "new"}, `-created "": not an RFC 3339 time`},
		{[]string{"-dist", "nowhere", "-out", "new", "-created", created}, "-dist: open nowhere/metadata.json: no such file or directory"},
		{[]string{"-dist", dist, "-out", "new", "-created", created}, `dist/artifacts.json lists no linux binary of the "queuecap" build`},
		{[]string{"-dist", dist, "-out", "new", "-created", created, "extra"}, `unexpected argument "extra"`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			err := run(tc.args, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
			if _, err := os.Stat("new"); err == nil {
				t.Errorf("a failed run left the layout directory behind")
			}
		})
	}
}
