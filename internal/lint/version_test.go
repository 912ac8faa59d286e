package lint

import "testing"

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
	defer func(v string) { Version = v }(Version)
	Version = "v0.1.0"
	if got := BuildVersion(); got != "v0.1.0" {
		t.Errorf("BuildVersion() = %q with Version v0.1.0", got)
	}
}
