// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/rules"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/runner"
)

// sizedFleet has one queuecap_zero_surplus finding whose max_consumers
// fact is the value of its max_size expression, up to 250 (100000 msg/s
// arrive, 400 per consumer).
func sizedFleet(maxSize string) string {
	return `resource "aws_sqs_queue" "orders" {
  tags           = { "queuecap:arrival_rate" = 100000 }
  redrive_policy = jsonencode({ deadLetterTargetArn = "arn:aws:sqs:eu-west-1:1:dlq", maxReceiveCount = 3 })
}

resource "aws_autoscaling_group" "workers" {
  max_size = ` + maxSize + `
  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = "400"
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
}
`
}

// maxSizeTF declares var.max_size (a number, default 25) on line 1 of
// vars.tf and sizes the fleet with it.
var maxSizeTF = map[string]string{
	"vars.tf": "variable \"max_size\" {\n  type    = number\n  default = 25\n}\n",
	"main.tf": sizedFleet("var.max_size"),
}

func with(base map[string]string, more map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range base {
		out[k] = v
	}
	for k, v := range more {
		out[k] = v
	}
	return out
}

// TestRootVariables: values set by TF_VAR_, variable files and flags, in
// Terraform's order and read by each variable's type; values that do not
// fit, and values for variables no root declares, as Terraform treats
// them. DIR in a wanted text stands for the directory linted.
func TestRootVariables(t *testing.T) {
	cases := []struct {
		name      string
		files     map[string]string
		vars      []lint.VarFlag
		env       []string
		recursive bool
		// wantMax is the fleet's size in the finding; 0 for no finding.
		wantMax   float64
		wantUsage string
		wantErrs  []string
		wantSkips []string
	}{
		{name: "the default", files: maxSizeTF, wantMax: 25},
		{name: "TF_VAR_ over the default", files: maxSizeTF, env: []string{"TF_VAR_max_size=30"}, wantMax: 30},
		{name: "terraform.tfvars over TF_VAR_", files: with(maxSizeTF, map[string]string{"terraform.tfvars": "max_size = 31\n"}),
			env: []string{"TF_VAR_max_size=30"}, wantMax: 31},
		{name: "terraform.tfvars.json over terraform.tfvars", files: with(maxSizeTF, map[string]string{"terraform.tfvars": "max_size = 31\n", "terraform.tfvars.json": `{"max_size": 32}`}),
			wantMax: 32},
		{name: "a --var-file after a --var wins", files: with(maxSizeTF, map[string]string{"one.tfvars": "max_size = 33\n"}),
			vars: []lint.VarFlag{{Value: "max_size=34"}, {File: true, Value: "DIR/one.tfvars"}}, wantMax: 33},
		{name: "other TF_VAR_ variables are ignored", files: maxSizeTF, env: []string{"TF_VAR_undeclared=1", "TF_VAR_=2", "PATH=/bin", "TF_VARmax_size=3"}, wantMax: 25},
		{name: "a list from TF_VAR_ is read as HCL",
			files: map[string]string{"vars.tf": "variable \"sizes\" {\n  type = list(number)\n}\n", "main.tf": sizedFleet("var.sizes[1]")},
			env:   []string{"TF_VAR_sizes=[10, 35]"}, wantMax: 35},
		{name: "a string from --var is read as written",
			files: map[string]string{"vars.tf": "variable \"size\" {\n  type = string\n}\n", "main.tf": sizedFleet("length(var.size)")},
			vars:  []lint.VarFlag{{Value: "size=[1, 2]"}}, wantMax: 6},
		{name: "an untyped variable from --var is a string",
			files: map[string]string{"vars.tf": "variable \"size\" {}\n", "main.tf": sizedFleet("length(var.size)")},
			vars:  []lint.VarFlag{{Value: "size=36"}}, wantMax: 2},
		{name: "the defaults of optional attributes apply",
			files:   map[string]string{"vars.tf": "variable \"fleet\" {\n  type = object({ max = optional(number, 37) })\n}\n", "main.tf": sizedFleet("var.fleet.max"), "terraform.tfvars": "fleet = {}\n"},
			wantMax: 37},
		{name: "the defaults of optional attributes apply to a variable's default",
			files:   map[string]string{"vars.tf": "variable \"fleet\" {\n  type    = object({ max = optional(number, 39), min = optional(number) })\n  default = { min = 1 }\n}\n", "main.tf": sizedFleet("var.fleet.max")},
			wantMax: 39},
		{name: "a value replaced by a later one is never read", files: with(maxSizeTF, map[string]string{"terraform.tfvars": "max_size = \"many\"\n"}),
			env: []string{"TF_VAR_max_size=[1"}, vars: []lint.VarFlag{{Value: "max_size=38"}}, wantMax: 38},

		{name: "a --var for an undeclared variable", files: maxSizeTF, vars: []lint.VarFlag{{Value: "max_sise=30"}},
			wantUsage: "Value for undeclared variable: --var sets var.max_sise, but the root module does not declare it; to use this value, add a variable block to the configuration"},
		{name: "two --var for undeclared variables", files: maxSizeTF, vars: []lint.VarFlag{{Value: "b=1"}, {Value: "max_size=30"}, {Value: "a=2"}},
			wantUsage: "Values for undeclared variables: --var sets var.a, var.b, but the root module does not declare them"},
		{name: "a --var of the wrong type", files: maxSizeTF, vars: []lint.VarFlag{{Value: "max_size=many"}},
			wantErrs: []string{`DIR/vars.tf:1:1: Invalid value for input variable: unsuitable value for var.max_size set using --var="max_size=..." (declared at DIR/vars.tf:1): a number is required; the root module is not checked until the value fits`}},
		{name: "a terraform.tfvars value of the wrong type", files: with(maxSizeTF, map[string]string{"terraform.tfvars": "\nmax_size = [30]\n"}),
			wantErrs: []string{`DIR/terraform.tfvars:2:12: Invalid value for input variable: unsuitable value for var.max_size set in DIR/terraform.tfvars:2 (declared at DIR/vars.tf:1): number required, but have tuple; the root module is not checked until the value fits`}},
		{name: "a --var-file value of the wrong type", files: with(maxSizeTF, map[string]string{"prod.tfvars": "max_size = true\n"}),
			vars:     []lint.VarFlag{{File: true, Value: "DIR/prod.tfvars"}},
			wantErrs: []string{`DIR/prod.tfvars:1:12: Invalid value for input variable: unsuitable value for var.max_size set in DIR/prod.tfvars:1 (declared at DIR/vars.tf:1): number required, but have bool`}},
		{name: "a TF_VAR_ value of the wrong type", files: maxSizeTF, env: []string{"TF_VAR_max_size=many"},
			wantErrs: []string{`DIR/vars.tf:1:1: Invalid value for input variable: unsuitable value for var.max_size set using the TF_VAR_max_size environment variable (declared at DIR/vars.tf:1): a number is required`}},
		{name: "an object of the wrong shape",
			files:    map[string]string{"vars.tf": "variable \"fleet\" {\n  type = object({ max = number })\n}\n", "main.tf": sizedFleet("var.fleet.max")},
			vars:     []lint.VarFlag{{Value: `fleet={ max = "many" }`}},
			wantErrs: []string{`unsuitable value for var.fleet set using --var="fleet=..." (declared at DIR/vars.tf:1): attribute "max": a number is required`}},
		{name: "a list of objects, one of the wrong shape",
			files:    map[string]string{"vars.tf": "variable \"fleets\" {\n  type = map(list(object({ max = number })))\n}\n", "main.tf": sizedFleet("var.fleets.a[0].max")},
			vars:     []lint.VarFlag{{Value: `fleets={ a = [{ max = 1 }, { max = "many" }] }`}},
			wantErrs: []string{`(declared at DIR/vars.tf:1): element "a": element 1: attribute "max": a number is required`}},
		{name: "a list from --var that does not parse",
			files:    map[string]string{"vars.tf": "variable \"sizes\" {\n  type = list(number)\n}\n", "main.tf": sizedFleet("var.sizes[0]")},
			vars:     []lint.VarFlag{{Value: "sizes=[30"}},
			wantErrs: []string{`unsuitable value for var.sizes set using --var="sizes=..." (declared at DIR/vars.tf:1): it is not a valid expression: Unterminated tuple constructor expression`}},
		{name: "a terraform.tfvars value for an undeclared variable", files: with(maxSizeTF, map[string]string{"terraform.tfvars": "max_sise = 30\n"}),
			wantMax:   25,
			wantSkips: []string{"DIR/terraform.tfvars:1:1: DIR/terraform.tfvars sets var.max_sise, but the root module does not declare it: the value is not used; declare the variable with a variable block, or remove the value"}},
		{name: "a --var-file value for an undeclared variable", files: with(maxSizeTF, map[string]string{"prod.tfvars": "max_size = 30\nmax_sise = 30\n"}),
			vars: []lint.VarFlag{{File: true, Value: "DIR/prod.tfvars"}}, wantMax: 30,
			wantSkips: []string{"DIR/prod.tfvars:2:1: DIR/prod.tfvars sets var.max_sise, but the root module does not declare it"}},
		{name: "one skip for a file's values for undeclared variables, at the first",
			files: with(maxSizeTF, map[string]string{"shared.tfvars": "zone = 1\nmax_size = 30\nenv = 2\nregion = 3\nowner = 4\nteam = 5\n", "terraform.tfvars": "b = 1\na = 2\n"}),
			vars:  []lint.VarFlag{{File: true, Value: "DIR/shared.tfvars"}}, wantMax: 30,
			wantSkips: []string{
				"DIR/shared.tfvars:1:1: DIR/shared.tfvars sets var.zone, var.env, var.region and 2 more, but the root module does not declare them: the values are not used; declare the variables with variable blocks, or remove the values",
				"DIR/terraform.tfvars:1:1: DIR/terraform.tfvars sets var.b and var.a, but the root module does not declare them",
			}},
		{name: "a --var-file value after a --var for an undeclared variable is a skip", files: with(maxSizeTF, map[string]string{"prod.tfvars": "max_sise = 30\n"}),
			vars: []lint.VarFlag{{Value: "max_sise=30"}, {File: true, Value: "DIR/prod.tfvars"}}, wantMax: 25,
			wantSkips: []string{"DIR/prod.tfvars:1:1: DIR/prod.tfvars sets var.max_sise, but"}},

		{name: "--recursive: a --var one root declares",
			files:     map[string]string{"a/vars.tf": maxSizeTF["vars.tf"], "a/main.tf": maxSizeTF["main.tf"], "b/main.tf": `resource "aws_sqs_queue" "b" {}`},
			recursive: true, vars: []lint.VarFlag{{Value: "max_size=39"}}, wantMax: 39},
		{name: "--recursive: a --var no root declares",
			files:     map[string]string{"a/vars.tf": maxSizeTF["vars.tf"], "a/main.tf": maxSizeTF["main.tf"], "b/main.tf": `resource "aws_sqs_queue" "b" {}`},
			recursive: true, vars: []lint.VarFlag{{Value: "max_size=39"}, {Value: "max_sise=39"}},
			wantUsage: "Value for undeclared variable: --var sets var.max_sise, but no linted root module declares it"},
		{name: "--recursive: a --var-file value no root declares, once",
			files:     map[string]string{"a/vars.tf": maxSizeTF["vars.tf"], "a/main.tf": maxSizeTF["main.tf"], "b/main.tf": `resource "aws_sqs_queue" "b" {}`, "all.tfvars": "max_sise = 30\n"},
			recursive: true, vars: []lint.VarFlag{{File: true, Value: "DIR/all.tfvars"}}, wantMax: 25,
			wantSkips: []string{"DIR/all.tfvars:1:1: DIR/all.tfvars sets var.max_sise, but no linted root module declares it"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, c.files)
			expand := func(s string) string { return strings.ReplaceAll(s, "DIR", dir) }
			opts := lint.Options{Dirs: []string{dir}, Environ: c.env, Disable: []string{"queuecap_insufficient_headroom"}}
			for _, v := range c.vars {
				opts.Vars = append(opts.Vars, lint.VarFlag{File: v.File, Value: expand(v.Value)})
			}
			opts.Recursive = c.recursive
			if c.wantUsage != "" {
				opts.Rules = rules.All()
				_, err := runner.Run(opts)
				var usage *lint.UsageError
				if !errors.As(err, &usage) || !strings.Contains(err.Error(), c.wantUsage) {
					t.Fatalf("got %v, want a usage error %q", err, c.wantUsage)
				}
				return
			}
			res := lintDir(t, opts)

			var errs []string
			for _, e := range res.Errors {
				errs = append(errs, e.String())
			}
			if len(errs) != len(c.wantErrs) {
				t.Fatalf("errors %q, want %q", errs, c.wantErrs)
			}
			for i, want := range c.wantErrs {
				if !strings.Contains(errs[i], filepath.FromSlash(expand(want))) {
					t.Errorf("error %q does not contain %q", errs[i], expand(want))
				}
			}

			var skips []string
			for _, s := range res.Skipped {
				if s.Rule == "variables" {
					skips = append(skips, s.Range.String()+": "+s.Reason)
				}
			}
			if len(skips) != len(c.wantSkips) {
				t.Fatalf("variable skips %q, want %q", skips, c.wantSkips)
			}
			for i, want := range c.wantSkips {
				if !strings.HasPrefix(skips[i], filepath.FromSlash(expand(want))) {
					t.Errorf("skip %q does not start %q", skips[i], expand(want))
				}
			}

			var got float64
			for _, is := range res.Issues {
				if is.Rule == "queuecap_zero_surplus" {
					got = is.FactMap()["max_consumers"]
				}
			}
			if got != c.wantMax {
				t.Errorf("max_size %v, want %v (issues %v, skipped %v)", got, c.wantMax, res.Issues, res.Skipped)
			}
			if c.wantErrs != nil && len(res.Issues)+len(res.Skipped) > 0 {
				t.Errorf("a root whose values do not fit was checked: %v %v", res.Issues, res.Skipped)
			}
		})
	}
}

// FuzzVarValues sets a variable of a fuzzed type from --var, TF_VAR_ and
// terraform.tfvars with fuzzed values: no panic, no usage error for a
// declared variable, every error placed in the module, and a root whose
// values do not fit is not checked.
func FuzzVarValues(f *testing.F) {
	for _, s := range [][3]string{
		{"number", "30", "30"},
		{"string", "[1, 2]", `"x"`},
		{"list(number)", "[30", "[30]"},
		{"map(list(object({ a = optional(number, 3) })))", `{ x = [{}] }`, `{ x = [{ a = "y" }] }`},
		{"any", "${", "null"},
		{"list", "[1, \"a\"]", "{}"},
		{`"string"`, "x", "1"},
		{"object({ a = number })", "{ a = 1, b = 2 }", "{ a = [] }"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	f.Fuzz(func(t *testing.T, typ, raw, tfvars string) {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{
			"vars.tf":          "variable \"v\" {\n  type = " + typ + "\n}\n",
			"main.tf":          sizedFleet("var.v"),
			"terraform.tfvars": "v = " + tfvars + "\n",
		})
		declared := true // unless vars.tf does not parse
		for _, vars := range [][]lint.VarFlag{nil, {{Value: "v=" + raw}}} {
			res, err := runner.Run(lint.Options{Dirs: []string{dir}, Vars: vars, Environ: []string{"TF_VAR_v=" + raw}, Rules: rules.All()})
			if err != nil {
				if declared {
					t.Fatalf("usage error for a declared variable: %v", err)
				}
				continue
			}
			unfit := false
			for _, e := range res.Errors {
				if e.Range == nil || !strings.HasPrefix(e.Range.Filename, dir) || e.Range.Start.Line < 1 {
					t.Fatalf("error without a place in the module: %s", e)
				}
				unfit = unfit || strings.Contains(e.Message, "Invalid value for input variable")
				declared = declared && filepath.Base(e.Range.Filename) != "vars.tf"
			}
			if unfit && len(res.Issues) > 0 {
				t.Fatalf("a root whose values do not fit was checked: %v", res.Issues)
			}
		}
	})
}
