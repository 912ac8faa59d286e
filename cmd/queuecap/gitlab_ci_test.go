// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	ctyyaml "github.com/zclconf/go-cty-yaml"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// yamlJSON is a YAML document as JSON, as a CI service reads it before
// checking it against its schema.
func yamlJSON(t *testing.T, src []byte) []byte {
	t.Helper()
	ty, err := ctyyaml.Standard.ImpliedType(src)
	if err != nil {
		t.Fatalf("YAML: %v", err)
	}
	v, err := ctyyaml.Standard.Unmarshal(src, ty)
	if err != nil {
		t.Fatalf("YAML: %v", err)
	}
	doc, err := ctyjson.Marshal(v, ty)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// validateJSON checks doc against the JSON schema in the file schema, its
// formats too.
func validateJSON(t *testing.T, schema string, doc []byte) error {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	s, err := c.Compile(schema)
	if err != nil {
		t.Fatalf("compiling %s: %v", schema, err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatalf("not JSON: %v\n%s", err, doc)
	}
	return s.Validate(v)
}

// gitlabJob is what the test reads of the example's one job.
type gitlabJob struct {
	Variables    map[string]string
	BeforeScript []string `json:"before_script"`
	Script       []string
	Artifacts    struct {
		When    string
		Reports struct {
			CodeQuality string
			JUnit       string
		}
	}
}

// TestGitLabCIExample holds examples/ci/gitlab-ci.yml to GitLab's published
// CI schema (tools/install-cli.sh gitlab-ci-schema) and runs its job's
// commands as a GitLab runner's shell would, before_script and script in
// one `sh -e`, against a release served on loopback: the job installs the
// CLI from the archive it checks against SHA256SUMS, fails on findings,
// and leaves a Code Quality report that GitLab's schema accepts and a JUnit
// report, at the paths its artifacts name.
func TestGitLabCIExample(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the CLI and fetches GitLab's CI schema")
	}
	src, err := os.ReadFile("../../examples/ci/gitlab-ci.yml")
	if err != nil {
		t.Fatal(err)
	}
	doc := yamlJSON(t, src)

	t.Run("docs", func(t *testing.T) {
		docs, err := os.ReadFile("../../docs/ci.md")
		if err != nil {
			t.Fatal(err)
		}
		if want := "```yaml\n" + withoutComments(string(src)) + "```\n"; !strings.Contains(string(docs), want) {
			t.Errorf("docs/ci.md does not show examples/ci/gitlab-ci.yml as it is, less its comments:\n%s", want)
		}
	})

	t.Run("GitLab's CI schema", func(t *testing.T) {
		for _, tool := range []string{"npm", "node"} {
			if _, err := exec.LookPath(tool); err != nil {
				t.Skipf("%s is not installed: GitLab's CI schema comes from npm", tool)
			}
		}
		out, err := exec.Command("bash", "../../tools/install-cli.sh", "gitlab-ci-schema").Output()
		if err != nil {
			t.Fatalf("tools/install-cli.sh gitlab-ci-schema: %v", err)
		}
		schema := strings.TrimSpace(string(out))
		if err := validateJSON(t, schema, doc); err != nil {
			t.Errorf("examples/ci/gitlab-ci.yml does not validate: %v", err)
		}
		// The schema rejects what GitLab would: a misspelt report, a
		// misspelt keyword, an artifacts:when GitLab does not know.
		for _, bad := range []struct{ from, to string }{
			{"codequality:", "code_quality:"},
			{"  script:\n", "  scripts:\n"},
			{"when: always", "when: failed"},
		} {
			broken := strings.Replace(string(src), bad.from, bad.to, 1)
			if broken == string(src) {
				t.Fatalf("%q is not in the example", bad.from)
			}
			if err := validateJSON(t, schema, yamlJSON(t, []byte(broken))); err == nil {
				t.Errorf("with %q for %q the example still validates", bad.to, bad.from)
			}
		}
	})

	var jobs map[string]gitlabJob
	if err := json.Unmarshal(doc, &jobs); err != nil || len(jobs) != 1 {
		t.Fatalf("want one job: %v, %s", err, doc)
	}
	var job gitlabJob
	for _, j := range jobs {
		job = j
	}
	if job.Artifacts.When != "always" || job.Artifacts.Reports.CodeQuality == "" || job.Artifacts.Reports.JUnit == "" {
		t.Fatalf("the job must upload both reports always, when it fails too: %+v", job.Artifacts)
	}

	if runtime.GOOS != "linux" || (runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64") {
		t.Skipf("the job installs a linux amd64 or arm64 archive, not %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	if _, err := exec.LookPath("wget"); err != nil {
		t.Skip("wget is not installed")
	}
	// The release as GitHub lays it out, and under tampered/ the same
	// release with an archive its SHA256SUMS does not list.
	version := job.Variables["QUEUECAP_VERSION"]
	root, bin := t.TempDir(), buildRelease(t, version)
	writeRelease(t, root, version, bin, false)
	writeRelease(t, filepath.Join(root, "tampered"), version, bin, true)
	releasesURL, _ := releaseServer(t, root)

	type jobRun struct {
		code             int
		log, codeQuality string
		junit            junitReport
	}
	runJob := func(t *testing.T, releasesURL string, examples ...string) jobRun {
		t.Helper()
		ws := t.TempDir()
		files := map[string]string{".queuecap.hcl": "../../examples/lint/queuecap.hcl"}
		for _, name := range examples {
			entries, err := os.ReadDir("../../examples/lint/" + name)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				files[name+"/"+e.Name()] = "../../examples/lint/" + name + "/" + e.Name()
			}
		}
		for name, from := range files {
			content, err := os.ReadFile(from)
			if err != nil {
				t.Fatal(err)
			}
			write(t, ws, map[string]string{name: string(content)})
		}
		script := strings.Join(append(append([]string{}, job.BeforeScript...), job.Script...), "\n")
		cmd := exec.Command("sh", "-e", "-c", script)
		cmd.Dir = ws
		cmd.Env = append(os.Environ(), "CI_PROJECT_DIR="+ws)
		for name, value := range job.Variables {
			cmd.Env = append(cmd.Env, name+"="+value)
		}
		// A project's CI/CD variable overrides the job's: the releases are
		// the test's.
		cmd.Env = append(cmd.Env, "QUEUECAP_RELEASES="+releasesURL, "no_proxy=127.0.0.1")
		out, err := cmd.CombinedOutput()
		r := jobRun{log: string(out), code: exitCode(t, err)}
		if b, err := os.ReadFile(filepath.Join(ws, job.Artifacts.Reports.CodeQuality)); err == nil {
			r.codeQuality = string(b)
		}
		if b, err := os.ReadFile(filepath.Join(ws, job.Artifacts.Reports.JUnit)); err == nil {
			if err := xml.Unmarshal(b, &r.junit); err != nil {
				t.Errorf("%s is not JUnit XML: %v\n%s", job.Artifacts.Reports.JUnit, err, b)
			}
		}
		return r
	}
	codeQualitySchema := "../../internal/lint/formatter/testdata/gitlab-code-quality-report.json"

	t.Run("findings", func(t *testing.T) {
		r := runJob(t, releasesURL, "bad", "good")
		if r.code != exitFindings {
			t.Fatalf("exit %d, want %d:\n%s", r.code, exitFindings, r.log)
		}
		for _, want := range []string{"queuecap v" + version, "9 issue(s) found"} {
			if !strings.Contains(r.log, want) {
				t.Errorf("no %q in the job's log:\n%s", want, r.log)
			}
		}
		if err := validateJSON(t, codeQualitySchema, []byte(r.codeQuality)); err != nil {
			t.Errorf("the Code Quality report does not validate: %v\n%s", err, r.codeQuality)
		}
		var entries []struct{ Location struct{ Path string } }
		if err := json.Unmarshal([]byte(r.codeQuality), &entries); err != nil || len(entries) != 9 {
			t.Errorf("%d Code Quality entries (%v), want 9", len(entries), err)
		}
		for _, e := range entries {
			if !strings.HasPrefix(e.Location.Path, "bad/") {
				t.Errorf("entry at %q, want a path under bad/, relative to the project", e.Location.Path)
			}
		}
		if s := r.junit.Suites; len(s) != 1 || s[0].Failures != 9 {
			t.Errorf("JUnit suites %+v, want one with 9 failures", s)
		}
	})
	t.Run("clean", func(t *testing.T) {
		r := runJob(t, releasesURL, "good")
		if r.code != 0 || strings.TrimSpace(r.codeQuality) != "[]" {
			t.Fatalf("exit %d, report %q; want 0 and []:\n%s", r.code, r.codeQuality, r.log)
		}
		if s := r.junit.Suites; len(s) != 1 || s[0].Failures != 0 {
			t.Errorf("JUnit suites %+v, want one without failures", s)
		}
	})
	t.Run("archive not in SHA256SUMS", func(t *testing.T) {
		r := runJob(t, releasesURL+"/tampered", "bad")
		if r.code == 0 || r.code == exitFindings || r.codeQuality != "" || strings.Contains(r.log, "queuecap v") {
			t.Fatalf("exit %d, a report of %d bytes: want the job to stop before running the CLI:\n%s", r.code, len(r.codeQuality), r.log)
		}
	})
}

type junitReport struct {
	Suites []struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
	} `xml:"testsuite"`
}
