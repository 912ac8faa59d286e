// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package ratesfile

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// Measured is a value `queuecap rates` measured: the rate's name, its
// number as text (the caller formats it, "118.5") and where it came from.
type Measured struct {
	Name       string
	Text       string
	Provenance Provenance
}

// Action is what Write did with a measured value.
type Action string

const (
	// Added: the block had no value for the rate (a placeholder, if any,
	// was replaced).
	Added Action = "added"
	// Replaced: the value queuecap measured before, or with force a
	// person's, was replaced, with its comment.
	Replaced Action = "replaced"
	// Kept: a value a person wrote stays, the measured one is not
	// written (without force).
	Kept Action = "kept"
)

// Change is one difference between a file and what was measured: Old is
// the value's text before ("" when there was none), New the measured one.
type Change struct {
	Queue  string
	Name   string
	Old    string
	New    string
	Action Action
	Why    string
}

// placeholderLine is a commented placeholder of a rate, as Init writes
// it: `# NAME = …`, with whatever follows. A value commented out by a
// person (`# arrival_rate = 50 # before the migration`) is not one.
var placeholderLine = regexp.MustCompile(`^#\s*([a-z_]+)\s*=\s*` + Placeholder + `(\s|$)`)

// edit replaces src[from:to] with text.
type edit struct {
	from, to int
	text     string
}

// Write sets measured values in the queue block of queue in the
// .queuecap.hcl src, adding the block when there is none, each value
// under its provenance comment (Provenance.Lines). A placeholder line
// for the rate (`# arrival_rate = …`) is replaced; a value queuecap
// measured before (with a provenance comment) is replaced with its
// comment; a value a person wrote is kept unless force. Every value
// measured is reported as a Change, kept ones too; the rest of src stays
// as it is. A src that does not parse, or over MaxFileBytes, is an error
// (the HCL diagnostics for the former), and so is a value whose text is
// not a number.
func Write(src []byte, filename, queue string, values []Measured, force bool) (out []byte, changes []Change, err error) {
	body, err := parse(src, filename)
	if err != nil {
		return nil, nil, err
	}
	seen := map[string]bool{}
	for _, v := range values {
		if err := checkMeasured(v); err != nil {
			return nil, nil, err
		}
		if seen[v.Name] {
			return nil, nil, fmt.Errorf("%s measured twice", v.Name)
		}
		seen[v.Name] = true
	}
	if len(values) == 0 {
		return src, nil, nil
	}
	block := queueBlock(body, queue)
	if block == nil {
		return appendBlock(src, queue, values)
	}
	if block.OpenBraceRange.Start.Line == block.CloseBraceRange.Start.Line {
		return nil, nil, fmt.Errorf("%s: the block of %s is on one line (%s): write it over several lines, then run again", filename, queue, block.DefRange())
	}
	provenances, diags := Provenances(src, filename)
	if diags.HasErrors() {
		return nil, nil, diags
	}
	placeholders := placeholdersIn(src, filename, block)
	closeLine := lineStart(src, block.CloseBraceRange.Start.Byte)
	indent := indentOf(src, closeLine) + "  "
	var edits []edit
	for _, v := range values {
		c := Change{Queue: queue, Name: v.Name, New: v.Text}
		lines := valueLines(v)
		attr := block.Body.Attributes[v.Name]
		switch p, measured := provenances[queue][v.Name]; {
		case attr != nil && (measured || force):
			c.Old, c.Action = attrText(src, attr), Replaced
			from := lineStart(src, attr.SrcRange.Start.Byte)
			c.Why = "written by hand, replaced because of --force"
			if measured {
				from = lineStart(src, p.Comment.Start.Byte)
				c.Why = "measured by queuecap rates on " + p.Date.Format(time.DateOnly) + " (" + p.Source + ")"
			}
			edits = append(edits, edit{from, lineEnd(src, attr.SrcRange.End.Byte), indented(indentOf(src, from), lines)})
		case attr != nil:
			c.Old, c.Action = attrText(src, attr), Kept
			c.Why = "written by hand (no queuecap rates comment above it): --force replaces it"
		default:
			c.Action, c.Why = Added, "not declared in the block"
			if r, ok := placeholders[v.Name]; ok {
				from := lineStart(src, r.Start.Byte)
				c.Why = "replaces the placeholder"
				edits = append(edits, edit{from, lineEnd(src, r.Start.Byte), indented(indentOf(src, from), lines)})
			} else {
				edits = append(edits, edit{closeLine, closeLine, indented(indent, lines)})
			}
		}
		changes = append(changes, c)
	}
	return applyEdits(src, edits), changes, nil
}

// checkMeasured refuses a value whose text is not an HCL number, or whose
// provenance would not stay on its comment lines.
func checkMeasured(v Measured) error {
	expr, diags := hclsyntax.ParseExpression([]byte(v.Text), "value", hcl.InitialPos)
	lit, ok := expr.(*hclsyntax.LiteralValueExpr)
	if diags.HasErrors() || !ok || lit.Val.Type() != cty.Number {
		return fmt.Errorf("%s: %q is not a number", v.Name, v.Text)
	}
	if !hclsyntax.ValidIdentifier(v.Name) {
		return fmt.Errorf("%q is not an attribute name", v.Name)
	}
	// Lines joins each query's lines; the first line must be one too.
	for _, s := range []string{v.Provenance.Source, v.Provenance.How} {
		if strings.ContainsAny(s, "\r\n") {
			return fmt.Errorf("%s: the provenance %q spans lines", v.Name, s)
		}
	}
	return nil
}

// valueLines are a measured value's lines: its provenance comment, then
// the attribute.
func valueLines(v Measured) []string {
	return append(v.Provenance.Lines(), v.Name+" = "+v.Text)
}

// indented is lines, each on its own line after indent.
func indented(indent string, lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(indent + l + "\n")
	}
	return b.String()
}

// attrText is an attribute's value as written.
func attrText(src []byte, a *hclsyntax.Attribute) string {
	r := a.Expr.Range()
	return string(src[r.Start.Byte:r.End.Byte])
}

// placeholdersIn are the commented placeholders of the rates in block,
// by rate: comments alone on their line, between the block's braces.
func placeholdersIn(src []byte, filename string, block *hclsyntax.Block) map[string]hcl.Range {
	tokens, _ := hclsyntax.LexConfig(src, filename, hcl.InitialPos)
	out := map[string]hcl.Range{}
	for _, t := range tokens {
		if t.Type != hclsyntax.TokenComment || t.Range.Start.Byte <= block.OpenBraceRange.End.Byte || t.Range.Start.Byte >= block.CloseBraceRange.Start.Byte {
			continue
		}
		if strings.TrimSpace(string(src[lineStart(src, t.Range.Start.Byte):t.Range.Start.Byte])) != "" {
			continue // a comment after an attribute, not a line of its own
		}
		m := placeholderLine.FindSubmatch(t.Bytes)
		if m == nil {
			continue
		}
		if _, ok := out[string(m[1])]; !ok {
			out[string(m[1])] = t.Range
		}
	}
	return out
}

// applyEdits applies non-overlapping edits to a copy of src, their text
// written with src's line ending.
func applyEdits(src []byte, edits []edit) []byte {
	slices.SortStableFunc(edits, func(a, b edit) int { return a.from - b.from })
	nl := newline(src)
	var out bytes.Buffer
	at := 0
	for _, e := range edits {
		out.Write(src[at:e.from])
		out.WriteString(withNewline(e.text, nl))
		at = e.to
	}
	out.Write(src[at:])
	return out.Bytes()
}

// appendBlock adds a queue block holding the measured values to src.
func appendBlock(src []byte, queue string, values []Measured) ([]byte, []Change, error) {
	var b strings.Builder
	var changes []Change
	fmt.Fprintf(&b, "queue %s {\n", quoted(queue))
	for _, v := range values {
		b.WriteString(indented("  ", valueLines(v)))
		changes = append(changes, Change{Queue: queue, Name: v.Name, New: v.Text, Action: Added, Why: "no block for the queue: added one"})
	}
	b.WriteString("}\n")
	nl := newline(src)
	out := bytes.Clone(src)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, nl...)
	}
	if len(bytes.TrimSpace(out)) > 0 {
		out = append(out, nl...)
	}
	return append(out, withNewline(b.String(), nl)...), changes, nil
}
