// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"bytes"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"hash"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// fileFunctions are Terraform's functions that read files or depend on the
// working directory (internal/lang/funcs/filesystem.go and the file hashes
// of crypto.go), for one root module. Terraform resolves a relative path
// from its working directory, the root module's directory, and so do these.
// Unlike Terraform they read a file only when it lies, symbolic links
// followed, inside the root module's directory tree or the tree of the
// module whose expression calls them: a configuration under review must
// not make the linter read, and print, other files on the machine. Outside
// those trees, or when the file cannot be read, the result is unknown.
// templatestring is here too: it renders as templatefile does.
func (root *instance) fileFunctions() map[string]function.Function {
	fr := &fileReader{root: root, real: map[string]string{}}
	fr.base, _ = filepath.Abs(root.mod.Dir)
	content := fr.contentFunc
	hashed := func(h func() hash.Hash, enc func([]byte) string) function.Function {
		return content(func(b []byte) (string, bool) { return hashBytes(h, enc, b), true })
	}
	return map[string]function.Function{
		"abspath": fr.absPathFunc(),
		"file": content(func(b []byte) (string, bool) {
			// Terraform rejects a file that is not UTF-8 text.
			return string(b), utf8.Valid(b)
		}),
		"filebase64": content(func(b []byte) (string, bool) {
			return base64.StdEncoding.EncodeToString(b), true
		}),
		"filebase64sha256": hashed(sha256.New, base64.StdEncoding.EncodeToString),
		"filebase64sha512": hashed(sha512.New, base64.StdEncoding.EncodeToString),
		"fileexists":       fr.existsFunc(),
		"filemd5":          hashed(md5.New, hex.EncodeToString),
		"fileset":          fr.setFunc(),
		"filesha1":         hashed(sha1.New, hex.EncodeToString),
		"filesha256":       hashed(sha256.New, hex.EncodeToString),
		"filesha512":       hashed(sha512.New, hex.EncodeToString),
		"templatefile":     fr.templateFileFunc(),
		"templatestring":   fr.templateStringFunc(),
	}
}

// fileReader resolves and reads the paths one root's file functions are
// given.
type fileReader struct {
	root *instance
	base string // the root module's directory, absolute
	// real caches directories' real paths, by the path as written.
	real map[string]string
	// templateFuncs are the functions a template may call (built on first
	// use, from the root's).
	templateFuncs map[string]function.Function
}

// unknownString is what a file function returns when it cannot read.
var unknownString = cty.UnknownVal(cty.String).RefineNotNull()

// resolve is the real path of p and whether the linter may read it.
func (fr *fileReader) resolve(p string) (string, bool) {
	if p == "" || strings.HasPrefix(p, "~") {
		// A home directory is the machine's, not the configuration's.
		return "", false
	}
	p = filepath.FromSlash(p)
	if !filepath.IsAbs(p) {
		p = filepath.Join(fr.base, p)
	}
	resolved, err := realPath(p)
	if err != nil {
		return "", false
	}
	trees := []string{fr.root.mod.Dir}
	if f := fr.root.evalRange.Filename; f != "" {
		trees = append(trees, filepath.Dir(f))
	}
	for _, t := range trees {
		if tr := fr.realDir(t); tr != "" && within(resolved, tr) {
			return resolved, true
		}
	}
	return "", false
}

func (fr *fileReader) realDir(dir string) string {
	r, ok := fr.real[dir]
	if !ok {
		if abs, err := filepath.Abs(dir); err == nil {
			r, _ = filepath.EvalSymlinks(abs)
		}
		fr.real[dir] = r
	}
	return r
}

// realPath is an absolute path with every symbolic link resolved; the
// part that does not exist yet is kept as written.
func realPath(p string) (string, error) {
	p = filepath.Clean(p)
	var missing []string
	for {
		resolved, err := filepath.EvalSymlinks(p)
		if err == nil {
			return filepath.Join(append([]string{resolved}, missing...)...), nil
		}
		parent := filepath.Dir(p)
		if !errors.Is(err, fs.ErrNotExist) || parent == p {
			return "", err
		}
		missing = append([]string{filepath.Base(p)}, missing...)
		p = parent
	}
}

// within reports whether p is dir or below it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// read is the content of the regular file at the path v names.
func (fr *fileReader) read(v cty.Value) ([]byte, bool) {
	if !v.IsKnown() || v.IsNull() {
		return nil, false
	}
	p, ok := fr.resolve(v.AsString())
	if !ok {
		return nil, false
	}
	// Only a regular file: reading a named pipe would never end. A file
	// above maxFileBytes (a Lambda package hashed for source_code_hash)
	// never sizes a queue.
	if info, err := os.Stat(p); err != nil || !info.Mode().IsRegular() || info.Size() > maxFileBytes {
		return nil, false
	}
	b, err := os.ReadFile(p)
	return b, err == nil
}

var pathParam = function.Parameter{Name: "path", Type: cty.String, AllowUnknown: true}

// contentFunc is file, filebase64 and the file hashes: a file's content
// rendered as a string.
func (fr *fileReader) contentFunc(render func([]byte) (string, bool)) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{pathParam},
		Type:   function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			b, ok := fr.read(args[0])
			if !ok {
				return unknownString, nil
			}
			s, ok := render(b)
			if !ok {
				return unknownString, nil
			}
			return cty.StringVal(s), nil
		},
	})
}

// existsFunc is fileexists: whether a regular file is there (Terraform
// fails for a directory, so the linter does not know).
func (fr *fileReader) existsFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{pathParam},
		Type:   function.StaticReturnType(cty.Bool),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			unknown := cty.UnknownVal(cty.Bool).RefineNotNull()
			if !args[0].IsKnown() {
				return unknown, nil
			}
			p, ok := fr.resolve(args[0].AsString())
			if !ok {
				return unknown, nil
			}
			info, err := os.Stat(p)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				return cty.False, nil
			case err != nil || !info.Mode().IsRegular():
				return unknown, nil //nolint:nilerr // a file the linter cannot stat is unknown, not an error
			}
			return cty.True, nil
		},
	})
}

// setFunc is fileset(path, pattern): the regular files below path whose
// path relative to it matches the glob pattern (`*`, `**`, `?`, `[…]`,
// `{a,b}`, as Terraform's doublestar matches), relative and with forward
// slashes. Unlike Terraform's, it does not descend into symbolic links to
// directories (a link cycle would never end), and a pattern reaching
// above path with ".." is unknown.
func (fr *fileReader) setFunc() function.Function {
	retType := cty.Set(cty.String)
	return function.New(&function.Spec{
		Params: []function.Parameter{pathParam, {Name: "pattern", Type: cty.String, AllowUnknown: true}},
		Type:   function.StaticReturnType(retType),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			unknown := cty.UnknownVal(retType).RefineNotNull()
			if !args[0].IsKnown() || !args[1].IsKnown() {
				return unknown, nil
			}
			pattern := filepath.ToSlash(args[1].AsString())
			if slices.Contains(strings.Split(pattern, "/"), "..") {
				return unknown, nil
			}
			pattern = strings.TrimPrefix(path.Clean("/"+pattern), "/")
			dir, ok := fr.resolve(args[0].AsString())
			if !ok {
				return unknown, nil
			}
			matches, ok := fr.glob(dir, pattern)
			if !ok {
				return unknown, nil
			}
			if len(matches) == 0 {
				return cty.SetValEmpty(cty.String), nil
			}
			return cty.SetVal(matches), nil
		},
	})
}

// glob walks dir for the regular files matching pattern, skipping the
// directories below which nothing can match.
func (fr *fileReader) glob(dir, pattern string) ([]cty.Value, bool) {
	if pattern == "" {
		return nil, true
	}
	parts := strings.Split(pattern, "/")
	var out []cty.Value
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && !prefixMayMatch(parts, strings.Split(rel, "/")) {
				return fs.SkipDir
			}
			return nil
		}
		if ok, _ := doublestar.Match(pattern, rel); !ok {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			// A link to a file counts, as in Terraform, if its target
			// may be read.
			if _, ok := fr.resolve(p); !ok {
				return nil
			}
			if info, err := os.Stat(p); err != nil || !info.Mode().IsRegular() {
				return nil //nolint:nilerr // a dangling link is not in the set, as in Terraform
			}
		} else if !d.Type().IsRegular() {
			return nil
		}
		out = append(out, cty.StringVal(rel))
		return nil
	})
	return out, err == nil
}

// prefixMayMatch reports whether a directory at dir (its path's parts)
// may hold a file matching the pattern's parts.
func prefixMayMatch(pattern, dir []string) bool {
	for i, name := range dir {
		if i >= len(pattern)-1 {
			return false // the pattern ends above this directory's files
		}
		if pattern[i] == "**" {
			return true
		}
		if ok, _ := doublestar.Match(pattern[i], name); !ok {
			return false
		}
	}
	return true
}

// templateFileFunc is templatefile(path, vars): the file rendered as an
// HCL template whose only variables are vars.
func (fr *fileReader) templateFileFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{pathParam, templateVarsParam},
		Type:   function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			src, ok := fr.read(args[0])
			if !ok {
				return unknownString, nil
			}
			return fr.render(src, args[0].AsString(), args[1]), nil
		},
	})
}

// templateStringFunc is templatestring(template, vars), Terraform 1.9's:
// a string rendered as a template. Terraform accepts only a reference
// (a local, a variable, an attribute) as the template; the linter does not
// check where the string came from.
func (fr *fileReader) templateStringFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "template", Type: cty.String, AllowUnknown: true}, templateVarsParam},
		Type:   function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if !args[0].IsKnown() {
				return unknownString, nil
			}
			return fr.render([]byte(args[0].AsString()), templateStringName, args[1]), nil
		},
	})
}

// templateStringName is the file name of a templatestring template.
const templateStringName = "<templatestring>"

var templateVarsParam = function.Parameter{Name: "vars", Type: cty.DynamicPseudoType, AllowUnknown: true, AllowDynamicType: true}

// render evaluates a template as Terraform's templatefile does: vars must
// be a map or object of identifiers holding every name the template
// refers to, and the template may call every function but the template
// functions themselves. Anything else is unknown.
func (fr *fileReader) render(src []byte, filename string, vars cty.Value) cty.Value {
	ty := vars.Type()
	if !vars.IsKnown() || vars.IsNull() || (!ty.IsMapType() && !ty.IsObjectType()) {
		return unknownString
	}
	if d := checkNesting(src, filepath.Join(fr.root.mod.Dir, filename), templateSyntax); d != nil {
		if filename == templateStringName {
			d.Subject = fr.root.limits.at.Ptr() // the call: the string has no file
		}
		fr.root.limits.exceedWith(d)
		return unknownString
	}
	expr, diags := hclsyntax.ParseTemplate(src, filename, hcl.InitialPos)
	if diags.HasErrors() {
		return unknownString
	}
	names := vars.AsValueMap()
	for n := range names {
		if !hclsyntax.ValidIdentifier(n) {
			return unknownString
		}
	}
	for _, t := range expr.Variables() {
		if _, ok := names[t.RootName()]; !ok {
			return unknownString
		}
	}
	if fr.templateFuncs == nil {
		fr.templateFuncs = maps.Clone(fr.root.evalFunctions())
		for _, name := range []string{"templatefile", "templatestring"} {
			fr.templateFuncs[name] = recursiveTemplateFunc
		}
	}
	v, diags := expr.Value(&hcl.EvalContext{Variables: names, Functions: fr.templateFuncs})
	if diags.HasErrors() {
		return unknownString
	}
	return v
}

// recursiveTemplateFunc stands for the template functions inside a
// template, which Terraform rejects.
var recursiveTemplateFunc = function.New(&function.Spec{
	VarParam: &function.Parameter{Name: "args", Type: cty.DynamicPseudoType, AllowDynamicType: true, AllowUnknown: true, AllowNull: true},
	Type: func([]cty.Value) (cty.Type, error) {
		return cty.NilType, errors.New("cannot recursively call templatefile from inside templatefile call")
	},
})

// absPathFunc is abspath: a path made absolute from the root module's
// directory, Terraform's working directory.
func (fr *fileReader) absPathFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "path", Type: cty.String}},
		Type:   function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			p := filepath.FromSlash(args[0].AsString())
			if !filepath.IsAbs(p) {
				p = filepath.Join(fr.base, p)
			}
			return cty.StringVal(filepath.ToSlash(filepath.Clean(p))), nil
		},
	})
}

var basenameFunc = pathFunc(filepath.Base)

var dirnameFunc = pathFunc(filepath.Dir)

func pathFunc(f func(string) string) function.Function {
	return stringFunc(func(s string) (string, error) { return f(s), nil })
}

// pathExpandFunc is pathexpand: a leading ~ is the home directory, which
// is the machine's, not the configuration's, so such a path is unknown.
var pathExpandFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "path", Type: cty.String}},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		if strings.HasPrefix(args[0].AsString(), "~") {
			return unknownString, nil
		}
		return args[0], nil
	},
})

// pathValue is `path` as Terraform run in the root module's directory sets
// it: path.module relative to it ("." in the root, "modules/queue" or
// ".terraform/modules/sqs" below), path.root ".", path.cwd absolute.
func (in *instance) pathValue() cty.Value {
	if in.path != cty.NilVal {
		return in.path
	}
	in.path = in.computePath()
	return in.path
}

// computePath works out pathValue once per instance.
func (in *instance) computePath() cty.Value {
	root, _ := filepath.Abs(in.root.mod.Dir)
	mod, _ := filepath.Abs(in.mod.Dir)
	rel, err := filepath.Rel(root, mod)
	if err != nil {
		rel = mod
	}
	return cty.ObjectVal(map[string]cty.Value{
		"module": cty.StringVal(filepath.ToSlash(rel)),
		"root":   cty.StringVal("."),
		"cwd":    cty.StringVal(filepath.ToSlash(root)),
	})
}

// workspace is terraform.workspace as Terraform run in rootDir reads it:
// TF_WORKSPACE, else what `terraform workspace select` wrote to
// .terraform/environment, else "default".
func workspace(rootDir string) string {
	if w := os.Getenv("TF_WORKSPACE"); w != "" {
		return w
	}
	b, _ := os.ReadFile(filepath.Join(rootDir, ".terraform", "environment"))
	if w := string(bytes.TrimSpace(b)); w != "" {
		return w
	}
	return "default"
}
