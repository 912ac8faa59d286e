// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// annotation is a `# queuecap-ignore: rule[, rule] [# reason]` comment.
type annotation struct {
	rules []string // rule IDs, or "all"
	line  int      // the comment's line; applies to it and the next one
	file  bool     // queuecap-ignore-file: applies to the whole file
}

func (a annotation) matches(rule string) bool {
	for _, r := range a.rules {
		if r == "all" || r == rule {
			return true
		}
	}
	return false
}

// ignores reports whether an issue at line of file is silenced.
func ignores(anns []annotation, rule string, line int) bool {
	for _, a := range anns {
		if a.matches(rule) && (a.file || a.line == line || a.line == line-1) {
			return true
		}
	}
	return false
}

// annotations finds the ignore comments of a native-syntax file through
// the HCL lexer's comment tokens, so text inside strings or heredocs that
// merely looks like a comment is never taken for one. JSON files have no
// comments and so no annotations. With tflint, tflint's own
// `# tflint-ignore: rule` and `# tflint-ignore-file: rule` count too
// (tflint applies them itself only in the root module's files).
func annotations(pf *parsedFile, tflint bool) []annotation {
	if pf == nil || pf.src == nil || strings.HasSuffix(pf.path, ".json") {
		return nil
	}
	tokens, _ := hclsyntax.LexConfig(pf.src, pf.path, hcl.InitialPos)
	var out []annotation
	leading := true // still before the first non-comment token
	for _, t := range tokens {
		switch t.Type {
		case hclsyntax.TokenComment:
			if a, ok := parseAnnotation(string(t.Bytes), t.Range.Start.Line, leading, tflint); ok {
				out = append(out, a)
			}
		case hclsyntax.TokenNewline, hclsyntax.TokenEOF:
		default:
			leading = false
		}
	}
	return out
}

func parseAnnotation(text string, line int, leading, tflint bool) (annotation, bool) {
	body := strings.TrimSpace(text)
	switch {
	case strings.HasPrefix(body, "#"):
		body = body[1:]
	case strings.HasPrefix(body, "//"):
		body = body[2:]
	case strings.HasPrefix(body, "/*"):
		body = strings.TrimSuffix(body[2:], "*/")
	}
	body = strings.TrimSpace(body)
	a := annotation{line: line}
	prefix := "queuecap-ignore"
	if tflint && strings.HasPrefix(body, "tflint-ignore") {
		prefix = "tflint-ignore"
	}
	var ok bool
	if body, ok = strings.CutPrefix(body, prefix+"-file:"); ok {
		if !leading {
			return annotation{}, false
		}
		a.file = true
	} else if body, ok = strings.CutPrefix(body, prefix+":"); !ok {
		return annotation{}, false
	}
	if i := strings.Index(body, "#"); i >= 0 {
		body = body[:i] // a reason follows
	}
	for _, r := range strings.Split(body, ",") {
		if r = strings.TrimSpace(r); r != "" {
			a.rules = append(a.rules, r)
		}
	}
	return a, len(a.rules) > 0
}
