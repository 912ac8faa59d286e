// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/go-version"

	"github.com/queuecap/terraform-provider-queuecap/internal/floorprovider"
)

// BenchmarkPlan times `terraform plan` over 200 sizings, side by side in
// one run, under every CLI of QUEUECAP_BENCH_CLIS (space-separated paths;
// TF_ACC_TERRAFORM_PATH when it is unset). Its legs, in this order:
//
//   - queuecap-data-sources: 200 queuecap_consumers data sources;
//   - floor-data-sources: the same configuration served by the floor
//     provider (internal/floorprovider), a framework provider with the same
//     schema that computes nothing and returns results of the same kinds
//     as queuecap's (15-digit decimals where queuecap's are);
//   - floor-ones-data-sources: the floor returning 1 for every output, its
//     cheapest: against it, what the CLI spends on decimal results shows;
//   - queuecap-functions and floor-functions: 200 calls of
//     provider::queuecap::required_consumers with 4 numbers, by each;
//   - locals: the same formula in HCL locals.
//
// queuecap / floor is queuecap's own cost (the target is at most 1.10);
// floor / locals is what the framework and the CLI cost for a call;
// floor / floor-ones what the CLI costs for decimal results. The
// function legs skip under CLIs without provider functions (Terraform
// before 1.8, OpenTofu before 1.7). QUEUECAP_BENCH_ROUNDS=N runs N rounds
// of every leg under every CLI, interleaved (-count=N would repeat each leg
// N times in a row), so that noise from other work on the machine falls on
// every leg alike; tools/bench-ratios.sh prints the medians and ratios.
// Each leg reports ns/op (wall) and cpu-ms/op (the CPU time of the CLI and
// the provider processes), the second less disturbed by other work.
func BenchmarkPlan(b *testing.B) {
	clis := benchCLIs()
	if len(clis) == 0 {
		b.Skip("neither QUEUECAP_BENCH_CLIS nor TF_ACC_TERRAFORM_PATH is set: run `make bench`")
	}
	dir := b.TempDir()
	bins := map[string]string{"queuecap": filepath.Join(dir, "queuecap"), "floor": filepath.Join(dir, "floor")}
	for name, pkg := range map[string]string{"queuecap": "../..", "floor": "../floorprovider/cmd/terraform-provider-floor"} {
		build := exec.Command("go", "build", "-o", filepath.Join(bins[name], "terraform-provider-queuecap"), pkg)
		if out, err := build.CombinedOutput(); err != nil {
			b.Fatalf("building the %s provider: %v\n%s", name, err, out)
		}
	}
	dataSources, functions, locals := planBenchConfigs()
	legs := []struct {
		name, provider, config string
		functions              bool
		env                    []string
	}{
		{"queuecap-data-sources", "queuecap", dataSources, false, nil},
		{"floor-data-sources", "floor", dataSources, false, nil},
		{"floor-ones-data-sources", "floor", dataSources, false, []string{floorprovider.OnesEnv + "=ones"}},
		{"queuecap-functions", "queuecap", functions, true, nil},
		{"floor-functions", "floor", functions, true, nil},
		{"locals", "queuecap", locals, false, nil},
	}
	rounds := 1
	if r := os.Getenv("QUEUECAP_BENCH_ROUNDS"); r != "" {
		n, err := strconv.Atoi(r)
		if err != nil || n < 1 {
			b.Fatalf("QUEUECAP_BENCH_ROUNDS=%q is not a positive number", r)
		}
		rounds = n
	}
	for round := range rounds {
		for _, cli := range clis {
			// Repeated names get #01, #02… from the testing package.
			b.Run("cli="+cli.name, func(b *testing.B) {
				if cli.skip != "" {
					b.Skip(cli.skip)
				}
				for i := range legs {
					// Every other round runs the legs backwards, so that a
					// trend in the machine's load does not favour a leg.
					leg := legs[i]
					if round%2 == 1 {
						leg = legs[len(legs)-1-i]
					}
					b.Run(leg.name, func(b *testing.B) {
						if leg.functions && !cli.functions {
							b.Skipf("%s has no provider functions (Terraform 1.8+, OpenTofu 1.7+)", cli.name)
						}
						benchmarkPlan(b, cli.path, bins[leg.provider], leg.config, leg.env...)
					})
				}
			})
		}
	}
}

const planBenchSizings = 200

// planBenchConfigs are the three configurations: 200 data sources, 200
// function calls and 200 locals, each summed into one output.
func planBenchConfigs() (dataSources, functions, locals string) {
	sum := func(config *strings.Builder, ref string) {
		config.WriteString("output \"total\" {\n  value = sum([\n")
		for i := range planBenchSizings {
			fmt.Fprintf(config, "    "+ref+",\n", i)
		}
		config.WriteString("  ])\n}\n")
	}
	var ds, fn, loc strings.Builder
	for i := range planBenchSizings {
		fmt.Fprintf(&ds, `data "queuecap_consumers" "s%d" {
  arrival_rate      = %d
  per_consumer_rate = 400
  max_backlog       = 5000000
  rto_seconds       = 1800
}
`, i, 10000+i)
	}
	sum(&ds, "data.queuecap_consumers.s%d.required_consumers")
	fn.WriteString("locals {\n")
	loc.WriteString("locals {\n")
	for i := range planBenchSizings {
		fmt.Fprintf(&fn, "  s%d = provider::queuecap::required_consumers(%d, 400, 5000000, 1800)\n", i, 10000+i)
		// The headroom formula as users write it by hand (without the
		// float tolerance and validation the provider adds).
		fmt.Fprintf(&loc, "  s%d = ceil(%d / 400 + 5000000 / (400 * 1800))\n", i, 10000+i)
	}
	fn.WriteString("}\n\n")
	loc.WriteString("}\n\n")
	sum(&fn, "local.s%d")
	sum(&loc, "local.s%d")
	return ds.String(), fn.String(), loc.String()
}

type benchCLI struct {
	name, path string
	functions  bool
	// skip says why the CLI is not benchmarked.
	skip string
}

// benchCLIs are the CLIs of QUEUECAP_BENCH_CLIS (or TF_ACC_TERRAFORM_PATH),
// each named by what it is and its version.
func benchCLIs() []benchCLI {
	list, ok := os.LookupEnv("QUEUECAP_BENCH_CLIS")
	if !ok {
		list = os.Getenv("TF_ACC_TERRAFORM_PATH")
	}
	var out []benchCLI
	for i, path := range strings.Fields(list) {
		cli := benchCLI{name: fmt.Sprintf("%d-%s", i, filepath.Base(path)), path: path}
		// An empty CLI configuration: without one, a CLI may warn of a
		// missing file on standard output, before the JSON.
		cmd := exec.Command(path, "version", "-json")
		cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+os.DevNull)
		raw, err := cmd.Output()
		var v struct {
			Version string `json:"terraform_version"`
		}
		if err == nil {
			err = json.Unmarshal(raw, &v)
		}
		var parsed *version.Version
		if err == nil {
			parsed, err = version.NewVersion(v.Version)
		}
		if err != nil {
			cli.skip = fmt.Sprintf("%s is not a CLI that reports its version: %v", path, err)
			out = append(out, cli)
			continue
		}
		kind, functionsSince := "terraform", version.Must(version.NewVersion("1.8.0"))
		if strings.Contains(filepath.Base(path), "tofu") {
			kind, functionsSince = "tofu", version.Must(version.NewVersion("1.7.0"))
		}
		cli.name = kind + "-" + parsed.Core().String()
		cli.functions = parsed.Core().GreaterThanOrEqual(functionsSince)
		out = append(out, cli)
	}
	return out
}

// benchmarkPlan writes config into a fresh directory and times `terraform
// plan` there, with the provider in bin installed through dev_overrides
// as queuecap/queuecap, so no init and no download happen inside the
// loop. One plan before the loop checks the configuration and warms the
// caches. env is added to the CLI's environment, which the provider
// inherits.
func benchmarkPlan(b *testing.B, tf, bin, config string, env ...string) {
	dir := b.TempDir()
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
	env = append(append(os.Environ(), "TF_CLI_CONFIG_FILE="+rc, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1"), env...)
	plan := func() time.Duration {
		cmd := exec.Command(tf, "plan", "-input=false", "-no-color", "-lock=false")
		cmd.Dir, cmd.Env = work, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("%s plan: %v\n%s", tf, err, out)
		}
		if !strings.Contains(string(out), "total = ") {
			b.Fatalf("%s plan shows no total:\n%s", tf, out)
		}
		return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	plan()
	var cpu time.Duration
	for b.Loop() {
		cpu += plan()
	}
	// The CPU time of the CLI and of the provider processes it started and
	// waited for (Linux counts a reaped child's children in its usage):
	// less disturbed than ns/op by other work on the machine.
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
}
