// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// annotation is a `# queuecap-ignore: rule[, rule] [# reason [exp:DATE]]`
// comment, or under tflint a `# tflint-ignore: rule[, rule] [# reason]`.
type annotation struct {
	rules []string // rule IDs, or "all"
	rng   Range    // the comment's; it applies to its line and the next one
	file  bool     // queuecap-ignore-file: applies to the whole file
	// tflint is set for tflint's own forms, which may name any tflint
	// plugin's rules.
	tflint bool
	// expires is the last day (UTC) the annotation works; zero for never.
	expires time.Time
	// used are the rules (or "all") whose findings it suppressed, and
	// undecided those that skipped a check at its place.
	used, undecided map[string]bool
}

func (a *annotation) names(rule string) string {
	for _, r := range a.rules {
		if r == "all" || r == rule {
			return r
		}
	}
	return ""
}

// covers reports whether the annotation is at a place a finding of rule at
// line is, naming the rule; expiry aside.
func (a *annotation) covers(rule string, line int) string {
	if !a.file && a.line() != line && a.line() != line-1 {
		return ""
	}
	return a.names(rule)
}

func (a *annotation) line() int { return a.rng.Start.Line }

// expired reports whether now is past the annotation's last day.
func (a *annotation) expired(now time.Time) bool { return pastLastDay(a.expires, now) }

// pastLastDay reports whether now is after the day last, which ends at
// midnight UTC (time.Parse reads a date in UTC); never for a zero last.
func pastLastDay(last, now time.Time) bool {
	return !last.IsZero() && !now.Before(last.AddDate(0, 0, 1))
}

// annotations finds the ignore comments of a native-syntax file through
// the HCL lexer's comment tokens, so text inside strings or heredocs that
// merely looks like a comment is never taken for one, and the mistakes in
// them. JSON files have no comments and so no annotations. With tflint,
// tflint's own `# tflint-ignore: rule` and `# tflint-ignore-file: rule`
// count too (tflint applies them itself only in the root module's files).
func annotations(pf *parsedFile, tflint bool) ([]*annotation, []ErrorEntry) {
	if pf == nil || pf.src == nil || strings.HasSuffix(pf.path, ".json") {
		return nil, nil
	}
	tokens, _ := hclsyntax.LexConfig(pf.src, pf.path, hcl.InitialPos)
	var out []*annotation
	var errs []ErrorEntry
	leading := true // still before the first non-comment token
	for _, t := range tokens {
		switch t.Type {
		case hclsyntax.TokenComment:
			rng := commentRange(t)
			a, why := parseAnnotation(string(t.Bytes), rng, leading, tflint)
			if why != "" {
				errs = append(errs, ErrorEntry{Message: why, Severity: Error, Range: &rng})
			} else if a != nil {
				out = append(out, a)
			}
		case hclsyntax.TokenNewline, hclsyntax.TokenEOF:
		default:
			leading = false
		}
	}
	return out, errs
}

// commentRange is a comment's place without the newline that ends a
// line comment, which the lexer counts in it.
func commentRange(t hclsyntax.Token) Range {
	rng := toRange(t.Range)
	if text := strings.TrimRight(string(t.Bytes), "\r\n"); len(text) < len(t.Bytes) {
		rng.End = Pos{Line: rng.Start.Line, Column: rng.Start.Column + utf8.RuneCountInString(text)}
	}
	return rng
}

// expiry is `exp:DATE` in an annotation's reason.
var expiry = regexp.MustCompile(`(?:^|\s)exp:\s*(\S*)`)

// parseAnnotation reads one comment: an annotation, none (nil), or why
// the comment is an annotation that cannot work.
func parseAnnotation(text string, rng Range, leading, tflint bool) (*annotation, string) {
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
	a := &annotation{rng: rng}
	prefix := "queuecap-ignore"
	if tflint && strings.HasPrefix(body, "tflint-ignore") {
		prefix, a.tflint = "tflint-ignore", true
	}
	var ok bool
	if body, ok = strings.CutPrefix(body, prefix+"-file:"); ok {
		if !leading {
			if a.tflint {
				return nil, "" // tflint says so itself, in the root module
			}
			return nil, "queuecap-ignore-file must be at the top of the file, above every block and attribute (only comments and blank lines before it); " +
				"move it there, or use `queuecap-ignore:` on the line of the finding or the line above"
		}
		a.file = true
	} else if body, ok = strings.CutPrefix(body, prefix+":"); !ok {
		return nil, ""
	}
	if i := strings.Index(body, "#"); i >= 0 {
		// tflint applies its own forms in the root module whatever the
		// reason says: exp: is queuecap's alone.
		if m := expiry.FindStringSubmatch(body[i+1:]); m != nil && !a.tflint {
			d, err := time.Parse(time.DateOnly, m[1])
			if err != nil {
				return nil, fmt.Sprintf("expiry %q is not a date: write exp:YYYY-MM-DD, the last day the ignore works (UTC)", "exp:"+m[1])
			}
			a.expires = d
		}
		body = body[:i] // a reason follows
	}
	for _, r := range strings.Split(body, ",") {
		if r = strings.TrimSpace(r); r != "" {
			a.rules = append(a.rules, r)
		}
	}
	if len(a.rules) == 0 {
		return nil, ""
	}
	return a, ""
}

// ignoreSet is the run's ignore comments, each file's read once, and
// which of them suppressed a finding.
type ignoreSet struct {
	sources *sourceCache
	now     time.Time
	files   map[string][]*annotation
	errs    map[string][]ErrorEntry
}

func newIgnoreSet(sources *sourceCache, now time.Time) *ignoreSet {
	return &ignoreSet{sources: sources, now: now, files: map[string][]*annotation{}, errs: map[string][]ErrorEntry{}}
}

func (s *ignoreSet) of(file string) []*annotation {
	anns, ok := s.files[file]
	if !ok {
		anns, s.errs[file] = annotations(s.sources.lookup(file), s.sources.tflint)
		s.files[file] = anns
	}
	return anns
}

// at are the annotations that would silence a finding of rule at rng,
// expired ones too, each with the name it has the rule by.
func (s *ignoreSet) at(rule string, rng Range) []named {
	var out []named
	for _, a := range s.of(rng.Filename) {
		if n := a.covers(rule, rng.Start.Line); n != "" {
			out = append(out, named{a, n})
		}
	}
	return out
}

// named is an annotation with the name (a rule ID, or "all") it covers a
// finding by.
type named struct {
	*annotation
	name string
}

// silence reports whether a finding of rule is ignored at every one of
// places (none: not ignored), and marks the annotations that did it used.
func (s *ignoreSet) silence(rule string, places ...Range) bool {
	var found []named
	for _, rng := range places {
		live := slices.DeleteFunc(s.at(rule, rng), func(n named) bool { return n.expired(s.now) })
		if len(live) == 0 {
			return false
		}
		found = append(found, live...)
	}
	for _, n := range found {
		if n.used == nil {
			n.used = map[string]bool{}
		}
		n.used[n.name] = true
	}
	return len(found) > 0
}

// undecide marks the annotations at a skip's place: its rules did not
// judge there, so the annotations cannot be said to be unused.
func (s *ignoreSet) undecide(sk Skip) {
	rules := sk.Rules
	if len(rules) == 0 {
		rules = []string{sk.Rule}
	}
	for _, rule := range rules {
		for _, n := range s.at(rule, sk.Range) {
			if n.undecided == nil {
				n.undecided = map[string]bool{}
			}
			n.undecided[n.name] = true
		}
	}
}
