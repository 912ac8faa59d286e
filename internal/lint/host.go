// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// Host is a tool the linter runs inside, such as tflint (the
// tflint-ruleset-queuecap plugin): the host loads the configuration and
// evaluates what it can, and the linter reads through it. The files it
// lints are the ones the host loaded, the module calls it follows are the
// ones the host's settings load, and a root module expression the host
// can evaluate has the host's value, so that its variable flags and files
// count. The linter still evaluates what the host cannot know before
// apply (resource attributes, module outputs, queuecap's own data sources
// and provider functions): its links follow those references.
type Host interface {
	// Name names the host in skip reasons: "tflint".
	Name() string
	// File is a configuration file's bytes as the host loaded them, by
	// the path the linter reads it at; false when the host did not load
	// it.
	File(path string) ([]byte, bool)
	// Evaluate is the host's value of an expression of a root module
	// file that refers only to variables, locals, path and
	// terraform.workspace; false when the host cannot evaluate it.
	Evaluate(expr hcl.Expression) (cty.Value, bool)
	// NotLoaded says why the host did not load the module a call with
	// this source brings in (its settings leave it out).
	NotLoaded(source string) string
}

// hostFiles lists a directory's configuration files as a host that reads
// only Terraform's files does (.tf and .tf.json, override files last):
// tflint reads no .tofu file.
func hostFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var primary, overrides []string
	for _, e := range entries {
		name := e.Name()
		ext := configExt(name)
		if (ext != ".tf" && ext != ".tf.json") || !isRegularOrLink(dir, e) {
			continue
		}
		base := strings.TrimSuffix(name, ext)
		if base == "override" || strings.HasSuffix(base, "_override") {
			overrides = append(overrides, filepath.Join(dir, name))
		} else {
			primary = append(primary, filepath.Join(dir, name))
		}
	}
	return append(primary, overrides...), nil
}

// hostLoaded reports whether the host loaded the module in dir: whether
// it has any of its files.
func (l *loader) hostLoaded(dir string) bool {
	files, err := hostFiles(dir)
	if err != nil {
		return false
	}
	for _, f := range files {
		if _, ok := l.host.File(f); ok {
			return true
		}
	}
	return len(files) == 0 // an empty module is loaded as empty
}

// hostParse parses a file from the bytes the host loaded.
func (l *loader) hostParse(path string) (*parsedFile, bool) {
	src, ok := l.host.File(path)
	if !ok {
		return nil, false
	}
	return parseSource(path, src), true
}

// hostScopes are the names a root module expression may refer to for the
// host to evaluate it: each, count, self, resources, data sources and
// module outputs it cannot know, or knows differently.
var hostScopes = map[string]bool{"var": true, "local": true, "path": true, "terraform": true}

// hostValue is the host's value of a root module expression when it has
// one: v (queuecap's own value, which keeps its marks) when the two agree,
// else the host's with v's marks. Only native-syntax expressions that
// refer to nothing but hostScopes go to the host.
func (in *instance) hostValue(expr hcl.Expression, traversals []hcl.Traversal, v cty.Value) cty.Value {
	h := in.root.host
	if h == nil || in.parent != nil || len(traversals) == 0 {
		return v
	}
	if _, native := expr.(hclsyntax.Expression); !native {
		return v
	}
	for _, t := range traversals {
		if !hostScopes[t.RootName()] {
			return v
		}
	}
	hv, ok := h.Evaluate(expr)
	if !ok || !hv.IsWhollyKnown() {
		return v
	}
	plain, marks := v.UnmarkDeep()
	if plain.RawEquals(hv) {
		return v
	}
	return hv.WithMarks(marks)
}
