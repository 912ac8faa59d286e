// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestConfigFilesOpenTofu: x.tofu replaces x.tf and x.tofu.json replaces
// x.tf.json in the same directory, as OpenTofu 1.8+ reads them; a .tofu
// file with no twin is read beside the .tf files.
func TestConfigFilesOpenTofu(t *testing.T) {
	cases := []struct {
		name  string
		files []string
		dirs  []string
		want  []string
	}{
		{name: "Terraform only", files: []string{"main.tf", "vars.tf.json"}, want: []string{"main.tf", "vars.tf.json"}},
		{name: "OpenTofu only", files: []string{"main.tofu", "vars.tofu.json"}, want: []string{"main.tofu", "vars.tofu.json"}},
		{name: "main.tofu replaces main.tf", files: []string{"main.tf", "main.tofu", "other.tf"}, want: []string{"main.tofu", "other.tf"}},
		{name: "main.tofu.json replaces main.tf.json", files: []string{"main.tf.json", "main.tofu.json"}, want: []string{"main.tofu.json"}},
		{name: "twins only by the same syntax", files: []string{"main.tf", "main.tofu.json", "vars.tf.json", "vars.tofu"},
			want: []string{"main.tf", "main.tofu.json", "vars.tf.json", "vars.tofu"}},
		{name: "override files, last", files: []string{"a_override.tf", "a_override.tofu", "override.tf.json", "override.tofu.json", "z.tf"},
			want: []string{"z.tf", "a_override.tofu", "override.tofu.json"}},
		{name: "a .tofu override does not replace the primary .tf", files: []string{"main.tf", "main_override.tofu"}, want: []string{"main.tf", "main_override.tofu"}},
		{name: "hidden and backup .tofu files are not configuration", files: []string{"main.tf", ".main.tofu", "main.tofu~", "#main.tofu#"}, want: []string{"main.tf"}},
		{name: "a directory named like a twin replaces nothing", files: []string{"main.tf"}, dirs: []string{"main.tofu"}, want: []string{"main.tf"}},
		{name: "test files are not configuration", files: []string{"main.tf", "main.tftest.hcl", "main.tofutest.hcl"}, want: []string{"main.tf"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range c.files {
				if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			for _, d := range c.dirs {
				if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			paths, err := configFiles(dir)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range paths {
				got = append(got, filepath.Base(p))
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("read %q, want %q", got, c.want)
			}
		})
	}
}
