// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/formatter"
)

// lintOutput is what `queuecap lint` prints: its findings, or with
// --explain what it linked.
type lintOutput struct {
	res     *lint.Result
	explain bool
}

func (o lintOutput) write(w io.Writer, format string, opts formatter.Options) error {
	if o.explain {
		return formatter.WriteExplanation(w, format, o.res)
	}
	return formatter.Write(w, format, o.res, opts)
}

// writeFile writes an --output file, without colors: rendered whole in
// memory, then created (or truncated), written and closed, an error at any
// step naming the path. It is not written beside and renamed into place,
// so that /dev/stderr or a named pipe can be the file. A relative path is
// relative to the working directory: runLint has made it relative to
// --chdir's DIR, except with --plan, whose --chdir moves nothing.
func (o lintOutput) writeFile(path, format string, opts formatter.Options) error {
	opts.NoColor = true
	var b bytes.Buffer
	if err := o.write(&b, format, opts); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	_, err = f.Write(b.Bytes())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// report is one output of a run: a format and its file, "-" for standard
// output; flag is the --output value that asked for it, for errors.
type report struct {
	format, path, flag string
}

// formatPrefix tells --output FORMAT=FILE from a FILE whose name holds
// "=": what comes before the "=" has no path separator or dot.
var formatPrefix = regexp.MustCompile(`^[A-Za-z0-9_-]*=`)

// lintReports turns --output flags into the run's reports, standard
// output's included, so that one run writes them all:
//   - FORMAT=FILE writes FORMAT to FILE; "-" as FILE is standard output;
//   - a bare FILE writes format (--format, else the config's) to FILE, as
//     before FORMAT=FILE existed, and standard output then gets the
//     default format (formats[0]);
//   - without either, standard output gets format.
//
// Nothing else goes to standard output when an --output names it, so
// --format given besides, and not taken by a bare FILE, is an error; so
// are an unknown format and two reports to one file.
func lintReports(outputs []string, format string, formatSet bool, formats []string, with string) ([]report, error) {
	var reports []report
	bare, stdoutFlag := false, ""
	for _, v := range outputs {
		r := report{format: format, path: v, flag: "--output " + v}
		if formatPrefix.MatchString(v) {
			r.format, r.path, _ = strings.Cut(v, "=")
			switch {
			case r.format == "":
				return nil, fmt.Errorf("%s: no format before \"=\": give FORMAT=FILE, or ./FILE for a file whose name holds \"=\"", r.flag)
			case !slices.Contains(formats, r.format):
				return nil, fmt.Errorf("%s: %v", r.flag, unknownFormat(r.format, formats, with))
			case r.path == "":
				return nil, fmt.Errorf("%s: no file after \"=\" (- is standard output)", r.flag)
			}
		} else {
			bare = true
		}
		if r.path == "" {
			return nil, fmt.Errorf("%s: no file", r.flag)
		}
		if r.path == "-" && stdoutFlag == "" {
			stdoutFlag = r.flag
		}
		reports = append(reports, r)
	}
	switch {
	case stdoutFlag == "" && bare:
		reports = append(reports, report{format: formats[0], path: "-"})
	case stdoutFlag == "":
		reports = append(reports, report{format: format, path: "-", flag: "--format " + format})
	case formatSet && !bare:
		return nil, fmt.Errorf("--format %s has nowhere to go: %s takes standard output; write it with --output %s=FILE", format, stdoutFlag, format)
	}
	// Two reports to one file would leave only the last one.
	seen := map[string]report{}
	for _, r := range reports {
		key := r.path
		if key != "-" {
			if abs, err := filepath.Abs(r.path); err == nil {
				key = abs
			}
		}
		if prev, ok := seen[key]; ok {
			where := r.path
			if key == "-" {
				where = "standard output"
			}
			return nil, fmt.Errorf("%s and %s both write to %s", prev.flag, r.flag, where)
		}
		seen[key] = r
	}
	return reports, nil
}

// unknownFormat is the error for a format that is not one of formats,
// with the nearest one when it looks misspelled; with says in what
// context (" with --explain").
func unknownFormat(name string, formats []string, with string) error {
	if best := closest(name, formats); best != "" {
		return fmt.Errorf("unknown format %q%s: did you mean %s? (valid formats are %s)", name, with, best, strings.Join(formats, ", "))
	}
	return fmt.Errorf("unknown format %q%s: valid formats are %s", name, with, strings.Join(formats, ", "))
}
