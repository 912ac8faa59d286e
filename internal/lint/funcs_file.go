// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"bytes"
	"cmp"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
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
// Inside them a call fails where Terraform's fails (a missing file, a
// directory, a template that does not render), so that try() and can()
// choose as Terraform does. templatestring is here too: it renders as
// templatefile does.
func (root *instance) fileFunctions() map[string]function.Function {
	fr := &fileReader{root: root, bounds: map[string]*Boundary{}}
	fr.base, _ = filepath.Abs(root.mod.Dir)
	content := fr.contentFunc
	hashed := func(h func() hash.Hash, enc func([]byte) string) function.Function {
		return content(func(b []byte, _ string) (string, error) { return hashBytes(h, enc, b), nil })
	}
	return map[string]function.Function{
		"abspath": fr.absPathFunc(),
		"file":    content(text),
		"filebase64": content(func(b []byte, _ string) (string, error) {
			return base64.StdEncoding.EncodeToString(b), nil
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
	// bounds are the trees a call may read, by the calling file's
	// directory: the root module's and the caller's.
	bounds map[string]*Boundary
	// templateFuncs are the functions a template may call (built on first
	// use, from the root's).
	templateFuncs map[string]function.Function
}

// unknownString is what a file function returns when it cannot read.
var unknownString = cty.UnknownVal(cty.String).RefineNotNull()

// resolve is the real path of p and whether the linter may read it, with
// what the boundary found there when it told (see Boundary.resolve).
func (fr *fileReader) resolve(p string) (string, fs.FileInfo, bool) {
	if strings.HasPrefix(p, "~") {
		// A home directory is the machine's, not the configuration's.
		return "", nil, false
	}
	p = filepath.FromSlash(p)
	if !filepath.IsAbs(p) {
		p = filepath.Join(fr.base, p)
	}
	caller := fr.root.mod.Dir
	if f := fr.root.evalRange.Filename; f != "" {
		caller = filepath.Dir(f)
	}
	b, ok := fr.bounds[caller]
	if !ok {
		b = dirBoundary(fr.root.mod.Dir, caller)
		fr.bounds[caller] = b
	}
	resolved, info, err := b.resolve(p)
	return resolved, info, err == nil
}

// noFileError is Terraform's failure for a file that is not there. The
// linter fails the call as Terraform does, but reports it as no error of
// its own: a file a build step makes before `terraform plan` (a Lambda
// package, a rendered template) is missing from the tree being linted.
type noFileError string

func (e noFileError) Error() string { return "no file exists at " + string(e) }

// read is the content of the regular file at the path v names: ok is
// false when the linter may not read it, and err says why Terraform's read
// fails where it surely would.
func (fr *fileReader) read(v cty.Value) (b []byte, ok bool, err error) {
	if !v.IsKnown() {
		return nil, false, nil
	}
	name := v.AsString()
	p, info, ok := fr.resolve(name)
	if !ok {
		return nil, false, nil
	}
	if info == nil { // the boundary followed a link, or found nothing
		info, err = os.Stat(p)
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, false, noFileError(name)
	case err == nil && info.IsDir():
		return nil, false, fmt.Errorf("%s is a directory, not a file", name)
	case err != nil || !info.Mode().IsRegular() || info.Size() > maxFileBytes:
		// Only a regular file: reading a named pipe would never end. A
		// file above maxFileBytes (a Lambda package hashed for
		// source_code_hash) never sizes a queue.
		return nil, false, nil //nolint:nilerr // a file the linter cannot stat is unknown, not an error
	}
	b, err = readRegular(p, p, info, nil, maxFileBytes, "a file")
	return b, err == nil, nil
}

// text is a file's content as a string, which Terraform requires to be
// UTF-8.
func text(b []byte, name string) (string, error) {
	if !utf8.Valid(b) {
		return "", fmt.Errorf("the content of %s is not valid UTF-8; filebase64 and the file hashes read any file", name)
	}
	return string(b), nil
}

var pathParam = function.Parameter{Name: "path", Type: cty.String, AllowUnknown: true}

// contentFunc is file, filebase64 and the file hashes: a file's content
// rendered as a string.
func (fr *fileReader) contentFunc(render func(b []byte, name string) (string, error)) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{pathParam},
		Type:   function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			b, ok, err := fr.read(args[0])
			if err != nil {
				return cty.NilVal, function.NewArgError(0, err)
			}
			if !ok {
				return unknownString, nil
			}
			s, err := render(b, args[0].AsString())
			if err != nil {
				return cty.NilVal, function.NewArgError(0, err)
			}
			return cty.StringVal(s), nil
		},
	})
}

// existsFunc is fileexists: whether a regular file is there. Like
// Terraform's it fails for a directory or another kind of file.
func (fr *fileReader) existsFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{pathParam},
		Type:   function.StaticReturnType(cty.Bool),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			unknown := cty.UnknownVal(cty.Bool).RefineNotNull()
			if !args[0].IsKnown() {
				return unknown, nil
			}
			p, _, ok := fr.resolve(args[0].AsString())
			if !ok {
				return unknown, nil
			}
			info, err := os.Stat(p)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				return cty.False, nil
			case err != nil:
				return unknown, nil //nolint:nilerr // a file the linter cannot stat is unknown, not an error
			case info.IsDir():
				return cty.NilVal, function.NewArgErrorf(0, "%s is a directory, not a file", args[0].AsString())
			case !info.Mode().IsRegular():
				return cty.NilVal, function.NewArgErrorf(0, "%s is not a regular file", args[0].AsString())
			}
			return cty.True, nil
		},
	})
}

// setFunc is fileset(path, pattern): the regular files below path whose
// path relative to it matches the glob pattern (`*`, `**`, `?`, `[…]`,
// `{a,b}`, as Terraform's doublestar matches), relative and with forward
// slashes. Unlike Terraform's, it does not descend into symbolic links to
// directories (a link cycle would never end): the set is unknown when the
// pattern may reach into one, or matches a link out of the tree, or
// reaches above path with "..". A path that is not a directory holds no
// files; a malformed pattern or a link to nothing fails.
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
			dir, _, ok := fr.resolve(args[0].AsString())
			if !ok {
				return unknown, nil
			}
			info, err := os.Stat(dir)
			switch {
			case errors.Is(err, fs.ErrNotExist) || err == nil && !info.IsDir():
				return cty.SetValEmpty(cty.String), nil
			case err != nil:
				return unknown, nil //nolint:nilerr // a directory the linter cannot stat is unknown, not an error
			}
			matches, err := fr.glob(dir, pattern)
			switch {
			case errors.Is(err, doublestar.ErrBadPattern):
				return cty.NilVal, function.NewArgErrorf(1, "invalid pattern %q", args[1].AsString())
			case errors.Is(err, errDanglingLink):
				return cty.NilVal, function.NewArgError(1, err)
			case err != nil:
				return unknown, nil //nolint:nilerr // a walk the linter cannot finish is unknown, not an error
			}
			if len(matches) == 0 {
				return cty.SetValEmpty(cty.String), nil
			}
			return cty.SetVal(matches), nil
		},
	})
}

// glob walks dir for the regular files matching pattern, skipping the
// directories below which nothing can match. Terraform follows symbolic
// links; the linter does not, so a link to a directory the pattern may
// reach into, or a matching link out of the tree, leaves the set unknown
// (errLinkNotFollowed), unless a link to nothing fails it as it fails
// Terraform's.
func (fr *fileReader) glob(dir, pattern string) ([]cty.Value, error) {
	if pattern == "" {
		return nil, nil
	}
	parts := strings.Split(pattern, "/")
	var out []cty.Value
	notFollowed := false
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "." {
				return nil
			}
			if ok, err := prefixMayMatch(parts, strings.Split(rel, "/")); !ok {
				return cmp.Or(err, fs.SkipDir)
			}
			return nil
		}
		var target fs.FileInfo
		var statErr error
		link := d.Type()&fs.ModeSymlink != 0
		if link {
			target, statErr = os.Stat(p)
			if statErr == nil && target.IsDir() {
				ok, err := prefixMayMatch(parts, strings.Split(rel, "/"))
				notFollowed = notFollowed || ok
				return err
			}
		}
		if ok, err := doublestar.Match(pattern, rel); !ok {
			return err
		}
		switch {
		case link && errors.Is(statErr, fs.ErrNotExist):
			return fmt.Errorf("%s: %w", rel, errDanglingLink)
		case link:
			// Counted, as in Terraform, if the linter may read its target.
			if _, _, ok := fr.resolve(p); !ok || statErr != nil {
				notFollowed = true
				return nil //nolint:nilerr // a link the linter cannot stat leaves the set unknown
			}
			if !target.Mode().IsRegular() {
				return nil
			}
		case !d.Type().IsRegular():
			return nil
		}
		out = append(out, cty.StringVal(rel))
		return nil
	})
	if err == nil && notFollowed {
		err = errLinkNotFollowed
	}
	return out, err
}

var (
	// errLinkNotFollowed leaves a file set unknown: it depends on a
	// symbolic link the linter does not follow.
	errLinkNotFollowed = errors.New("a symbolic link the linter does not follow")
	// errDanglingLink fails a file set, as Terraform's fails to stat it.
	errDanglingLink = errors.New("a symbolic link to nothing")
)

// prefixMayMatch reports whether a directory at dir (its path's parts)
// may hold a file matching the pattern's parts.
func prefixMayMatch(pattern, dir []string) (bool, error) {
	for i, name := range dir {
		switch {
		case i < len(pattern) && pattern[i] == "**":
			return true, nil
		case i >= len(pattern)-1:
			return false, nil // the pattern ends above this directory's files
		}
		if ok, err := doublestar.Match(pattern[i], name); !ok {
			return false, err
		}
	}
	return true, nil
}

// templateFileFunc is templatefile(path, vars): the file rendered as an
// HCL template whose only variables are vars.
func (fr *fileReader) templateFileFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{pathParam, templateVarsParam},
		Type:   function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			b, ok, err := fr.read(args[0])
			if err != nil {
				return cty.NilVal, function.NewArgError(0, err)
			}
			if !ok {
				return unknownString, nil
			}
			src, err := text(b, args[0].AsString())
			if err != nil {
				return cty.NilVal, function.NewArgError(0, err)
			}
			return fr.render(src, args[0].AsString(), args[1])
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
			return fr.render(args[0].AsString(), templateStringName, args[1])
		},
	})
}

// templateStringName is the file name of a templatestring template.
const templateStringName = "<templatestring>"

var templateVarsParam = function.Parameter{Name: "vars", Type: cty.DynamicPseudoType, AllowUnknown: true, AllowDynamicType: true}

// render evaluates a template as Terraform's templatefile does: vars must
// be a map or object of identifiers holding every name the template
// refers to, and the template may call every function but the template
// functions themselves. Otherwise it fails, as Terraform's does.
func (fr *fileReader) render(src, filename string, vars cty.Value) (cty.Value, error) {
	if !vars.IsKnown() {
		return unknownString, nil
	}
	if ty := vars.Type(); !ty.IsMapType() && !ty.IsObjectType() {
		return cty.NilVal, function.NewArgErrorf(1, "vars must be a map or an object")
	}
	at := filepath.FromSlash(filename) // where the file is, named as the module's files are
	if !filepath.IsAbs(at) {
		at = filepath.Join(fr.root.mod.Dir, at)
	}
	if d := checkNesting([]byte(src), at, templateSyntax); d != nil {
		if filename == templateStringName {
			d.Subject = fr.root.limits.at.Ptr() // the call: the string has no file
		}
		fr.root.limits.exceedWith(d)
		return unknownString, nil
	}
	expr, diags := hclsyntax.ParseTemplate([]byte(src), filename, hcl.InitialPos)
	if diags.HasErrors() {
		return cty.NilVal, diags
	}
	names := vars.AsValueMap()
	for n := range names {
		if !hclsyntax.ValidIdentifier(n) {
			return cty.NilVal, function.NewArgErrorf(1, "%q is not a valid template variable name", n)
		}
	}
	for _, t := range expr.Variables() {
		if _, ok := names[t.RootName()]; !ok {
			return cty.NilVal, function.NewArgErrorf(1, "vars has no %q, which the template refers to", t.RootName())
		}
	}
	if fr.templateFuncs == nil {
		fr.templateFuncs = maps.Clone(fr.root.evalFunctions())
		for _, name := range []string{"templatefile", "templatestring"} {
			fr.templateFuncs[name] = recursiveTemplateFunc
			fr.templateFuncs[coreNamespace+name] = recursiveTemplateFunc
		}
	}
	v, diags := expr.Value(&hcl.EvalContext{Variables: names, Functions: fr.templateFuncs})
	if diags.HasErrors() {
		return cty.NilVal, diags
	}
	return v, nil
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
// environment in the data directory (dataDir), else "default".
func workspace(rootDir string) string {
	if w := os.Getenv("TF_WORKSPACE"); w != "" {
		return w
	}
	b, _ := dirBoundary(rootDir).readFile(filepath.Join(dataDir(rootDir), "environment"), maxFileBytes, "a file")
	if w := string(bytes.TrimSpace(b)); w != "" {
		return w
	}
	return "default"
}
