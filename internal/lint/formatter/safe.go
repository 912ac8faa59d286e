// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package formatter

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The output carries text from the configuration under review (file
// names, addresses, values in messages, source lines), which a pull
// request from a stranger writes. Printed as it is, an escape sequence
// would reach the terminal, a line break would start a line of its own,
// and a CI runner reads some lines of a log as commands: GitHub Actions
// one that starts with "::" (after white space, as its runner trims it:
// "::error::", "::add-mask::", "::stop-commands::") or holds "##[" (the
// legacy form, anywhere in the line). So the text formats render a copy
// of the result with every string escaped (escaped), and source lines
// escaped and cut (snippet); and every format but github's, whose lines
// are commands, is guarded line by line (outputGuard), each in a form its
// readers decode to the same text.

// escapeText writes a line break in s as a space, as the compact format
// always has (a diagnostic's detail may have paragraphs), and its other
// control characters (a tab aside), its bytes that are not UTF-8 and the
// Unicode controls that reorder or hide text as Go escapes (\x1b, \xe9,
// \u202e), so that s reaches a terminal or log as the text it is, on one
// line.
func escapeText(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for i, w := 0, 0; i < len(s); i += w {
		r, size := utf8.DecodeRuneInString(s[i:])
		w = size
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\r' && strings.HasPrefix(s[i+1:], "\n"):
			b.WriteByte(' ')
			w = 2
		case r == '\n' || r == '\r':
			b.WriteByte(' ')
		case hidden(r) && r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		case hidden(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
	}
	return b.String()
}

// escaped is a deep copy of v with every string in it escaped
// (escapeText): the result or explanation a text format renders.
func escaped(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.String:
		return reflect.ValueOf(escapeText(v.String())).Convert(v.Type())
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		p := reflect.New(v.Type().Elem())
		p.Elem().Set(escaped(v.Elem()))
		return p
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		s := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			s.Index(i).Set(escaped(v.Index(i)))
		}
		return s
	case reflect.Struct:
		c := reflect.New(v.Type()).Elem()
		c.Set(v) // unexported fields as they are
		for i := range v.NumField() {
			if c.Field(i).CanSet() {
				c.Field(i).Set(escaped(v.Field(i)))
			}
		}
		return c
	}
	return v
}

func needsEscape(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || r == '\n' || r == '\r' || hidden(r) {
			return true
		}
	}
	return false
}

// hidden reports whether r is a control character other than a tab, or a
// format character such as U+202E, which reverses the text after it.
func hidden(r rune) bool {
	return r != '\t' && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r))
}

// maxSnippetColumns is the widest a source line is shown: a finding on a
// line of megabytes shows the part around it.
const maxSnippetColumns = 200

// snippet is a source line cut to maxSnippetColumns around its
// highlight, the characters [from, to), with an ellipsis where it was cut,
// each part escaped. A byte that is not UTF-8 counts as a character, and
// is shown as its escape.
func snippet(line string, from, to int) (before, highlight, after string) {
	var at []int // the byte offset of each character
	for i, w := 0, 0; i < len(line); i += w {
		_, w = utf8.DecodeRuneInString(line[i:])
		at = append(at, i)
	}
	n := len(at)
	at = append(at, len(line))
	start, end := 0, n
	if n > maxSnippetColumns {
		start = max(0, min(from-maxSnippetColumns/4, n-maxSnippetColumns))
		end = start + maxSnippetColumns
	}
	from = min(max(from, start), end)
	to = min(max(to, from), end)
	before, highlight, after = line[at[start]:at[from]], line[at[from]:at[to]], line[at[to]:at[end]]
	if start > 0 {
		before = "…" + before
	}
	if end < n {
		after += "…"
	}
	return escapeText(before), escapeText(highlight), escapeText(after)
}

// outputGuard is how a family of formats writes, in a form its readers
// decode to the same text, what would make a line a workflow command,
// and the characters escapeText escapes in text.
type outputGuard struct {
	hash  string // the second '#' of "##["
	colon string // the first ':' of a line that starts with "::"
	// hidden writes a rune escapeText escapes; nil leaves them, for text
	// escaped before it was rendered, whose color codes are the format's.
	hidden func(r rune) string
}

var (
	textGuard = &outputGuard{hash: `\x23`, colon: `\x3a`}
	// '#', ':' and the runes escapeText escapes stand only inside a
	// string in JSON, and only in text or an attribute in XML.
	jsonGuard = &outputGuard{hash: `\u0023`, colon: `\u003a`, hidden: func(r rune) string { return fmt.Sprintf(`\u%04x`, r) }}
	xmlGuard  = &outputGuard{hash: "&#35;", colon: "&#58;", hidden: func(r rune) string { return fmt.Sprintf("&#x%x;", r) }}
)

// guard rewrites each line of out that a GitHub Actions runner would read
// as a command, and the runes escapeText escapes (with hidden); a nil
// guard leaves out as it is (github's own format, whose lines are
// commands and whose data is escaped as GitHub defines).
func (g *outputGuard) guard(out []byte) []byte {
	if g == nil {
		return out
	}
	if g.hidden != nil && needsEscape(strings.ReplaceAll(string(out), "\n", "")) {
		var b bytes.Buffer
		for _, r := range string(out) {
			if r != '\n' && r != '\r' && r != utf8.RuneError && hidden(r) {
				b.WriteString(g.hidden(r))
			} else {
				b.WriteRune(r)
			}
		}
		out = b.Bytes()
	}
	if !bytes.Contains(out, []byte("##[")) && !bytes.Contains(out, []byte("::")) {
		return out
	}
	lines := bytes.SplitAfter(out, []byte("\n"))
	for i, l := range lines {
		l = bytes.ReplaceAll(l, []byte("##["), []byte("#"+g.hash+"["))
		if t := bytes.TrimLeftFunc(l, unicode.IsSpace); bytes.HasPrefix(t, []byte("::")) {
			indent := len(l) - len(t)
			l = append(append(append([]byte{}, l[:indent]...), g.colon...), t[1:]...)
		}
		lines[i] = l
	}
	return bytes.Join(lines, nil)
}
