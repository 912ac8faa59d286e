// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// A Terragrunt unit is a directory whose terragrunt.hcl names the module
// to deploy (terraform { source = ... }) and its inputs; Terragrunt copies
// the module into .terragrunt-cache and runs Terraform there. The
// directory holds no Terraform of its own, so the linter has no root
// module to lint in it: rather than pass over it in silence, it says what
// was not checked and how to check it.

// terragruntFile is the name of a Terragrunt unit's configuration.
const terragruntFile = "terragrunt.hcl"

// terragruntFileIn is the terragrunt.hcl among a directory's entries.
func terragruntFileIn(dir string, entries []fs.DirEntry) (string, bool) {
	for _, e := range entries {
		if e.Name() == terragruntFile && isRegularOrLink(dir, e) {
			return filepath.Join(dir, terragruntFile), true
		}
	}
	return "", false
}

// terragruntSkip is the skip of the unit whose terragrunt.hcl is at path,
// placed at its terraform block's source (else its include block, else
// the file's start). A terragrunt.hcl with neither block is a
// configuration other units include (the repository's root.hcl or
// terragrunt.hcl), not a unit: false.
func terragruntSkip(bound *Boundary, path string) (Skip, bool) {
	src, err := bound.readFile(path, maxFileBytes, "a configuration file")
	if err != nil {
		return Skip{}, false
	}
	at := hcl.Range{Filename: path, Start: hcl.InitialPos, End: hcl.InitialPos}
	source, included := "", false
	f, diags := parseNative(src, path)
	body, ok := f.Body.(*hclsyntax.Body)
	switch {
	case diags.HasErrors() || !ok:
		// Not one the linter can read: still a unit, by its name.
	default:
		unit := false
		for _, b := range body.Blocks {
			switch b.Type {
			case "terraform":
				unit = true
				if a, ok := b.Body.Attributes["source"]; ok {
					at = a.Expr.Range()
					source = strings.TrimSpace(string(at.SliceBytes(src)))
				}
			case "include":
				unit, included = true, true
				if source == "" {
					at = b.DefRange()
				}
			}
		}
		if !unit {
			return Skip{}, false
		}
	}
	what := "the module it deploys"
	switch {
	case source != "":
		what = "the module it deploys (source = " + source + ")"
	case included:
		what = "the module it deploys (its source comes from the configuration it includes)"
	}
	return Skip{Rule: "module", Range: toRange(at),
		Reason: "Terragrunt unit " + filepath.Dir(path) + ": the linter reads Terraform, not terragrunt.hcl, so " + what +
			" is not checked with this unit's inputs; lint that module's directory with the inputs as --var or --var-file, " +
			"or lint the plan Terragrunt makes for the unit (terragrunt plan -out=tfplan, then queuecap lint --plan tfplan in the directory Terragrunt ran Terraform in)"}, true
}
