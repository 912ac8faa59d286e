// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package rules_test

import (
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/rules"
)

// TestLinkVersion checks that a rule's link points at the docs of the
// release it was built as, and at main for a development build.
func TestLinkVersion(t *testing.T) {
	defer func(v string) { model.Version = v }(model.Version)
	const base = "https://github.com/queuecap/terraform-provider-queuecap/blob/"
	for version, want := range map[string]string{
		"":                                     base + "main/docs/rules/queuecap_zero_surplus.md", // a test binary: (devel)
		"v0.1.0":                               base + "v0.1.0/docs/rules/queuecap_zero_surplus.md",
		"0.2.0-rc.1":                           base + "v0.2.0-rc.1/docs/rules/queuecap_zero_surplus.md",
		"v0.1.1-0.20250601120000-0123456789ab": base + "main/docs/rules/queuecap_zero_surplus.md",
	} {
		model.Version = version
		if got := rules.All()[0].Link(); got != want {
			t.Errorf("Version %q: link %s, want %s", version, got, want)
		}
	}
}
