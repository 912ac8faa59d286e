// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package tflintplugin

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestConfigFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"tflint", "--config", "a.hcl"}, "a.hcl"},
		{[]string{"tflint", "-c", "b.hcl", "--recursive"}, "b.hcl"},
		{[]string{"tflint", "--config=c.hcl"}, "c.hcl"},
		{[]string{"tflint", "-c=d.hcl"}, "d.hcl"},
		{[]string{"tflint", "--recursive"}, ""},
		{[]string{"tflint", "--config"}, ""},
		{nil, ""},
	} {
		if got := configFlag(c.args); got != c.want {
			t.Errorf("configFlag(%q) = %q, want %q", c.args, got, c.want)
		}
	}
}

// TestConfigCandidates: tflint's order of lookup, relative paths from
// each directory given.
func TestConfigCandidates(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "TFLINT_CONFIG_FILE" {
				return v
			}
			return ""
		}
	}
	got := configCandidates([]string{"/start", "/chdir"}, []string{"tflint", "--config", "ci.hcl"}, env("/abs/env.hcl"), "/home/u")
	want := []string{"/start/ci.hcl", "/chdir/ci.hcl", "/abs/env.hcl", "/start/.tflint.hcl", "/chdir/.tflint.hcl", "/home/u/.tflint.hcl"}
	if !slices.Equal(got, want) {
		t.Errorf("candidates %q, want %q", got, want)
	}
	got = configCandidates([]string{"/start", ""}, nil, env(""), "")
	if want := []string{"/start/.tflint.hcl"}; !slices.Equal(got, want) {
		t.Errorf("candidates %q, want %q", got, want)
	}
}

// TestRuleAttrPlace: the place of the value in the first file that
// exists, and no other file's.
func TestRuleAttrPlace(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	first := write("first.hcl", "rule \"other\" {\n  severity = \"loud\"\n}\n\nrule \"queuecap_zero_surplus\" {\n  enabled = true\n  severity   = \"loud\"\n}\n")
	second := write("second.hcl", "rule \"queuecap_ttl\" {\n  severity = \"loud\"\n}\n")
	broken := write("broken.hcl", "rule \"queuecap_zero_surplus\" {\n")
	missing := filepath.Join(dir, "missing.hcl")
	for _, c := range []struct {
		name  string
		files []string
		rule  string
		value string
		want  string
	}{
		{"found", []string{missing, first, second}, "queuecap_zero_surplus", "loud", first + ":7:16: "},
		{"only the first file that exists", []string{first, second}, "queuecap_ttl", "loud", ""},
		{"another value", []string{first}, "queuecap_zero_surplus", "quiet", ""},
		{"no such rule", []string{first}, "queuecap_nothing", "loud", ""},
		{"unparsable", []string{broken, first}, "queuecap_zero_surplus", "loud", ""},
		{"no file", []string{missing}, "queuecap_zero_surplus", "loud", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := ruleAttrPlace(c.files, c.rule, "severity", c.value); got != c.want {
				t.Errorf("ruleAttrPlace = %q, want %q", got, c.want)
			}
		})
	}
}
