// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"slices"

	"github.com/hashicorp/hcl/v2"
)

// toRange is an HCL range as the model writes one.
func toRange(r hcl.Range) Range {
	return Range{Filename: r.Filename,
		Start: Pos{Line: r.Start.Line, Column: r.Start.Column},
		End:   Pos{Line: r.End.Line, Column: r.End.Column}}
}

// sortedKeys are a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// UsageError is a mistake in the options themselves (an unknown rule ID, a
// malformed --var): nothing was linted.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }
