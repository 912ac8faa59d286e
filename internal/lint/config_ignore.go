// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// IgnoreConfig is an `ignore {}` block of .queuecap.hcl: findings of a
// rule accepted, with a reason, at the addresses or files it names.
type IgnoreConfig struct {
	Rule string // a rule ID, or "all"
	// Address matches the resource address of every instance a finding
	// stands for; Path the file of the finding, relative to Dir. Nil when
	// not set; at least one is.
	Address, Path *regexp.Regexp
	Reason        string
	// Expires is the last day (UTC) the block works; zero for never.
	Expires time.Time
	// Dir is the directory of the file the block is in, absolute.
	Dir string
	// Range is the block's; RuleRange its rule attribute's value.
	Range, RuleRange hcl.Range
}

var ignoreBlockSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "rule"}, {Name: "address"}, {Name: "path"}, {Name: "reason"}, {Name: "expires"},
}}

// decodeIgnore reads an ignore block of the file at path.
func decodeIgnore(path string, b *hcl.Block) (*IgnoreConfig, hcl.Diagnostics) {
	attrs, diags := b.Body.Content(ignoreBlockSchema)
	// Absolute once, not at every finding matched.
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		dir = filepath.Dir(path) // Rel fails on it against an absolute file: no path matches, as before
	}
	ic := &IgnoreConfig{Dir: dir, Range: b.DefRange}
	text := func(name string) (string, *hcl.Attribute) {
		a, ok := attrs.Attributes[name]
		if !ok {
			return "", nil
		}
		v, d := literal(a, cty.String)
		diags = append(diags, d...)
		if d != nil {
			return "", nil
		}
		return v.AsString(), a
	}
	missing := func(detail string) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Incomplete ignore block", Detail: detail, Subject: b.DefRange.Ptr()})
	}
	rule, ra := text("rule")
	if ra != nil {
		ic.Rule, ic.RuleRange = rule, ra.Expr.Range()
	}
	address, _ := text("address")
	glob, _ := text("path")
	reason, rea := text("reason")
	ic.Reason = reason
	expires, ea := text("expires")
	if attrs.Attributes["rule"] == nil {
		missing(`an ignore block needs rule: the rule ID whose findings it accepts, or "all"`)
	}
	if attrs.Attributes["reason"] == nil || (rea != nil && strings.TrimSpace(reason) == "") {
		missing("an ignore block needs a reason: why the findings are accepted, for the next reader")
	}
	// Missing or empty alike: an empty glob narrows nothing.
	if address == "" && glob == "" {
		missing("an ignore block needs address (a resource address, * matching any characters) or path (a file glob relative to this file's folder), or both; to turn a rule off everywhere use a rule block with enabled = false")
	}
	if address != "" {
		ic.Address = globRegexp(address, false)
	}
	if glob != "" {
		ic.Path = globRegexp(filepath.ToSlash(glob), true)
	}
	if ea != nil {
		d, err := time.Parse(time.DateOnly, expires)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid value for expires",
				Detail: "expires must be a date, YYYY-MM-DD: the last day the block works (UTC)", Subject: ea.Expr.Range().Ptr()})
		}
		ic.Expires = d
	}
	return ic, diags
}

// globRegexp is a glob as a regular expression: in an address, * is any
// characters; in a path, * is any characters but /, ** any number of
// folders, ? one character.
func globRegexp(glob string, path bool) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(glob); i++ {
		switch {
		case path && strings.HasPrefix(glob[i:], "**/"):
			b.WriteString("(?:.*/)?")
			i += 2
		case path && strings.HasPrefix(glob[i:], "**"):
			b.WriteString(".*")
			i++
		case path && glob[i] == '*':
			b.WriteString("[^/]*")
		case path && glob[i] == '?':
			b.WriteString("[^/]")
		case glob[i] == '*':
			b.WriteString(".*")
		default:
			b.WriteString(regexp.QuoteMeta(glob[i : i+1]))
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// matches reports whether the block covers a finding (or a skip) of rule
// in file, standing for the instances at addresses.
func (ic *IgnoreConfig) matches(rule, file string, addresses []string) bool {
	if ic.Rule != "all" && ic.Rule != rule {
		return false
	}
	if ic.Address != nil && (len(addresses) == 0 || slices.ContainsFunc(addresses, func(a string) bool { return !ic.Address.MatchString(a) })) {
		return false
	}
	if ic.Path != nil {
		abs, err := filepath.Abs(file)
		if err != nil {
			return false
		}
		rel, err := filepath.Rel(ic.Dir, abs)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || !ic.Path.MatchString(filepath.ToSlash(rel)) {
			return false
		}
	}
	return true
}

// instances are the addresses a finding stands for.
func instances(address string, all []string) []string {
	if len(all) > 0 {
		return all
	}
	if address == "" {
		return nil
	}
	return []string{address}
}

// expired reports whether now is past the block's last day.
func (ic *IgnoreConfig) expired(now time.Time) bool { return pastLastDay(ic.Expires, now) }

// blockUse is what an ignore block did in the run. A file read as the
// configuration of several roots, or read twice (--config and the
// nearest .queuecap.hcl of a root), is one block: its place is the key.
type blockUse struct {
	block *IgnoreConfig
	// applied: a root read it; used: it silenced a finding; undecided:
	// its rule skipped a check it covers.
	applied, used, undecided bool
}

func (r *Session) blockUse(ic *IgnoreConfig) *blockUse {
	if r.blocks == nil {
		r.blocks = map[string]*blockUse{}
	}
	k := ic.Range.String()
	if r.blocks[k] == nil {
		r.blocks[k] = &blockUse{block: ic}
	}
	return r.blocks[k]
}

// configIgnored are a root's findings that no live ignore block of its
// configuration covers. Its skips mark the blocks they fall under as
// undecided.
func (r *Session) configIgnored(cfg *Config, issues []placedIssue, skips []Skip) []placedIssue {
	for _, ic := range cfg.Ignores {
		u := r.blockUse(ic)
		u.applied = true
		for _, sk := range skips {
			for _, rule := range append([]string{sk.Rule}, sk.Rules...) {
				u.undecided = u.undecided || ic.matches(rule, sk.Range.Filename, instances(sk.Address, sk.Instances))
			}
		}
	}
	return slices.DeleteFunc(issues, func(p placedIssue) bool {
		hit := false
		for _, ic := range cfg.Ignores {
			if !ic.expired(r.now) && ic.matches(p.Rule, p.Range.Filename, instances(p.Address, p.Instances)) {
				r.blockUse(ic).used, hit = true, true
			}
		}
		return hit
	})
}

// checkIgnoreBlocks reports the ignore blocks of the run's configuration
// files that name no rule (an error), expired ones, and with
// ReportUnusedIgnores those a root read that silenced nothing (notices).
func (r *Session) checkIgnoreBlocks(known []string, active map[string]bool) {
	seen := map[string]bool{}
	for _, cfg := range append([]*Config{r.opts.Config}, r.configs...) {
		for _, ic := range cfg.Ignores {
			u := r.blockUse(ic)
			if seen[ic.Range.String()] {
				continue
			}
			seen[ic.Range.String()] = true
			if ic.Rule != "all" && !slices.Contains(known, ic.Rule) {
				rng := toRange(ic.RuleRange)
				r.res.Errors = append(r.res.Errors, ErrorEntry{Severity: Error, Range: &rng,
					Message: fmt.Sprintf("ignore block names rule %q, which does not exist%s", ic.Rule, suggest(ic.Rule, known))})
				continue
			}
			is := Issue{Rule: UnusedIgnore, Severity: Notice, Range: toRange(ic.Range), Subject: "ignore " + ic.Rule, Link: ignoreDocs()}
			switch {
			case ic.expired(r.now):
				day := ic.Expires.Format(time.DateOnly)
				is.Summary = fmt.Sprintf("ignore block for %s expired on %s: its findings are reported again", ic.Rule, day)
				is.Message = fmt.Sprintf("the ignore block for %s worked until the end of %s (UTC); fix what it ignored, or give it a new expires date with a reason that still holds", ic.Rule, day)
			case r.opts.ReportUnusedIgnores && !r.opts.Explain && u.applied && active[ic.Rule] && !u.used && !u.undecided:
				is.Summary = fmt.Sprintf("ignore block for %s suppresses nothing: remove it", ic.Rule)
				is.Message = fmt.Sprintf("no finding of %s matches its address and path; an ignore that silences nothing would hide the next finding unseen", ic.Rule)
			default:
				continue
			}
			r.res.Issues = append(r.res.Issues, is)
		}
	}
}
