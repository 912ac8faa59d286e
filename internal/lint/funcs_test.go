// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// evalExpr evaluates src as an expression written in dir/main.tf of the
// module instance in.
func evalExpr(t *testing.T, in *instance, src string) cty.Value {
	t.Helper()
	expr, diags := hclsyntax.ParseExpression([]byte(src), filepath.Join(in.mod.Dir, "main.tf"), hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("%s: %s", src, diags)
	}
	return in.eval(expr)
}

// rootAtDir is a root module instance at dir with two resources,
// aws_sqs_queue.dlq and aws_sqs_queue.orders, and the variable
// sizes = { orders = 40 }.
func rootAtDir(dir string) *instance {
	mod := &Module{Dir: dir, Resources: []*Resource{
		{Mode: "resource", Type: "aws_sqs_queue", Name: "dlq"},
		{Mode: "resource", Type: "aws_sqs_queue", Name: "orders"},
	}}
	return newInstance(mod, "", nil, map[string]cty.Value{
		"sizes": cty.MapVal(map[string]cty.Value{"orders": cty.NumberIntVal(40)}),
	})
}

// unknown stands in a want for "not known": the expression fails in
// Terraform, or the linter may not know it.
var unknown = cty.DynamicVal

func str(s string) cty.Value { return cty.StringVal(s) }

func strs(ss ...string) cty.Value {
	vs := make([]cty.Value, len(ss))
	for i, s := range ss {
		vs[i] = cty.StringVal(s)
	}
	return cty.ListVal(vs)
}

// TestTerraformFunctions calls each function as a configuration would,
// with the result Terraform gives (its documentation's examples where it
// has them).
func TestTerraformFunctions(t *testing.T) {
	t.Setenv("TF_WORKSPACE", "")
	dir := t.TempDir()
	outside := t.TempDir()
	WriteFiles(t, dir, map[string]string{
		"policy.json":            `{"maxReceiveCount": 5}`,
		"capacity.yaml":          "orders:\n  arrival_rate: 5000\n",
		"tpl/redrive.json.tpl":   `{"deadLetterTargetArn": "${arn}", "maxReceiveCount": ${n}}`,
		"tpl/missing_var.tpl":    `${nope}`,
		"tpl/recursive.tpl":      `${templatefile("tpl/recursive.tpl", {})}`,
		"sub/a.txt":              "a",
		"sub/b.json":             "{}",
		"sub/deeper/c.json":      "{}",
		".terraform/environment": "", // no workspace selected
	})
	WriteFiles(t, outside, map[string]string{"secret.txt": "do not read"})
	if err := os.Symlink(outside, filepath.Join(dir, "escape")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "sub", "link.txt")); err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(dir, filepath.Join(outside, "secret.txt"))
	if err != nil {
		t.Fatal(err)
	}
	absDir, _ := filepath.Abs(dir)

	tests := []struct {
		expr string
		want cty.Value
	}{
		// Collections: Terraform's own, where cty's differ.
		{`lookup(var.sizes, "orders")`, cty.NumberIntVal(40)},
		{`lookup({ a = "x" }, "a")`, str("x")},
		{`lookup({ a = "x" }, "b", "y")`, str("y")},
		{`lookup(var.sizes, "billing", 1)`, cty.NumberIntVal(1)},
		{`lookup({ a = "x" }, "b")`, unknown},
		{`one([])`, cty.NullVal(cty.DynamicPseudoType)},
		{`one([1])`, cty.NumberIntVal(1)},
		{`one(toset(["a"]))`, str("a")},
		{`one(tolist([]))`, cty.NullVal(cty.DynamicPseudoType)},
		{`one([1, 2])`, unknown},
		{`alltrue([])`, cty.True},
		{`alltrue(["true", true])`, cty.True},
		{`alltrue([true, false])`, cty.False},
		{`alltrue([false, aws_sqs_queue.dlq.arn == "x"])`, cty.False},
		{`alltrue([aws_sqs_queue.dlq.arn == "x", false])`, unknown}, // as OpenTofu plans it
		{`anytrue([])`, cty.False},
		{`anytrue([false, "true"])`, cty.True},
		{`coalesce("", "b")`, str("b")},
		{`coalesce(null, 2, 3)`, cty.NumberIntVal(2)},
		{`index(["a", "b", "c"], "b")`, cty.NumberIntVal(1)},
		{`matchkeys(["i-123", "i-abc", "i-def"], ["us-west", "us-east", "us-east"], ["us-east"])`, strs("i-abc", "i-def")},
		{`transpose({ a = ["1", "2"], b = ["2", "3"] })`, cty.MapVal(map[string]cty.Value{"1": strs("a"), "2": strs("a", "b"), "3": strs("b")})},
		{`sum([10, 13, 6, 2])`, cty.NumberIntVal(31)},
		{`sum([])`, unknown},
		{`length({ a = 1, b = 2 })`, cty.NumberIntVal(2)},
		{`tolist(["a", "b"])`, strs("a", "b")},
		{`element(["a", "b"], 3)`, str("b")},
		{`max(1, 5, 3)`, cty.NumberIntVal(5)},
		{`merge({ a = 1 }, { b = 2 })`, cty.ObjectVal(map[string]cty.Value{"a": cty.NumberIntVal(1), "b": cty.NumberIntVal(2)})},
		// Strings.
		{`startswith("hello world", "hello")`, cty.True},
		{`startswith("hello world", "world")`, cty.False},
		{`endswith("hello world", "world")`, cty.True},
		{`strcontains("hello world", "wor")`, cty.True},
		{`replace("1 + 2 + 3", "+", "-")`, str("1 - 2 - 3")},
		{`replace("hello world", "/w.*d/", "everybody")`, str("hello everybody")},
		{`strrev("hello")`, str("olleh")},
		{`format("%s-%03d", "orders", 7)`, str("orders-007")},
		{`templatestring("Hello, $${name}!", { name = "queues" })`, str("Hello, queues!")},
		// Sensitivity and the like: the linter tracks none of it.
		{`sensitive(5)`, cty.NumberIntVal(5)},
		{`nonsensitive("x")`, str("x")},
		{`ephemeralasnull("x")`, str("x")},
		{`issensitive("x")`, unknown},
		// Encodings and hashes.
		{`base64encode("Hello World")`, str("SGVsbG8gV29ybGQ=")},
		{`base64decode("SGVsbG8gV29ybGQ=")`, str("Hello World")},
		{`base64decode("/w==")`, unknown}, // not UTF-8
		{`base64gzip("test")`, str("H4sIAAAAAAAA/ypJLS4BAAAA//8BAAD//wx+f9gEAAAA")},
		{`base64sha256("hello world")`, str("uU0nuZNNPgilLlLX2n2r+sSE7+N6U4DukIj3rOLvzek=")},
		{`md5("hello world")`, str("5eb63bbbe01eeed093cb22bb8f5acdc3")},
		{`sha1("hello world")`, str("2aae6c35c94fcfb415dbe95f408b9ce91ee846ed")},
		{`sha256("hello world")`, str("b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9")},
		{`urlencode("Hello World!")`, str("Hello+World%21")},
		{`textencodebase64("Hello World", "UTF-16LE")`, str("SABlAGwAbABvACAAVwBvAHIAbABkAA==")},
		{`textdecodebase64("SABlAGwAbABvACAAVwBvAHIAbABkAA==", "UTF-16LE")`, str("Hello World")},
		{`uuidv5("dns", "www.terraform.io")`, str("a5008fae-b28c-5ba5-96cd-82b4c53552d6")},
		{`jsondecode("{\"a\": [1]}").a[0]`, cty.NumberIntVal(1)},
		{`jsonencode({ a = 1 })`, str(`{"a":1}`)},
		{`yamldecode("orders:\n  arrival_rate: 5000\n  tags: [a, b]\n")`, cty.ObjectVal(map[string]cty.Value{"orders": cty.ObjectVal(map[string]cty.Value{
			"arrival_rate": cty.NumberIntVal(5000), "tags": cty.TupleVal([]cty.Value{str("a"), str("b")}),
		})})},
		{`yamlencode({ a = "b", c = "d" })`, str("\"a\": \"b\"\n\"c\": \"d\"\n")},
		{`csvdecode("a,b\n1,2\n")[0].b`, str("2")},
		// Networks.
		{`cidrsubnet("10.0.0.0/16", 8, 2)`, str("10.0.2.0/24")},
		{`cidrsubnet("fd00:fd12:3456:7890::/56", 16, 162)`, str("fd00:fd12:3456:7800:a200::/72")},
		{`cidrsubnet("010.0.0.0/16", 8, 2)`, str("10.0.2.0/24")},
		{`cidrhost("10.12.112.0/20", 16)`, str("10.12.112.16")},
		{`cidrhost("10.12.112.0/20", -2)`, str("10.12.127.254")},
		{`cidrnetmask("172.16.0.0/12")`, str("255.240.0.0")},
		{`cidrsubnets("10.1.0.0/16", 4, 4, 8, 4)`, strs("10.1.0.0/20", "10.1.16.0/20", "10.1.32.0/24", "10.1.48.0/20")},
		{`cidrsubnet("10.0.0.0/30", 8, 2)`, unknown},
		// Time: known only at apply, except arithmetic on given instants.
		{`timestamp()`, unknown},
		{`plantimestamp()`, unknown},
		{`timecmp("2017-11-22T00:00:00Z", "2017-11-22T01:00:00Z")`, cty.NumberIntVal(-1)},
		{`timeadd("2017-11-22T00:00:00Z", "10m")`, str("2017-11-22T00:10:00Z")},
		{`formatdate("YYYY-MM-DD", "2018-01-02T23:12:01Z")`, str("2018-01-02")},
		{`uuid()`, unknown},
		{`bcrypt("x")`, unknown},
		{`rsadecrypt("x", "y")`, unknown},
		// Paths and the workspace, as Terraform run in the root's
		// directory sees them.
		{`path.module`, str(".")},
		{`path.root`, str(".")},
		{`path.cwd`, str(filepath.ToSlash(absDir))},
		{`terraform.workspace`, str("default")},
		{`abspath("sub")`, str(filepath.ToSlash(filepath.Join(absDir, "sub")))},
		{`basename("foo/bar/baz.txt")`, str("baz.txt")},
		{`dirname("foo/bar/baz.txt")`, str("foo/bar")},
		{`pathexpand("a/b")`, str("a/b")},
		{`pathexpand("~/.ssh/id_rsa")`, unknown},
		// Files inside the root module's directory.
		{`file("policy.json")`, str(`{"maxReceiveCount": 5}`)},
		{`jsondecode(file("${path.module}/policy.json")).maxReceiveCount`, cty.NumberIntVal(5)},
		{`yamldecode(file("capacity.yaml")).orders.arrival_rate`, cty.NumberIntVal(5000)},
		{`filebase64("sub/a.txt")`, str("YQ==")},
		{`filemd5("sub/a.txt")`, str("0cc175b9c0f1b6a831c399e269772661")},
		{`filebase64sha256("sub/a.txt")`, str("ypeBEsobvcr6wjGzmiPcTaeG7/gUfE5yuYB3ha/uSLs=")},
		{`fileexists("policy.json")`, cty.True},
		{`fileexists("nope.json")`, cty.False},
		{`fileexists("sub")`, unknown},               // a directory: Terraform fails
		{`fileset(path.module, "sub/*.*")`, unknown}, // Terraform lists sub/link.txt, which leads out of the tree
		{`fileset(path.module, "sub/*.json")`, cty.SetVal([]cty.Value{str("sub/b.json")})},
		{`fileset(".", "**/*.json")`, unknown}, // Terraform reads escape/, a link to a directory
		{`fileset("sub", "**/*.json")`, cty.SetVal([]cty.Value{str("b.json"), str("deeper/c.json")})},
		{`fileset("sub", "{a,b}.*")`, cty.SetVal([]cty.Value{str("a.txt"), str("b.json")})},
		{`fileset("sub", "*.yaml")`, cty.SetValEmpty(cty.String)},
		{`templatefile("tpl/redrive.json.tpl", { arn = "arn:aws:sqs:eu-west-1:1:dlq", n = 3 })`, str(`{"deadLetterTargetArn": "arn:aws:sqs:eu-west-1:1:dlq", "maxReceiveCount": 3}`)},
		{`templatefile("tpl/missing_var.tpl", {})`, unknown},
		{`templatefile("tpl/recursive.tpl", {})`, unknown},
		{`templatefile("nope.tpl", {})`, unknown},
		// Files outside it: never read, whatever the path.
		{`file("../../etc/passwd")`, unknown},
		{`file("/etc/passwd")`, unknown},
		{`file("` + filepath.ToSlash(rel) + `")`, unknown},
		{`file("escape/secret.txt")`, unknown},
		{`file("sub/link.txt")`, unknown},
		{`fileexists("escape/secret.txt")`, unknown},
		{`fileexists("` + filepath.ToSlash(rel) + `")`, unknown},
		{`fileset("..", "*")`, unknown},
		{`fileset(".", "../*")`, unknown},
		{`fileset("escape", "*")`, unknown},
		{`filemd5("/etc/passwd")`, unknown},
		{`templatefile("escape/secret.txt", {})`, unknown},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			got, _ := evalExpr(t, rootAtDir(dir), tt.expr).UnmarkDeep()
			switch {
			case tt.want == unknown:
				if got.IsKnown() {
					t.Errorf("= %#v, want unknown", got)
				}
			case tt.want.IsNull():
				if !got.IsKnown() || !got.IsNull() {
					t.Errorf("= %#v, want null", got)
				}
			case !got.RawEquals(tt.want):
				t.Errorf("= %#v, want %#v", got, tt.want)
			}
		})
	}
}

// TestFunctionsKeepMarks: a value the linter may not read is still
// derived from its arguments, so a redrive policy rendered from a template
// outside the configuration still names its dead-letter queue; and an
// element taken from a collection names its own resource only.
func TestFunctionsKeepMarks(t *testing.T) {
	for _, expr := range []string{
		`templatefile("/etc/redrive.tpl", { arn = aws_sqs_queue.dlq.arn })`,
		`file("${aws_sqs_queue.dlq.arn}.json")`,
		`lookup({ dlq = aws_sqs_queue.dlq.arn, orders = aws_sqs_queue.orders.arn }, "dlq")`,
		`tolist([aws_sqs_queue.dlq.arn, aws_sqs_queue.orders.arn])[0]`,
		`tomap({ dlq = aws_sqs_queue.dlq.arn, orders = aws_sqs_queue.orders.arn })["dlq"]`,
		`[try(aws_sqs_queue.dlq.arn, ""), aws_sqs_queue.orders.arn][0]`,
	} {
		t.Run(expr, func(t *testing.T) {
			v := evalExpr(t, rootAtDir(t.TempDir()), expr)
			if v.IsKnown() {
				t.Errorf("= %#v, want unknown", v)
			}
			if got := origins(v); !slices.Equal(got, []string{"aws_sqs_queue.dlq"}) {
				t.Errorf("origins %v, want [aws_sqs_queue.dlq]", got)
			}
		})
	}
}

// TestFileFunctionsInModule: a called module reads files in its own
// directory, wherever that is, with path.module relative to the root as
// Terraform gives it; the root cannot read there.
func TestFileFunctionsInModule(t *testing.T) {
	top := t.TempDir()
	rootDir, modDir := filepath.Join(top, "envs", "prod"), filepath.Join(top, "modules", "queue")
	WriteFiles(t, top, map[string]string{
		"envs/prod/main.tf":          "",
		"modules/queue/redrive.json": `{"maxReceiveCount": 4}`,
	})
	root := rootAtDir(rootDir)
	child := newInstance(&Module{Dir: modDir}, "module.queue", root, nil)
	child.parent = root
	for _, tt := range []struct {
		in   *instance
		expr string
		want cty.Value
	}{
		{child, `path.module`, str("../../modules/queue")},
		{child, `path.root`, str(".")},
		{child, `jsondecode(file("${path.module}/redrive.json")).maxReceiveCount`, cty.NumberIntVal(4)},
		{root, `file("../../modules/queue/redrive.json")`, unknown},
	} {
		t.Run(tt.in.addr+" "+tt.expr, func(t *testing.T) {
			got, _ := evalExpr(t, tt.in, tt.expr).UnmarkDeep()
			if tt.want == unknown {
				if got.IsKnown() {
					t.Errorf("= %#v, want unknown", got)
				}
			} else if !got.RawEquals(tt.want) {
				t.Errorf("= %#v, want %#v", got, tt.want)
			}
		})
	}
}

// TestWorkspace is terraform.workspace: TF_WORKSPACE, else the workspace
// selected in .terraform/environment.
func TestWorkspace(t *testing.T) {
	dir := t.TempDir()
	WriteFiles(t, dir, map[string]string{".terraform/environment": "staging\n"})
	t.Setenv("TF_WORKSPACE", "")
	if got := evalExpr(t, rootAtDir(dir), "terraform.workspace"); !got.RawEquals(str("staging")) {
		t.Errorf("selected workspace: %#v, want staging", got)
	}
	t.Setenv("TF_WORKSPACE", "prod")
	if got := evalExpr(t, rootAtDir(dir), "terraform.workspace"); !got.RawEquals(str("prod")) {
		t.Errorf("TF_WORKSPACE: %#v, want prod", got)
	}
}

// TestWorkspaceInDataDir: with TF_DATA_DIR, the selected workspace is in
// its environment file, relative to the root module.
func TestWorkspaceInDataDir(t *testing.T) {
	dir := t.TempDir()
	WriteFiles(t, dir, map[string]string{".terraform/environment": "staging\n", "tfdata/environment": "blue\n"})
	t.Setenv("TF_WORKSPACE", "")
	t.Setenv("TF_DATA_DIR", "tfdata")
	if got := evalExpr(t, rootAtDir(dir), "terraform.workspace"); !got.RawEquals(str("blue")) {
		t.Errorf("TF_DATA_DIR=tfdata: %#v, want blue", got)
	}
}
