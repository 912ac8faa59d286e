package formatter

import (
	"bytes"
	"encoding/xml"
	"fmt"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
)

type junitSuites struct {
	XMLName xml.Name     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
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
// issue (named for the rule, classed by file) holding a <failure> whose
// type is the severity; a case per run error holding an <error>; and a case
// per skipped check holding <skipped>.
func renderJUnit(b *bytes.Buffer, r *lint.Result, _ Options) error {
	suite := junitSuite{
		Name:     toolName,
		Tests:    len(r.Issues) + len(r.Errors) + len(r.Skipped),
		Failures: len(r.Issues),
		Errors:   len(r.Errors),
		Skipped:  len(r.Skipped),
		Time:     "0",
		Cases:    []junitCase{},
	}
	for _, is := range r.Issues {
		contents := fmt.Sprintf("%s: %s - %s (%s)", is.Range, severityTitle(is.Severity), is.Text(), is.Rule)
		if is.Link != "" {
			contents += "\nReference: " + is.Link
		}
		suite.Cases = append(suite.Cases, junitCase{
			Name:      is.Rule,
			Classname: is.Range.Filename,
			Time:      "0",
			Failure:   &junitProblem{Message: is.Text(), Type: is.Severity.String(), Contents: contents},
		})
	}
	for _, e := range r.Errors {
		c := junitCase{
			Name: "error",
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
		suite.Cases = append(suite.Cases, junitCase{
			Name:      s.Rule,
			Classname: s.Range.Filename,
			Time:      "0",
			Skipped:   &junitSkipped{Message: fmt.Sprintf("%s: %s", s.Range, s.Reason)},
		})
	}
	return encodeXML(b, junitSuites{Suites: []junitSuite{suite}})
}
