// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"go/build"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/queuecap/terraform-provider-queuecap/"

// walls are the packages of the project each package's code may import:
// the model is a leaf, the rules and the formatters read the model, never
// the engine that builds it, and the run is its own package over the
// engine (docs/development.md).
var walls = map[string][]string{
	"internal/lint/model":     {"internal/capacity", "internal/textfmt"},
	"internal/lint/rules":     {"internal/lint/model", "internal/capacity", "internal/textfmt", "docs"},
	"internal/lint/formatter": {"internal/lint/model", "internal/capacity", "internal/textfmt"},
	// The run orders the engine's stages and spreads the roots over
	// workers, through the engine's exported Session alone.
	"internal/lint/runner": {"internal/lint"},
	// A baseline is findings by the fingerprints the formatters give.
	"internal/lint/baseline": {"internal/lint/model", "internal/lint/formatter"},
}

// TestPackageWalls holds the engine's shape with Go's imports: no package
// above imports a package of the project outside its list.
func TestPackageWalls(t *testing.T) {
	for pkg, allowed := range walls {
		p, err := build.Default.Import(module+pkg, ".", 0)
		if err != nil {
			t.Fatalf("%s: %v", pkg, err)
		}
		if len(p.GoFiles) == 0 {
			t.Errorf("%s has no Go files", pkg)
		}
		for _, imp := range p.Imports {
			rel, ours := strings.CutPrefix(imp, module)
			if ours && !slices.Contains(allowed, rel) {
				t.Errorf("%s imports %s; it may import only %v of the project", pkg, rel, allowed)
			}
		}
	}
}
