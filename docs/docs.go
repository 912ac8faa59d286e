// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Package docs carries the linter's hand-written rule pages,
// docs/rules/<rule>.md, in the binary: the SARIF output gives each rule's
// page as its help, and a linter must not read the repository it was built
// from at run time. tfplugindocs replaces only its own files and folders
// here, so this file and docs/rules/ stay as they are.
package docs

import "embed"

//go:embed rules/queuecap_*.md
var rulePages embed.FS

// RulePage is docs/rules/<rule>.md, "" for a rule without a page.
func RulePage(rule string) string {
	b, err := rulePages.ReadFile("rules/" + rule + ".md")
	if err != nil {
		return ""
	}
	return string(b)
}
