// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"runtime/debug"
	"testing"
)

func TestReleaseTag(t *testing.T) {
	for version, want := range map[string]string{
		"v0.1.0":                               "v0.1.0",
		"0.1.0":                                "v0.1.0", // goreleaser's {{.Version}}
		"v1.12.3":                              "v1.12.3",
		"v0.2.0-rc.1":                          "v0.2.0-rc.1",
		"":                                     "",
		"dev":                                  "",
		"(devel)":                              "",
		"v0.1":                                 "",
		"v0.1.0+dirty":                         "",
		"v0.0.1-snapshot+2c464fe":              "", // a goreleaser snapshot
		"v0.0.0-20250601120000-0123456789ab":   "", // an untagged commit
		"v0.1.1-0.20250601120000-0123456789ab": "", // a commit after v0.1.0
		"v0.2.0-rc.1.0.20250601120000-0123456789ab":  "", // a commit after v0.2.0-rc.1
		"v0.1.1-0.20250601120000-0123456789ab+dirty": "",
	} {
		if got := ReleaseTag(version); got != want {
			t.Errorf("ReleaseTag(%q) = %q, want %q", version, got, want)
		}
	}
}

func TestBuildVersion(t *testing.T) {
	// A test binary records its main module as (devel).
	if got := BuildVersion(); got != "dev" {
		t.Errorf("BuildVersion() = %q without -X, want dev", got)
	}
	if got := BuildCommit(); got != "" {
		t.Errorf("BuildCommit() = %q without -X, want none", got)
	}
	defer func(v, c string) { Version, Commit = v, c }(Version, Commit)
	Version, Commit = "v0.1.0", "0123abc"
	if got := BuildVersion(); got != "v0.1.0" {
		t.Errorf("BuildVersion() = %q with Version v0.1.0", got)
	}
	if got := BuildCommit(); got != "0123abc" {
		t.Errorf("BuildCommit() = %q with Commit 0123abc", got)
	}
}

func TestFromBuildInfo(t *testing.T) {
	vcs := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"}, {Key: "vcs.modified", Value: "false"}}
	for _, tc := range []struct {
		name                    string
		info                    *debug.BuildInfo
		wantVersion, wantCommit string
	}{
		{"no build info", nil, "", ""},
		{"go install …/cmd/queuecap@v0.1.0", &debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "v0.1.0"}}, "v0.1.0", ""},
		{"go install of an untagged commit",
			&debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "v0.1.1-0.20250601120000-0123456789ab"}},
			"v0.1.1-0.20250601120000-0123456789ab", ""},
		{"go build in a checkout", &debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "(devel)"}, Settings: vcs}, "", "0123456789abcdef0123456789abcdef01234567"},
		{"go build in a checkout at a tag", &debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: "v0.2.0"}, Settings: vcs}, "v0.2.0", "0123456789abcdef0123456789abcdef01234567"},
		{"a dependency of another program",
			&debug.BuildInfo{Main: debug.Module{Path: "example.com/other", Version: "v1.0.0"}, Settings: vcs,
				Deps: []*debug.Module{{Path: "golang.org/x/text", Version: "v0.3.0"}, {Path: modulePath, Version: "v0.1.0"}}},
			"v0.1.0", ""},
		{"a dependency replaced by a local directory",
			&debug.BuildInfo{Main: debug.Module{Path: "example.com/other"},
				Deps: []*debug.Module{{Path: modulePath, Version: "v0.1.0", Replace: &debug.Module{Path: "../queuecap"}}}},
			"", ""},
		{"a dependency replaced by another version",
			&debug.BuildInfo{Main: debug.Module{Path: "example.com/other"},
				Deps: []*debug.Module{{Path: modulePath, Version: "v0.1.0", Replace: &debug.Module{Path: "example.com/fork", Version: "v0.1.1"}}}},
			"v0.1.1", ""},
		{"not linked in", &debug.BuildInfo{Main: debug.Module{Path: "example.com/other", Version: "v1.0.0"}, Settings: vcs}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			version, commit := fromBuildInfo(tc.info)
			if version != tc.wantVersion || commit != tc.wantCommit {
				t.Errorf("fromBuildInfo = %q, %q; want %q, %q", version, commit, tc.wantVersion, tc.wantCommit)
			}
		})
	}
}
