// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package formatter

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string `xml:"name,attr"`
	Tests    int    `xml:"tests,attr"`
	Failures int    `xml:"failures,attr"`
	Errors   int    `xml:"errors,attr"`
	Skipped  int    `xml:"skipped,attr"`
	Time     string `xml:"time,attr"`
	// Properties say how many queues with a consumer were checked.
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
}

type junitProblem struct {
	Message  string `xml:"message,attr"`
	Type     string `xml:"type,attr"`
	Contents string `xml:",cdata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// renderJUnit writes JUnit XML: one suite, "queuecap", with a test case per
// issue (classed by file, a plan's finding located by its address alone by
// the plan file) holding a <failure> whose type is the severity; a
// case per run error holding an <error>; and a case per skipped check
// holding <skipped>. Every case has a name of its own (see junitNames).
func renderJUnit(b *bytes.Buffer, r *model.Result, _ Options) error {
	suite := junitSuite{
		Name:     toolName,
		Tests:    len(r.Issues) + len(r.Errors) + len(r.Skipped),
		Failures: len(r.Issues),
		Errors:   len(r.Errors),
		Skipped:  len(r.Skipped),
		Time:     "0",
		Properties: []junitProperty{
			{"queuecap.queues.with_consumer", strconv.Itoa(r.QueuesWithConsumer)},
			{"queuecap.queues.checked", strconv.Itoa(r.QueuesChecked())},
			{"queuecap.queues.not_checked", strings.Join(r.QueuesNotChecked, " ")},
		},
		Cases: []junitCase{},
	}
	var places []junitPlace
	for _, is := range r.Issues {
		places = append(places, junitPlace{is.Rule, &is.Range})
	}
	for _, e := range r.Errors {
		places = append(places, junitPlace{"error", e.Range})
	}
	for _, s := range r.Skipped {
		places = append(places, junitPlace{s.Rule, &s.Range})
	}
	names := junitNames(places)
	for _, is := range r.Issues {
		at := physical(r, is.Range)
		text := withArgumentNote(is, addressed(at, is.Address, is.Instances, is.Text()))
		contents := fmt.Sprintf("%s: %s - %s (%s)", at, severityTitle(is.Severity), text, is.Rule)
		if is.Link != "" {
			contents += "\nReference: " + is.Link
		}
		suite.Cases = append(suite.Cases, junitCase{
			Name:      names[len(suite.Cases)],
			Classname: at.Filename,
			Time:      "0",
			Failure:   &junitProblem{Message: text, Type: is.Severity.String(), Contents: contents},
		})
	}
	for _, e := range r.Errors {
		c := junitCase{
			Name: names[len(suite.Cases)],
			Time: "0",
			Error: &junitProblem{
				Message:  e.Message,
				Type:     errorSeverity(e).String(),
				Contents: e.String(),
			},
		}
		if e.Range != nil {
			c.Classname = e.Range.Filename
		}
		suite.Cases = append(suite.Cases, c)
	}
	for _, s := range r.Skipped {
		at := physical(r, s.Range)
		suite.Cases = append(suite.Cases, junitCase{
			Name:      names[len(suite.Cases)],
			Classname: at.Filename,
			Time:      "0",
			Skipped:   &junitSkipped{Message: fmt.Sprintf("%s: %s", at, addressed(at, s.Address, s.Instances, s.Reason))},
		})
	}
	return encodeXML(b, junitSuites{Suites: []junitSuite{suite}})
}

// junitPlace is what a test case is named from: its rule ("error" for a
// run error) and where it lies, if anywhere.
type junitPlace struct {
	rule string
	rng  *model.Range
}

// junitNames names test cases "rule file:line", as reports and CI views
// that key cases by name need each finding apart: with the column where
// two cases of a rule share a line, and numbered " (2)", " (3)" where they
// share the column too. A case with no line is named by its file (or a
// plan's resource address), one with no place by its rule alone.
func junitNames(places []junitPlace) []string {
	name := func(p junitPlace, column bool) string {
		switch {
		case p.rng == nil || p.rng.Filename == "":
			return p.rule
		case p.rng.AddressOnly() || p.rng.Start.Line < 1:
			return p.rule + " " + p.rng.Filename
		case column:
			return p.rule + " " + p.rng.String()
		}
		return fmt.Sprintf("%s %s:%d", p.rule, p.rng.Filename, p.rng.Start.Line)
	}
	count := map[string]int{}
	for _, p := range places {
		count[name(p, false)]++
	}
	names := make([]string, len(places))
	seen := map[string]int{}
	for i, p := range places {
		n := name(p, false)
		if count[n] > 1 {
			n = name(p, true)
		}
		if seen[n]++; seen[n] > 1 {
			n = fmt.Sprintf("%s (%d)", n, seen[n])
		}
		names[i] = n
	}
	return names
}
