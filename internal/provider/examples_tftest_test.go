// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-version"

	"github.com/queuecap/terraform-provider-queuecap/internal/testaws"
)

// testsExample holds the capacity unit tests that TestExamplesTerraformTest runs.
const testsExample = "../../examples/tests"

// TestMain removes the providers that testaws builds for
// TestExamplesTerraformTest.
func TestMain(m *testing.M) { testaws.Main(m) }

// TestExamplesTerraformTest runs the capacity unit tests of examples/tests
// with `terraform test` (or `tofu test`) of the acceptance tests' CLI
// (TF_ACC_TERRAFORM_PATH, else terraform on PATH), so that `make test`
// runs them once under each CLI with provider functions: the Terraform on
// PATH (1.11.4 here) and OpenTofu 1.12.6. The queuecap provider is the real
// one, built from this repository; mock_provider "aws" reads the AWS
// provider's schema from testaws's stand-in. Every run must pass; then the
// module's sizing, an alarm threshold and its surplus check are broken,
// and the runs that assert them must fail.
func TestExamplesTerraformTest(t *testing.T) {
	cli, ver := testCLI(t)
	runs := countRuns(t, testsExample)
	// A run's line of the test's output, `  run "NAME"... pass`.
	runResult := func(name, result string) *regexp.Regexp {
		return regexp.MustCompile(`(?m)^\s*run "` + name + `"\.\.\. ` + result + `$`)
	}

	w := testaws.NewWorkdir(t, cli, testsExample)
	test := func() (stdout, stderr string, err error) {
		start := time.Now()
		stdout, stderr, err = w.Run("test", "-no-color")
		t.Logf("%s %s test: %q in %s", filepath.Base(cli), ver, lastLine(stdout), time.Since(start).Round(time.Millisecond))
		return stdout, stderr, err
	}
	stdout, stderr, err := test()
	if err != nil {
		t.Fatalf("%s test: %v\n%s%s", filepath.Base(cli), err, stdout, stderr)
	}
	if passed := len(runResult(`[^"]+`, "pass").FindAllString(stdout, -1)); passed != runs {
		t.Errorf("%d runs passed, want all %d:\n%s", passed, runs, stdout)
	}

	// Broken sizing: max_size is the steady state; a doubled depth
	// threshold; a surplus check that holds for any fleet.
	main := filepath.Join(w.Dir, "main.tf")
	src, err := os.ReadFile(main)
	if err != nil {
		t.Fatal(err)
	}
	broken := string(src)
	for _, edit := range [][2]string{
		{"coalesce(var.max_size, data.queuecap_consumers.workers.required_consumers)", "coalesce(var.max_size, data.queuecap_consumers.workers.steady_state_consumers)"},
		{"threshold           = data.queuecap_alarm_thresholds.queue.max_depth", "threshold           = 2 * data.queuecap_alarm_thresholds.queue.max_depth"},
		{"condition     = local.surplus > 0", "condition     = local.surplus >= 0"},
	} {
		if !strings.Contains(broken, edit[0]) {
			t.Fatalf("examples/tests/main.tf has no %q", edit[0])
		}
		broken = strings.Replace(broken, edit[0], edit[1], 1)
	}
	if err := os.WriteFile(main, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, err = test()
	if err == nil {
		t.Fatalf("%s test passed on a broken module:\n%s", filepath.Base(cli), stdout)
	}
	for _, run := range []string{"peak_with_outage_backlog", "twice_the_traffic", "sla_thresholds", "longer_sla", "pinned_at_steady_state"} {
		if !runResult(regexp.QuoteMeta(run), "fail").MatchString(stdout) {
			t.Errorf("run %q did not fail on the broken module:\n%s%s", run, stdout, stderr)
		}
	}
}

// TestGuideExampleTerraformTest runs the capacity unit tests that the
// Registry guide on testing shows (examples/capacity-tests), as
// TestExamplesTerraformTest runs examples/tests: every run must pass.
func TestGuideExampleTerraformTest(t *testing.T) {
	cli, _ := testCLI(t)
	runs := countRuns(t, "../../examples/capacity-tests")
	stdout, stderr, err := testaws.NewWorkdir(t, cli, "../../examples/capacity-tests").Run("test", "-no-color")
	if err != nil {
		t.Fatalf("%s test: %v\n%s%s", filepath.Base(cli), err, stdout, stderr)
	}
	if passed := len(regexp.MustCompile(`(?m)^\s*run "[^"]+"\.\.\. pass$`).FindAllString(stdout, -1)); passed != runs {
		t.Errorf("%d runs passed, want all %d:\n%s", passed, runs, stdout)
	}
}

// testCLI is the acceptance tests' CLI (TF_ACC_TERRAFORM_PATH, else
// terraform on PATH) and its version; the test skips without one, or
// below 1.8: provider functions need Terraform 1.8 and OpenTofu 1.7, mock
// providers Terraform 1.7 and OpenTofu 1.8.
func testCLI(t *testing.T) (cli, ver string) {
	t.Helper()
	cli = os.Getenv("TF_ACC_TERRAFORM_PATH")
	if cli == "" {
		var err error
		if cli, err = exec.LookPath("terraform"); err != nil {
			t.Skip("no Terraform CLI: set TF_ACC_TERRAFORM_PATH or run `make test`")
		}
	}
	out, err := exec.Command(cli, "version", "-json").Output()
	if err != nil {
		t.Fatalf("%s version -json: %v", cli, err)
	}
	var v struct {
		Version string `json:"terraform_version"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("%s version -json: %v\n%s", cli, err, out)
	}
	if parsed, err := version.NewVersion(v.Version); err != nil || parsed.LessThan(version.Must(version.NewVersion("1.8.0"))) {
		t.Skipf("%s (version %s) has no provider functions or mock providers (%v)", filepath.Base(cli), v.Version, err)
	}
	return cli, v.Version
}

// countRuns is the number of run blocks in dir/tests/*.tftest.hcl.
func countRuns(t *testing.T, dir string) int {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "tests", "*.tftest.hcl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no tests in %s/tests: %v", dir, err)
	}
	runs := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		runs += len(regexp.MustCompile(`(?m)^run "`).FindAll(b, -1))
	}
	return runs
}

// TestTestingDocs: docs/testing.md shows parts of examples/tests as they
// are, less comment lines.
func TestTestingDocs(t *testing.T) {
	docs, err := os.ReadFile("../../docs/testing.md")
	if err != nil {
		t.Fatal(err)
	}
	var example strings.Builder
	for _, f := range []string{"main.tf", "tests/zero_surplus.tftest.hcl"} {
		b, err := os.ReadFile(filepath.Join(testsExample, f))
		if err != nil {
			t.Fatal(err)
		}
		example.WriteString(withoutCommentLines(string(b)))
	}
	blocks := regexp.MustCompile("(?s)```terraform\n(.*?)```").FindAllStringSubmatch(string(docs), -1)
	if len(blocks) == 0 {
		t.Fatal("docs/testing.md shows no terraform block")
	}
	for _, m := range blocks {
		if !strings.Contains(example.String(), m[1]) {
			t.Errorf("docs/testing.md shows what examples/tests does not hold:\n%s", m[1])
		}
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// withoutCommentLines is HCL without its lines that are only a comment.
func withoutCommentLines(src string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(src, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			b.WriteString(line)
		}
	}
	return b.String()
}
