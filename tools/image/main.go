// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Command image builds queuecap's container image, without a Docker daemon,
// as an OCI image layout from the linux queuecap binaries a GoReleaser run
// left in its dist directory: one image for one binary (a snapshot of this
// machine's platform), an image index of one image per platform for several
// (a release). Run it from the directory GoReleaser ran in, whose paths
// dist/artifacts.json holds:
//
//	go -C tools build -o "$PWD/.cache/image" ./image
//	.cache/image -dist dist -out dist/image -created "$(git log -1 --format=%cI)"
//
// The layout's one entry is named v<version>. tools/push-image.sh pushes it
// with crane; make release-check reads it with skopeo and umoci.
package main

import (
	"archive/tar"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// What the image is, for its labels and the registry's page.
const (
	buildID     = "queuecap" // the GoReleaser build of cmd/queuecap
	source      = "https://github.com/queuecap/terraform-provider-queuecap"
	licence     = "MPL-2.0"
	title       = "queuecap"
	description = "queuecap lint: finds SQS queues whose consumers cannot recover from a backlog, in Terraform and OpenTofu configurations and plans."

	binaryPath = "/usr/local/bin/queuecap"
	workDir    = "/workdir"
	// The distroless images' nonroot user: no name needed, and no file of
	// the image is writable by it but the working directory.
	nonroot = 65532
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "image:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("image", flag.ContinueOnError)
	dist := fs.String("dist", "dist", "GoReleaser's output directory, with artifacts.json and metadata.json")
	out := fs.String("out", "", "the OCI image layout directory to write; it must not exist")
	createdFlag := fs.String("created", "", "the image's creation time, RFC 3339: the commit's, so that a build is reproducible")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *out == "" {
		return errors.New("-out: the layout directory is required")
	}
	if _, err := os.Stat(*out); err == nil {
		return fmt.Errorf("-out %s: already exists; a layout is written into a new directory", *out)
	}
	created, err := time.Parse(time.RFC3339, *createdFlag)
	if err != nil {
		return fmt.Errorf("-created %q: not an RFC 3339 time such as 2026-01-02T15:04:05Z", *createdFlag)
	}
	meta, err := readMetadata(*dist)
	if err != nil {
		return err
	}
	binaries, err := linuxBinaries(*dist)
	if err != nil {
		return err
	}
	version := "v" + meta.Version
	labels := map[string]string{
		"org.opencontainers.image.source":      source,
		"org.opencontainers.image.url":         source,
		"org.opencontainers.image.licenses":    licence,
		"org.opencontainers.image.title":       title,
		"org.opencontainers.image.description": description,
		"org.opencontainers.image.version":     version,
		"org.opencontainers.image.revision":    meta.Commit,
		"org.opencontainers.image.created":     created.UTC().Format(time.RFC3339),
	}
	p, err := layout.Write(*out, empty.Index)
	if err != nil {
		return fmt.Errorf("-out %s: %w", *out, err)
	}
	ref := layout.WithAnnotations(map[string]string{"org.opencontainers.image.ref.name": version})
	var images []v1.Image
	for _, b := range binaries {
		img, err := buildImage(b, created, labels)
		if err != nil {
			return err
		}
		images = append(images, img)
	}
	if len(images) == 1 {
		err = p.AppendImage(images[0], ref, layout.WithPlatform(binaries[0].platform))
	} else {
		idx := mutate.IndexMediaType(empty.Index, types.OCIImageIndex)
		for i, img := range images {
			idx = mutate.AppendManifests(idx, mutate.IndexAddendum{Add: img, Descriptor: v1.Descriptor{Platform: &binaries[i].platform}})
		}
		annotated, ok := mutate.Annotations(idx, labels).(v1.ImageIndex)
		if !ok {
			return errors.New("go-containerregistry annotated the image index into something else")
		}
		err = p.AppendIndex(annotated, ref)
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", *out, err)
	}
	for _, b := range binaries {
		fmt.Fprintf(stdout, "%s: %s from %s\n", *out, b.platform, b.path)
	}
	return nil
}

type metadata struct {
	Version string `json:"version"`
	Commit  string `json:"commit"`
}

func readMetadata(dist string) (metadata, error) {
	var m metadata
	name := filepath.Join(dist, "metadata.json")
	data, err := os.ReadFile(name)
	if err != nil {
		return m, fmt.Errorf("-dist: %w", err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return m, fmt.Errorf("%s: %w", name, err)
	}
	if m.Version == "" || m.Commit == "" {
		return m, fmt.Errorf("%s: no version or commit", name)
	}
	return m, nil
}

type binary struct {
	platform v1.Platform
	path     string
}

// linuxBinaries returns the linux binaries of the queuecap build listed in
// artifacts.json, in platform order.
func linuxBinaries(dist string) ([]binary, error) {
	name := filepath.Join(dist, "artifacts.json")
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("-dist: %w", err)
	}
	var artifacts []struct {
		Type   string         `json:"type"`
		Path   string         `json:"path"`
		Goos   string         `json:"goos"`
		Goarch string         `json:"goarch"`
		Goarm  string         `json:"goarm"`
		Extra  map[string]any `json:"extra"`
	}
	if err := json.Unmarshal(data, &artifacts); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var out []binary
	for _, a := range artifacts {
		if a.Type != "Binary" || a.Goos != "linux" || a.Extra["ID"] != buildID {
			continue
		}
		p := v1.Platform{OS: a.Goos, Architecture: a.Goarch}
		if a.Goarch == "arm" && a.Goarm != "" {
			p.Variant = "v" + a.Goarm
		}
		out = append(out, binary{platform: p, path: a.Path})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s lists no linux binary of the %q build", name, buildID)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].platform.String() < out[j].platform.String() })
	return out, nil
}

// buildImage is the binary and the working directory in one layer, its
// entries dated at created, so that the same commit gives the same digest.
func buildImage(b binary, created time.Time, labels map[string]string) (v1.Image, error) {
	data, err := os.ReadFile(b.path)
	if err != nil {
		return nil, err
	}
	layerTar, err := rootFS(data, created)
	if err != nil {
		return nil, err
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(layerTar)), nil
	}, tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return nil, err
	}
	img := mutate.ConfigMediaType(mutate.MediaType(empty.Image, types.OCIManifestSchema1), types.OCIConfigJSON)
	img, err = mutate.Append(img, mutate.Addendum{
		Layer:   layer,
		History: v1.History{Created: v1.Time{Time: created}, CreatedBy: "tools/image: " + binaryPath + " and " + workDir},
	})
	if err != nil {
		return nil, err
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cf = cf.DeepCopy()
	cf.Created = v1.Time{Time: created}
	cf.OS, cf.Architecture, cf.Variant = b.platform.OS, b.platform.Architecture, b.platform.Variant
	cf.Config = v1.Config{
		Entrypoint: []string{binaryPath},
		WorkingDir: workDir,
		User:       fmt.Sprintf("%d:%d", nonroot, nonroot),
		Env:        []string{"PATH=/usr/local/bin"},
		Labels:     labels,
	}
	img, err = mutate.ConfigFile(img, cf)
	if err != nil {
		return nil, err
	}
	annotated, ok := mutate.Annotations(img, labels).(v1.Image)
	if !ok {
		return nil, errors.New("go-containerregistry annotated the image into something else")
	}
	return annotated, nil
}

// rootFS is the layer's tar: the directories down to the binary, the binary,
// and the working directory owned by the image's user.
func rootFS(bin []byte, created time.Time) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	dir := func(name string, mode int64, owner int) error {
		return tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: name + "/", Mode: mode, Uid: owner, Gid: owner, ModTime: created, Format: tar.FormatPAX})
	}
	for _, d := range []string{"usr", "usr/local", "usr/local/bin"} {
		if err := dir(d, 0o755, 0); err != nil {
			return nil, err
		}
	}
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: binaryPath[1:], Mode: 0o755, Size: int64(len(bin)), ModTime: created, Format: tar.FormatPAX}); err != nil {
		return nil, err
	}
	if _, err := tw.Write(bin); err != nil {
		return nil, err
	}
	if err := dir(workDir[1:], 0o755, nonroot); err != nil {
		return nil, err
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
