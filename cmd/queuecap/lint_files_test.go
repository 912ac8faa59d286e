// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"encoding/json"
	"slices"
	"strings"
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
		// c and c/sub read c/.queuecap.hcl, not the one above; d/e reads
		// the working directory's, d having none of its own.
		"c/.queuecap.hcl":     "queue \"aws_sqs_queue.s\" {\n  arrival_rate = 5\n}\n",
		"c/main.tf":           `resource "aws_sqs_queue" "s" {}` + "\n",
		"c/sub/main.tf":       `resource "aws_sqs_queue" "s" {}` + "\n",
		"d/e/main.tf":         `resource "aws_sqs_queue" "q" {}` + "\n",
		"empty/.queuecap.hcl": "config {\n  format = \"compact\"\n}\n",
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
		// A .queuecap.hcl stands for the roots that read it: those at or
		// below its folder with no nearer .queuecap.hcl.
		{"the working directory's .queuecap.hcl", []string{".queuecap.hcl"}, []string{"a", "b", "d/e"}, true, ""},
		{"a folder's .queuecap.hcl", []string{"c/.queuecap.hcl"}, []string{"c", "c/sub"}, false, ""},
		{"a .queuecap.hcl and a file of a root it governs", []string{"c/main.tf", "./c/.queuecap.hcl", "c/sub/main.tf"}, []string{"c", "c/sub"}, false, ""},
		{"a .queuecap.hcl no root reads", []string{"empty/.queuecap.hcl"}, nil, false, ""},
		// A usage error, on standard error, before anything is linted.
		{"not a configuration file", []string{"a/README.md", "b/main.tf"}, nil, false, "Error: a/README.md is neither a directory nor a .tf, .tf.json, .tofu, .tofu.json, .tfvars, .tfvars.json or .queuecap.hcl file\n"},
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

// TestLintConfigFileArgument: a .queuecap.hcl given as a file is read
// even when no root module reads it, so that pre-commit reports a mistake
// in it, with its place.
func TestLintConfigFileArgument(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"a/main.tf":           `resource "aws_sqs_queue" "q" {}` + "\n",
		"notes/.queuecap.hcl": "queue \"aws_sqs_queue.q\" {\n  arrival_per_second = 10\n}\n",
	})
	code, stdout, _ := cli(t, dir, "lint", "--format", "json", "a", "notes/.queuecap.hcl")
	if code != exitError {
		t.Errorf("exit %d, want 1 for the mistake in notes/.queuecap.hcl", code)
	}
	var got struct {
		Errors []struct {
			Message string
			Range   struct {
				Filename string
				Start    struct{ Line int }
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	if len(got.Errors) != 1 || got.Errors[0].Range.Filename != "notes/.queuecap.hcl" || got.Errors[0].Range.Start.Line != 2 || !strings.Contains(got.Errors[0].Message, "arrival_per_second") {
		t.Errorf("errors %+v, want one at notes/.queuecap.hcl:2 naming arrival_per_second", got.Errors)
	}
}
