// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// maxModuleDepth bounds module nesting, as a last guard behind the cycle
// check.
const maxModuleDepth = 16

// parsedFile is one configuration file as read and parsed.
type parsedFile struct {
	path  string
	src   []byte
	file  *hcl.File
	diags hcl.Diagnostics
}

// sourceCache keeps, for the whole run, the bytes of the configuration
// files that may hold ignore comments: those whose text has
// "queuecap-ignore" (or, for tflint, "tflint-ignore") in it. Any other file's bytes live only as long as its
// module's declarations (Module.sources). Safe for concurrent use.
type sourceCache struct {
	mu    sync.Mutex
	files map[string][]byte
	// tflint keeps files with tflint's ignore comments too, which count
	// only under tflint.
	tflint bool
}

func newSourceCache() *sourceCache { return &sourceCache{files: make(map[string][]byte)} }

// ignoreMarks are the texts every ignore comment holds (see
// parseAnnotation): queuecap's, and tflint's, which count under tflint.
var ignoreMarks = [][]byte{[]byte("queuecap-ignore"), []byte("tflint-ignore")}

func (c *sourceCache) put(path string, src []byte) {
	if !bytes.Contains(src, ignoreMarks[0]) && (!c.tflint || !bytes.Contains(src, ignoreMarks[1])) {
		return
	}
	c.mu.Lock()
	c.files[path] = src
	c.mu.Unlock()
}

// paths are the files kept, sorted.
func (c *sourceCache) paths() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Sorted(maps.Keys(c.files))
}

// lookup returns a file as parsed for its comments, or nil.
func (c *sourceCache) lookup(path string) *parsedFile {
	c.mu.Lock()
	src, ok := c.files[path]
	c.mu.Unlock()
	if !ok {
		return nil
	}
	return &parsedFile{path: path, src: src}
}

// parseFile reads and parses one .tf, .tf.json, .tfvars or .tfvars.json
// file inside the boundary. Every failure becomes a diagnostic with the
// file's name, never a panic: files outside the boundary or not regular,
// unreadable files, files too large, binary files, files that are not
// UTF-8.
func (b *Boundary) parseFile(path string) *parsedFile {
	src, err := b.readFile(path, maxFileBytes, "a configuration file")
	return parseRead(path, src, err)
}

// parseRead parses what reading path gave.
func parseRead(path string, src []byte, err error) *parsedFile {
	if err != nil {
		return &parsedFile{path: path, diags: hcl.Diagnostics{fileDiag(path, err)}}
	}
	return parseSource(path, src)
}

// fileDiag is the error of a file that could not be read, at its start.
func fileDiag(path string, err error) *hcl.Diagnostic {
	re := readErr(path, err)
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: re.summary, Detail: re.detail,
		Subject: &hcl.Range{Filename: path, Start: hcl.InitialPos, End: hcl.InitialPos}}
}

// parseSource parses a configuration file's bytes.
func parseSource(path string, src []byte) *parsedFile {
	pf := &parsedFile{path: path, src: src}
	if len(src) > maxFileBytes {
		pf.diags = hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "File too large",
			Detail:  fmt.Sprintf("%d bytes is more than the %d bytes a configuration file may have", len(src), maxFileBytes),
			Subject: &hcl.Range{Filename: path, Start: hcl.InitialPos, End: hcl.InitialPos}}}
		return pf
	}
	if i := bytes.IndexByte(src, 0); i >= 0 {
		// Not text: its lines are not shown (see formatter), and a parse
		// would report every stray byte.
		pf.diags = hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Binary file",
			Detail:  fmt.Sprintf("it holds a NUL byte (at byte %d), so it is not configuration: not parsed", i+1),
			Subject: &hcl.Range{Filename: path, Start: hcl.InitialPos, End: hcl.InitialPos}}}
		return pf
	}
	if !utf8.Valid(src) {
		line, col := firstInvalidUTF8(src)
		pf.diags = hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid UTF-8",
			Detail:  "configuration files must be UTF-8 encoded",
			Subject: &hcl.Range{Filename: path, Start: hcl.Pos{Line: line, Column: col}, End: hcl.Pos{Line: line, Column: col}}}}
		return pf
	}
	if strings.HasSuffix(path, ".json") {
		pf.file, pf.diags = parseJSONConfig(src, path)
	} else {
		pf.file, pf.diags = parseNative(src, path)
	}
	return pf
}

func firstInvalidUTF8(src []byte) (line, col int) {
	line, col = 1, 1
	for len(src) > 0 {
		r, size := utf8.DecodeRune(src)
		if r == utf8.RuneError && size <= 1 {
			return line, col
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		src = src[size:]
	}
	return line, col
}

// tofuTwins maps each Terraform configuration suffix to the OpenTofu one
// that replaces it.
var tofuTwins = map[string]string{".tf": ".tofu", ".tf.json": ".tofu.json"}

// configExt returns a file name's configuration suffix, or "" for a file
// that is not configuration: hidden files and editor backups are not.
func configExt(name string) string {
	if strings.HasPrefix(name, ".") || strings.HasPrefix(name, "#") || strings.HasSuffix(name, "~") {
		return ""
	}
	for _, ext := range []string{".tf", ".tf.json", ".tofu", ".tofu.json"} {
		if strings.HasSuffix(name, ext) {
			return ext
		}
	}
	return ""
}

// configFiles lists a directory's configuration files in name order,
// override files last as Terraform merges them. As OpenTofu does
// (internal/configs/parser_config_dir.go, filterTfPathsWithTofuAlternatives),
// x.tofu replaces x.tf and x.tofu.json replaces x.tf.json, override files
// included.
func configFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	return configFilesIn(dir, entries), nil
}

// configFilesIn is configFiles of a directory already read.
func configFilesIn(dir string, entries []fs.DirEntry) []string {
	present := map[string]bool{}
	for _, e := range entries {
		present[e.Name()] = configExt(e.Name()) != "" && mayBeFile(dir, e)
	}
	var primary, overrides []string
	for _, e := range entries {
		name := e.Name()
		if !present[name] {
			continue
		}
		ext := configExt(name)
		base := strings.TrimSuffix(name, ext)
		if twin, ok := tofuTwins[ext]; ok && present[base+twin] {
			continue
		}
		if base == "override" || strings.HasSuffix(base, "_override") {
			overrides = append(overrides, filepath.Join(dir, name))
		} else {
			primary = append(primary, filepath.Join(dir, name))
		}
	}
	return append(primary, overrides...)
}

// mayBeFile keeps what a configuration file's name may stand for: a
// regular file, a link that resolves to something other than a directory,
// a named pipe, a device or a socket; reading it then reports what it is
// not. A link loop or a dangling link is skipped here and never opened,
// as is a directory named like a file.
func mayBeFile(dir string, e fs.DirEntry) bool {
	if e.Type()&fs.ModeSymlink == 0 {
		return !e.IsDir()
	}
	info, err := os.Stat(filepath.Join(dir, e.Name()))
	return err == nil && !info.IsDir()
}

// isRegularOrLink keeps regular files and links to regular files; a link
// loop or a dangling link is skipped here and never opened.
func isRegularOrLink(dir string, e fs.DirEntry) bool {
	if e.Type().IsRegular() {
		return true
	}
	if e.Type()&fs.ModeSymlink == 0 {
		return false
	}
	info, err := os.Stat(filepath.Join(dir, e.Name()))
	return err == nil && info.Mode().IsRegular()
}

// Module is one module's configuration, before evaluation.
type Module struct {
	Dir       string
	Variables map[string]*Variable
	Locals    map[string]*hcl.Attribute
	Outputs   map[string]*hcl.Attribute
	Resources []*Resource
	Calls     []*ModuleCall
	// sources are the bytes of the module's files by path, for findings
	// moved out of the module (see variableOnly).
	sources map[string][]byte
	// byAddr indexes Resources by local address, built once for the
	// declaration and shared by its copies (loadModule) and instances.
	byAddr *resourceIndex
}

type resourceIndex struct {
	once sync.Once
	m    map[string]*Resource
}

// resource is the resource or data source at a local address.
func (m *Module) resource(local string) (*Resource, bool) {
	if m.byAddr == nil {
		for _, r := range m.Resources {
			if r.LocalAddr() == local {
				return r, true
			}
		}
		return nil, false
	}
	m.byAddr.once.Do(func() {
		m.byAddr.m = make(map[string]*Resource, len(m.Resources))
		for _, r := range m.Resources {
			m.byAddr.m[r.LocalAddr()] = r
		}
	})
	r, ok := m.byAddr.m[local]
	return r, ok
}

// source is one of the module's files as read, or nil.
func (m *Module) source(path string) *parsedFile {
	src, ok := m.sources[path]
	if !ok {
		return nil
	}
	return &parsedFile{path: path, src: src}
}

// Variable is a `variable` block.
type Variable struct {
	Name    string
	Default hcl.Expression // nil when there is none
	Type    hcl.Expression // nil when there is none
	Range   hcl.Range

	// The declared type and the default, worked out once: a module called
	// with for_each evaluates its inputs once per instance, and roots
	// share declarations.
	once       sync.Once
	ty         cty.Type // cty.DynamicPseudoType without a usable type
	defaults   *typeexpr.Defaults
	defaultVal cty.Value
}

// resolve works out, once, the variable's declared type
// (cty.DynamicPseudoType when it has none or it does not parse), the
// defaults of its optional attributes, and its default with those
// defaults applied, converted to the type (cty.DynamicVal when there is
// none), as Terraform works them out.
func (v *Variable) resolve() {
	v.once.Do(func() {
		v.ty, v.defaults, _ = variableType(v)
		v.defaultVal = cty.DynamicVal
		if v.Default != nil {
			if val, diags := v.Default.Value(nil); !diags.HasErrors() {
				v.defaultVal = v.converted(val)
			}
		}
	})
}

// defaultValue is the variable's default as resolve works it out.
func (v *Variable) defaultValue() cty.Value {
	v.resolve()
	return v.defaultVal
}

// convert is val as the variable receives it: its optional attributes'
// defaults applied where they are null or absent, converted to its type.
// A value that does not convert is left as given.
func (v *Variable) convert(val cty.Value) cty.Value {
	v.resolve()
	return v.converted(val)
}

// converted is convert once resolve has run.
func (v *Variable) converted(val cty.Value) cty.Value {
	if v.defaults != nil && !val.IsNull() {
		val = v.defaults.Apply(val)
	}
	return convertTo(v.ty, val)
}

// Resource is a `resource` or `data` block.
type Resource struct {
	Mode     string // "resource" or "data"
	Type     string
	Name     string
	Body     hcl.Body // nil for types the linter does not read
	DefRange hcl.Range
	Repeated bool // has count or for_each
	// Count and ForEach are the meta-arguments, nil when absent.
	Count, ForEach hcl.Expression
	// local is LocalAddr, worked out when the loader makes the resource.
	local string
	// static is set by the loader for a body known to hold no dynamic
	// block, so that an instance need not look again (expandResource).
	static bool
	// dynamic is, for a body with dynamic blocks, what their for_each
	// and labels read, found on first use (expandResource).
	dynamic struct {
		once  sync.Once
		reads []hcl.Traversal
	}
}

// LocalAddr is the resource's address within its module.
func (r *Resource) LocalAddr() string {
	if r.local != "" {
		return r.local
	}
	return r.localAddr()
}

func (r *Resource) localAddr() string {
	if r.Mode == "data" {
		return "data." + r.Type + "." + r.Name
	}
	return r.Type + "." + r.Name
}

// ModuleCall is a `module` block.
type ModuleCall struct {
	Name     string
	Source   string
	Args     map[string]*hcl.Attribute
	DefRange hcl.Range
	Repeated bool
	// Count and ForEach are the meta-arguments, nil when absent.
	Count, ForEach hcl.Expression
	// Child is the called module when it could be loaded; ChildDir its
	// directory. Nil for remote modules terraform init has not installed.
	Child    *Module
	ChildDir string
	// NotLoaded is why the Host did not load the module, when it did not.
	NotLoaded string
}

var fileSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
	{Type: "terraform"},
	{Type: "provider", LabelNames: []string{"name"}},
	{Type: "variable", LabelNames: []string{"name"}},
	{Type: "locals"},
	{Type: "output", LabelNames: []string{"name"}},
	{Type: "module", LabelNames: []string{"name"}},
	{Type: "resource", LabelNames: []string{"type", "name"}},
	{Type: "data", LabelNames: []string{"type", "name"}},
	{Type: "moved"},
	{Type: "import"},
	{Type: "removed"},
	{Type: "check", LabelNames: []string{"name"}},
}}

var variableSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "default"}, {Name: "type"}}}

var outputSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "value"}}}

var metaArguments = map[string]bool{"source": true, "version": true, "count": true, "for_each": true, "providers": true, "depends_on": true}

// loader builds module trees from directories. Each directory is read,
// parsed and decoded once however many root modules reach it (with
// --recursive, most modules are also a root of their own), and kept only
// while a root module still to finish may read it (retain.go).
type loader struct {
	sources *sourceCache
	modules sync.Map // directory → *moduleEntry
	dirs    sync.Map // directory → its canonical form
	// retention, when set, limits the modules kept to those a root
	// module still to finish may read (see predictReads).
	retention *retention
	// listings are the configuration files of the directories the walk
	// for root modules found, each kept until the directory is read.
	listings sync.Map // directory → its files' names, NUL-separated
	// bound is what the loader may read of the disk.
	bound *Boundary
	// host, when set, supplies the files instead of the disk (Host).
	host Host
	// spare runs what parseFiles and loadModule hand it beside the
	// roots' own goroutines, nil for none (see startSpare).
	spare *helpers
	// remote are the directories of installed remote modules, and of the
	// local modules they call: files the user does not edit.
	remote sync.Map // directory → true
	// errs collects problems; the caller turns them into ErrorEntries.
	mu   sync.Mutex
	errs hcl.Diagnostics
}

type moduleEntry struct {
	once sync.Once
	decl *Module
	err  error
}

func newLoader(bound *Boundary) *loader {
	return &loader{sources: newSourceCache(), bound: bound}
}

// isRemote reports whether dir is an installed remote module's, or a
// local module's it calls.
func (l *loader) isRemote(dir string) bool {
	_, ok := l.remote.Load(filepath.Clean(dir))
	return ok
}

func (l *loader) addDiags(diags hcl.Diagnostics) {
	if !diags.HasErrors() {
		return
	}
	l.mu.Lock()
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			l.errs = append(l.errs, d)
		}
	}
	l.mu.Unlock()
}

// loadModule reads one module directory and, recursively, the modules it
// calls. rootDir is the root module's directory, where terraform init
// records remote modules; key is the module's path in modules.json
// ("" for the root, "a.b" for module.a.module.b); callers are the
// directories of the modules on the way here, the root's first.
func (l *loader) loadModule(dir, rootDir, key string, callers []string, manifest *moduleManifest) (*Module, error) {
	decl, err := l.moduleDecl(dir)
	if err != nil {
		return nil, err
	}
	// The declaration is shared; the calls' children depend on the root
	// (remote modules resolve through its manifest), so they are this
	// load's own.
	m := *decl
	m.Calls = make([]*ModuleCall, len(decl.Calls))
	for i, c := range decl.Calls {
		call := *c
		m.Calls[i] = &call
	}
	load := make([]bool, len(m.Calls)) // the calls whose module is read
	for i, call := range m.Calls {
		call.ChildDir = resolveSource(dir, rootDir, childKey(key, call.Name), call.Source, manifest)
		if call.ChildDir == "" && !isLocalSource(call.Source) && manifest != nil && manifest.err != nil {
			call.NotLoaded = fmt.Sprintf("%s could not be read (%s)", manifest.err.path, manifest.err.detail)
		}
		if call.ChildDir == "" || len(callers) >= maxModuleDepth {
			continue
		}
		if l.host != nil && !l.hostLoaded(call.ChildDir) {
			call.NotLoaded = l.host.NotLoaded(call.Source)
			call.ChildDir = ""
			continue
		}
		// The host decides what it loads; on its own the linter reads
		// no module outside the boundary, wherever modules.json says it
		// was installed.
		if l.host == nil {
			if err := l.bound.check(call.ChildDir, l.canonicalDir(call.ChildDir)); err != nil {
				call.NotLoaded = "its directory " + call.ChildDir + " " + strings.TrimPrefix(readErr(call.ChildDir, err).detail, "it ")
				call.ChildDir = ""
				continue
			}
		}
		// A module that calls itself, directly or through others, would
		// be instantiated without end (and, with two such calls, in
		// exponentially many copies): Terraform rejects it, so do we.
		if childCanon := l.canonicalDir(call.ChildDir); slices.Contains(callers, childCanon) || childCanon == l.canonicalDir(dir) {
			l.addDiags(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Module cycle",
				Detail: fmt.Sprintf("module %q calls %s, which is the calling module itself or one of its callers", call.Name, call.ChildDir), Subject: call.DefRange.Ptr()}})
			call.ChildDir = ""
			continue
		}
		load[i] = true
		if !isLocalSource(call.Source) || l.isRemote(dir) {
			l.remote.Store(filepath.Clean(call.ChildDir), true)
		}
	}
	// The modules after the first are read ahead, where a processor is
	// free, while this goroutine reads the first (see parseFiles).
	if l.host == nil {
		first := true
		for i, call := range m.Calls {
			if !load[i] {
				continue
			}
			if first { // read by this goroutine, below
				first = false
				continue
			}
			if e, kept := l.keptEntry(call.ChildDir); kept {
				l.spare.try(func() {
					_, _ = l.readDecl(e, call.ChildDir) // its error is the load's, below
				})
			}
		}
	}
	for i, call := range m.Calls {
		if !load[i] {
			continue
		}
		child, err := l.loadModule(call.ChildDir, rootDir, childKey(key, call.Name), append(slices.Clip(callers), l.canonicalDir(dir)), manifest)
		if err != nil {
			l.addDiags(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot load module " + call.Name,
				Detail: err.Error(), Subject: call.DefRange.Ptr()}})
			continue
		}
		call.Child = child
	}
	return &m, nil
}

// childKey is a call's key in modules.json under the calling module's.
func childKey(key, name string) string {
	if key == "" {
		return name
	}
	return key + "." + name
}

// moduleDecl reads and decodes a directory once.
func (l *loader) moduleDecl(dir string) (*Module, error) {
	return l.readDecl(l.entry(dir), dir)
}

// readDecl reads dir into its entry, once.
func (l *loader) readDecl(entry *moduleEntry, dir string) (*Module, error) {
	entry.once.Do(func() {
		paths, err := l.configFiles(dir, true)
		if err != nil {
			entry.err = err
			return
		}
		m := &Module{Dir: dir, Variables: map[string]*Variable{}, Locals: map[string]*hcl.Attribute{}, Outputs: map[string]*hcl.Attribute{},
			sources: make(map[string][]byte, len(paths)), byAddr: &resourceIndex{}}
		var parsed []*parsedFile
		if l.host == nil {
			parsed = l.parseFiles(paths)
		}
		for i, p := range paths {
			var pf *parsedFile
			if l.host == nil {
				pf = parsed[i]
			} else if hpf, ok := l.hostParse(p); ok {
				pf = hpf
			} else {
				continue // a file the host did not load
			}
			l.addDiags(pf.diags)
			if pf.src != nil {
				m.sources[p] = pf.src
				l.sources.put(p, pf.src)
			}
			if pf.file != nil {
				l.readFile(m, pf)
			}
		}
		entry.decl = m
	})
	return entry.decl, entry.err
}

// parseFiles parses a directory's files, in parallel where a processor
// is free: a root module whose module another root is reading waits for
// it (moduleDecl reads each directory once), and the files of that one
// directory are then all the work there is. Each file but the last goes
// to an idle helper when there is one and is parsed here otherwise (the
// last always here), so a busy run adds no work and no waiting.
func (l *loader) parseFiles(paths []string) []*parsedFile {
	out := make([]*parsedFile, len(paths))
	var wg sync.WaitGroup
	for i, p := range paths {
		wg.Add(1)
		parse := func() {
			defer wg.Done()
			// A helper's panic would end the process, past lintRoot's
			// recover: it is this file's error.
			defer func() {
				if r := recover(); r != nil {
					out[i] = &parsedFile{path: p, diags: hcl.Diagnostics{fileDiag(p, fmt.Errorf("internal error while parsing it: %v", r))}}
				}
			}()
			out[i] = l.bound.parseFile(p)
		}
		if i == len(paths)-1 || !l.spare.try(parse) {
			parse()
		}
	}
	wg.Wait()
	return out
}

// helpers are goroutines that take work only when one of them is idle.
// They live as long as the run: a goroutine started per task would grow
// its stack by copying each time, and the parser recurses deeply.
type helpers struct {
	tasks chan func()
	done  sync.WaitGroup
}

// startSpare starts n helpers; stopSpare ends them.
func (l *loader) startSpare(n int) {
	h := &helpers{tasks: make(chan func())}
	for range n {
		h.done.Go(func() {
			for task := range h.tasks {
				h.run(task)
			}
		})
	}
	l.spare = h
}

func (l *loader) stopSpare() {
	if l.spare != nil {
		close(l.spare.tasks)
		l.spare.done.Wait()
		l.spare = nil
	}
}

// run runs a task, whose panic would otherwise end the process past the
// recover of the root that handed it over: a read ahead that panics
// leaves its module unread, and the root reading it fails on its own.
func (h *helpers) run(task func()) {
	defer func() { _ = recover() }()
	task()
}

// try hands task to an idle helper and reports whether one took it; it
// never waits. A nil helpers takes nothing.
func (h *helpers) try(task func()) bool {
	if h == nil {
		return false
	}
	select {
	case h.tasks <- task:
		return true
	default:
		return false
	}
}

// configFiles is configFiles(dir), from the walk's listing when it has
// one; read drops that listing, for a directory being read.
func (l *loader) configFiles(dir string, read bool) ([]string, error) {
	if l.host != nil {
		return hostFiles(dir)
	}
	var files any
	var ok bool
	if read {
		files, ok = l.listings.LoadAndDelete(dir)
	} else {
		files, ok = l.listings.Load(dir)
	}
	if ok {
		names := strings.Split(files.(string), "\x00") //nolint:forcetypeassert // l.listings holds only strings
		paths := make([]string, len(names))
		for i, n := range names {
			paths[i] = filepath.Join(dir, n)
		}
		return paths, nil
	}
	return configFiles(dir)
}

// listed keeps the walk's listing of a root module directory, as the
// files' names in one string: a tree of 100,000 files has as many paths.
func (l *loader) listed(dir string, files []string) {
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = filepath.Base(f)
	}
	l.listings.Store(dir, strings.Join(names, "\x00"))
}

// entry is dir's place in the cache; with retention, a directory no root
// module still to finish may read gets a place of its own, read for this
// load alone.
func (l *loader) entry(dir string) *moduleEntry {
	e, _ := l.keptEntry(dir)
	return e
}

// keptEntry is entry(dir), and whether the loader keeps it: a directory
// no root module still to finish is predicted to read gets an entry of
// its own each time, read by whoever asked for it. Only a kept one is
// worth reading ahead (loadModule).
func (l *loader) keptEntry(dir string) (*moduleEntry, bool) {
	if r := l.retention; r != nil {
		r.mu.Lock()
		defer r.mu.Unlock()
		if !r.keep(dir) {
			return &moduleEntry{}, false
		}
	}
	e, _ := l.modules.LoadOrStore(dir, &moduleEntry{})
	return e.(*moduleEntry), true //nolint:forcetypeassert // l.modules holds only *moduleEntry
}

func (l *loader) readFile(m *Module, pf *parsedFile) {
	content, _, diags := pf.file.Body.PartialContent(fileSchema)
	l.addDiags(diags)
	for _, b := range content.Blocks {
		switch b.Type {
		case "variable":
			v := &Variable{Name: b.Labels[0], Range: b.DefRange}
			attrs := l.optionalAttributes(b.Body, variableSchema)
			if a, ok := attrs["default"]; ok {
				v.Default = a.Expr
			}
			if a, ok := attrs["type"]; ok {
				v.Type = a.Expr
			}
			m.Variables[v.Name] = v
		case "locals":
			attrs, d := b.Body.JustAttributes()
			l.addDiags(d)
			for name, a := range attrs {
				m.Locals[name] = a
			}
		case "output":
			if a, ok := l.optionalAttributes(b.Body, outputSchema)["value"]; ok {
				m.Outputs[b.Labels[0]] = a
			}
		case "module":
			m.Calls = append(m.Calls, l.readModuleCall(b))
		case "resource", "data":
			r := &Resource{Mode: b.Type, Type: b.Labels[0], Name: b.Labels[1], DefRange: b.DefRange,
				Repeated: hasAnyAttribute(b.Body, "count", "for_each")}
			// Only the bodies the linter reads are kept; the rest of a
			// large configuration's syntax tree is left to the collector.
			if (b.Type == "resource" && resourceSchemas[r.Type] != nil) || (b.Type == "data" && (isQueuecapData(r.Type) || dataSchemas[r.Type] != nil)) {
				r.Body = b.Body
				r.static = !hasDynamic(b.Body)
				if r.Repeated {
					attrs := optionalAttributes(b.Body, repetitionSchema, nil)
					if a := attrs["count"]; a != nil {
						r.Count = a.Expr
					}
					if a := attrs["for_each"]; a != nil {
						r.ForEach = a.Expr
					}
				}
			}
			r.local = r.localAddr()
			m.Resources = append(m.Resources, r)
		}
	}
}

// optionalAttributes is optionalAttributes with the loader's diagnostics.
func (l *loader) optionalAttributes(body hcl.Body, schema *hcl.BodySchema) hcl.Attributes {
	return optionalAttributes(body, schema, l.addDiags)
}

// optionalAttributes is what body.PartialContent(schema) finds of a schema
// of optional attributes, its diagnostics given to diags when not nil. A
// native block's body as parsed, which has no hidden attributes and so no
// diagnostics to give, is read directly, without PartialContent's maps
// and copy of the body.
func optionalAttributes(body hcl.Body, schema *hcl.BodySchema, diags func(hcl.Diagnostics)) hcl.Attributes {
	if native, ok := body.(*hclsyntax.Body); ok {
		var attrs hcl.Attributes
		for _, as := range schema.Attributes {
			if a, ok := native.Attributes[as.Name]; ok {
				if attrs == nil {
					attrs = make(hcl.Attributes, len(schema.Attributes))
				}
				attrs[as.Name] = a.AsHCLAttribute()
			}
		}
		return attrs
	}
	c, _, d := body.PartialContent(schema)
	if diags != nil {
		diags(d)
	}
	if c == nil {
		return nil
	}
	return c.Attributes
}

func (l *loader) readModuleCall(b *hcl.Block) *ModuleCall {
	call := &ModuleCall{Name: b.Labels[0], DefRange: b.DefRange, Args: map[string]*hcl.Attribute{}}
	attrs, _ := b.Body.JustAttributes() // a module block holds only arguments; stray blocks are Terraform's to report
	for name, a := range attrs {
		switch name {
		case "source":
			if v, d := a.Expr.Value(nil); !d.HasErrors() && v.Type().FriendlyName() == "string" && v.IsKnown() && !v.IsNull() {
				call.Source = v.AsString()
			}
		case "count":
			call.Repeated, call.Count = true, a.Expr
		case "for_each":
			call.Repeated, call.ForEach = true, a.Expr
		}
		if !metaArguments[name] {
			call.Args[name] = a
		}
	}
	return call
}

func hasAnyAttribute(body hcl.Body, names ...string) bool {
	if native, ok := body.(*hclsyntax.Body); ok { // no schema, no copies
		for _, n := range names {
			if _, ok := native.Attributes[n]; ok {
				return true
			}
		}
		return false
	}
	schema := &hcl.BodySchema{}
	for _, n := range names {
		schema.Attributes = append(schema.Attributes, hcl.AttributeSchema{Name: n})
	}
	c, _, _ := body.PartialContent(schema)
	return c != nil && len(c.Attributes) > 0
}

// resolveSource finds a called module's directory: local paths relative to
// the caller, and remote sources where terraform init recorded them in
// .terraform/modules/modules.json. It returns "" for a module that is not
// available locally; its contents are then not checked.
func resolveSource(callerDir, rootDir, key, source string, manifest *moduleManifest) string {
	if isLocalSource(source) {
		dir := filepath.Join(callerDir, filepath.FromSlash(source))
		if info, err := os.Stat(dir); err == nil && info.IsDir() {
			return dir
		}
		return ""
	}
	if rel, ok := manifest.dir(key); ok && rel != "" {
		dir := rel
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(rootDir, filepath.FromSlash(rel))
		}
		if info, err := os.Stat(dir); err == nil && info.IsDir() {
			return dir
		}
	}
	return ""
}

// canonicalDir is a directory's absolute path with symbolic links
// resolved, so that two spellings of one directory compare equal. It is
// memoized: resolving links costs a system call per path component.
func (l *loader) canonicalDir(dir string) string {
	if c, ok := l.dirs.Load(dir); ok {
		return c.(string) //nolint:forcetypeassert // l.dirs holds only strings
	}
	c, err := l.bound.realDirOf(dir)
	if err != nil {
		c = absPath(dir)
	}
	l.dirs.Store(dir, c)
	return c
}

// moduleManifest is a root module's .terraform/modules/modules.json, as
// terraform init writes it: each installed module's directory, relative
// to the root, by its key. err is why a manifest that is there could not
// be read.
type moduleManifest struct {
	dirs map[string]string
	err  *readError
	at   hcl.Range // where err is
}

// dir is the directory of the module at key, if installed.
func (m *moduleManifest) dir(key string) (string, bool) {
	if m == nil {
		return "", false
	}
	d, ok := m.dirs[key]
	return d, ok
}

// diag is the manifest's error, nil when it was read or is absent.
func (m *moduleManifest) diag() *hcl.Diagnostic {
	if m.err == nil {
		return nil
	}
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: m.err.summary, Detail: m.err.detail, Subject: m.at.Ptr()}
}

// readModuleManifest reads modules/modules.json in a root module's data
// directory (dataDir), inside the boundary. One that is absent installs
// nothing; one that cannot be read or parsed is an error at its place,
// one outside the boundary too.
func (l *loader) readModuleManifest(rootDir string) *moduleManifest {
	p := filepath.Join(dataDir(rootDir), "modules", "modules.json")
	m := &moduleManifest{at: hcl.Range{Filename: p, Start: hcl.InitialPos, End: hcl.InitialPos}}
	if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
		return m
	}
	src, err := l.bound.readFile(p, maxFileBytes, "modules.json")
	if err != nil {
		m.err = readErr(p, err)
		return m
	}
	var doc struct {
		Modules []struct{ Key, Dir string }
	}
	if err := json.Unmarshal(src, &doc); err != nil {
		m.err = &readError{path: p, summary: "Malformed modules.json",
			detail: "it is not the JSON terraform init writes (" + err.Error() + "), so no installed module is read"}
		var syntax *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syntax):
			m.at.Start = posAt(src, syntax.Offset)
		case errors.As(err, &typ):
			m.at.Start = posAt(src, typ.Offset)
		}
		m.at.End = m.at.Start
		return m
	}
	m.dirs = make(map[string]string, len(doc.Modules))
	for _, mod := range doc.Modules {
		m.dirs[mod.Key] = mod.Dir
	}
	return m
}

// posAt is the line and column of a byte offset in src, as a JSON
// decoder's errors give it: the offset of the byte after the one that
// failed, or the length of input that ended too soon.
func posAt(src []byte, offset int64) hcl.Pos {
	offset = max(0, min(offset, int64(len(src))))
	before := src[:offset]
	line := bytes.Count(before, []byte("\n")) + 1
	col := utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:])
	return hcl.Pos{Line: line, Column: max(1, col), Byte: int(offset)}
}

// rootModuleDirs walks below each directory for directories holding
// configuration files (--recursive), skipping hidden directories such as
// .terraform and .git, and those skipDir skips. Symlinked directories are
// not followed, so a link loop cannot trap the walk. Unreadable
// directories are reported and skipped.
func rootModuleDirs(top string, report func(path string, err error)) []string {
	return walkRoots(top, nil, report, nil, nil)
}

// walkRoots is rootModuleDirs, skipping the folders skipDir matches with
// skipGlobs besides, reading each directory once, and giving listed (when
// not nil) each root's configuration files as configFiles lists them, and
// unit (when not nil) each directory that holds no configuration but a
// Terragrunt unit's terragrunt.hcl.
func walkRoots(top string, skipGlobs []string, report func(path string, err error), listed func(dir string, files []string), unit func(path string)) []string {
	// As filepath.WalkDir: top itself is not followed when it is a link.
	info, err := os.Lstat(top)
	if err != nil {
		report(top, err)
		return nil
	}
	if !info.IsDir() {
		return nil
	}
	var dirs []string
	// A TF_DATA_DIR that is not hidden, as .terraform is, holds the
	// modules terraform init installed for the folder above: no roots.
	tfData := os.Getenv("TF_DATA_DIR") != ""
	var walk func(dir, rel string, dataDirs []string)
	walk = func(dir, rel string, dataDirs []string) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			report(dir, err)
			return
		}
		if noteDir(dir, entries, listed, unit) {
			dirs = append(dirs, dir)
		}
		if tfData {
			dataDirs = append(slices.Clip(dataDirs), absPath(dataDir(dir)))
		}
		for _, e := range entries {
			if !e.IsDir() {
				continue
			}
			sub, r := filepath.Join(dir, e.Name()), path.Join(rel, e.Name())
			if !skipDir(r, skipGlobs) && (!tfData || !slices.Contains(dataDirs, absPath(sub))) {
				walk(sub, r, dataDirs)
			}
		}
	}
	walk(top, "", nil)
	slices.Sort(dirs)
	return dirs
}

// noteDir reports whether dir, with its entries, is a root module (it holds
// configuration files), giving listed (when not nil) its files, or else
// unit (when not nil) its terragrunt.hcl when it is a Terragrunt unit's.
func noteDir(dir string, entries []fs.DirEntry, listed func(dir string, files []string), unit func(path string)) bool {
	if files := configFilesIn(dir, entries); len(files) > 0 {
		if listed != nil {
			listed(dir, files)
		}
		return true
	}
	if unit != nil {
		if p, ok := terragruntFileIn(dir, entries); ok {
			unit(p)
		}
	}
	return false
}

// tfvarsFiles lists, in Terraform's precedence order (later wins), the
// variable files Terraform loads automatically from a root module: each
// name that is there and not a directory, so that reading it reports a
// link out of the boundary or a file that is not regular.
func tfvarsFiles(dir string) []string {
	var out []string
	for _, name := range []string{"terraform.tfvars", "terraform.tfvars.json"} {
		if info, err := os.Lstat(filepath.Join(dir, name)); err == nil && !info.IsDir() {
			out = append(out, filepath.Join(dir, name))
		}
	}
	entries, _ := os.ReadDir(dir)
	var auto []string
	for _, e := range entries {
		n := e.Name()
		if (strings.HasSuffix(n, ".auto.tfvars") || strings.HasSuffix(n, ".auto.tfvars.json")) && !e.IsDir() {
			auto = append(auto, filepath.Join(dir, n))
		}
	}
	slices.Sort(auto)
	return append(out, auto...)
}

// dataDir is the directory where terraform init, run in the root module
// rootDir, writes what it installs: TF_DATA_DIR as Terraform reads it (a
// relative one is relative to where Terraform runs, the root module's
// directory, so each root of --recursive has its own), else .terraform.
func dataDir(rootDir string) string {
	d := os.Getenv("TF_DATA_DIR")
	switch {
	case d == "":
		return filepath.Join(rootDir, ".terraform")
	case filepath.IsAbs(d):
		return d
	}
	return filepath.Join(rootDir, d)
}

// isLocalSource reports whether a module source is a local path.
func isLocalSource(s string) bool { return strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") }
