// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package formatter

import (
	"bytes"
	"cmp"
	"encoding/xml"
	"slices"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

// checkstyleErrorSource is the source of entries that are run errors, not
// findings of a rule.
const checkstyleErrorSource = "queuecap"

type checkstyleDoc struct {
	XMLName xml.Name         `xml:"checkstyle"`
	Files   []checkstyleFile `xml:"file"`
}

type checkstyleFile struct {
	Name   string            `xml:"name,attr"`
	Errors []checkstyleError `xml:"error"`
}

type checkstyleError struct {
	Source   string `xml:"source,attr"`
	Line     int    `xml:"line,attr,omitempty"`
	Column   int    `xml:"column,attr,omitempty"`
	Severity string `xml:"severity,attr"`
	Message  string `xml:"message,attr"`
	Link     string `xml:"link,attr,omitempty"`
}

// renderCheckstyle writes Checkstyle XML: a <file> per file, sorted by name,
// holding an <error> per issue with the rule as source and Checkstyle's
// severities (error, warning, info). Run errors appear in their file with
// source "queuecap"; those without a file go under <file name="">. Within a
// file, entries are ordered by position.
func renderCheckstyle(b *bytes.Buffer, r *model.Result, _ Options) error {
	byFile := map[string][]checkstyleError{}
	for _, is := range r.Issues {
		at := physical(r, annotationPlace(is))
		byFile[at.Filename] = append(byFile[at.Filename], checkstyleError{
			Source:   is.Rule,
			Line:     at.Start.Line,
			Column:   at.Start.Column,
			Severity: checkstyleSeverity(is.Severity),
			Message:  withArgumentNote(is, addressed(physical(r, is.Range), is.Address, is.Instances, is.Text())),
			Link:     is.Link,
		})
	}
	for _, e := range r.Errors {
		ce := checkstyleError{
			Source:   checkstyleErrorSource,
			Severity: checkstyleSeverity(errorSeverity(e)),
			Message:  e.Message,
		}
		name := ""
		if e.Range != nil {
			name, ce.Line, ce.Column = e.Range.Filename, e.Range.Start.Line, e.Range.Start.Column
		}
		byFile[name] = append(byFile[name], ce)
	}

	doc := checkstyleDoc{}
	for name, errs := range byFile {
		slices.SortStableFunc(errs, func(a, b checkstyleError) int {
			return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
		})
		doc.Files = append(doc.Files, checkstyleFile{Name: name, Errors: errs})
	}
	slices.SortFunc(doc.Files, func(a, b checkstyleFile) int { return cmp.Compare(a.Name, b.Name) })
	return encodeXML(b, doc)
}

func checkstyleSeverity(s model.Severity) string {
	if s == model.Notice {
		return "info"
	}
	return s.String()
}

// encodeXML writes the XML header, v indented by two spaces, and a newline.
func encodeXML(b *bytes.Buffer, v any) error {
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(b)
	enc.Indent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	b.WriteString("\n")
	return nil
}
