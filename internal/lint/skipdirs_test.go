// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import "testing"

// TestSkipDir: which folders a walk skips, by name and by path below the
// directory walked.
func TestSkipDir(t *testing.T) {
	cases := []struct {
		rel   string
		globs []string
		want  bool
	}{
		{"node_modules", nil, true},
		{"a/node_modules", nil, true},
		{".terragrunt-cache", nil, true},
		{"a/.terraform", nil, true},
		{"vendor", nil, false},
		{"vendor", []string{"vendor"}, true},
		{"a/vendor", []string{"vendor"}, true},
		{"test-a", []string{"test*"}, true},
		{"vendor", []string{"vendor/**"}, true},
		{"vendor/x/y", []string{"vendor/**"}, true},
		{"a/vendor", []string{"vendor/**"}, false},
		{"envs/prod/legacy", []string{"envs/*/legacy"}, true},
		{"envs/prod/x/legacy", []string{"envs/*/legacy"}, false},
		{"a/b/fixtures", []string{"**/fixtures"}, true},
		{"fixtures", []string{"**/fixtures"}, true},
		{"fixtures/a", []string{"**/fixtures"}, false},
		{"envs", []string{"envs/"}, true},
	}
	for _, c := range cases {
		if got := skipDir(c.rel, c.globs); got != c.want {
			t.Errorf("skipDir(%q, %q) = %v, want %v", c.rel, c.globs, got, c.want)
		}
	}
	for _, bad := range []string{"", "/abs", "[", "a/[b"} {
		if CheckSkipDir(bad) == nil {
			t.Errorf("CheckSkipDir(%q) = nil, want an error", bad)
		}
	}
	if err := CheckSkipDir("vendor/**"); err != nil {
		t.Errorf("CheckSkipDir(vendor/**) = %v", err)
	}
}
