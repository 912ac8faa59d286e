// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"sync"
)

// A run over a large tree reads thousands of module directories. Keeping
// every directory's declarations (and the syntax they hold) until the end
// makes memory grow with the tree, and the collector's work with it.
// Before linting, Run predicts which directories each root module will
// read: its own, the local module sources its files name, transitively,
// and the modules terraform init recorded for it. The loader then keeps a
// directory's declarations only while a root module that may read it has
// not finished. The prediction reads the files' text, not their syntax: a
// directory it misses is read again for the root that needs it, which
// costs a parse and never changes a result.

// retention counts, for each module directory, the root modules still to
// finish that may read it.
type retention struct {
	mu   sync.Mutex
	refs map[string]int
}

// keep reports whether a root module still to finish may read dir; the
// caller holds r.mu.
func (r *retention) keep(dir string) bool { return r.refs[dir] > 0 }

// release is called once a root module is done with the directories it
// was predicted to read: those no other unfinished root may read are
// dropped from the loader's cache.
func (l *loader) release(dirs []string) {
	r := l.retention
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, d := range dirs {
		if r.refs[d]--; r.refs[d] <= 0 {
			delete(r.refs, d)
			l.modules.Delete(d)
		}
	}
}

// predictReads sets up retention for roots: it returns, for each root
// module directory, the directories its load is predicted to read, and
// counts them. It reads every root's configuration files once, on
// GOMAXPROCS workers.
func (l *loader) predictReads(roots []string) [][]string {
	p := &readPredictor{l: l, children: map[string][]string{}}
	// Each root's own files first, in parallel: that is nearly all the
	// reading. Directories only roots' calls reach are read below.
	var next int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(roots)) {
		wg.Go(func() {
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(roots) {
					return
				}
				p.childrenOf(roots[i])
			}
		})
	}
	wg.Wait()
	r := &retention{refs: map[string]int{}}
	reads := make([][]string, len(roots))
	for i, root := range roots {
		reads[i] = p.reach(root)
		for _, d := range reads[i] {
			r.refs[d]++
		}
	}
	l.retention = r
	return reads
}

// readPredictor finds the module directories a directory's files name as
// local module sources ("./…" and "../…" string literals that are
// directories), each directory once.
type readPredictor struct {
	l        *loader
	mu       sync.Mutex
	children map[string][]string
}

// reach is root and every directory reachable from it through predicted
// local calls and the remote modules of its .terraform/modules manifest.
func (p *readPredictor) reach(root string) []string {
	out := []string{root}
	seen := map[string]bool{root: true}
	add := func(d string) {
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	for _, rel := range p.l.readModuleManifest(root).dirs {
		if rel == "" {
			continue
		}
		dir := rel
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(root, filepath.FromSlash(rel))
		}
		add(dir)
	}
	for i := 0; i < len(out); i++ {
		for _, c := range p.childrenOf(out[i]) {
			add(c)
		}
	}
	return out
}

// childrenOf lists the directories dir's configuration files may call as
// local modules.
func (p *readPredictor) childrenOf(dir string) []string {
	p.mu.Lock()
	c, ok := p.children[dir]
	p.mu.Unlock()
	if ok {
		return c
	}
	files, _ := p.l.configFiles(dir, false)
	var out []string
	seen := map[string]bool{}
	buf := scanBuffers.Get().(*[]byte) //nolint:forcetypeassert // scanBuffers holds only *[]byte
	defer scanBuffers.Put(buf)
	for _, f := range files {
		*buf = p.l.bound.readInto(*buf, f)
		for _, lit := range localLiterals(*buf) {
			child := filepath.Join(dir, filepath.FromSlash(lit))
			if seen[child] {
				continue
			}
			seen[child] = true
			if info, err := os.Stat(child); err == nil && info.IsDir() {
				out = append(out, child)
			}
		}
	}
	p.mu.Lock()
	p.children[dir] = out
	p.mu.Unlock()
	return out
}

// scanBuffers are the buffers files are read into to be scanned: the
// prediction keeps none of the text.
var scanBuffers = sync.Pool{New: func() any { return new([]byte) }}

// readInto reads a file inside the boundary into buf (readAll), growing
// it as needed, and returns the contents; nothing for a file that cannot
// be read, of more than maxFileBytes, or outside the boundary.
func (b *Boundary) readInto(buf []byte, path string) []byte {
	resolved, info, err := b.resolve(path)
	if err != nil {
		return buf[:0]
	}
	out, err := readRegular(path, resolved, info, buf, maxFileBytes, "a configuration file")
	if err != nil {
		return buf[:0]
	}
	return out
}

// localLiterals are the string literals in src that begin with "./" or
// "../", as local module sources do, up to the closing quote on the same
// line; one holding an escape or a template is taken as written.
func localLiterals(src []byte) []string {
	var out []string
	for {
		i := bytes.Index(src, []byte(`".`))
		if i < 0 {
			return out
		}
		s := src[i+1:]
		src = src[i+2:]
		if !bytes.HasPrefix(s, []byte("./")) && !bytes.HasPrefix(s, []byte("../")) {
			continue
		}
		end := bytes.IndexAny(s, "\"\n")
		if end > 0 && s[end] == '"' {
			out = append(out, string(s[:end]))
		}
	}
}
