// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
)

const workerModule = `variable "max" {}
variable "rate" {}

resource "aws_sqs_queue" "q" {
  tags = { "queuecap:arrival_rate" = var.rate }
}

resource "aws_autoscaling_group" "w" {
  max_size = var.max
  tag {
    key                 = "queuecap:per_consumer_rate"
    value               = "400"
    propagate_at_launch = false
  }
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.q"
    propagate_at_launch = false
  }
}
`

func zeroSurplus(res *lint.Result) []lint.Issue {
	var out []lint.Issue
	for _, is := range res.Issues {
		if is.Rule == "queuecap_zero_surplus" {
			out = append(out, is)
		}
	}
	return out
}

// TestFindingsOncePerPlace: a module reached from several roots (with
// --recursive) or calls with the same result is one finding listing every
// caller; different results stay apart, each naming its caller.
func TestFindingsOncePerPlace(t *testing.T) {
	t.Run("same result from the module's own root and its caller", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{
			"main.tf":                      "module \"app\" {\n  source = \"./modules/app\"\n  max    = 25\n  rate   = 10000\n}\n",
			"modules/app/main.tf":          workerModule,
			"modules/app/defaults.tf":      "", // the module is also a root of its own under --recursive
			"modules/app/terraform.tfvars": "max  = 25\nrate = 10000\n",
		})
		res := lintDir(t, lint.Options{Dirs: []string{dir}, Recursive: true})
		got := zeroSurplus(res)
		if len(got) != 1 {
			t.Fatalf("%d zero-surplus findings, want the module's one: %v", len(got), got)
		}
		is := got[0]
		if !strings.HasSuffix(is.Range.Filename, filepath.Join("modules", "app", "main.tf")) || is.Range.Start.Line != 9 {
			t.Errorf("finding at %s, want modules/app/main.tf:9", is.Range)
		}
		if len(is.Callers) != 1 || !strings.HasSuffix(is.Callers[0].Filename, "main.tf") || is.Callers[0].Start.Line != 1 {
			t.Errorf("callers %v, want the module block in main.tf", is.Callers)
		}
		if strings.Contains(is.Message, "module.app.") {
			t.Errorf("a finding standing for two reaches speaks in the module's own addresses: %s", is.Message)
		}
		if is.Subject != "aws_sqs_queue.q" {
			t.Errorf("subject %q, want the queue's address inside the module", is.Subject)
		}
	})
	t.Run("different results from two calls", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{
			"main.tf": `module "orders" {
  source = "./modules/app"
  max    = 25
  rate   = 10000
}

module "invoices" {
  source = "./modules/app"
  max    = 10
  rate   = 4000
}
`,
			"modules/app/main.tf": workerModule,
		})
		res := lintDir(t, lint.Options{Dirs: []string{dir}})
		got := zeroSurplus(res)
		if len(got) != 2 {
			t.Fatalf("%d zero-surplus findings, want one per call: %v", len(got), got)
		}
		for _, is := range got {
			if len(is.Callers) != 1 {
				t.Errorf("%s: callers %v, want its own call", is.Message, is.Callers)
				continue
			}
			wantLine := map[bool]int{true: 1, false: 7}[strings.Contains(is.Message, "max_size 25")]
			if is.Callers[0].Start.Line != wantLine {
				t.Errorf("%s: called from line %d, want %d", is.Message, is.Callers[0].Start.Line, wantLine)
			}
			if is.Subject != "aws_sqs_queue.q" {
				t.Errorf("%s: subject %q, want aws_sqs_queue.q", is.Message, is.Subject)
			}
		}
	})
}

// TestRemoteModuleFindingAtTheCall: inside an installed remote module a
// finding stands at the call in the repository, on the argument that
// carries the value, with its place in the module kept.
func TestRemoteModuleFindingAtTheCall(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"main.tf": `module "workers" {
  source  = "app.terraform.io/acme/workers/aws"
  version = "1.0.0"
  max     = 25
  rate    = 10000
}
`,
		".terraform/modules/modules.json":    `{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"workers","Source":"app.terraform.io/acme/workers/aws","Version":"1.0.0","Dir":".terraform/modules/workers"}]}`,
		".terraform/modules/workers/main.tf": workerModule,
	})
	res := lintDir(t, lint.Options{Dirs: []string{dir}})
	got := zeroSurplus(res)
	if len(got) != 1 {
		t.Fatalf("%d zero-surplus findings, want 1: %v", len(got), got)
	}
	is := got[0]
	if filepath.Base(is.Range.Filename) != "main.tf" || strings.Contains(is.Range.Filename, ".terraform") || is.Range.Start.Line != 4 {
		t.Errorf("finding at %s, want main.tf:4 (max = 25)", is.Range)
	}
	if is.ModuleRange == nil || !strings.Contains(is.ModuleRange.Filename, filepath.Join(".terraform", "modules", "workers")) || is.ModuleRange.Start.Line != 9 {
		t.Errorf("module range %v, want the module's max_size line", is.ModuleRange)
	}
	if len(is.Callers) != 1 || is.Callers[0].Start.Line != 1 {
		t.Errorf("callers %v", is.Callers)
	}
	if is.Subject != "aws_sqs_queue.q" {
		t.Errorf("subject %q, want the queue's address inside the module", is.Subject)
	}
}

// TestIssueSubject: a root module's finding names the object its rule
// judged by its address, as a module's does inside the module.
func TestIssueSubject(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"main.tf": workerModule, "terraform.tfvars": "max  = 25\nrate = 10000\n"})
	got := zeroSurplus(lintDir(t, lint.Options{Dirs: []string{dir}}))
	if len(got) != 1 || got[0].Subject != "aws_sqs_queue.q" {
		t.Fatalf("findings %+v, want one about aws_sqs_queue.q", got)
	}
}

// TestLocalModuleFindingNamesTheArgument: a finding inside a local module
// whose value at fault is a module variable names the callers' arguments
// that set it (followed up through calls that pass it on), the place a
// pull request that changes only the caller touches; it stays at its
// place in the module, and an ignore on the argument covers it.
func TestLocalModuleFindingNamesTheArgument(t *testing.T) {
	lines := func(rs []lint.Range) []string {
		var out []string
		for _, r := range rs {
			out = append(out, filepath.Base(filepath.Dir(r.Filename))+"/"+filepath.Base(r.Filename)+":"+strconv.Itoa(r.Start.Line))
		}
		return out
	}
	tests := []struct {
		name  string
		files map[string]string
		want  []string // the arguments, as dir/file:line
	}{
		{
			name: "a literal in the call",
			files: map[string]string{
				"main.tf":             "module \"app\" {\n  source = \"./modules/app\"\n  max    = 25\n  rate   = 10000\n}\n",
				"modules/app/main.tf": workerModule,
			},
			want: []string{"X/main.tf:3"},
		},
		{
			name: "passed on through a module in between",
			files: map[string]string{
				"main.tf":               "module \"stack\" {\n  source     = \"./modules/stack\"\n  rate       = 10000\n  worker_max = 25\n}\n",
				"modules/stack/main.tf": "variable \"rate\" {}\nvariable \"worker_max\" {}\n\nmodule \"app\" {\n  source = \"../app\"\n  rate   = var.rate\n  max    = var.worker_max\n}\n",
				"modules/app/main.tf":   workerModule,
			},
			want: []string{"X/main.tf:4"},
		},
		{
			name: "an expression in between stops at its argument",
			files: map[string]string{
				"main.tf":               "module \"stack\" {\n  source     = \"./modules/stack\"\n  rate       = 10000\n  worker_max = 24\n}\n",
				"modules/stack/main.tf": "variable \"rate\" {}\nvariable \"worker_max\" {}\n\nmodule \"app\" {\n  source = \"../app\"\n  rate   = var.rate\n  max    = var.worker_max + 1\n}\n",
				"modules/app/main.tf":   workerModule,
			},
			want: []string{"stack/main.tf:7"},
		},
		{
			name: "two calls with the same value",
			files: map[string]string{
				"main.tf":             "module \"orders\" {\n  source = \"./modules/app\"\n  max    = 25\n  rate   = 10000\n}\n\nmodule \"invoices\" {\n  source = \"./modules/app\"\n  max    = 25\n  rate   = 10000\n}\n",
				"modules/app/main.tf": workerModule,
			},
			want: []string{"X/main.tf:9", "X/main.tf:3"}, // module.invoices is the first instance
		},
		{
			name: "the variable's default",
			files: map[string]string{
				"main.tf":             "module \"app\" {\n  source = \"./modules/app\"\n  rate   = 10000\n}\n",
				"modules/app/main.tf": strings.Replace(workerModule, `variable "max" {}`, `variable "max" { default = 25 }`, 1),
			},
		},
		{
			name: "an expression in the module",
			files: map[string]string{
				"main.tf":             "module \"app\" {\n  source = \"./modules/app\"\n  max    = 24\n  rate   = 10000\n}\n",
				"modules/app/main.tf": strings.Replace(workerModule, "max_size = var.max", "max_size = var.max + 1", 1),
			},
		},
		{
			name: "one reach from a root of its own",
			files: map[string]string{
				"main.tf":                      "module \"app\" {\n  source = \"./modules/app\"\n  max    = 25\n  rate   = 10000\n}\n",
				"modules/app/main.tf":          workerModule,
				"modules/app/terraform.tfvars": "max  = 25\nrate = 10000\n",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "X")
			writeFiles(t, dir, tt.files)
			res := lintDir(t, lint.Options{Dirs: []string{dir}, Recursive: true})
			got := zeroSurplus(res)
			if len(got) != 1 {
				t.Fatalf("%d zero-surplus findings, want 1: %v", len(got), got)
			}
			is := got[0]
			if filepath.Base(filepath.Dir(is.Range.Filename)) != "app" {
				t.Errorf("finding at %s, want its place in modules/app", is.Range)
			}
			if a := lines(is.Arguments); !slices.Equal(a, tt.want) {
				t.Errorf("arguments %v, want %v", a, tt.want)
			}
		})
	}

	t.Run("an ignore on the argument", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{
			"main.tf":             "module \"app\" {\n  source = \"./modules/app\"\n  max    = 25 # queuecap-ignore: queuecap_zero_surplus\n  rate   = 10000\n}\n",
			"modules/app/main.tf": workerModule,
		})
		if got := zeroSurplus(lintDir(t, lint.Options{Dirs: []string{dir}})); len(got) != 0 {
			t.Errorf("an ignore on the argument that sets the value left %v", got)
		}
	})
}

// TestCallersOfTheInstanceTheFindingLiesIn: a mapping's finding at its
// queue's attribute, the queue in a module called twice, lists the call of
// the queue's instance, not the first call of that module.
func TestCallersOfTheInstanceTheFindingLiesIn(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"queues.tf": "module \"qa\" {\n  source = \"./modules/q\"\n  name   = \"a\"\n}\n\nmodule \"qb\" {\n  source = \"./modules/q\"\n  name   = \"b\"\n}\n",
		"fns.tf": "module \"fa\" {\n  source    = \"./modules/fn\"\n  name      = \"fa\"\n  queue_arn = module.qa.arn\n}\n\n" +
			"module \"fb\" {\n  source    = \"./modules/fn\"\n  name      = \"fb\"\n  queue_arn = module.qb.arn\n}\n",
		"modules/q/main.tf": `variable "name" {}

resource "aws_sqs_queue" "dlq" {
  name = "${var.name}-dlq"
}

resource "aws_sqs_queue" "this" {
  name           = var.name
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.dlq.arn, maxReceiveCount = 5 })
}

output "arn" {
  value = aws_sqs_queue.this.arn
}
`,
		"modules/fn/main.tf": `variable "name" {}
variable "queue_arn" {}

resource "aws_lambda_function" "this" {
  function_name = var.name
  timeout       = 30
}

resource "aws_lambda_event_source_mapping" "m" {
  event_source_arn        = var.queue_arn
  function_name           = aws_lambda_function.this.arn
  function_response_types = ["ReportBatchItemFailures"]
}
`,
	})
	res := lintDir(t, lint.Options{Dirs: []string{dir}})
	got := map[string]int{}
	for _, is := range res.Issues {
		if is.Rule != "queuecap_visibility_timeout_too_short" {
			continue
		}
		if len(is.Callers) != 1 {
			t.Fatalf("%s: callers %v, want the one call of its queue", is.Address, is.Callers)
		}
		got[is.Address] = is.Callers[0].Start.Line
		if filepath.Base(is.Callers[0].Filename) != "queues.tf" {
			t.Errorf("%s: called from %s, want the module call in queues.tf", is.Address, is.Callers[0].Filename)
		}
	}
	if want := map[string]int{"module.qa.aws_sqs_queue.this": 1, "module.qb.aws_sqs_queue.this": 6}; !maps.Equal(got, want) {
		t.Errorf("callers' lines %v, want %v", got, want)
	}
}

// TestFindingsOncePerPlaceChildOfTheSameName: a module linted as its own
// root and through an example that calls it "runners", where the module
// itself calls a child "runners": the two reaches name the consumer
// module.runners.aws_lambda_function.f and
// module.runners.module.runners.aws_lambda_function.f, the same function,
// and are one finding.
func TestFindingsOncePerPlaceChildOfTheSameName(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"main.tf": `resource "aws_sqs_queue" "builds" {
  name = "builds"
}

module "runners" {
  source    = "./modules/runners"
  queue_arn = aws_sqs_queue.builds.arn
}
`,
		"modules/runners/main.tf": `variable "queue_arn" {}

resource "aws_lambda_function" "f" {
  function_name = "scale-up"
  timeout       = 30
}

resource "aws_lambda_event_source_mapping" "m" {
  event_source_arn        = var.queue_arn
  function_name           = aws_lambda_function.f.arn
  function_response_types = ["ReportBatchItemFailures"]
}
`,
		"examples/default/main.tf": "module \"runners\" {\n  source = \"../..\"\n}\n",
	})
	res := lintDir(t, lint.Options{Dirs: []string{dir}, Recursive: true})
	var got []lint.Issue
	for _, is := range res.Issues {
		if is.Rule == "queuecap_missing_dead_letter_queue" {
			got = append(got, is)
		}
	}
	if len(got) != 1 {
		t.Fatalf("%d findings, want one for both reaches: %v", len(got), got)
	}
	if want := []string{"aws_sqs_queue.builds", "module.runners.aws_sqs_queue.builds"}; !slices.Equal(got[0].Instances, want) {
		t.Errorf("instances %v, want %v", got[0].Instances, want)
	}
	if !strings.Contains(got[0].Message, "consumed by module.runners.aws_lambda_function.f ") {
		t.Errorf("message %q does not name the consumer in the module's own addresses", got[0].Message)
	}
}

func TestWithoutPrefix(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"module.a.aws_sqs_queue.q is consumed by module.a.module.a.aws_lambda_function.f", "aws_sqs_queue.q is consumed by module.a.aws_lambda_function.f"},
		{"(module.a.x) and module.a.y", "(x) and y"},
		{"module.ab.x stays", "module.ab.x stays"},
		{"submodule.a.x stays", "submodule.a.x stays"},
	} {
		if got := lint.WithoutPrefix(c.text, "module.a."); got != c.want {
			t.Errorf("withoutPrefix(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func TestModulePrefix(t *testing.T) {
	for addr, want := range map[string]string{
		"aws_sqs_queue.q":                         "",
		`module.q["a"].aws_sqs_queue.q`:           `module.q["a"].`,
		"module.a.module.b[2].aws_sqs_queue.q[0]": "module.a.module.b[2].",
		"module.a.data.aws_iam_policy_document.p": "module.a.",
		"module.broken":                           "",
	} {
		if got := lint.ModulePrefix(addr); got != want {
			t.Errorf("modulePrefix(%q) = %q, want %q", addr, got, want)
		}
	}
}
