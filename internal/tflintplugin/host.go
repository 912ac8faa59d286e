// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package tflintplugin

import (
	"path/filepath"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/terraform-linters/tflint-plugin-sdk/tflint"
	"github.com/zclconf/go-cty/cty"
)

// host is tflint as the linter's lint.Host: the files tflint loaded and
// its evaluation of the root module, through the runner of the module
// tflint is inspecting.
type host struct {
	runner tflint.Runner
	// base is the inspected module's directory from where tflint was
	// started, which tflint joins to every path it loads.
	base string
	// root are the root module's files, as tflint's GetFiles gives them.
	root map[string]*hcl.File

	mu    sync.Mutex
	other map[string][]byte // files of called modules, nil when tflint has none
}

func newHost(r tflint.Runner, base string) (*host, error) {
	files, err := r.GetFiles()
	if err != nil {
		return nil, err
	}
	return &host{runner: r, base: base, root: files, other: map[string][]byte{}}, nil
}

func (h *host) Name() string { return "tflint" }

// File is a file tflint loaded: one of the root module's, or of a module
// it called (GetFile falls back to every file its loader read). tflint
// names files by their path from its working directory, as the linter
// does when it lints ".".
func (h *host) File(path string) ([]byte, bool) {
	name := filepath.Clean(path)
	if f, ok := h.root[name]; ok {
		return f.Bytes, f.Bytes != nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if src, ok := h.other[name]; ok {
		return src, src != nil
	}
	// A file that does not parse as its suffix says still comes with its
	// bytes (and an error): the linter reports the parse error itself.
	f, _ := h.runner.GetFile(name)
	if f == nil && filepath.IsAbs(name) {
		// A module that modules.json records at an absolute directory:
		// tflint joins it to its base too (filepath.Join(".", "/m") is
		// "m"), and names its files so.
		f, _ = h.runner.GetFile(filepath.Join(h.base, name))
	}
	var src []byte
	if f != nil {
		src = f.Bytes
	}
	h.other[name] = src
	return src, src != nil
}

// Evaluate is tflint's value of a root module expression; false when
// tflint cannot evaluate it.
func (h *host) Evaluate(expr hcl.Expression) (cty.Value, bool) {
	if _, ok := h.root[filepath.Clean(expr.Range().Filename)]; !ok {
		return cty.NilVal, false
	}
	var v cty.Value
	if err := h.runner.EvaluateExpr(expr, &v, &tflint.EvaluateExprOption{WantType: &cty.DynamicPseudoType}); err != nil {
		return cty.NilVal, false
	}
	v, _ = v.UnmarkDeep() // sensitive and ephemeral marks: the value is what counts
	return v, v != cty.NilVal
}

// NotLoaded says which tflint setting leaves a module out: tflint loads
// local modules unless call_module_type is "none", and remote ones (as
// terraform init installed them) only with "all".
func (h *host) NotLoaded(source string) string {
	if strings.HasPrefix(source, "./") || strings.HasPrefix(source, "../") {
		return `tflint did not load this local module (call_module_type = "none"); set call_module_type = "local" or "all" in the config block of .tflint.hcl`
	}
	return `tflint loads installed remote modules only with call_module_type = "all" in the config block of .tflint.hcl (or --call-module-type=all), after terraform init`
}
