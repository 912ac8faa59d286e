// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
)

// HCL's parsers and evaluator, and cty's operations on values, recurse once
// per level of nesting, and a Go stack overflow ends the process: it
// cannot be recovered. So the height of what a source nests is measured
// in one pass over its bytes before any parser sees them (nestScan), and a
// source that nests deeper than maxNesting is an error at the construct.
// Terraform has no such limit and crashes on these files too.

// syntaxMode is what a source holds.
type syntaxMode uint8

const (
	configSyntax   syntaxMode = iota // a .tf, .tfvars or .hcl file
	exprSyntax                       // one expression (a --var value)
	templateSyntax                   // a template (templatefile)
	jsonConfig                       // a .tf.json or .tfvars.json file: its strings are templates
	jsonData                         // JSON that jsondecode or a policy decodes
)

// parseNative parses a native-syntax configuration file; one that nests
// too deeply is an error and an empty body, as a file that does not parse.
func parseNative(src []byte, filename string) (*hcl.File, hcl.Diagnostics) {
	if d := checkNesting(src, filename, configSyntax); d != nil {
		return &hcl.File{Body: hcl.EmptyBody(), Bytes: src}, hcl.Diagnostics{d}
	}
	return hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
}

// parseExpression parses one expression, refusing one that nests too
// deeply.
func parseExpression(src []byte, filename string) (hclsyntax.Expression, hcl.Diagnostics) {
	if d := checkNesting(src, filename, exprSyntax); d != nil {
		return nil, hcl.Diagnostics{d}
	}
	return hclsyntax.ParseExpression(src, filename, hcl.InitialPos)
}

// parseJSONConfig is parseNative for a JSON configuration file.
func parseJSONConfig(src []byte, filename string) (*hcl.File, hcl.Diagnostics) {
	if d := checkNesting(src, filename, jsonConfig); d != nil {
		return &hcl.File{Body: hcl.EmptyBody(), Bytes: src}, hcl.Diagnostics{d}
	}
	return hcljson.Parse(src, filename)
}

// checkNesting measures src and returns the error for a construct nested
// deeper than maxNesting, or for the token after maxFileTokens, or nil.
func checkNesting(src []byte, filename string, mode syntaxMode) *hcl.Diagnostic {
	at, why := nestingFits(src, mode, maxNesting)
	if why == fits {
		return nil
	}
	pos := positionAt(src, at)
	d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Nesting too deep",
		Detail: fmt.Sprintf("this nests more than %d levels deep (each bracket, string template, interpolation, template directive and operator in a chain is a level); "+
			"the linter stops here instead of running out of stack, as Terraform would", maxNesting),
		Subject: &hcl.Range{Filename: filename, Start: pos, End: pos}}
	if why == tooManyTokens {
		d.Summary = "File too large to parse"
		d.Detail = fmt.Sprintf("the file holds more than %d tokens (names, numbers, strings, operators, line ends); the linter stops here instead of parsing it", maxFileTokens)
	}
	return d
}

// Why a source does not fit.
const (
	fits = iota
	tooDeep
	tooManyTokens
)

// nestingFits reports whether src nests at most room levels and, unless
// it is data or one expression, holds at most maxFileTokens tokens; when
// not, at is the byte offset of the construct that goes too deep or the
// token one too many.
func nestingFits(src []byte, mode syntaxMode, room int) (at, why int) {
	if mode == jsonConfig || mode == jsonData {
		return jsonNesting(src, mode == jsonConfig, room)
	}
	s := nestScan{src: src, room: room, failed: -1, tokens: maxFileTokens}
	if mode == exprSyntax {
		s.tokens = len(src) // no more than it has bytes
	}
	top := byte(kindBody)
	switch mode {
	case templateSyntax:
		top = kindTemplate
	case exprSyntax:
		top = kindParen // newlines do not end an expression
	}
	s.stack = append(s.stack, nestFrame{kind: top})
	for i := 0; i < len(src) && s.failed < 0; {
		if s.inText() {
			i = s.text(i)
		} else {
			i = s.code(i)
		}
	}
	for len(s.stack) > 1 && s.failed < 0 {
		s.pop()
	}
	if s.failed < 0 {
		s.close(s.stack[0])
	}
	return s.failed, s.why
}

// The kinds of nestFrame.
const (
	kindBody      = 'b' // a configuration file's top level: newlines separate
	kindTemplate  = 't' // a template file's top level
	kindParen     = '('
	kindBrack     = '['
	kindBrace     = '{' // a block body or an object: newlines separate
	kindInterp    = '$' // ${ … } or %{ … }
	kindString    = '"'
	kindHeredoc   = '<'
	kindDirective = '%' // the text of %{ if } or %{ for } up to its end
)

// nestFrame is one open construct. Its height is one more than the
// tallest of its segments (what lies between separators: commas,
// assignments, newlines in a body), and a segment's height is the
// operators chained in it plus the tallest construct in it, since HCL
// builds a chain of binary operators, conditionals or index steps as
// nested expressions.
type nestFrame struct {
	kind               byte
	at                 int // byte offset of the opener
	chain, child, best int
	// text and marker are, for a directive, the kind of text it is in
	// (a string, a heredoc or a template file) and the heredoc's marker.
	text   byte
	marker []byte
}

type nestScan struct {
	src    []byte
	stack  []nestFrame
	room   int // how deeply it may nest
	failed int // the offset of the construct too deep, -1 while none is
	why    int // why it failed
	tokens int // how many more tokens it may hold
	// operand is whether the last token ended an operand, after which
	// `[` indexes it rather than starting a tuple.
	operand bool
}

func (s *nestScan) top() *nestFrame { return &s.stack[len(s.stack)-1] }

func (s *nestScan) fail(at, why int) {
	if s.failed < 0 {
		s.failed, s.why = at, why
	}
}

// token counts a token starting at src[at].
func (s *nestScan) token(at int) {
	if s.tokens--; s.tokens < 0 {
		s.fail(at, tooManyTokens)
	}
}

// textKind is the kind of text the top frame is in, 0 in code.
func (s *nestScan) textKind() byte {
	switch f := s.top(); f.kind {
	case kindString, kindHeredoc, kindTemplate:
		return f.kind
	case kindDirective:
		return f.text
	}
	return 0
}

func (s *nestScan) inText() bool { return s.textKind() != 0 }

func (s *nestScan) push(kind byte, at int) {
	if len(s.stack) >= s.room {
		s.fail(at, tooDeep)
		return
	}
	s.stack = append(s.stack, nestFrame{kind: kind, at: at})
}

// pop closes the top frame into its parent.
func (s *nestScan) pop() {
	f := *s.top()
	s.stack = s.stack[:len(s.stack)-1]
	if h := s.close(f); s.failed < 0 {
		p := s.top()
		p.child = max(p.child, h)
	}
}

// close is a closed frame's height, checked.
func (s *nestScan) close(f nestFrame) int {
	h := 1 + max(f.best, f.chain+f.child)
	if len(s.stack)+h > s.room {
		s.fail(f.at, tooDeep)
	}
	return h
}

// op counts an operator of the top frame's chain.
func (s *nestScan) op(at int) {
	f := s.top()
	f.chain++
	if len(s.stack)+f.chain > s.room {
		s.fail(at, tooDeep)
	}
}

// separate ends the top frame's segment.
func (s *nestScan) separate() {
	f := s.top()
	f.best = max(f.best, f.chain+f.child)
	f.chain, f.child = 0, 0
}

// popTo closes frames down to and including the innermost of kind.
func (s *nestScan) popTo(kind byte) {
	for len(s.stack) > 1 && s.failed < 0 {
		k := s.top().kind
		s.pop()
		if k == kind {
			return
		}
	}
}

// code scans the token at src[i] in an expression and returns the offset
// after it.
func (s *nestScan) code(i int) int {
	src := s.src
	c := src[i]
	next := byte(0)
	if i+1 < len(src) {
		next = src[i+1]
	}
	operand := s.operand
	s.operand = false
	if c != ' ' && c != '\t' && c != '\r' && (i == 0 || !isWordByte(c) || !isWordByte(src[i-1])) {
		s.token(i)
	}
	switch c {
	case ' ', '\t', '\r':
		s.operand = operand
		return skipRun(src, i+1, isBlankByte)
	case '\n':
		if k := s.top().kind; k == kindBody || k == kindBrace {
			s.separate()
		} else {
			s.operand = operand
		}
	case '#':
		return lineEnd(src, i)
	case '/':
		switch next {
		case '/':
			return lineEnd(src, i)
		case '*':
			if end := bytes.Index(src[i+2:], []byte("*/")); end >= 0 {
				return i + 2 + end + 2
			}
			return len(src)
		}
		s.op(i)
	case '"':
		s.push(kindString, i)
	case '<':
		if marker, body, ok := heredocStart(src, i); ok {
			s.push(kindHeredoc, i)
			if s.failed < 0 {
				s.top().marker = marker
			}
			return body
		}
		s.op(i)
	case '[':
		if operand {
			s.op(i) // an index is a step of a chain: a[x][y]
		}
		s.push(kindBrack, i)
	case '(', '{':
		s.push(c, i)
	case ')', ']', '}':
		if len(s.stack) > 1 {
			s.pop()
		}
		s.operand = true
	case ',':
		s.separate()
	case '=':
		switch next {
		case '=':
			s.op(i)
			return i + 2
		case '>':
			s.separate()
			return i + 2
		}
		s.separate()
	case '+', '-', '*', '%', '>', '!', '&', '|', '?', '.':
		s.op(i)
	case ':', ';':
	default:
		s.operand = true // a name or a number
		return skipRun(src, i+1, isNameByte)
	}
	return i + 1
}

// skipRun is the offset of the first byte from src[i] on that is not in.
func skipRun(src []byte, i int, in *[256]bool) int {
	for i < len(src) && in[src[i]] {
		i++
	}
	return i
}

// The bytes that continue a run code scans in one step: blanks, and what
// goes on a name or a number (not '-' or '.', which code counts as
// operators), each of which code would read alike, one at a time.
// Template text's plainText is what text reads alike, up to a byte that
// may open or close something or a line end (where a heredoc may end).
var isBlankByte, isNameByte, isPlainText = byteSet(func(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }),
	byteSet(func(c byte) bool { return c != '-' && c != '.' && isIdentByte(c, true) }),
	byteSet(func(c byte) bool { return c != '\\' && c != '"' && c != '\n' && c != '$' && c != '%' })

func byteSet(in func(byte) bool) *[256]bool {
	var set [256]bool
	for c := range 256 {
		set[c] = in(byte(c))
	}
	return &set
}

// text scans template text at src[i] and returns the offset after what
// it read.
func (s *nestScan) text(i int) int {
	src := s.src
	kind := s.textKind()
	if kind == kindHeredoc && (i == 0 || src[i-1] == '\n') {
		if end, ok := heredocEnd(src, i, s.heredocMarker()); ok {
			s.popTo(kindHeredoc)
			s.operand = true
			return end
		}
	}
	c := src[i]
	if isPlainText[c] {
		return skipRun(src, i+1, isPlainText)
	}
	switch {
	case kind == kindString && c == '\\':
		return min(i+2, len(src))
	case kind == kindString && c == '"':
		s.popTo(kindString)
		s.operand = true
		return i + 1
	case kind == kindString && c == '\n':
		s.popTo(kindString) // unterminated: the parser reports it
		return i
	case (c == '$' || c == '%') && i+2 < len(src) && src[i+1] == c && src[i+2] == '{':
		return i + 3 // $${ and %%{ are literal
	case (c == '$' || c == '%') && i+1 < len(src) && src[i+1] == '{':
		s.token(i)
		if c == '%' {
			switch directiveKeyword(src[i+2:]) {
			case "if", "for":
				marker := s.heredocMarker()
				s.push(kindDirective, i)
				if s.failed < 0 {
					s.top().text, s.top().marker = kind, marker
				}
			case "endif", "endfor":
				if s.top().kind == kindDirective {
					s.pop()
				}
			}
		}
		s.push(kindInterp, i)
		return i + 2
	}
	return i + 1
}

// heredocMarker is the marker of the heredoc the top frame is in.
func (s *nestScan) heredocMarker() []byte {
	if f := s.top(); f.kind == kindHeredoc || f.kind == kindDirective {
		return f.marker
	}
	return nil
}

// directiveKeyword is the word a template directive starts with.
func directiveKeyword(b []byte) string {
	i := 0
	for i < len(b) && (b[i] == '~' || b[i] == ' ' || b[i] == '\t') {
		i++
	}
	j := i
	for j < len(b) && b[j] >= 'a' && b[j] <= 'z' {
		j++
	}
	return string(b[i:j])
}

// heredocStart reads `<<ID` or `<<-ID` and its newline at src[i]: the
// marker and the offset of the heredoc's first line.
func heredocStart(src []byte, i int) (marker []byte, body int, ok bool) {
	j := i + 2
	if j > len(src) || src[i+1] != '<' {
		return nil, 0, false
	}
	if j < len(src) && src[j] == '-' {
		j++
	}
	k := j
	for k < len(src) && isIdentByte(src[k], k > j) {
		k++
	}
	if k == j {
		return nil, 0, false
	}
	end := k
	if end < len(src) && src[end] == '\r' {
		end++
	}
	if end >= len(src) || src[end] != '\n' {
		return nil, 0, false
	}
	return src[j:k], end + 1, true
}

// heredocEnd reports whether the line at src[i] closes a heredoc with the
// marker, and the offset after the marker.
func heredocEnd(src []byte, i int, marker []byte) (int, bool) {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	if !bytes.HasPrefix(src[i:], marker) {
		return 0, false
	}
	end := i + len(marker)
	if end < len(src) && src[end] != '\n' && src[end] != '\r' {
		return 0, false
	}
	return end, true
}

// isWordByte is whether c continues a name or a number.
func isWordByte(c byte) bool {
	return isIdentByte(c, true) || c == '.'
}

func isIdentByte(c byte, notFirst bool) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= utf8.RuneSelf ||
		(notFirst && (c == '-' || (c >= '0' && c <= '9')))
}

// lineEnd is the offset of the newline ending the line at src[i], or the
// end of src.
func lineEnd(src []byte, i int) int {
	if n := bytes.IndexByte(src[i:], '\n'); n >= 0 {
		return i + n
	}
	return len(src)
}

// jsonNesting is nestingFits for JSON: the depth of its arrays and
// objects, and, with templates, the nesting of each string as HCL reads
// it in a JSON configuration, as a template, from the string's depth.
func jsonNesting(src []byte, templates bool, room int) (int, int) {
	var opened []int // offsets of the open arrays and objects
	tokens := maxFileTokens
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '[', '{':
			if len(opened) >= room {
				return i, tooDeep
			}
			opened = append(opened, i)
		case ']', '}':
			if len(opened) > 0 {
				opened = opened[:len(opened)-1]
			}
		case '"':
			end := jsonStringEnd(src, i)
			if templates {
				if t, ok := jsonTemplate(src[i:end]); ok {
					if _, why := nestingFits(t, templateSyntax, room-len(opened)); why != fits {
						return i, why
					}
				}
			}
			i = end - 1
		case ',':
			// A configuration's values are counted as the file's tokens;
			// what jsondecode decodes is counted by maxValueElements.
			if tokens--; templates && tokens < 0 {
				return i, tooManyTokens
			}
		}
	}
	return 0, fits
}

// jsonStringEnd is the offset after the JSON string starting at src[i].
func jsonStringEnd(src []byte, i int) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(src)
}

// jsonTemplate is a JSON string token's text, when it may hold a
// template's interpolation or directive.
func jsonTemplate(tok []byte) ([]byte, bool) {
	if !bytes.Contains(tok, []byte("{")) && !bytes.Contains(tok, []byte(`\u`)) {
		return nil, false
	}
	if !bytes.Contains(tok, []byte(`\`)) {
		return tok[1 : len(tok)-1], true
	}
	var s string
	if json.Unmarshal(tok, &s) != nil {
		return nil, false // not a string: the parser reports it
	}
	return []byte(s), true
}

// positionAt is the line and column of a byte offset, as HCL counts them.
func positionAt(src []byte, offset int) hcl.Pos {
	offset = min(max(offset, 0), len(src))
	line := 1 + bytes.Count(src[:offset], []byte("\n"))
	start := bytes.LastIndexByte(src[:offset], '\n') + 1
	return hcl.Pos{Line: line, Column: 1 + utf8.RuneCount(src[start:offset]), Byte: offset}
}
