package lint

import (
	"regexp"
	"runtime/debug"
	"sync"
)

// modulePath is this module's path, as the build info records it.
const modulePath = "github.com/queuecap/terraform-provider-queuecap"

// Version is the queuecap version this build is, when set at build time:
//
//	go build -ldflags "-X github.com/queuecap/terraform-provider-queuecap/internal/lint.Version=v0.1.0" ./cmd/queuecap
//
// Left empty, BuildVersion reads the module version the Go toolchain
// recorded, which `go install …/cmd/queuecap@v0.1.0` sets.
var Version string

// BuildVersion is Version when set, else the module version the build
// recorded, else "dev".
func BuildVersion() string {
	if Version != "" {
		return Version
	}
	if v := recordedVersion(); v != "" && v != "(devel)" {
		return v
	}
	return "dev"
}

// recordedVersion is this module's version in the build info: the main
// module's, or a dependency's when another program links the linter in.
var recordedVersion = sync.OnceValue(func() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	if info.Main.Path == modulePath {
		return info.Main.Version
	}
	for _, m := range info.Deps {
		if m.Path == modulePath {
			if m.Replace != nil {
				return m.Replace.Version // "" for a local directory
			}
			return m.Version
		}
	}
	return ""
})

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
