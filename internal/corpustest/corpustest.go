// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Package corpustest gives tests the shared corpus of public Terraform
// beside the repository (../shared/corpus), and stand-ins for what its
// repositories need that has no network here. Tests that use it skip when
// the corpus is absent, as in a clone on its own.
package corpustest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/testaws"
)

// Dir is ../shared/corpus/<which> beside the repository, absolute; the
// test skips without it.
func Dir(t testing.TB, which string) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "corpus", which)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no %s: the shared corpus is not beside the repository", dir)
	}
	return dir
}

// zipCall is a module call whose source is one of nhs-notify-shared-modules'
// release zips (…/terraform-sqs.zip is its modules/sqs).
var zipCall = regexp.MustCompile(`(?s)module\s+"([^"]+)"\s*\{[^}]*?source\s*=\s*"([^"]*/terraform-([a-z0-9-]+)\.zip)"`)

// DigitalLetters stands for `terraform init` on the NHS digital-letters
// stack of corpus/wild: a temporary copy of its root module (the dl
// component) with each remote zip module (nested ones under keys such as
// eventpub.s3bucket_event_cache) copied from its folder of
// nhs-notify-shared-modules 3.0.6, which the corpus holds, into
// .terraform/modules/<key>, and the modules.json that records them, as
// terraform init installs a zip. It returns the copy's directory.
func DigitalLetters(t testing.TB) string {
	t.Helper()
	wild := Dir(t, "wild")
	stack := filepath.Join(wild, "NHSDigital__nhs-notify-digital-letters", "infrastructure", "terraform", "components", "dl")
	shared := filepath.Join(wild, "NHSDigital__nhs-notify-shared-modules", "infrastructure", "terraform", "modules")
	root := filepath.Join(t.TempDir(), "dl")
	type entry struct{ Key, Source, Dir string }
	manifest := []entry{{Key: "", Source: "", Dir: "."}}
	var install func(dir, prefix, copyTo string)
	install = func(dir, prefix, copyTo string) {
		if err := testaws.CopyDir(dir, copyTo); err != nil {
			t.Fatal(err)
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.tf"))
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range zipCall.FindAllStringSubmatch(string(src), -1) {
				key := prefix + m[1]
				rel := filepath.Join(".terraform", "modules", key)
				manifest = append(manifest, entry{Key: key, Source: m[2], Dir: filepath.ToSlash(rel)})
				install(filepath.Join(shared, m[3]), key+".", filepath.Join(root, rel))
			}
		}
	}
	install(stack, "", root)
	data, err := json.Marshal(map[string]any{"Modules": manifest})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, ".terraform", "modules"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".terraform", "modules", "modules.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}
