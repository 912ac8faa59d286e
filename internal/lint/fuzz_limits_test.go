// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// fuzzRoom is the nesting FuzzNesting allows: small, so that the fuzzer
// explores many small inputs instead of a few deep ones.
const fuzzRoom = 12

// nestingSeeds nest each construct nestScan counts just within fuzzRoom:
// a mutation that nests deeper in a way the scan does not see grows the
// syntax tree past what FuzzNesting allows.
var nestingSeeds = func() []string {
	n := fuzzRoom - 3
	r := strings.Repeat
	return []string{
		"x = " + r("[", n) + r("]", n) + "\n",
		"x = " + r("(", n) + "1" + r(")", n) + "\n",
		"x = " + r("{a=", n) + "1" + r("}", n) + "\n",
		r("b {\n", n) + r("}\n", n),
		"x = " + r("1+", n) + "1\n",
		"x = " + r("true?1:", n) + "0\n",
		"x = " + r("!", n) + "true\n",
		"x = " + r("-", n) + "1\n",
		"x = a" + r("[b]", n) + "\n",
		"x = a" + r(".b[0]", n/2) + "\n",
		"x = " + r(`"${`, n/2) + "1" + r(`}"`, n/2) + "\n",
		"x = \"" + r("%{if a}", n/2) + r("%{endif}", n/2) + "\"\n",
		"x = <<EOT\n" + r("${", n/2) + "1" + r("}", n/2) + "\nEOT\n",
		"x = <<-EOT\n  %{ for a in b ~}\n  ${a} \"}\n  %{ endfor }\nEOT\ny = [\"]\", # ]\n /* [ */ \"\\\"[\"]\n",
		"x = [for k, v in m : k => v... if v]\n",
	}
}()

// FuzzNesting holds the nesting scan to HCL's parser: whatever a source
// holds, the scan must not panic, and a source it lets through within
// fuzzRoom levels parses into a syntax tree at most three nodes deep per
// level (a bracket, an object's item, a template's wrapper) and a few
// for the body around it, so that nothing it accepts within maxNesting
// recurses without bound. The stack is capped so that a source that would
// overflow it fails the fuzzer in a moment.
func FuzzNesting(f *testing.F) {
	for _, s := range nestingSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		debug.SetMaxStack(256 << 20)
		for _, mode := range []syntaxMode{configSyntax, exprSyntax, templateSyntax} {
			if _, why := nestingFits(src, mode, fuzzRoom); why != fits {
				continue
			}
			var node hclsyntax.Node
			switch mode {
			case configSyntax:
				if f, _ := hclsyntax.ParseConfig(src, "f.tf", hcl.InitialPos); f != nil {
					node, _ = f.Body.(*hclsyntax.Body)
				}
			case exprSyntax:
				node, _ = hclsyntax.ParseExpression(src, "f.tf", hcl.InitialPos)
			case templateSyntax:
				node, _ = hclsyntax.ParseTemplate(src, "f.tf", hcl.InitialPos)
			}
			if node == nil {
				continue
			}
			w := &depthWalker{}
			_ = hclsyntax.Walk(node, w) // the walker reports nothing
			if w.deepest > 3*fuzzRoom+4 {
				t.Fatalf("mode %d: the scan let through a syntax tree %d nodes deep", mode, w.deepest)
			}
		}
		nestingFits(src, jsonConfig, fuzzRoom)
		nestingFits(src, jsonData, fuzzRoom)
	})
}

// depthWalker measures how deeply a syntax tree nests.
type depthWalker struct{ depth, deepest int }

func (w *depthWalker) Enter(hclsyntax.Node) hcl.Diagnostics {
	w.depth++
	w.deepest = max(w.deepest, w.depth)
	return nil
}

func (w *depthWalker) Exit(hclsyntax.Node) hcl.Diagnostics {
	w.depth--
	return nil
}

// evalSeeds are expressions that reach the budgets and the errors
// Terraform reports: functions that build large values, decoders,
// provider functions, arithmetic.
var evalSeeds = []string{
	"1",
	"local.a",
	"setproduct(range(10), range(10))",
	`jsondecode("[[[1]], {\"a\": [2]}]")`,
	`yamldecode("a: &a [1, 2]\nb: [*a, *a]\n")`,
	"provider::queuecap::required_consumers(10000, 400, 5e6, 1800)",
	"provider::queuecap::capacity_plan({ arrival_rate = \"1e4\", per_consumer_rate = 400 })",
	"[for i in range(100) : i * 2 if i % 3 == 0]",
	"1 / 0",
	"range(2000)",
	`try(tonumber("x"), 0)`,
	`{ for k in ["a", "b"] : k => [k] }`,
}

// FuzzEval evaluates an expression where the linter evaluates: in a
// local read by a queue's attribute, in count and for_each, as a
// queuecap data source's argument and beside a fleet. Whatever it is,
// the run must finish (each root has a second), without a recovered
// panic, and every error must name a place.
func FuzzEval(f *testing.F) {
	for _, s := range evalSeeds {
		f.Add(s)
	}
	defer func(d time.Duration) { rootEvalTime = d }(rootEvalTime)
	rootEvalTime = time.Second
	f.Fuzz(func(t *testing.T, expr string) {
		src := `locals {
  a = 7
  e = ` + expr + `
}
resource "aws_sqs_queue" "q" {
  count                     = try(length(local.e), 1)
  name                      = "q"
  message_retention_seconds = local.e
  tags                      = { "queuecap:arrival_rate" = local.e }
}
resource "aws_sqs_queue" "r" {
  for_each = try(toset(local.e), {})
  name     = "r"
}
data "queuecap_consumers" "c" {
  arrival_rate      = local.e
  per_consumer_rate = 25
}
resource "aws_autoscaling_group" "w" {
  max_size = data.queuecap_consumers.c.required_consumers
  tag {
    key   = "queuecap:queue"
    value = "aws_sqs_queue.q[0]"
  }
}
`
		dir := t.TempDir()
		WriteFiles(t, dir, map[string]string{"main.tf": src})
		res, err := runSerially(Options{Dirs: []string{dir}})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range res.Errors {
			if strings.HasPrefix(e.Message, "internal error") {
				t.Fatalf("a panic: %s", e)
			}
			if e.Range == nil || e.Range.Start.Line < 1 {
				t.Fatalf("an error without a place: %s", e)
			}
		}
	})
}
