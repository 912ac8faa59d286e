// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package ratesfile

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// MaxFileBytes is the largest .queuecap.hcl Init and Write edit: the cap
// `queuecap lint` reads configuration files under, so that what is
// written here is read there.
const MaxFileBytes = 16 << 20

// The attributes of a queue block that name things; `queuecap lint` reads
// them (lint.QueueAttributes), and the rates by model.RateFields' names.
const (
	attrConsumer     = "consumer"
	attrQueueName    = "queue_name"
	attrConsumerName = "consumer_name"
)

// parse reads src as a .queuecap.hcl: within the cap, valid HCL. Its
// error carries the HCL diagnostics.
func parse(src []byte, filename string) (*hclsyntax.Body, error) {
	if len(src) > MaxFileBytes {
		return nil, fmt.Errorf("%s: %d bytes, over the %d MiB a .queuecap.hcl may have: not edited", filename, len(src), MaxFileBytes>>20)
	}
	file, diags := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	if diags.HasErrors() {
		return nil, diags
	}
	body, ok := file.Body.(*hclsyntax.Body)
	if !ok {
		return nil, fmt.Errorf("%s: not HCL native syntax", filename)
	}
	return body, nil
}

// queueBlock is the first `queue "LABEL" {}` block of body, or nil.
func queueBlock(body *hclsyntax.Body, label string) *hclsyntax.Block {
	for _, b := range body.Blocks {
		if b.Type == "queue" && len(b.Labels) == 1 && b.Labels[0] == label {
			return b
		}
	}
	return nil
}

// lineStart is the offset of the start of the line holding offset.
func lineStart(src []byte, offset int) int {
	return bytes.LastIndexByte(src[:offset], '\n') + 1
}

// lineEnd is the offset just past the newline ending the line holding
// offset (len(src) on a last line without one).
func lineEnd(src []byte, offset int) int {
	if i := bytes.IndexByte(src[offset:], '\n'); i >= 0 {
		return offset + i + 1
	}
	return len(src)
}

// indentOf is the blanks a line starts with.
func indentOf(src []byte, start int) string {
	end := start
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	return string(src[start:end])
}

// newline is the line ending src is written with: "\r\n" when its first
// line ends so (a file saved on Windows), else "\n". What Write and Init
// add to src is written with it, so that a CRLF file does not come back
// with mixed line endings.
func newline(src []byte) string {
	if i := bytes.IndexByte(src, '\n'); i > 0 && src[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// withNewline is text, written with "\n", with nl ending its lines.
func withNewline(text, nl string) string {
	if nl == "\n" {
		return text
	}
	return strings.ReplaceAll(text, "\n", nl)
}
