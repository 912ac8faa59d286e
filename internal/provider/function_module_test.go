// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// The parts of the child module the cases assemble. The tests serve the
// provider as hashicorp/queuecap (terraform-plugin-testing's default
// namespace), so that is the child's source; users write queuecap/queuecap.
const (
	childRequiredProviders = `terraform {
  required_providers {
    queuecap = {
      source = "hashicorp/queuecap"
    }
  }
}
`
	childVariables = `variable "arrival_rate" {
  type = number
}

variable "per_consumer_rate" {
  type = number
}

variable "max_backlog" {
  type = number
}

variable "rto_seconds" {
  type = number
}
`
	childFunction = `
output "required_consumers" {
  value = provider::queuecap::required_consumers(var.arrival_rate, var.per_consumer_rate, var.max_backlog, var.rto_seconds)
}
`
	// Two instances of the child, each sizing its own fleet.
	rootForEach = `module "fleet" {
  source = %q
  for_each = {
    orders = { arrival_rate = 10000, per_consumer_rate = 400, max_backlog = 5000000, rto_seconds = 1800 }
    emails = { arrival_rate = 0.3, per_consumer_rate = 0.1, max_backlog = 0, rto_seconds = 1 }
  }

  arrival_rate      = each.value.arrival_rate
  per_consumer_rate = each.value.per_consumer_rate
  max_backlog       = each.value.max_backlog
  rto_seconds       = each.value.rto_seconds
}

output "fleets" {
  value = module.fleet
}
`
)

// moduleStep is a step whose root module calls child, written to a
// temporary directory, with for_each. terraform-plugin-testing runs init
// (which installs modules) once before the first step when the case serves
// the provider, and before each step only when the step does, over the
// step's ConfigDirectory but not over its Config; hence a step that serves
// the provider and reads its root from a directory. Only the root's files
// are copied into the working directory, so the child's source is an
// absolute path, which the CLI installs as a package under .terraform/modules.
func moduleStep(t *testing.T, child string) resource.TestStep {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		filepath.Join(dir, "fleet", "main.tf"): child,
		filepath.Join(dir, "root", "main.tf"):  fmt.Sprintf(rootForEach, filepath.Join(dir, "fleet")),
	}
	for name, text := range files {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return resource.TestStep{
		ProtoV6ProviderFactories: protoV6ProviderFactories,
		ConfigDirectory:          config.StaticDirectory(filepath.Join(dir, "root")),
	}
}

// A child module instantiated with for_each calls the functions when it
// names queuecap in its own required_providers; without that, Terraform and
// OpenTofu both reject the call, even though an implied provider would
// resolve to the very provider the tests serve.
func TestFunctionsInChildModule(t *testing.T) {
	// Each instance's required_consumers: 10,000 / 400 = 25 keep up,
	// 25 + 5e6 / (400 × 1800) = 31.9 → 32 clear the backlog; 0.3 / 0.1 → 3.
	fleets := knownvalue.MapExact(map[string]knownvalue.Check{
		"orders": knownvalue.ObjectExact(map[string]knownvalue.Check{"required_consumers": knownvalue.Int64Exact(32)}),
		"emails": knownvalue.ObjectExact(map[string]knownvalue.Check{"required_consumers": knownvalue.Int64Exact(3)}),
	})

	t.Run("functions with required_providers", func(t *testing.T) {
		step := moduleStep(t, childRequiredProviders+childVariables+childFunction)
		step.ConfigStateChecks = []statecheck.StateCheck{statecheck.ExpectKnownOutputValue("fleets", fleets)}
		functionTest(t, step)
	})

	t.Run("functions without required_providers", func(t *testing.T) {
		step := moduleStep(t, childVariables+childFunction)
		// Terraform's wording, then OpenTofu's.
		step.ExpectError = errorWords(`Ensure that provider name "queuecap" is declared in this module's required_providers block`,
			`Provider "queuecap" does not exist within the required_providers of this module`)
		functionTest(t, step)
	})
}
