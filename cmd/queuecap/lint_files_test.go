// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestLintFiles gives `queuecap lint` files, as pre-commit does: each
// file stands for its folder's root module, linted once however many of
// its files are given.
func TestLintFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"a/main.tf":   `resource "aws_sqs_queue" "q" {}` + "\n",
		"a/vars.tf":   "variable \"x\" {\n  default = 1\n}\n",
		"a/README.md": "not configuration\n",
		"b/main.tf":   "variable \"x\" {}\n" + `resource "aws_sqs_queue" "r" {}` + "\n",
		"b/x.tfvars":  "x = 2\n",
		// A root named by a file reads the working directory's
		// .queuecap.hcl, queue blocks included, as --recursive from there
		// would; a directory given reads only the files from itself down.
		".queuecap.hcl": "queue \"aws_sqs_queue.q\" {\n  arrival_rate = 10\n}\n",
	})
	t.Chdir(dir)
	for _, tc := range []struct {
		name      string
		args      []string
		wantRoots []string
		aRate     bool // root a's queue has the rate of ./.queuecap.hcl
		wantError string
	}{
		{"files of two roots", []string{"a/main.tf", "a/vars.tf", "b/x.tfvars"}, []string{"a", "b"}, true, ""},
		{"a .tfvars file alone", []string{"b/x.tfvars"}, []string{"b"}, false, ""},
		{"a directory and one of its files", []string{"a/main.tf", "a"}, []string{"a"}, false, ""},
		{"directories, as before", []string{"b", "a"}, []string{"b", "a"}, false, ""},
		// A usage error, on standard error, before anything is linted.
		{"not a configuration file", []string{"a/README.md", "b/main.tf"}, nil, false, "Error: a/README.md is neither a directory nor a .tf, .tofu or .tfvars file\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := cli(t, "", append([]string{"lint", "--explain", "--format", "json"}, tc.args...)...)
			if tc.wantError != "" {
				if code != exitError || stdout != "" || stderr != tc.wantError {
					t.Errorf("exit %d, stdout %q, stderr %q; want 1, nothing, %q", code, stdout, stderr, tc.wantError)
				}
				return
			}
			var got struct {
				Roots []struct {
					Dir    string
					Queues []struct {
						Address string
						Rates   []struct{ Name, Source string }
					}
				}
				Errors []struct{ Message string }
			}
			if err := json.Unmarshal([]byte(stdout), &got); err != nil {
				t.Fatalf("%v: %s%s", err, stdout, stderr)
			}
			var roots []string
			for _, r := range got.Roots {
				roots = append(roots, r.Dir)
				if r.Dir == "a" && len(r.Queues) != 1 {
					t.Errorf("root a has %d queues, want its 1", len(r.Queues))
				} else if r.Dir == "a" && (len(r.Queues[0].Rates) > 0) != tc.aRate {
					t.Errorf("root a's queue has rates %+v, want the one of ./.queuecap.hcl: %v", r.Queues[0].Rates, tc.aRate)
				}
			}
			if !slices.Equal(roots, tc.wantRoots) {
				t.Errorf("roots %q, want %q", roots, tc.wantRoots)
			}
			if code != exitOK || len(got.Errors) > 0 {
				t.Errorf("exit %d, errors %+v, want 0 and none (stderr %s)", code, got.Errors, stderr)
			}
		})
	}
}
