// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package provider

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"
)

// protoV6ProviderFactories serve the provider in-process to the real
// Terraform (or OpenTofu) CLI that terraform-plugin-testing drives.
var protoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"queuecap": providerserver.NewProtocol6WithError(New("test")()),
}

// unitTest runs steps against the real CLI. The CLI comes from
// TF_ACC_TERRAFORM_PATH (set by `make test`, which installs it) or PATH; with
// neither there is nothing real to test against, so the test is skipped
// rather than letting terraform-plugin-testing try to download one.
func unitTest(t *testing.T, steps ...resource.TestStep) {
	t.Helper()
	unitTestCase(t, resource.TestCase{Steps: steps})
}

func unitTestCase(t *testing.T, tc resource.TestCase) {
	t.Helper()
	if os.Getenv("TF_ACC_TERRAFORM_PATH") == "" {
		if _, err := exec.LookPath("terraform"); err != nil {
			t.Skip("no Terraform CLI: set TF_ACC_TERRAFORM_PATH or run `make test`")
		}
	}
	// Steps that serve the provider themselves keep it (see moduleStep); the
	// others share the case's.
	if tc.Steps[0].ProtoV6ProviderFactories == nil {
		tc.ProtoV6ProviderFactories = protoV6ProviderFactories
	}
	resource.UnitTest(t, tc)
}

// expectValues checks attributes of one data source in state.
func expectValues(address string, want map[string]knownvalue.Check) []statecheck.StateCheck {
	checks := make([]statecheck.StateCheck, 0, len(want))
	for attr, check := range want {
		checks = append(checks, statecheck.ExpectKnownValue(address, tfjsonpath.New(attr), check))
	}
	return checks
}

// approx is a knownvalue.Check for floats that went through decimal
// arithmetic: 32/25 − 1 is 0.28000000000000003, not 0.28.
type approx float64

func (a approx) CheckValue(other any) error {
	n, ok := other.(json.Number)
	if !ok {
		return fmt.Errorf("expected a number, got %T", other)
	}
	got, err := n.Float64()
	if err != nil {
		return err
	}
	if want := float64(a); math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
		return fmt.Errorf("expected approximately %s, got %s", a, n)
	}
	return nil
}

func (a approx) String() string { return strconv.FormatFloat(float64(a), 'g', -1, 64) }

func num(v float64) knownvalue.Check { return approx(v) }

// closeTo is a knownvalue.Check for a float within an absolute tolerance,
// for comparisons with published tables rounded to a few digits.
type closeTo struct{ want, tol float64 }

func (c closeTo) CheckValue(other any) error {
	n, ok := other.(json.Number)
	if !ok {
		return fmt.Errorf("expected a number, got %T", other)
	}
	got, err := n.Float64()
	if err != nil {
		return err
	}
	if math.Abs(got-c.want) > c.tol {
		return fmt.Errorf("expected %g ± %g, got %s", c.want, c.tol, n)
	}
	return nil
}

func (c closeTo) String() string { return fmt.Sprintf("%g ± %g", c.want, c.tol) }

// errorWords matches a diagnostic's words in order across the line breaks
// Terraform wraps its output with; given several wordings (one per CLI), it
// matches any of them.
func errorWords(wordings ...string) *regexp.Regexp {
	alternatives := make([]string, len(wordings))
	for i, words := range wordings {
		parts := strings.Fields(words)
		for j, w := range parts {
			parts[j] = regexp.QuoteMeta(w)
		}
		alternatives[i] = strings.Join(parts, `\s+`)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(alternatives, "|"))
}

func TestProviderSchemaIsValid(t *testing.T) {
	// The in-process server's GetProviderSchema validates every schema
	// (names, nested types, validators) without a CLI.
	server, err := protoV6ProviderFactories["queuecap"]()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := server.GetProviderSchema(t.Context(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range resp.Diagnostics {
		t.Errorf("schema diagnostic: %s: %s", d.Summary, d.Detail)
	}
	for _, f := range capacity.Formulas {
		name := "queuecap_" + f.Name
		s, ok := resp.DataSourceSchemas[name]
		if !ok {
			t.Errorf("data source %s is not served", name)
			continue
		}
		for _, attr := range s.Block.Attributes {
			if attr.Description == "" {
				t.Errorf("%s.%s has no description", name, attr.Name)
			}
		}
	}
}
