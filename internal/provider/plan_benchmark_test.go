package provider

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The plan benchmarks time `terraform plan` over 200 sizings, written once
// as queuecap_consumers data sources and once as the same formula in HCL
// locals, so the provider's overhead over plain Terraform arithmetic is
// measured side by side in one run. Compare the two ns/op figures.

const planBenchSizings = 200

func BenchmarkPlan200DataSources(b *testing.B) {
	var config strings.Builder
	for i := range planBenchSizings {
		fmt.Fprintf(&config, `data "queuecap_consumers" "s%d" {
  arrival_rate      = %d
  per_consumer_rate = 400
  max_backlog       = 5000000
  rto_seconds       = 1800
}
`, i, 10000+i)
	}
	config.WriteString("output \"total\" {\n  value = sum([\n")
	for i := range planBenchSizings {
		fmt.Fprintf(&config, "    data.queuecap_consumers.s%d.required_consumers,\n", i)
	}
	config.WriteString("  ])\n}\n")
	benchmarkPlan(b, config.String())
}

func BenchmarkPlan200Locals(b *testing.B) {
	var config strings.Builder
	config.WriteString("locals {\n")
	for i := range planBenchSizings {
		// The headroom formula as users write it by hand (without the
		// float tolerance and validation the provider adds).
		fmt.Fprintf(&config, "  s%d = ceil(%d / 400 + 5000000 / (400 * 1800))\n", i, 10000+i)
	}
	config.WriteString("}\n\noutput \"total\" {\n  value = sum([\n")
	for i := range planBenchSizings {
		fmt.Fprintf(&config, "    local.s%d,\n", i)
	}
	config.WriteString("  ])\n}\n")
	benchmarkPlan(b, config.String())
}

// benchmarkPlan writes config into a fresh directory and times `terraform
// plan` there, with the provider built once and installed through
// dev_overrides, so no init and no download happen inside the loop.
func benchmarkPlan(b *testing.B, config string) {
	tf := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if tf == "" {
		b.Skip("TF_ACC_TERRAFORM_PATH is not set: run `make bench`")
	}
	dir := b.TempDir()
	bin := filepath.Join(dir, "bin")
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "terraform-provider-queuecap"), "../..")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("building the provider: %v\n%s", err, out)
	}
	rc := filepath.Join(dir, "cli.tfrc")
	overrides := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    \"queuecap/queuecap\" = %q\n  }\n  direct {}\n}\n", bin)
	work := filepath.Join(dir, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		b.Fatal(err)
	}
	header := "terraform {\n  required_providers {\n    queuecap = { source = \"queuecap/queuecap\" }\n  }\n}\n\n"
	for path, content := range map[string]string{rc: overrides, filepath.Join(work, "main.tf"): header + config} {
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	env := append(os.Environ(), "TF_CLI_CONFIG_FILE="+rc, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
	for b.Loop() {
		cmd := exec.Command(tf, "plan", "-input=false", "-no-color", "-lock=false")
		cmd.Dir, cmd.Env = work, env
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("terraform plan: %v\n%s", err, out)
		}
	}
}
