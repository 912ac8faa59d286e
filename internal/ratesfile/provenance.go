// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Package ratesfile reads and edits the queue blocks of .queuecap.hcl for
// `queuecap init` and `queuecap rates --write`, keeping what a person
// wrote: comments, order, hand-written values. A measured value carries a
// provenance comment on the lines right above it, whose first line is
//
//	# queuecap rates YYYY-MM-DD: SOURCE, HOW
//
// and the lines after it the queries; `queuecap lint` reads the date to say
// when a value is older than max_rate_age.
package ratesfile

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// ProvenancePrefix starts a provenance comment's first line.
const ProvenancePrefix = "# queuecap rates "

// provenanceLine is a provenance comment's first line: its date, then
// what measured the value.
var provenanceLine = regexp.MustCompile(`^# queuecap rates (\d{4}-\d{2}-\d{2}): (.*)$`)

// Provenance is where a measured value came from.
type Provenance struct {
	// Date is the day it was measured (UTC).
	Date time.Time
	// Source is "prometheus http://…" or "cloudwatch us-east-1", How says
	// how the value was taken from the window, and Queries are the
	// queries, one per line after the first.
	Source  string
	How     string
	Queries []string
	// Range is the value's attribute; Comment the comment's first line.
	Range   hcl.Range
	Comment hcl.Range
}

// Lines are the comment lines written above a measured value.
func (p Provenance) Lines() []string {
	lines := []string{fmt.Sprintf("%s%s: %s, %s", ProvenancePrefix, p.Date.UTC().Format(time.DateOnly), p.Source, p.How)}
	for _, q := range p.Queries {
		lines = append(lines, "#   "+oneLine(q))
	}
	return lines
}

// Provenances are the provenance comments of a .queuecap.hcl's queue
// blocks, by queue address and rate name: the comment lines right above
// the attribute, found through the HCL lexer's comment tokens. A value
// without one was written by a person.
func Provenances(src []byte, filename string) (map[string]map[string]Provenance, hcl.Diagnostics) {
	file, diags := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	if diags.HasErrors() {
		return nil, diags
	}
	body, ok := file.Body.(*hclsyntax.Body)
	if !ok {
		return nil, nil
	}
	// The comments by the line they end on: a # comment token includes
	// its newline, so it ends at the start of the next line.
	tokens, _ := hclsyntax.LexConfig(src, filename, hcl.InitialPos)
	byLine := map[int]hclsyntax.Token{}
	for _, t := range tokens {
		if t.Type == hclsyntax.TokenComment && strings.HasPrefix(string(t.Bytes), "#") {
			byLine[t.Range.Start.Line] = t
		}
	}
	out := map[string]map[string]Provenance{}
	for _, b := range body.Blocks {
		if b.Type != "queue" || len(b.Labels) != 1 {
			continue
		}
		for name, a := range b.Body.Attributes {
			// Walk up the comment lines right above the attribute to the
			// first one that starts a provenance comment.
			var queries []string
			for line := a.SrcRange.Start.Line - 1; line > 0; line-- {
				t, ok := byLine[line]
				if !ok {
					break
				}
				text := strings.TrimRight(string(t.Bytes), "\r\n")
				m := provenanceLine.FindStringSubmatch(text)
				if m == nil {
					queries = append([]string{strings.TrimSpace(strings.TrimPrefix(text, "#"))}, queries...)
					continue
				}
				date, err := time.Parse(time.DateOnly, m[1])
				if err != nil {
					break
				}
				source, how, _ := strings.Cut(m[2], ", ")
				if out[b.Labels[0]] == nil {
					out[b.Labels[0]] = map[string]Provenance{}
				}
				out[b.Labels[0]][name] = Provenance{Date: date, Source: source, How: how, Queries: queries, Range: a.SrcRange, Comment: t.Range}
				break
			}
		}
	}
	return out, nil
}
