// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestLintFlagsDocumented checks that every flag `queuecap lint --help`
// lists has a row in the flag table of docs/rules/README.md.
func TestLintFlagsDocumented(t *testing.T) {
	var help bytes.Buffer
	lintCommand(&lintFlags{}).usage(&help)
	names := regexp.MustCompile(`(?m)^  (?:-[a-z], )?--([a-z-]+)`).FindAllStringSubmatch(help.String(), -1)
	if len(names) < 10 {
		t.Fatalf("found %d flags in:\n%s", len(names), help.String())
	}
	docs, err := os.ReadFile("../../docs/rules/README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range names {
		if !strings.Contains(string(docs), "| `--"+m[1]) && !strings.Contains(string(docs), ", `--"+m[1]) {
			t.Errorf("--%s is not in the flag table of docs/rules/README.md", m[1])
		}
	}
}
