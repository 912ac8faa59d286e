// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package formatter

import (
	"bytes"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

const (
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion = "2.1.0"
	toolName     = "queuecap"
	toolURI      = "https://github.com/queuecap/terraform-provider-queuecap"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool         `json:"tool"`
	Invocations []sarifInvocation `json:"invocations"`
	Results     []sarifResult     `json:"results"`
	ColumnKind  string            `json:"columnKind"`
	// Properties say how many queues with a consumer were checked.
	Properties sarifRunProperties `json:"properties"`
}

type sarifRunProperties struct {
	Queues sarifQueues `json:"queuecap/queues"`
}

type sarifQueues struct {
	WithConsumer int      `json:"withConsumer"`
	Checked      int      `json:"checked"`
	NotChecked   []string `json:"notChecked"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string              `json:"id"`
	ShortDescription     *sarifMessage       `json:"shortDescription,omitempty"`
	FullDescription      *sarifMessage       `json:"fullDescription,omitempty"`
	HelpURI              string              `json:"helpUri,omitempty"`
	Help                 *sarifMessage       `json:"help,omitempty"`
	DefaultConfiguration *sarifConfiguration `json:"defaultConfiguration,omitempty"`
}

type sarifConfiguration struct {
	Level string `json:"level"`
}

type sarifMessage struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifMessage    `json:"message"`
	Locations []sarifLocation `json:"locations,omitempty"`
	// RelatedLocations are the module calls that reach the finding and,
	// for one moved out of an installed remote module, where inside the
	// module it lies.
	RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
	// PartialFingerprints hold the finding's identity across runs (see
	// Fingerprints), so that an upload does not open its alerts again.
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Properties          sarifProperties   `json:"properties"`
}

type sarifProperties struct {
	Facts FactObject `json:"facts"`
}

type sarifLocation struct {
	ID               *int                   `json:"id,omitempty"`
	PhysicalLocation *sarifPhysicalLocation `json:"physicalLocation,omitempty"`
	LogicalLocations []sarifLogicalLocation `json:"logicalLocations,omitempty"`
	Message          *sarifMessage          `json:"message,omitempty"`
}

// sarifLogicalLocation is a resource address.
type sarifLogicalLocation struct {
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifArtifactLocation struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

type sarifInvocation struct {
	ExecutionSuccessful bool                `json:"executionSuccessful"`
	Notifications       []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level          string          `json:"level"`
	Message        sarifMessage    `json:"message"`
	Locations      []sarifLocation `json:"locations,omitempty"`
	AssociatedRule *sarifRuleRef   `json:"associatedRule,omitempty"`
}

type sarifRuleRef struct {
	ID    string `json:"id"`
	Index int    `json:"index"`
}

// renderSARIF writes a SARIF 2.1.0 log with one run. Issues are results,
// each with its fingerprint under partialFingerprints; the rules that ran
// describe themselves in tool.driver.rules, with their pages as
// fullDescription and help (see sarifRuleDoc). Errors (files
// that did not parse, directories that could not be read) are error-level
// toolExecutionNotifications of the run's invocation, which then is not
// executionSuccessful; skipped checks, and a baseline's entries that
// matched no finding, are note-level notifications tied to their rule.
// Columns are counted in Unicode code points, as HCL counts them
// (ignoring grapheme clusters).
func renderSARIF(b *bytes.Buffer, r *model.Result, opts Options) error {
	driver := sarifDriver{Name: toolName, Version: opts.Version, InformationURI: toolURI, Rules: []sarifRule{}}
	index := map[string]int{}
	addRule := func(rule sarifRule) int {
		if i, ok := index[rule.ID]; ok {
			return i
		}
		index[rule.ID] = len(driver.Rules)
		driver.Rules = append(driver.Rules, rule)
		return index[rule.ID]
	}
	for _, ri := range r.Rules {
		rule := sarifRule{ID: ri.Name, HelpURI: absoluteURI(ri.Link)}
		if ri.Summary != "" {
			rule.ShortDescription = &sarifMessage{Text: ri.Summary}
		}
		rule.FullDescription, rule.Help = sarifRuleDoc(ri.Doc, rule.HelpURI)
		if level, ok := sarifLevel(ri.Severity); ok {
			rule.DefaultConfiguration = &sarifConfiguration{Level: level}
		}
		addRule(rule)
	}

	results := make([]sarifResult, 0, len(r.Issues))
	for i, fp := range Fingerprints(r, opts.WorkDir) {
		is := r.Issues[i]
		level, _ := sarifLevel(is.Severity)
		results = append(results, sarifResult{
			RuleID:              is.Rule,
			RuleIndex:           addRule(sarifRule{ID: is.Rule, HelpURI: absoluteURI(is.Link)}), // a rule missing from r.Rules
			Level:               level,
			Message:             sarifMessage{Text: withArgumentNote(is, is.Text())},
			Locations:           sarifInstanceLocations(physical(r, annotationPlace(is)), is.Address, is.Instances),
			RelatedLocations:    sarifRelated(r, is),
			PartialFingerprints: map[string]string{FingerprintKey: fp},
			Properties:          sarifProperties{Facts: FactObject(is.Facts)},
		})
	}

	inv := sarifInvocation{ExecutionSuccessful: len(r.Errors) == 0}
	for _, e := range r.Errors {
		level, _ := sarifLevel(errorSeverity(e))
		inv.Notifications = append(inv.Notifications, sarifNotification{
			Level:     level,
			Message:   sarifMessage{Text: e.Message},
			Locations: sarifLocations(e.Range),
		})
	}
	for _, s := range r.Skipped {
		inv.Notifications = append(inv.Notifications, sarifNotification{
			Level:          "note",
			Message:        sarifMessage{Text: "check skipped: " + s.Reason},
			Locations:      sarifInstanceLocations(physical(r, s.Range), s.Address, s.Instances),
			AssociatedRule: &sarifRuleRef{ID: s.Rule, Index: addRule(sarifRule{ID: s.Rule})},
		})
	}

	if b := r.Baseline; b != nil {
		for _, e := range b.Fixed {
			n := sarifNotification{Level: "note", Message: sarifMessage{Text: baselineFixedText(b.File, e)},
				AssociatedRule: &sarifRuleRef{ID: e.Rule, Index: addRule(sarifRule{ID: e.Rule})}}
			if e.File != "" {
				n.Locations = []sarifLocation{{PhysicalLocation: &sarifPhysicalLocation{ArtifactLocation: sarifArtifactLocation{URI: sarifURI(e.File)}}}}
			}
			inv.Notifications = append(inv.Notifications, n)
		}
	}

	log := sarifLog{
		Schema:  sarifSchema,
		Version: sarifVersion,
		Runs: []sarifRun{{
			Tool:        sarifTool{Driver: driver},
			Invocations: []sarifInvocation{inv},
			Results:     results,
			ColumnKind:  "unicodeCodePoints",
			Properties: sarifRunProperties{Queues: sarifQueues{WithConsumer: r.QueuesWithConsumer,
				Checked: r.QueuesChecked(), NotChecked: append([]string{}, r.QueuesNotChecked...)}},
		}},
	}
	return encodeJSON(b, log, "  ")
}

// sarifLevel maps a severity to a SARIF level; false for an unknown one,
// which is reported as SARIF's default, "warning".
func sarifLevel(s model.Severity) (string, bool) {
	switch s {
	case model.Error:
		return "error", true
	case model.Warning:
		return "warning", true
	case model.Notice:
		return "note", true
	}
	return "warning", false
}

// sarifLocations is the location of rng, none when rng names no file.
// sarifRelated are an issue's callers and module location, numbered; a
// plan's module call located by its address alone is at the plan file,
// named by its address.
func sarifRelated(r *model.Result, is model.Issue) []sarifLocation {
	var out []sarifLocation
	add := func(rng model.Range, text string) {
		var locs []sarifLocation
		if rng.AddressOnly() {
			locs = sarifInstanceLocations(physical(r, rng), rng.Filename, nil)
		} else {
			locs = sarifLocations(&rng)
		}
		for _, loc := range locs {
			id := len(out)
			loc.ID, loc.Message = &id, &sarifMessage{Text: text}
			out = append(out, loc)
		}
	}
	for _, c := range is.Callers {
		add(c, "module call on the way to the finding")
	}
	if len(is.Arguments) > 0 {
		add(is.Range, "where the module uses the argument's value")
		for _, a := range is.Arguments[1:] {
			add(a, "another call that sets the same value")
		}
	}
	if is.ModuleRange != nil {
		add(*is.ModuleRange, "where the finding lies inside the installed module")
	}
	return out
}

// sarifInstanceLocations is where an issue or skip lies: sarifLocations,
// with the resource instances it is about as logical locations of kind
// "resource" beside the physical one (a plan's finding without the
// configuration directory has only those, unless the result names the
// plan file: see physical).
func sarifInstanceLocations(rng model.Range, address string, instances []string) []sarifLocation {
	locs := sarifLocations(&rng)
	if len(locs) != 1 {
		return locs
	}
	if len(instances) == 0 && address != "" {
		instances = []string{address}
	}
	for _, a := range instances {
		if !slices.ContainsFunc(locs[0].LogicalLocations, func(l sarifLogicalLocation) bool { return l.FullyQualifiedName == a }) {
			locs[0].LogicalLocations = append(locs[0].LogicalLocations, sarifLogicalLocation{FullyQualifiedName: a, Kind: "resource"})
		}
	}
	return locs
}

func sarifLocations(rng *model.Range) []sarifLocation {
	if rng == nil || rng.Filename == "" {
		return nil
	}
	if rng.AddressOnly() {
		return []sarifLocation{{LogicalLocations: []sarifLogicalLocation{{FullyQualifiedName: rng.Filename, Kind: "resource"}}}}
	}
	loc := sarifLocation{PhysicalLocation: &sarifPhysicalLocation{
		ArtifactLocation: sarifArtifactLocation{URI: sarifURI(rng.Filename)},
	}}
	if rng.Start.Line >= 1 {
		reg := &sarifRegion{StartLine: rng.Start.Line, StartColumn: max(rng.Start.Column, 0)}
		// An end before the start (or none) is left out; SARIF then
		// defaults to the start line.
		if rng.End.Line > rng.Start.Line ||
			rng.End.Line == rng.Start.Line && rng.End.Column >= rng.Start.Column {
			reg.EndLine = rng.End.Line
			reg.EndColumn = max(rng.End.Column, 0)
		}
		loc.PhysicalLocation.Region = reg
	}
	return []sarifLocation{loc}
}

// sarifURI turns a file name into a URI reference: relative names stay
// relative with forward slashes, absolute ones become file URIs, and
// characters a URI cannot hold are percent-encoded.
func sarifURI(name string) string {
	p := filepath.ToSlash(name)
	if filepath.IsAbs(name) {
		if !strings.HasPrefix(p, "/") {
			p = "/" + p // C:/x → /C:/x
		}
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	return (&url.URL{Path: p}).String()
}

// absoluteURI is link when it is an absolute URI, as helpUri must be, and
// "" otherwise.
func absoluteURI(link string) string {
	if u, err := url.Parse(link); err != nil || !u.IsAbs() {
		return ""
	}
	return link
}

// sarifRuleDoc is a rule page's opening paragraph, as fullDescription, and
// the whole page below its title, as help: what code scanning shows beside
// an alert. Both give the Markdown as markdown and as text (where the
// opening paragraph loses its code spans and link targets; the page stays
// Markdown, which reads as text). Relative links are resolved against the
// page's own address, helpURI, so that they work where the page is shown.
// A rule without a page has neither.
func sarifRuleDoc(page, helpURI string) (description, help *sarifMessage) {
	lines := strings.Split(strings.ReplaceAll(page, "\r\n", "\n"), "\n")
	if len(lines) > 0 && strings.HasPrefix(lines[0], "# ") {
		lines = lines[1:]
	}
	body := strings.TrimSpace(absoluteLinks(strings.Join(lines, "\n"), helpURI))
	if body == "" {
		return nil, nil
	}
	first, _, _ := strings.Cut(body, "\n\n")
	return &sarifMessage{Text: plainText(first), Markdown: first}, &sarifMessage{Text: body, Markdown: body}
}

var (
	markdownLink     = regexp.MustCompile(`\]\(([^()\s]+)\)`)
	markdownLinkText = regexp.MustCompile(`\[([^\]]*)\]\([^()\s]+\)`)
)

// absoluteLinks resolves the relative link targets of Markdown against
// base, when base is an absolute URI.
func absoluteLinks(md, base string) string {
	b, err := url.Parse(base)
	if err != nil || !b.IsAbs() {
		return md
	}
	return markdownLink.ReplaceAllStringFunc(md, func(m string) string {
		target := m[2 : len(m)-1]
		u, err := url.Parse(target)
		if err != nil || u.IsAbs() {
			return m
		}
		return "](" + b.ResolveReference(u).String() + ")"
	})
}

// plainText is one paragraph of Markdown as text: links as their text,
// code spans and strong emphasis without their marks.
func plainText(md string) string {
	s := markdownLinkText.ReplaceAllString(md, "$1")
	return strings.NewReplacer("`", "", "**", "").Replace(s)
}
