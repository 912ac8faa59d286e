// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"bytes"
	"io"
	"os"

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

// writeFile writes --output's file, without colors: rendered whole in
// memory, then created (or truncated), written and closed, an error at any
// step naming the path. It is not written beside and renamed into place,
// so that /dev/stderr or a named pipe can be the file. A relative path is
// relative to the working directory; --chdir does not move it.
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
