// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package formatter

import (
	"bytes"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

// gitlabIssue is one entry of a GitLab Code Quality report: the fields
// GitLab reads of the Code Climate issue format.
type gitlabIssue struct {
	Description string         `json:"description"`
	CheckName   string         `json:"check_name"`
	Fingerprint string         `json:"fingerprint"`
	Severity    string         `json:"severity"`
	Location    gitlabLocation `json:"location"`
}

type gitlabLocation struct {
	Path  string      `json:"path"`
	Lines gitlabLines `json:"lines"`
}

type gitlabLines struct {
	Begin int `json:"begin"`
}

// renderGitLab writes a GitLab Code Quality report: a JSON array with an
// entry per issue, whose check_name is the rule and whose fingerprint is
// the one SARIF gives (see Fingerprints), then an entry per run error that
// has a file (check_name "error", severity blocker: the file was not
// checked), fingerprinted by its file and message. GitLab wants a file and
// a line: a path is relative to the working directory (see RepoPath), a
// plan's finding located by its resource address alone is at line 1 of
// the plan file (physical), and one without a line is at line 1. Errors without a file are
// left out; the exit code still reports them. Skipped checks are not
// findings and are not listed. An empty report is [].
func renderGitLab(b *bytes.Buffer, r *model.Result, opts Options) error {
	out := make([]gitlabIssue, 0, len(r.Issues)+len(r.Errors))
	for i, fp := range Fingerprints(r, opts.WorkDir) {
		is := r.Issues[i]
		out = append(out, gitlabIssue{
			Description: compactText(r, is),
			CheckName:   is.Rule,
			Fingerprint: fp,
			Severity:    gitlabSeverity(is.Severity),
			Location:    gitlabAt(physical(r, annotationPlace(is)), opts.WorkDir),
		})
	}
	var errs []model.ErrorEntry
	var keys [][]string
	for _, e := range r.Errors {
		if e.Range != nil && e.Range.Filename != "" {
			errs = append(errs, e)
			keys = append(keys, []string{"error", RepoPath(*e.Range, opts.WorkDir), e.Message})
		}
	}
	for i, fp := range rankedDigests(keys) {
		out = append(out, gitlabIssue{
			Description: errs[i].Message,
			CheckName:   "error",
			Fingerprint: fp,
			Severity:    "blocker",
			Location:    gitlabAt(*errs[i].Range, opts.WorkDir),
		})
	}
	return encodeJSON(b, out, "  ")
}

// gitlabSeverity maps a severity to Code Climate's scale (info, minor,
// major, critical, blocker): an error, a queue that cannot recover from a
// backlog, must be fixed (critical); a warning should be (major); a notice
// is information (info, the name queuecap also accepts for notice). An
// unknown severity is a warning's. Blocker is kept for a run error.
func gitlabSeverity(s model.Severity) string {
	switch s {
	case model.Error:
		return "critical"
	case model.Notice:
		return "info"
	}
	return "major"
}

func gitlabAt(rng model.Range, workDir string) gitlabLocation {
	return gitlabLocation{Path: RepoPath(rng, workDir), Lines: gitlabLines{Begin: max(rng.Start.Line, 1)}}
}
