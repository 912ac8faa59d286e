// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files and the generated sections of the docs")

// TestEndToEnd runs `queuecap lint --format json` in each folder of
// internal/lint/testdata/e2e, as a user would from that folder (so its
// .queuecap.hcl applies), and compares the output with result.json.
func TestEndToEnd(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "..", "internal", "lint", "testdata", "e2e"))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) < 6 {
		t.Fatalf("%d cases, want at least 6", len(entries))
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			dir := filepath.Join(root, e.Name())
			code, stdout, stderr := cli(t, dir, "lint", "--format", "json")
			if stderr != "" {
				t.Errorf("stderr: %s", stderr)
			}
			var got bytes.Buffer
			if err := json.Indent(&got, []byte(stdout), "", "  "); err != nil {
				t.Fatalf("%v: %s", err, stdout)
			}
			got.WriteByte('\n')
			golden := filepath.Join(dir, "result.json")
			if *update {
				if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("output differs from %s (go test ./cmd/queuecap -run TestEndToEnd -update):\n%s", golden, got.String())
			}

			// The exit code follows from the output.
			var res jsonOut
			if err := json.Unmarshal(want, &res); err != nil {
				t.Fatalf("%s: %v", golden, err)
			}
			wantCode := 0
			for _, is := range res.Issues {
				if is.Fingerprint == "" || is.Address == "" || is.Subject == "" {
					t.Errorf("%s at %s: fingerprint %q, address %q, subject %q: want all three", is.Rule, is.Range.Filename, is.Fingerprint, is.Address, is.Subject)
				}
				if is.Severity != "notice" {
					wantCode = 2
				}
			}
			if len(res.Errors) > 0 {
				wantCode = 1
			}
			if code != wantCode {
				t.Errorf("exit %d, want %d", code, wantCode)
			}
		})
	}
}
