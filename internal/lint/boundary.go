// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// A configuration under review is untrusted: a pull request can commit a
// symbolic link to /proc/self/environ named env.tf, and the linter would
// print its lines in a parse error's snippet, in a CI job's log. So the
// linter reads only what lies inside a boundary, the repository being
// linted, and every read is capped in size. This file is the one place
// that decides both, for the loader, the variable files, .queuecap.hcl,
// baseline files, modules.json, plans, the file functions and the
// formatter's snippets.

// maxFileBytes bounds what the linter reads of one file: configuration,
// variable files, .queuecap.hcl, modules.json, terragrunt.hcl and what
// the file functions read. Terraform files are rarely above a few hundred
// kilobytes; a larger one is most likely generated or not configuration
// at all, and parsing it would only cost memory.
const maxFileBytes = 16 << 20

// maxPlanBytes bounds the JSON of a plan: a plan of ten thousand
// resources is a few hundred megabytes, and the reader holds it whole.
var maxPlanBytes int64 = 512 << 20

// Boundary is the part of the file system a run may read: directories
// (symbolic links resolved) below which every file it reads must resolve.
// By default each linted path's repository, the nearest directory above
// it holding .git (a directory, or the file of a worktree or submodule),
// or the linted directory itself outside a repository.
type Boundary struct {
	roots []string
	// dirs memoizes directories' real paths by their spelling:
	// resolving links costs a system call per path component, and a
	// directory's files share it.
	dirs sync.Map
}

// NewBoundary is the boundary of a run over paths (directories and files,
// as Options.Dirs): dir when it is not "" (--boundary, which every path
// must lie in), else each path's repository. Paths that do not exist are
// left to the run to report.
func NewBoundary(dir string, paths []string) (*Boundary, error) {
	b := &Boundary{}
	if dir != "" {
		resolved, err := realDir(dir)
		if err != nil {
			return nil, &UsageError{Msg: fmt.Sprintf("--boundary %s: %v", dir, err)}
		}
		b.roots = []string{resolved}
		for _, p := range paths {
			if rp, err := realPath(absPath(p)); err == nil && !within(rp, resolved) {
				return nil, &UsageError{Msg: fmt.Sprintf("%s is outside --boundary %s: the linter reads nothing outside it", p, dir)}
			}
		}
		return b, nil
	}
	for _, p := range paths {
		linted := p
		if info, err := os.Stat(p); err != nil {
			continue
		} else if !info.IsDir() {
			linted = workingDirAbove(filepath.Dir(p), "")
		}
		resolved, err := realDir(linted)
		if err != nil {
			continue
		}
		b.add(repositoryOf(resolved))
	}
	return b, nil
}

// dirBoundary is the boundary of the trees below dirs.
func dirBoundary(dirs ...string) *Boundary {
	b := &Boundary{}
	for _, d := range dirs {
		if resolved, err := realDir(d); err == nil {
			b.add(resolved)
		}
	}
	return b
}

func (b *Boundary) add(root string) {
	for _, r := range b.roots {
		if r == root {
			return
		}
	}
	b.roots = append(b.roots, root)
}

// String names the boundary's directories, for messages.
func (b *Boundary) String() string { return strings.Join(b.roots, ", ") }

// repositoryOf is the nearest directory at or above dir (a real path)
// holding .git, else dir: found without running git, which a CI image
// may lack and which reads the repository's own configuration.
func repositoryOf(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// kernelDirs hold files that only look like files: /proc/self/environ is
// the process's environment, /dev/zero never ends. Nothing below them is
// read, even with --boundary /.
var kernelDirs = []string{"/proc", "/sys", "/dev"}

// readError is a file the linter does not or cannot read, as a
// diagnostic's summary and detail.
type readError struct {
	path, summary, detail string
}

func (e *readError) Error() string { return e.path + ": " + e.summary + ": " + e.detail }

// readErr makes a readError of any error reading path.
func readErr(path string, err error) *readError {
	var re *readError
	if errors.As(err, &re) {
		return re
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &readError{path: path, summary: "Cannot read file", detail: err.Error()}
}

// resolve is the real path of p (relative to the working directory) when
// it lies inside the boundary; a part that does not exist yet is kept as
// written. Only a directory's path and a final link are resolved: the
// directory's real path is memoized. info is what the real path is, when
// resolving it told (it was no link), else nil.
func (b *Boundary) resolve(p string) (resolved string, info fs.FileInfo, err error) {
	p = filepath.Clean(p)
	dir, err := b.realDirOf(filepath.Dir(p))
	if err != nil {
		// A directory that does not exist (yet): resolve what does.
		if dir, err = realPath(absPath(filepath.Dir(p))); err != nil {
			return "", nil, readErr(p, err)
		}
	}
	resolved = filepath.Join(dir, filepath.Base(p))
	if info, err = os.Lstat(resolved); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		if resolved, err = filepath.EvalSymlinks(resolved); err != nil {
			return "", nil, readErr(p, err)
		}
		info = nil
	}
	if err != nil {
		info = nil
	}
	return resolved, info, b.check(p, resolved)
}

// realDirOf is dir's real path, absolute, memoized.
func (b *Boundary) realDirOf(dir string) (string, error) {
	if r, ok := b.dirs.Load(dir); ok {
		return r.(string), nil //nolint:forcetypeassert // b.dirs holds only strings
	}
	r, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", err
	}
	if r, err = filepath.Abs(r); err != nil {
		return "", err
	}
	b.dirs.Store(dir, r)
	return r, nil
}

// check reports why the linter may not read resolved, p's real path.
func (b *Boundary) check(p, resolved string) error {
	for _, k := range kernelDirs {
		if within(resolved, k) {
			return &readError{path: p, summary: "Cannot read file",
				detail: fmt.Sprintf("it resolves to %s, which is the system's, not a file of the repository: not read", resolved)}
		}
	}
	for _, r := range b.roots {
		if within(resolved, r) {
			return nil
		}
	}
	return &readError{path: p, summary: "Cannot read file",
		detail: fmt.Sprintf("it resolves to %s, outside %s, which is all the linter reads (the repository; --boundary names another directory): not read", resolved, b)}
}

// readFile reads the regular file at p, inside the boundary, of at most
// limit bytes; what names the kind of file in the error at the cap ("a
// configuration file").
func (b *Boundary) readFile(p string, limit int64, what string) ([]byte, error) {
	resolved, info, err := b.resolve(p)
	if err != nil {
		return nil, err
	}
	return readRegular(p, resolved, info, nil, limit, what)
}

// readNamed reads a file the user named on the command line (--var-file,
// --config): openNamed, then at most limit bytes.
func (b *Boundary) readNamed(p string, limit int64, what string) ([]byte, error) {
	f, size, err := b.openNamed(p, limit, what)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readCapped(p, f, size, limit, what)
}

// ReadUserFile reads a small file outside the configuration that the
// user named on the command line (--baseline): readNamed, capped as a
// configuration file is.
func (b *Boundary) ReadUserFile(p, what string) ([]byte, error) {
	return b.readNamed(p, maxFileBytes, what)
}

// ReadRepoFile reads a small file outside the configuration that the
// repository names (.queuecap.hcl's baseline): inside the boundary, as
// its configuration, capped as a configuration file is.
func (b *Boundary) ReadRepoFile(p, what string) ([]byte, error) {
	return b.readFile(p, maxFileBytes, what)
}

// openNamed opens a file the user named on the command line, and says
// how large it is (0 when not known). One whose path lies inside the
// boundary is the repository's, and opened as its other files are; one
// outside it is opened as named, a pipe or device included (a process
// substitution, /dev/stdin), for a read that stops at the cap.
func (b *Boundary) openNamed(p string, limit int64, what string) (*os.File, int64, error) {
	if b != nil && b.holds(p) {
		resolved, info, err := b.resolve(p)
		if err != nil {
			return nil, 0, err
		}
		return openRegular(p, resolved, info, limit, what)
	}
	f, err := os.OpenFile(p, os.O_RDONLY|nonBlocking, 0)
	if err != nil {
		return nil, 0, readErr(p, err)
	}
	info, err := f.Stat()
	if err == nil && info.IsDir() {
		err = notRegular(p, info.Mode())
	}
	if err != nil {
		f.Close()
		return nil, 0, readErr(p, err)
	}
	if !info.Mode().IsRegular() {
		return f, 0, nil // a device's size says nothing
	}
	return f, info.Size(), nil
}

// holds reports whether p, as written, names a place inside the
// boundary: a relative path from the working directory's real path, so
// that a working directory reached through a link counts, and no link
// the path itself crosses is followed, since the repository may have
// put it there.
func (b *Boundary) holds(p string) bool {
	if !filepath.IsAbs(p) {
		wd, err := os.Getwd()
		if err != nil {
			return true
		}
		if resolved, err := filepath.EvalSymlinks(wd); err == nil {
			wd = resolved
		}
		p = filepath.Join(wd, p)
	}
	p = filepath.Clean(p)
	for _, r := range b.roots {
		if within(p, r) {
			return true
		}
	}
	return false
}

// readRegular reads the regular file at resolved (p as the user wrote it):
// openRegular, then readAll into buf when it has room.
func readRegular(p, resolved string, info fs.FileInfo, buf []byte, limit int64, what string) ([]byte, error) {
	f, size, err := openRegular(p, resolved, info, limit, what)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readCappedInto(p, f, buf, size, limit, what)
}

// openRegular opens the file at resolved (p as the user wrote it), which must
// be a regular file of at most limit bytes, and returns its size: a named
// pipe would never end, a device may not either. It is checked before it
// is opened (by info, what a Lstat of it found, when not nil) and again
// once open, without following a link and without blocking, so that
// neither a link swapped in between nor a pipe can make the read hang.
func openRegular(p, resolved string, info fs.FileInfo, limit int64, what string) (*os.File, int64, error) {
	if err := regular(p, resolved, info, limit, what); err != nil {
		return nil, 0, err
	}
	f, err := os.OpenFile(resolved, os.O_RDONLY|nonBlocking|noFollow, 0)
	if err != nil {
		return nil, 0, readErr(p, err)
	}
	open, err := f.Stat()
	switch {
	case err != nil:
		err = readErr(p, err)
	case !open.Mode().IsRegular():
		err = notRegular(p, open.Mode())
	case open.Size() > limit:
		err = tooLarge(p, open.Size(), limit, what)
	}
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, open.Size(), nil
}

// regular checks by name, or by info when not nil, that resolved is a
// regular file of at most limit bytes.
func regular(p, resolved string, info fs.FileInfo, limit int64, what string) error {
	var err error
	if info == nil {
		info, err = os.Stat(resolved)
	}
	switch {
	case err != nil:
		return readErr(p, err)
	case !info.Mode().IsRegular():
		return notRegular(p, info.Mode())
	case info.Size() > limit:
		return tooLarge(p, info.Size(), limit, what)
	}
	return nil
}

func notRegular(p string, mode fs.FileMode) *readError {
	kind := "not a regular file"
	switch {
	case mode.IsDir():
		kind = "a directory"
	case mode&fs.ModeNamedPipe != 0:
		kind = "a named pipe, not a regular file"
	case mode&fs.ModeSocket != 0:
		kind = "a socket, not a regular file"
	case mode&fs.ModeDevice != 0:
		kind = "a device, not a regular file"
	}
	return &readError{path: p, summary: "Cannot read file", detail: "it is " + kind + ": not read"}
}

func tooLarge(p string, size, limit int64, what string) *readError {
	return &readError{path: p, summary: "File too large", detail: fmt.Sprintf("%d bytes is more than the %d bytes %s may have", size, limit, what)}
}

// readCapped reads r to the end, an error past limit bytes; size is what
// it is expected to hold (0 when not known).
func readCapped(p string, r io.Reader, size, limit int64, what string) ([]byte, error) {
	return readCappedInto(p, r, nil, size, limit, what)
}

func readCappedInto(p string, r io.Reader, buf []byte, size, limit int64, what string) ([]byte, error) {
	data, err := readAll(buf, r, size, limit)
	if err != nil {
		return nil, readErr(p, err)
	}
	if int64(len(data)) > limit {
		return nil, &readError{path: p, summary: "File too large", detail: fmt.Sprintf("it is more than the %d bytes %s may have", limit, what)}
	}
	return data, nil
}

// ReadAtMost reads r to the end, but never more than limit+1 bytes, into
// one buffer of size+1 bytes when size (a Content-Length, -1 unknown) is
// right: a caller tells a body over limit by its length.
func ReadAtMost(r io.Reader, size, limit int64) ([]byte, error) {
	return readAll(nil, r, size, limit)
}

// readAll reads r to the end (a file may have changed since its size was
// taken), but never more than limit+1 bytes, into dst[:0] when it holds
// size+1 bytes, else into one new buffer of size+1 bytes: the spare byte
// lets the read that finds the end return without the buffer growing.
// (bytes.Buffer.ReadFrom wants 512 bytes free before each read, so it
// would allocate, clear and copy every file of more than a few hundred
// bytes a second time.) The buffer grows only for a file that grew.
func readAll(dst []byte, r io.Reader, size, limit int64) ([]byte, error) {
	size = max(0, min(size, limit)) + 1
	buf := dst[:0]
	if int64(cap(buf)) < size {
		buf = make([]byte, 0, size)
	}
	r = io.LimitReader(r, limit+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

func absPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// realDir is a directory's absolute path with every link resolved.
func realDir(dir string) (string, error) {
	resolved, err := filepath.EvalSymlinks(absPath(dir))
	if err != nil {
		return "", err
	}
	if info, err := os.Stat(resolved); err != nil || !info.IsDir() {
		return "", errors.New("not a directory")
	}
	return resolved, nil
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
	if filepath.IsAbs(p) && filepath.IsAbs(dir) && p == filepath.Clean(p) && dir == filepath.Clean(dir) {
		// What every read asks, without filepath.Rel's allocations.
		rest, ok := strings.CutPrefix(p, dir)
		return ok && (rest == "" || rest[0] == filepath.Separator || strings.HasSuffix(dir, string(filepath.Separator)))
	}
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// CheckWrite says why a file may not be written at p (`queuecap init`
// writing a .queuecap.hcl): it must be a regular file or none, not a
// symbolic link, which a repository may point anywhere, and its folder's
// real path must lie inside the boundary, as what the linter reads.
func (b *Boundary) CheckWrite(p string) error {
	if info, err := os.Lstat(p); err == nil {
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			return fmt.Errorf("%s is a symbolic link: not written through (write the file it points to, or replace the link with a file)", p)
		case !info.Mode().IsRegular():
			return fmt.Errorf("%s is not a regular file: not written", p)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	dir, err := realDir(filepath.Dir(p))
	if err != nil {
		return fmt.Errorf("%s: its folder: %w", p, err)
	}
	resolved := filepath.Join(dir, filepath.Base(p))
	for _, r := range b.roots {
		if within(resolved, r) {
			return nil
		}
	}
	return fmt.Errorf("%s is at %s, outside %s, which is all queuecap reads and writes (the repository; --boundary names another directory): not written", p, resolved, b)
}
