// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
)

// Hostile configurations run in a child process (TestHostileChild): a Go
// stack overflow or an allocation beyond memory ends a process and no
// recover can catch it, so a test of the limits that prevent them must
// survive their absence. The child's stack is capped at 64 MiB instead
// of Go's 1 GB, and its address space at 4 GiB (where the system allows),
// so that a configuration that would crash the linter does so in a
// second, not after minutes and gigabytes.
const (
	hostileDirEnv  = "QUEUECAP_HOSTILE_DIR"
	hostileTimeEnv = "QUEUECAP_HOSTILE_EVAL_TIME"
	hostileResult  = "HOSTILE-RESULT "
)

// hostileRun is what the child reports of its run.
type hostileRun struct {
	Errors []string
	Issues []string // rule and file
}

// TestHostileChild lints the directory hostileDirEnv names, recursively,
// and prints the result; the hostile-input tests run it.
func TestHostileChild(t *testing.T) {
	dir := os.Getenv(hostileDirEnv)
	if dir == "" {
		t.Skip("run by the hostile-input tests in a child process")
	}
	debug.SetMaxStack(64 << 20)
	limitAddressSpace(4 << 30)
	if d, err := time.ParseDuration(os.Getenv(hostileTimeEnv)); err == nil {
		lint.SetRootEvalTime(d)
	}
	res := lintDir(t, lint.Options{Dirs: []string{dir}, Recursive: true})
	var out hostileRun
	for _, e := range res.Errors {
		out.Errors = append(out.Errors, e.String())
	}
	for _, is := range res.Issues {
		out.Issues = append(out.Issues, is.Rule+" "+filepath.Base(is.Range.Filename))
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println(hostileResult + string(b))
}

// lintInChild lints dir in a child process, failing the test when the
// child crashes or takes more than a minute.
func lintInChild(t *testing.T, dir string, env ...string) hostileRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestHostileChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), append([]string{hostileDirEnv + "=" + dir}, env...)...)
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("the linter did not finish within a minute")
	}
	for sc := bufio.NewScanner(bytes.NewReader(out)); sc.Scan(); {
		if line, ok := strings.CutPrefix(sc.Text(), hostileResult); ok {
			var run hostileRun
			if err := json.Unmarshal([]byte(line), &run); err != nil {
				t.Fatal(err)
			}
			return run
		}
	}
	t.Fatalf("the linter crashed (%v):\n%.2000s", err, out)
	return hostileRun{}
}

// nest is n openings, inner and n closings.
func nest(opening, inner, closing string, n int) string {
	return strings.Repeat(opening, n) + inner + strings.Repeat(closing, n)
}

// TestHostileInputs: the configurations of issue 28 that crashed the
// linter (item 2) or ran it without bound (item 4), each beside a good
// root module that must still be linted. Each is an error at the file,
// line and column of the construct, naming the limit (docs/
// hostile-input.md#limits), in a second or two.
func TestHostileInputs(t *testing.T) {
	queueReading := func(expr string) string {
		return "resource \"aws_sqs_queue\" \"q\" {\n  name = \"q\"\n  message_retention_seconds = " + expr + "\n}\n"
	}
	// A YAML "billion laughs": nine levels of nine aliases, 9^9 strings.
	laughs := []string{`a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]`}
	for i, name := range "bcdefghi" {
		prev := string("abcdefghi"[i])
		laughs = append(laughs, fmt.Sprintf("%c: &%c [%s]", name, name, strings.TrimSuffix(strings.Repeat("*"+prev+",", 9), ",")))
	}
	storms := func(count, backlog string) string {
		return `data "queuecap_retry_storm" "fleet" {
  count               = ` + count + `
  arrival_rate        = 10000
  per_consumer_rate   = 400
  consumers           = 32
  backlog             = ` + backlog + `
  retries_per_timeout = 1.5
  rto_seconds         = 1800
}
resource "aws_sqs_queue" "q" {
  name = "q"
}
resource "aws_autoscaling_group" "w" {
  count    = ` + count + `
  name     = "w"
  min_size = 1
  max_size = data.queuecap_retry_storm.fleet[count.index].min_consumers_to_drain
  tag {
    key   = "queuecap:queue"
    value = "aws_sqs_queue.q"
  }
}
`
	}
	var locals800k strings.Builder
	locals800k.WriteString("locals {\n")
	for i := range 800000 {
		fmt.Fprintf(&locals800k, "  l%d = %d\n", i, i)
	}
	locals800k.WriteString("}\n" + queueReading("1"))
	// 100,000 locals, each reading the one before, in five files that
	// each keep under the token limit.
	chain := map[string]string{"bad/main.tf": "locals {\n  l0 = 1\n}\n" + queueReading("local.l99999")}
	for f := range 5 {
		var b strings.Builder
		b.WriteString("locals {\n")
		for i := max(f*20000, 1); i < (f+1)*20000; i++ {
			fmt.Fprintf(&b, "  l%d = local.l%d + 1\n", i, i-1)
		}
		chain[fmt.Sprintf("bad/chain%d.tf", f)] = b.String() + "}\n"
	}
	// 200 locals, each nesting the one before 500 lists deep: a value
	// 100,000 levels deep, from expressions 500 deep.
	var deep strings.Builder
	deep.WriteString("locals {\n  v0 = 1\n")
	for i := 1; i < 200; i++ {
		fmt.Fprintf(&deep, "  v%d = %s\n", i, nest("[", fmt.Sprintf("local.v%d", i-1), "]", 500))
	}
	deep.WriteString("}\n" + queueReading("length(local.v199)"))
	cases := []struct {
		name  string
		files map[string]string
		env   []string
		// want is the error's file:line: and its text; "" for none.
		want, text string
	}{
		{name: "100,000 nested objects", files: map[string]string{"bad/main.tf": "locals {\n x = " + nest("{a=", "1", "}", 100000) + "\n}\n"},
			want: "bad/main.tf:2:", text: "Nesting too deep: this nests more than 1000 levels deep"},
		{name: "a million nested parentheses", files: map[string]string{"bad/main.tf": queueReading(nest("(", "1", ")", 1000000))},
			want: "bad/main.tf:3:", text: "Nesting too deep"},
		{name: "a sum of a million terms", files: map[string]string{"bad/main.tf": queueReading(strings.TrimSuffix(strings.Repeat("1+", 1000000), "+"))},
			want: "bad/main.tf:3:", text: "Nesting too deep"},
		{name: "a .tf.json nested a million deep", files: map[string]string{"bad/main.tf.json": `{"locals": {"x": ` + nest("[", "", "]", 1000000) + `}}`},
			want: "bad/main.tf.json:1:", text: "Nesting too deep"},
		{name: "a terraform.tfvars.json nested a million deep", files: map[string]string{"bad/main.tf": "variable \"x\" {}\n" + queueReading("length(var.x)"),
			"bad/terraform.tfvars.json": `{"x": ` + nest("[", "", "]", 1000000) + `}`},
			want: "bad/terraform.tfvars.json:1:", text: "Nesting too deep"},
		{name: "a template nested a million deep", files: map[string]string{"bad/main.tf": queueReading(`length(templatefile("${path.module}/t.tftpl", {}))`),
			"bad/t.tftpl": "${" + nest("(", "1", ")", 1000000) + "}"},
			want: "bad/t.tftpl:1:", text: "Nesting too deep"},
		{name: "a template nested a million deep, by its absolute path", files: map[string]string{"bad/main.tf": queueReading(`length(templatefile(abspath("${path.module}/t.tftpl"), {}))`),
			"bad/t.tftpl": "${" + nest("(", "1", ")", 1000000) + "}"},
			want: "bad/t.tftpl:1:", text: "Nesting too deep"},
		{name: "jsondecode of a million nested arrays", files: map[string]string{"bad/main.tf": queueReading(`length(jsondecode("` + nest("[", "", "]", 1000000) + `"))`)},
			want: "bad/main.tf:3:", text: "Value nests too deep: jsondecode would build a value nested more than 1000 levels deep"},
		{name: "a chain of 100,000 locals", files: chain,
			want: "bad/chain4.tf:", text: "Evaluation too deep: evaluating this needs more than 1000 values evaluated one inside another"},
		{name: "a value 100,000 levels deep", files: map[string]string{"bad/main.tf": deep.String()},
			want: "bad/main.tf:5:8:", text: "Value nests too deep: this value nests more than 1000 levels deep"},
		{name: "setproduct of three ranges of 1,000", files: map[string]string{"bad/main.tf": queueReading("length(setproduct(range(1000), range(1000), range(1000)))")},
			want: "bad/main.tf:3:", text: "Value too large: setproduct would build more than the 1000000 elements"},
		{name: "a YAML billion laughs", files: map[string]string{"bad/main.tf": queueReading(`length(yamldecode(file("${path.module}/lol.yaml")).i)`),
			"bad/lol.yaml": strings.Join(laughs, "\n") + "\n"},
			want: "bad/main.tf:3:", text: "Value too large: yamldecode would build more than the 1000000 elements"},
		{name: "100 × 100 × 100 nested module instances", files: map[string]string{
			"bad/main.tf":    "module \"a\" {\n  source = \"./m1\"\n  count  = 100\n}\n",
			"bad/m1/main.tf": "module \"b\" {\n  source = \"../m2\"\n  count  = 100\n}\n",
			"bad/m2/main.tf": "module \"c\" {\n  source = \"../m3\"\n  count  = 100\n}\n",
			"bad/m3/main.tf": "resource \"aws_sqs_queue\" \"q\" {\n  name = \"q\"\n}\n"},
			want: "bad/m2/main.tf:3:", text: "Too many instances: count and for_each make more than 20000 resource and module instances"},
		{name: "10,000 retry storms under count", files: map[string]string{"bad/main.tf": storms("10000", "3600000")}},
		{name: "800,000 unused locals", files: map[string]string{"bad/main.tf": locals800k.String()},
			want: "bad/main.tf:", text: "File too large to parse: the file holds more than 250000 tokens"},
		// Each storm never drains and is simulated to its end: 5,000 of
		// them, none the same, take about 20 s.
		{name: "a root module past its evaluation time", files: map[string]string{"bad/main.tf": storms("5000", "3600000 + count.index")},
			env: []string{hostileTimeEnv + "=1s"}, want: "bad/main.tf:", text: "Evaluation too slow: evaluating this root module took more than 1s"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			c.files["good/good.tf"] = goodTF
			writeFiles(t, dir, c.files)
			start := time.Now()
			run := lintInChild(t, dir, c.env...)
			t.Logf("linted in %s", time.Since(start).Round(time.Millisecond))
			var other []string
			found := c.want == ""
			for _, e := range run.Errors {
				e = strings.TrimPrefix(e, dir+string(filepath.Separator))
				if c.want != "" && strings.HasPrefix(e, c.want) && strings.Contains(e, c.text) {
					found = true
				} else {
					other = append(other, e)
				}
			}
			if !found {
				t.Errorf("no error at %s holding %q", c.want, c.text)
			}
			if len(other) > 0 {
				t.Errorf("other errors: %.3000q", other)
			}
			linted := false
			for _, is := range run.Issues {
				linted = linted || is == "queuecap_depth_alarm_after_sla good.tf"
			}
			if !linted {
				t.Errorf("the good root module was not linted: %q", run.Issues)
			}
		})
	}
}
