// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package formatter

import (
	"bytes"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"
)

type jsonExplanation struct {
	Roots   []model.RootExplanation `json:"roots"`
	Skipped []model.Skip            `json:"skipped"`
	Errors  []jsonError             `json:"errors"`
}

// renderExplainJSON writes one line of JSON, the schema documented in
// docs/rules/README.md:
//
//	{"roots":[...],"skipped":[...],"errors":[...]}
//
// Arrays are never null; a value that is unset or not known before apply
// is null.
func renderExplainJSON(b *bytes.Buffer, r *model.Result, _ Options) error {
	out := jsonExplanation{Roots: r.Explanation.Roots, Skipped: r.Explanation.Skipped, Errors: jsonErrors(r.Errors)}
	if out.Roots == nil {
		out.Roots = []model.RootExplanation{}
	}
	if out.Skipped == nil {
		out.Skipped = []model.Skip{}
	}
	return encodeJSON(b, out, "")
}
