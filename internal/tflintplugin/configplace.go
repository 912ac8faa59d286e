// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package tflintplugin

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// tflint hands a plugin the values of its rule blocks but not where they
// are written, so the plugin finds the place itself, to say file:line:col
// of a value it rejects: it reads the configuration file tflint read.

// configCandidates are the files tflint may have read its configuration
// from, in the order it looks for one: the file of --config (from tflint's
// command line, where /proc shows it), $TFLINT_CONFIG_FILE, .tflint.hcl,
// ~/.tflint.hcl. Relative paths are tried from each of dirs (the
// directories tflint may resolve them from: it was started in one and
// --chdir moves it to another).
func configCandidates(dirs []string, parentArgs []string, getenv func(string) string, home string) []string {
	var rel []string
	if c := configFlag(parentArgs); c != "" {
		rel = append(rel, c)
	}
	if env := getenv("TFLINT_CONFIG_FILE"); env != "" {
		rel = append(rel, env)
	}
	rel = append(rel, ".tflint.hcl")
	var out []string
	for _, p := range rel {
		if filepath.IsAbs(p) {
			out = append(out, p)
			continue
		}
		for _, d := range dirs {
			if d != "" {
				out = append(out, filepath.Join(d, p))
			}
		}
	}
	if home != "" {
		out = append(out, filepath.Join(home, ".tflint.hcl"))
	}
	return out
}

// configFlag is the value of tflint's --config (or -c) option in its
// command line, "" without one.
func configFlag(args []string) string {
	for i, a := range args {
		switch {
		case a == "--config" || a == "-c":
			if i+1 < len(args) {
				return args[i+1]
			}
		case strings.HasPrefix(a, "--config="):
			return strings.TrimPrefix(a, "--config=")
		case strings.HasPrefix(a, "-c="):
			return strings.TrimPrefix(a, "-c=")
		}
	}
	return ""
}

// parentArgs is the command line of the process that started this one
// (tflint), where the system shows it; nil elsewhere.
func parentArgs() []string {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", os.Getppid()))
	if err != nil || len(raw) == 0 {
		return nil
	}
	return strings.Split(string(bytes.TrimRight(raw, "\x00")), "\x00")
}

// ruleAttrPlace is where the first of files that exists sets attr of
// `rule "<rule>"` to the string value, as "file:line:col: "; "" when it
// does not, or no file does.
func ruleAttrPlace(files []string, rule, attr, value string) string {
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		// tflint reads the first file it finds and no other.
		f, diags := hclsyntax.ParseConfig(src, path, hcl.InitialPos)
		if diags.HasErrors() {
			return ""
		}
		body, ok := f.Body.(*hclsyntax.Body)
		if !ok {
			return ""
		}
		for _, b := range body.Blocks {
			if b.Type != "rule" || len(b.Labels) != 1 || b.Labels[0] != rule {
				continue
			}
			a, ok := b.Body.Attributes[attr]
			if !ok {
				continue
			}
			if v, d := a.Expr.Value(nil); d.HasErrors() || !v.Type().Equals(cty.String) || !v.IsKnown() || v.IsNull() || v.AsString() != value {
				continue
			}
			r := a.Expr.Range()
			return fmt.Sprintf("%s:%d:%d: ", r.Filename, r.Start.Line, r.Start.Column)
		}
		return ""
	}
	return ""
}
