// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package model

import (
	"regexp"
	"runtime/debug"
	"sync"
)

// modulePath is this module's path, as the build info records it.
const modulePath = "github.com/queuecap/terraform-provider-queuecap"

// Version and Commit are what this build is, when stamped at build time:
// the CLI copies its main.version and main.commit, which the release build
// sets with -ldflags "-X main.version=… -X main.commit=…". Left empty,
// BuildVersion and BuildCommit read what the Go toolchain recorded:
// `go install …/cmd/queuecap@v0.1.0` records v0.1.0, a build in a Git
// checkout its revision.
var Version, Commit string

// BuildVersion is Version when set, else the module version the build
// recorded, else "dev".
func BuildVersion() string {
	if Version != "" {
		return Version
	}
	if v, _ := recorded(); v != "" {
		return v
	}
	return "dev"
}

// BuildCommit is Commit when set, else the revision the build recorded,
// else "".
func BuildCommit() string {
	if Commit != "" {
		return Commit
	}
	_, c := recorded()
	return c
}

var recorded = sync.OnceValues(func() (version, commit string) {
	info, _ := debug.ReadBuildInfo()
	return fromBuildInfo(info)
})

// fromBuildInfo is this module's version in the build info (the main
// module's, or a dependency's when another program links the linter in)
// and the Git revision of a main module built from a checkout. A module
// built from its own directory records "(devel)", which is no version.
func fromBuildInfo(info *debug.BuildInfo) (version, commit string) {
	if info == nil {
		return "", ""
	}
	if info.Main.Path == modulePath {
		version = info.Main.Version
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" {
				commit = s.Value
			}
		}
	} else {
		for _, m := range info.Deps {
			if m.Path == modulePath {
				version = m.Version
				if m.Replace != nil {
					version = m.Replace.Version // "" for a local directory
				}
			}
		}
	}
	if version == "(devel)" {
		version = ""
	}
	return version, commit
}

var (
	releasePattern = regexp.MustCompile(`^v?(\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?)$`)
	pseudoPattern  = regexp.MustCompile(`\d{14}-[0-9a-f]{12}$`)
)

// ReleaseTag is the Git tag of a released version (v0.1.0 for "v0.1.0" or
// goreleaser's "0.1.0", v0.2.0-rc.1 for a pre-release), or "" for any other
// build: "dev", a pseudo-version of an untagged commit, a modified tree
// ("+dirty").
func ReleaseTag(version string) string {
	m := releasePattern.FindStringSubmatch(version)
	if m == nil || pseudoPattern.MatchString(version) {
		return ""
	}
	return "v" + m[1]
}

// DocURL is a path of the repository as a version has it: in the
// release's tag for a release, on main for any other build.
func DocURL(version, path string) string {
	ref := ReleaseTag(version)
	if ref == "" {
		ref = "main"
	}
	return "https://github.com/queuecap/terraform-provider-queuecap/blob/" + ref + "/" + path
}
