// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/rules"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/runner"
	"github.com/queuecap/terraform-provider-queuecap/internal/ratesfile"
	"github.com/queuecap/terraform-provider-queuecap/internal/textfmt"
)

// initCommand defines the init flags, to be read into f: those of lint
// that choose the root modules and their variables.
func initCommand(f *lintFlags) *command {
	cmd := newCommand("init", "[flags] [DIR ...]")
	cmd.positional = "DIR ..."
	fs := cmd.fs
	rootFlags(fs, f)
	fs.StringVar(&f.config, "config", "", "the `file` that root modules without a "+lint.DefaultConfigFile+" of their own read, as lint's --config, written for them (default $QUEUECAP_CONFIG, else none: each gets DIR/"+lint.DefaultConfigFile+")")
	fs.StringVar(&f.chdir, "chdir", "", "run as if in `DIR`: DIR arguments (default DIR itself), --var-file, --config and --boundary are found from there")
	cmd.alias("c", "config")
	cmd.footer = "Lints each root module (DIR, default the working directory; every one below it with --recursive)\n" +
		"and adds to the " + lint.DefaultConfigFile + " it reads (else DIR/" + lint.DefaultConfigFile + ") a queue block for each queue\n" +
		"with a consumer that has none, dead-letter queues aside: its consumer, its name and the consumer's\n" +
		"as the metrics know them (or why they are not known), and a commented placeholder for each rate\n" +
		"the checks need that nothing declares yet. Blocks, values and comments already there are kept;\n" +
		"a second run adds nothing. The file is replaced whole (a temporary file renamed over it), never\n" +
		"written through a symbolic link nor outside the repository (--boundary).\n" +
		"\nExit codes: 0 written or nothing to add, 1 an error (nothing is written when linting fails).\n"
	return cmd
}

func runInit(args []string, stdout, stderr io.Writer) int {
	f := &lintFlags{}
	cmd := initCommand(f)
	if ok, code := cmd.parse(args, stdout, stderr); !ok {
		return code
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return exitError
	}
	res, bound, ok := explainRoots(cmd, f, stderr)
	if !ok {
		fmt.Fprintln(stderr, "Nothing written: fix the errors above, then run queuecap init again.")
		return exitError
	}
	files, order := initFiles(res.Explanation)
	if len(order) == 0 {
		fmt.Fprintln(stdout, "No root module to write a "+lint.DefaultConfigFile+" for.")
		return exitOK
	}
	queues := 0
	for _, path := range order {
		queues += len(files[path])
		added, err := initFile(bound, path, files[path])
		if err != nil {
			return fail(err)
		}
		switch {
		case len(files[path]) == 0:
			fmt.Fprintf(stdout, "%s: no queue with a consumer, nothing to add\n", path)
		case len(added) == 0:
			fmt.Fprintf(stdout, "%s: nothing to add, every queue with a consumer has a block\n", path)
		default:
			fmt.Fprintf(stdout, "added %s to %s: %s\n", textfmt.Plural(len(added), "queue block"), path, strings.Join(added, ", "))
		}
	}
	if queues == 0 {
		return exitOK
	}
	fmt.Fprint(stdout, "\nNext, measure the rates into the blocks from your metrics:\n"+
		"  queuecap rates --prometheus URL --write\n"+
		"  queuecap rates --cloudwatch --write\n"+
		"or write them by hand. Then queuecap lint says, per queue, which rates are still missing.\n")
	return exitOK
}

// explainRoots lints the roots the flags name with --explain, as init
// and rates read them: each root with the .queuecap.hcl it reads, a root
// that reads none with Config "" (its blocks go to DIR/.queuecap.hcl). ok
// is false when the run did not lint whole, with the errors printed: a
// root that did not may miss a queue or a link.
func explainRoots(cmd *command, f *lintFlags, stderr io.Writer) (res *lint.Result, bound *lint.Boundary, ok bool) {
	f.set, f.dirs = cmd.set, cmd.args
	var err error
	if err = f.finishPaths(); err == nil {
		bound, err = lint.NewBoundary(f.boundary, f.dirs)
	}
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return nil, nil, false
	}
	cfg, fallback, diags := f.runConfig(bound)
	if diags.HasErrors() {
		for _, d := range diags {
			fmt.Fprintf(stderr, "Error: %s\n", d.Error())
		}
		return nil, nil, false
	}
	if fallback != cfg {
		// The working directory's file sets the run's settings only: a
		// root that reads no file of its own gets one in its folder.
		fallback.Path = ""
	}
	recursive := f.recursive
	if !f.set["recursive"] && cfg.Recursive != nil {
		recursive = *cfg.Recursive
	}
	res, err = runner.Run(lint.Options{
		Dirs: f.dirs, Recursive: recursive, SkipDirs: append(slices.Clip(cfg.SkipDirs), f.skipDirs...), Vars: f.vars, Environ: os.Environ(),
		Config: fallback, DiscoverConfig: true, Rules: rules.All(), Explain: true, Boundary: bound, WorkDir: f.workDir(),
	})
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return nil, nil, false
	}
	for _, e := range res.Errors {
		fmt.Fprintf(stderr, "Error: %s\n", e)
	}
	return res, bound, len(res.Errors) == 0
}

// configFileOf is the .queuecap.hcl a root's queue blocks are in, or go
// in: the one it reads, else one in its folder.
func configFileOf(root model.RootExplanation) string {
	if root.Config == "" {
		return filepath.Join(root.Dir, lint.DefaultConfigFile)
	}
	return root.Config
}

// chosenConsumer is the consumer of q whose block names it, else the
// first the configuration declares (which drains the queue more surely
// than one a role's permissions imply), else the first.
func chosenConsumer(q model.QueueExplanation, block string) int {
	for i, c := range q.Consumers {
		if c.Address == block {
			return i
		}
	}
	for i, c := range q.Consumers {
		if c.LinkedThrough == "" {
			return i
		}
	}
	return 0
}

// initFiles groups the queues to write by the file that gets their
// blocks, files in the order of the roots that read them.
func initFiles(e *model.Explanation) (files map[string][]ratesfile.InitQueue, order []string) {
	files = map[string][]ratesfile.InitQueue{}
	if e == nil {
		return files, nil
	}
	for _, root := range e.Roots {
		path := configFileOf(root)
		if _, ok := files[path]; !ok {
			order = append(order, path)
			files[path] = nil
		}
		for _, q := range root.Queues {
			if len(q.Consumers) == 0 || q.IsDeadLetter {
				continue
			}
			files[path] = append(files[path], initQueue(q, filepath.Dir(path)))
		}
	}
	return files, order
}

// initQueue is what a queue's block is written from; places are named
// relative to dir, the folder of the file the block goes in.
func initQueue(q model.QueueExplanation, dir string) ratesfile.InitQueue {
	out := ratesfile.InitQueue{Address: q.Address, Place: place(q.Range, dir), Name: q.Name, NameWhy: q.NameWhy}
	chosen := chosenConsumer(q, "")
	for i, c := range q.Consumers {
		ic := ratesfile.InitConsumer{Address: c.Address, LinkedThrough: c.LinkedThrough, Name: c.Name, NameWhy: c.NameWhy,
			ECS: c.Kind == model.FleetECS, Cluster: c.Cluster, ClusterWhy: c.ClusterWhy}
		if i == chosen {
			out.Consumer = ic
			if c.PerConsumerRate != nil {
				out.Declared = append(out.Declared, declared(*c.PerConsumerRate, dir))
			}
			continue
		}
		out.Alternatives = append(out.Alternatives, ic)
	}
	for _, r := range q.Rates {
		// A queue's per_consumer_rate from its consumers may be another
		// consumer's than the chosen one's, which is noted above.
		if r.Source == model.RateDefault || (r.Name == "per_consumer_rate" && r.Source == "consumers") {
			continue
		}
		out.Declared = append(out.Declared, declared(r, dir))
	}
	return out
}

// declared says where a rate is declared: "tag queuecap:arrival_rate,
// main.tf:21".
func declared(r model.RateExplanation, dir string) ratesfile.DeclaredRate {
	where := r.From
	if r.Range != nil {
		where += ", " + place(*r.Range, dir)
	}
	return ratesfile.DeclaredRate{Name: r.Name, Where: where}
}

// place is "FILE:LINE", FILE relative to dir when it can be.
func place(r model.Range, dir string) string {
	file := r.Filename
	if abs, err := filepath.Abs(file); err == nil {
		if d, err := filepath.Abs(dir); err == nil {
			if rel, err := filepath.Rel(d, abs); err == nil {
				file = rel
			}
		}
	}
	return fmt.Sprintf("%s:%d", filepath.ToSlash(file), r.Start.Line)
}

// initFile adds the queues' blocks to the file at path, creating it
// when it is not there, and says which it added. The file is read inside
// the boundary, as lint reads it; written, when there is something to
// add, inside it too and never through a symbolic link, and replaced
// whole.
func initFile(bound *lint.Boundary, path string, queues []ratesfile.InitQueue) ([]string, error) {
	if len(queues) == 0 {
		return nil, nil
	}
	src, mode, err := readForWrite(bound, path)
	if err != nil {
		return nil, err
	}
	out, added, err := ratesfile.Init(src, path, queues)
	if err != nil || len(added) == 0 {
		return nil, err
	}
	if err := bound.CheckWrite(path); err != nil {
		return nil, err
	}
	return added, replaceFile(path, out, mode)
}

// readForWrite reads the .queuecap.hcl at path that is to be written,
// inside the boundary as lint reads it, with its permissions; none there
// is empty, to be created 0644.
func readForWrite(bound *lint.Boundary, path string) ([]byte, fs.FileMode, error) {
	info, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0o644, nil
	}
	if err != nil {
		return nil, 0, err
	}
	src, err := bound.ReadRepoFile(path, "a "+lint.DefaultConfigFile)
	if err != nil {
		if werr := bound.CheckWrite(path); werr != nil {
			return nil, 0, werr // it is to be written: say why it will not be
		}
		return nil, 0, err
	}
	return src, info.Mode().Perm(), nil
}

// replaceFile writes data to path through a temporary file in its folder
// renamed over it, so that a reader sees the old file or the new one.
func replaceFile(path string, data []byte, mode fs.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, there is none
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
