// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/queuecap/terraform-provider-queuecap/internal/testaws"
)

// diffRow is one call of the differential test: an expression that the
// linter and every CLI evaluate in the same directory.
type diffRow struct {
	expr string
	// fails: the call fails, in every CLI and in the linter.
	fails bool
	// unknown, when set, says why the linter leaves the result unknown on
	// purpose; each CLI must still succeed (or fail, with fails).
	unknown string
	skip    []cliSkip
}

// cliSkip names the CLIs that cannot run a row: tool ("terraform" or
// "tofu") at a version in [from, below) ("" for no bound), and why.
type cliSkip struct {
	tool, from, below, why string
}

// terraformBelow skips the Terraform versions below version.
func terraformBelow(version, why string) cliSkip {
	return cliSkip{tool: "terraform", below: version, why: why}
}

// terraformFrom skips the Terraform versions from version on.
func terraformFrom(version, why string) cliSkip {
	return cliSkip{tool: "terraform", from: version, why: why}
}

var (
	noPlanInConsole    = cliSkip{why: "the console has no plan, so no plantimestamp"}
	templateStringTF   = terraformBelow("1.9", "templatestring is new in Terraform 1.9")
	tofuOnly           = cliSkip{tool: "terraform", why: "an OpenTofu function, which Terraform does not have"}
	nestedTemplateTofu = cliSkip{tool: "tofu", why: "OpenTofu lets a template call templatefile and templatestring (to a depth of 1024); Terraform and the linter do not, so the linter's value is unknown"}
	coreTF             = terraformBelow("1.8", "the core:: namespace is new in Terraform 1.8")
	templateLiteralTF  = terraformFrom("1.9", "Terraform takes only a reference as templatestring's template; OpenTofu, whose behaviour the linter follows, takes any string")
)

// diffVars are the root module's variables, by name: the HCL of each
// default. Terraform's templatestring takes only a reference as its
// template, so its templates are variables.
var diffVars = map[string]string{
	"tpl":        `"Hello, $${name}!"`,
	"tpl_loop":   `"%%{ for q in queues }$${q};%%{ endfor }"`,
	"tpl_func":   `"$${upper(name)}-$${length(queues)}"`,
	"tpl_value":  `"$${queues}"`,
	"tpl_broken": `"$${"`,
	"tpl_nested": `"$${templatestring(inner, {})}"`,
}

// diffFiles are the files of the working directory, beside main.tf; rsa.pem,
// rsa.b64, big.bin and the symbolic links are made by writeDiffFixture.
var diffFiles = map[string]string{
	"hello.txt":             "Hello World",
	"lines.txt":             "one\ntwo\n",
	"policy.json":           `{"maxReceiveCount": 5, "queues": ["orders", "billing"]}`,
	"capacity.yaml":         "orders:\n  arrival_rate: 5000\n  tags: [a, b]\n",
	"binary.bin":            "\xff\xfe\x00\x01",
	"tpl/redrive.json.tpl":  `{"deadLetterTargetArn": "${arn}", "maxReceiveCount": ${n}}`,
	"tpl/list.tpl":          "%{ for q in queues ~}\n- ${q}\n%{ endfor ~}\n",
	"tpl/value.tpl":         "${queues}",
	"tpl/missing_var.tpl":   "${nope}",
	"tpl/recursive.tpl":     `${templatefile("tpl/recursive.tpl", {})}`,
	"tpl/broken.tpl":        "${",
	"tpl/funcs.tpl":         `${jsonencode({ n = max(1, 2), up = upper("q") })}`,
	"tpl/core.tpl":          `${core::upper("q")}`,
	"tpl/outer.tpl":         `${templatefile("hello.txt", {})}`,
	"sub/a.txt":             "a",
	"sub/b.json":            "{}",
	"sub/deeper/c.json":     "{}",
	"sub/deeper/d.txt":      "d",
	"../outside/secret.txt": "not the configuration's",
	"../outside/t.tpl":      "outside",
}

// diffRows call every built-in function the linter implements (the test
// checks that), with usual and edge arguments and calls that fail.
var diffRows = []diffRow{
	{expr: `abs(-12.5)`}, {expr: `abs(0)`}, {expr: `abs("-3")`}, {expr: `abs("x")`, fails: true}, {expr: `abs()`, fails: true}, {expr: `abs(null)`, fails: true},

	{expr: `abspath("sub/a.txt")`}, {expr: `abspath(".")`}, {expr: `abspath("/x/../y")`}, {expr: `abspath("")`},

	{expr: `alltrue([])`}, {expr: `alltrue([true, "true"])`}, {expr: `alltrue([true, false])`}, {expr: `alltrue([true, null])`},
	{expr: `alltrue(["x"])`, fails: true}, {expr: `alltrue(true)`, fails: true},
	{expr: `anytrue([])`}, {expr: `anytrue([false, "true"])`}, {expr: `anytrue([null, false])`}, {expr: `anytrue(["x"])`, fails: true},

	{expr: `base64decode("SGVsbG8gV29ybGQ=")`}, {expr: `base64decode("")`}, {expr: `base64decode("4piD")`},
	{expr: `base64decode("/w==")`, fails: true}, {expr: `base64decode("!!")`, fails: true}, {expr: `base64decode("SGVsbG8")`, fails: true},
	{expr: `base64encode("Hello World")`}, {expr: `base64encode("")`}, {expr: `base64encode("héllo ☃")`}, {expr: `base64encode(12)`},
	{expr: `base64gunzip("H4sIAAAAAAAA/ypJLS4BAAAA//8BAAD//wx+f9gEAAAA")`, skip: []cliSkip{tofuOnly}}, {expr: `base64gunzip(base64gzip("queue ☃"))`, skip: []cliSkip{tofuOnly}},
	{expr: `base64gunzip("!!")`, fails: true, skip: []cliSkip{tofuOnly}}, {expr: `base64gunzip("aGVsbG8=")`, fails: true, skip: []cliSkip{tofuOnly}},
	{expr: `base64gzip("test")`}, {expr: `base64gzip("")`}, {expr: `base64gzip(join("", [for i in range(200) : "queue"]))`},
	{expr: `base64sha256("hello world")`}, {expr: `base64sha256("")`}, {expr: `base64sha512("hello world")`}, {expr: `base64sha512("☃")`},

	{expr: `basename("foo/bar/baz.txt")`}, {expr: `basename("foo/bar/")`}, {expr: `basename("")`}, {expr: `basename("/")`}, {expr: `basename(".")`},

	{expr: `bcrypt("secret")`, unknown: "a new salt on every run"},
	{expr: `bcrypt("secret", 5)`, unknown: "a new salt on every run"},
	{expr: `bcrypt("secret", 3)`, unknown: "a new salt on every run"},

	{expr: `can(1)`}, {expr: `can(abs("x"))`}, {expr: `can(["a"][3])`}, {expr: `can()`, fails: true},

	{expr: `ceil(1.2)`}, {expr: `ceil(-1.2)`}, {expr: `ceil(5)`}, {expr: `ceil("2.5")`}, {expr: `ceil("x")`, fails: true},
	{expr: `floor(1.8)`}, {expr: `floor(-1.2)`}, {expr: `floor(5)`}, {expr: `floor(true)`, fails: true},

	{expr: `chomp("hello\n")`}, {expr: `chomp("hello\r\n")`}, {expr: `chomp("hello\n\n")`}, {expr: `chomp("")`},

	{expr: `chunklist(["a", "b", "c"], 2)`}, {expr: `chunklist([], 2)`}, {expr: `chunklist(["a", "b"], 0)`}, {expr: `chunklist(["a"], -1)`, fails: true},

	{expr: `cidrhost("10.12.112.0/20", 16)`}, {expr: `cidrhost("10.12.112.0/20", -2)`}, {expr: `cidrhost("10.0.0.0/8", 0)`},
	{expr: `cidrhost("fd00:fd12:3456:7890::/56", 16)`}, {expr: `cidrhost("010.0.0.0/8", 1)`},
	{expr: `cidrhost("10.12.112.0/20", 4096)`, fails: true}, {expr: `cidrhost("not a prefix", 1)`, fails: true}, {expr: `cidrhost("10.0.0.0/8", 1.5)`, fails: true},
	{expr: `cidrcontains("10.0.0.0/8", "10.1.2.3")`, skip: []cliSkip{tofuOnly}}, {expr: `cidrcontains("10.0.0.0/8", "11.0.0.1")`, skip: []cliSkip{tofuOnly}},
	{expr: `cidrcontains("10.0.0.0/8", "10.1.0.0/16")`, skip: []cliSkip{tofuOnly}}, {expr: `cidrcontains("10.0.0.0/16", "10.0.0.0/8")`, skip: []cliSkip{tofuOnly}},
	{expr: `cidrcontains("fd00::/8", "fd00::1")`, skip: []cliSkip{tofuOnly}}, {expr: `cidrcontains("010.0.0.0/8", "010.0.0.1")`, skip: []cliSkip{tofuOnly}},
	{expr: `cidrcontains("10.0.0.0/8", "::ffff:10.0.0.1")`, skip: []cliSkip{tofuOnly}},
	{expr: `cidrcontains("10.0.0.0/8", "fd00::1")`, fails: true, skip: []cliSkip{tofuOnly}}, {expr: `cidrcontains("x", "10.0.0.1")`, fails: true, skip: []cliSkip{tofuOnly}},
	{expr: `cidrcontains("10.0.0.0/8", "y")`, fails: true, skip: []cliSkip{tofuOnly}},
	{expr: `cidrnetmask("172.16.0.0/12")`}, {expr: `cidrnetmask("10.0.0.0/32")`}, {expr: `cidrnetmask("10.0.0.0/0")`},
	{expr: `cidrnetmask("fd00::/8")`, fails: true}, {expr: `cidrnetmask("x")`, fails: true},
	{expr: `cidrsubnet("10.0.0.0/16", 8, 2)`}, {expr: `cidrsubnet("fd00:fd12:3456:7890::/56", 16, 162)`}, {expr: `cidrsubnet("010.0.0.0/16", 8, 2)`},
	{expr: `cidrsubnet("10.0.0.0/16", 0, 0)`},
	{expr: `cidrsubnet("10.0.0.0/30", 8, 2)`, fails: true}, {expr: `cidrsubnet("10.0.0.0/16", 8, 256)`, fails: true}, {expr: `cidrsubnet("10.0.0.0/16", 8, -1)`},
	{expr: `cidrsubnets("10.1.0.0/16", 4, 4, 8, 4)`}, {expr: `cidrsubnets("fd00:fd12:3456:7890::/56", 16, 16, 16, 32)`}, {expr: `cidrsubnets("10.0.0.0/8")`},
	{expr: `cidrsubnets("10.0.0.0/30", 1, 1, 1)`, fails: true}, {expr: `cidrsubnets("10.0.0.0/8", 0)`, fails: true}, {expr: `cidrsubnets("10.0.0.0/8", 33)`, fails: true},
	{expr: `cidrsubnets("10.0.0.0/24", 9)`, fails: true},

	{expr: `coalesce("", "b")`}, {expr: `coalesce(null, 2, 3)`}, {expr: `coalesce(1, "a")`}, {expr: `coalesce(null, "")`, fails: true},
	{expr: `coalesce()`, fails: true}, {expr: `coalesce(["a"], "b")`, fails: true},
	{expr: `coalescelist([], ["a"])`}, {expr: `coalescelist(["a"], ["b"])`}, {expr: `coalescelist(tolist([]), [1, 2])`}, {expr: `coalescelist([], [])`, fails: true},

	{expr: `compact(["a", "", null, "b"])`}, {expr: `compact([])`},
	{expr: `concat(["a"], ["b", "c"])`}, {expr: `concat()`, fails: true}, {expr: `concat(["a"], [1])`}, {expr: `concat(["a"], "b")`, fails: true},
	{expr: `contains(["a", "b"], "a")`}, {expr: `contains(["a", "b"], "c")`}, {expr: `contains(toset(["a"]), "a")`}, {expr: `contains("a", "a")`, fails: true},

	{expr: `csvdecode("a,b\n1,2\n3,4\n")`}, {expr: `csvdecode("a,b\n")`}, {expr: `csvdecode("a,b\n1\n")`, fails: true}, {expr: `csvdecode("")`, fails: true},

	{expr: `dirname("foo/bar/baz.txt")`}, {expr: `dirname("foo")`}, {expr: `dirname("")`}, {expr: `dirname("/")`}, {expr: `dirname("/a//b/")`},

	{expr: `distinct(["a", "b", "a", "c"])`}, {expr: `distinct([])`}, {expr: `distinct([1, "1"])`},

	{expr: `element(["a", "b"], 3)`}, {expr: `element(["a", "b"], 1)`}, {expr: `element([], 0)`, fails: true}, {expr: `element(["a"], 1.5)`, fails: true},

	{expr: `startswith("hello world", "hello")`}, {expr: `startswith("hello", "world")`}, {expr: `startswith("", "")`}, {expr: `startswith(1, "1")`},
	{expr: `endswith("hello world", "world")`}, {expr: `endswith("hello", "hell")`}, {expr: `endswith("☃", "")`},
	{expr: `strcontains("hello world", "wor")`}, {expr: `strcontains("hello", "z")`}, {expr: `strcontains(["a"], "a")`, fails: true},

	{expr: `ephemeralasnull("x")`, skip: []cliSkip{terraformBelow("1.10", "ephemeralasnull is new in Terraform 1.10")}},
	{expr: `ephemeralasnull(null)`, skip: []cliSkip{terraformBelow("1.10", "ephemeralasnull is new in Terraform 1.10")}},

	{expr: `file("hello.txt")`}, {expr: `file("./sub/../lines.txt")`}, {expr: `file("${path.module}/policy.json")`},
	{expr: `file("missing.txt")`, fails: true}, {expr: `file("")`, fails: true}, {expr: `file("binary.bin")`, fails: true}, {expr: `file("sub")`, fails: true},
	{expr: `file("../outside/secret.txt")`, unknown: "outside the configuration's directory tree"},
	{expr: `file("escape/secret.txt")`, unknown: "a symbolic link out of the configuration's directory tree"},
	{expr: `filebase64("binary.bin")`}, {expr: `filebase64("sub/a.txt")`}, {expr: `filebase64("missing.txt")`, fails: true},
	{expr: `filebase64sha256("hello.txt")`}, {expr: `filebase64sha512("binary.bin")`}, {expr: `filemd5("sub/a.txt")`},
	{expr: `filesha1("hello.txt")`}, {expr: `filesha256("binary.bin")`}, {expr: `filesha512("lines.txt")`},
	{expr: `filemd5("missing.txt")`, fails: true}, {expr: `filesha256("sub")`, fails: true},
	{expr: `filesha256("big.bin")`, unknown: "larger than the linter reads (16 MiB)"},
	{expr: `fileexists("hello.txt")`}, {expr: `fileexists("missing.txt")`}, {expr: `fileexists("sub/deeper/c.json")`},
	{expr: `fileexists("sub")`, fails: true}, {expr: `fileexists("")`, fails: true},
	{expr: `fileexists("../outside/secret.txt")`, unknown: "outside the configuration's directory tree"},
	{expr: `fileset(".", "*.txt")`}, {expr: `fileset(path.module, "sub/*")`}, {expr: `fileset("sub", "**/*.json")`}, {expr: `fileset("sub", "{a,b}.*")`},
	{expr: `fileset("sub", "*.yaml")`}, {expr: `fileset("sub", "**")`}, {expr: `fileset("sub", "deeper/?.*")`}, {expr: `fileset("sub", "[ab].*")`},
	{expr: `fileset("missing", "*")`}, {expr: `fileset("hello.txt", "*")`}, {expr: `fileset(".", "")`}, {expr: `fileset(".", "[")`, fails: true},
	{expr: `fileset("../outside", "*")`, unknown: "outside the configuration's directory tree"},
	{expr: `fileset(".", "**/*.txt")`, fails: true}, {expr: `fileset(".", "*/*")`, fails: true},
	{expr: `fileset(".", "escape/*")`, unknown: "a link to a directory the pattern reaches into, which the linter does not follow"},
	{expr: `fileset("links", "in*")`}, {expr: `fileset("links", "*")`, unknown: "a link out of the configuration's directory tree"}, {expr: `fileset("dangling", "*")`, fails: true},

	{expr: `flatten([["a", "b"], [], ["c"]])`}, {expr: `flatten([])`}, {expr: `flatten([[["a"]], "b"])`}, {expr: `flatten("a")`, fails: true},

	{expr: `format("%s-%03d", "orders", 7)`}, {expr: `format("%v|%v|%v", true, 1.5, "x")`}, {expr: `format("%#v", { a = [1] })`}, {expr: `format("%.2f", 3.14159)`},
	{expr: `format("%q", "x\"y")`}, {expr: `format("%5s|%-5s|", "a", "b")`}, {expr: `format("%%")`}, {expr: `format("%x", 255)`},
	{expr: `format("%d", 1.5)`, fails: true}, {expr: `format("%s")`, fails: true}, {expr: `format("%z", 1)`, fails: true},
	{expr: `formatdate("YYYY-MM-DD", "2018-01-02T23:12:01Z")`}, {expr: `formatdate("EEEE, DD-MMM-YY hh:mm:ss ZZZ", "2018-01-02T23:12:01-08:00")`},
	{expr: `formatdate("h:mmaa 'o''clock'", "2018-01-02T13:05:01Z")`}, {expr: `formatdate("YYYY", "2018-01-02")`, fails: true},
	{expr: `formatlist("Hello, %s!", ["a", "b"])`}, {expr: `formatlist("%s=%s", ["a", "b"], ["1", "2"])`}, {expr: `formatlist("%s=%s", "k", ["1", "2"])`},
	{expr: `formatlist("%s", [])`}, {expr: `formatlist("%s=%s", ["a"], ["1", "2"])`, fails: true},

	{expr: `indent(2, "a\nb\n")`}, {expr: `indent(2, "")`}, {expr: `indent(0, "a\nb")`},

	{expr: `index(["a", "b", "c"], "b")`}, {expr: `index(["a", 1], 1)`}, {expr: `index(["a"], "z")`, fails: true}, {expr: `index([], "a")`, fails: true},
	{expr: `index("a", "a")`, fails: true},

	{expr: `issensitive("x")`, unknown: "the linter does not track sensitivity", skip: []cliSkip{terraformBelow("1.8", "issensitive is new in Terraform 1.8")}},
	{expr: `issensitive(sensitive("x"))`, unknown: "the linter does not track sensitivity", skip: []cliSkip{terraformBelow("1.8", "issensitive is new in Terraform 1.8")}},

	{expr: `join(", ", ["a", "b"])`}, {expr: `join(", ", [])`}, {expr: `join(",", ["a"], ["b", "c"])`}, {expr: `join(",", [1, true])`},
	{expr: `join(",", [null])`, fails: true}, {expr: `join(",")`, fails: true},

	{expr: `jsondecode("{\"a\": [1, \"x\", null]}")`}, {expr: `jsondecode("[]")`}, {expr: `jsondecode("null")`}, {expr: `jsondecode("1e3")`},
	{expr: `jsondecode("123456789012345678901234567890")`}, {expr: `jsondecode("{")`, fails: true}, {expr: `jsondecode("")`, fails: true},
	{expr: `jsonencode({ b = 1, a = [true, null, "x"] })`}, {expr: `jsonencode("<a&b>")`}, {expr: `jsonencode(tolist([]))`}, {expr: `jsonencode(0.1)`},

	{expr: `keys({ b = 1, a = 2 })`}, {expr: `keys({})`}, {expr: `keys(tomap({ b = 1, a = 2 }))`}, {expr: `keys(["a"])`, fails: true},
	{expr: `values({ b = 1, a = 2 })`}, {expr: `values({})`}, {expr: `values(tomap({ b = "x", a = "y" }))`}, {expr: `values(["a"])`, fails: true},

	{expr: `length("héllo")`}, {expr: `length("👩‍👩‍👧")`}, {expr: `length("")`}, {expr: `length(["a", "b"])`}, {expr: `length({ a = 1, b = 2 })`},
	{expr: `length(tomap({ a = 1 }))`}, {expr: `length(toset(["a", "a"]))`}, {expr: `length(1)`, fails: true}, {expr: `length(null)`, fails: true},

	{expr: `log(16, 2)`}, {expr: `log(1, 10)`}, {expr: `log(10, 10)`},

	{expr: `lookup({ a = "x" }, "a")`}, {expr: `lookup({ a = "x" }, "b", "y")`}, {expr: `lookup(tomap({ a = 1 }), "b", 2)`}, {expr: `lookup(tomap({ a = 1 }), "a")`},
	{expr: `lookup({ a = { b = 1 } }, "a")`}, {expr: `lookup({ a = "x" }, "b")`, fails: true}, {expr: `lookup(tomap({ a = 1 }), "b")`, fails: true},
	{expr: `lookup(["a"], "0")`, fails: true}, {expr: `lookup({ a = 1 }, "a", 1, 2)`, fails: true}, {expr: `lookup(tomap({ a = 1 }), "b", [])`, fails: true},

	{expr: `lower("HÉLLO")`}, {expr: `upper("héllo")`}, {expr: `title("hello world")`}, {expr: `title("")`},

	{expr: `matchkeys(["i-123", "i-abc", "i-def"], ["us-west", "us-east", "us-east"], ["us-east"])`},
	{expr: `matchkeys(["a", "b"], [1, 2], [2, 3])`}, {expr: `matchkeys(["a"], ["x"], [])`}, {expr: `matchkeys(["a", "b"], ["x"], ["x"])`, fails: true},

	{expr: `max(1, 5, 3)`}, {expr: `max("2", 1)`}, {expr: `max([1, 7]...)`}, {expr: `max()`, fails: true}, {expr: `max("x", 1)`, fails: true},
	{expr: `min(1, 5, 3)`}, {expr: `min(-1.5, 0)`}, {expr: `min()`, fails: true},

	{expr: `md5("hello world")`}, {expr: `md5("")`}, {expr: `sha1("hello world")`}, {expr: `sha256("hello world")`}, {expr: `sha256("☃")`}, {expr: `sha512("hello world")`},

	{expr: `merge({ a = 1 }, { b = 2 })`}, {expr: `merge({ a = 1 }, { a = "x" })`}, {expr: `merge()`}, {expr: `merge({ a = 1 }, null)`},
	{expr: `merge(tomap({ a = 1 }), tomap({ b = 2 }))`}, {expr: `merge(["a"])`, fails: true},

	{expr: `nonsensitive(sensitive("x"))`}, {expr: `nonsensitive(sensitive({ a = [1] }))`},
	{expr: `nonsensitive("x")`, skip: []cliSkip{terraformBelow("1.7", "nonsensitive rejects a value that is not sensitive before Terraform 1.7")}},

	{expr: `one([])`}, {expr: `one([1])`}, {expr: `one(toset(["a"]))`}, {expr: `one(tolist([]))`}, {expr: `one([1, 2])`, fails: true},
	{expr: `one({})`, fails: true}, {expr: `one("a")`, fails: true},

	{expr: `parseint("100", 10)`}, {expr: `parseint("FF", 16)`}, {expr: `parseint("-12", 8)`}, {expr: `parseint("zz", 36)`},
	{expr: `parseint("12", 1)`, fails: true}, {expr: `parseint("x", 10)`, fails: true}, {expr: `parseint("", 10)`, fails: true},

	{expr: `pathexpand("a/b")`}, {expr: `pathexpand("/a/~b")`}, {expr: `pathexpand("~/a")`, unknown: "a home directory is the machine's, not the configuration's"},

	{expr: `plantimestamp()`, unknown: "known only when a plan is made", skip: []cliSkip{noPlanInConsole}},
	{expr: `timestamp()`, unknown: "a new time on every run"},
	{expr: `uuid()`, unknown: "a new UUID on every run"},

	{expr: `pow(3, 2)`}, {expr: `pow(4, 0.5)`}, {expr: `pow(2, -1)`}, {expr: `pow(0, 0)`}, {expr: `pow("x", 1)`, fails: true},

	{expr: `range(3)`}, {expr: `range(1, 4)`}, {expr: `range(1, 8, 2)`}, {expr: `range(5, 1)`}, {expr: `range(1, 1)`}, {expr: `range(0, 1, 0.25)`},
	{expr: `range(0, 1, 0)`, fails: true}, {expr: `range(1, 2, 3, 4)`, fails: true}, {expr: `range(0, 5, -1)`, fails: true},

	{expr: `regex("[a-z]+", "53453453.345345aaabbbccc23454")`}, {expr: `regex("(\\d\\d\\d\\d)-(\\d\\d)", "2019-02-01")`},
	{expr: `regex("^(?P<user>[^@]+)@(?P<domain>.+)$", "me@example.com")`}, {expr: `regex("z", "abc")`, fails: true}, {expr: `regex("(", "abc")`, fails: true},
	{expr: `regexall("[a-z]+", "1234abcd5678efgh9")`}, {expr: `regexall("z", "abc")`}, {expr: `regexall("(a)(b)?", "ab a")`},

	{expr: `replace("1 + 2 + 3", "+", "-")`}, {expr: `replace("hello world", "/w.*d/", "everybody")`}, {expr: `replace("hello world", "/(h)(e)/", "$2$1")`},
	{expr: `replace("a/b", "/", "|")`}, {expr: `replace("abc", "", "-")`}, {expr: `replace("abc", "/(/", "x")`, fails: true},

	{expr: `reverse([1, 2, 3])`}, {expr: `reverse([])`}, {expr: `reverse("abc")`, fails: true},
	{expr: `strrev("hello")`}, {expr: `strrev("☃ab")`}, {expr: `strrev("")`},

	{expr: `rsadecrypt(file("rsa.b64"), file("rsa.pem"))`, unknown: "a secret never sizes a queue and must not reach lint output"},
	{expr: `rsadecrypt("bm90IGNpcGhlcnRleHQ=", file("rsa.pem"))`, unknown: "a secret never sizes a queue and must not reach lint output", fails: true},

	{expr: `setintersection(["a", "b"], ["b", "c"], ["b", "d"])`}, {expr: `setintersection(["a"], [])`},
	{expr: `setproduct(["a", "b"], [1, 2])`}, {expr: `setproduct(["a"], [])`}, {expr: `setproduct()`, fails: true},
	{expr: `setsubtract(["a", "b", "c"], ["a", "c"])`}, {expr: `setsubtract([], ["a"])`},
	{expr: `setunion(["a", "b"], ["b", "c"], ["d"])`}, {expr: `setunion(["a"], [1])`}, {expr: `setunion(["a"], [["b"]])`, fails: true},

	{expr: `signum(-3)`}, {expr: `signum(0)`}, {expr: `signum(0.5)`, fails: true},

	{expr: `slice(["a", "b", "c", "d"], 1, 3)`}, {expr: `slice(["a"], 0, 0)`}, {expr: `slice(["a"], 0, 2)`, fails: true}, {expr: `slice(["a", "b"], 2, 1)`, fails: true},
	{expr: `sort(["e", "d", "a"])`}, {expr: `sort([3, 20, 1])`}, {expr: `sort([])`}, {expr: `sort([["a"]])`, fails: true},

	{expr: `split(",", "a,b,c")`}, {expr: `split(",", "")`}, {expr: `split("", "abc")`}, {expr: `split(",", "a")`},

	{expr: `strlen("abc")`, fails: true},

	{expr: `substr("hello world", 1, 4)`}, {expr: `substr("hello", -3, -1)`}, {expr: `substr("héllo", 1, 2)`}, {expr: `substr("hello", 2, 100)`},
	{expr: `substr("hello", 10, 1)`}, {expr: `substr("hello", 1.5, 1)`, fails: true},

	{expr: `sum([10, 13, 6, 2])`}, {expr: `sum(["1", 2.5])`}, {expr: `sum(toset([1, 2]))`}, {expr: `sum([0.1, 0.2])`},
	{expr: `sum([])`, fails: true}, {expr: `sum([null])`, fails: true}, {expr: `sum({ a = 1 })`, fails: true}, {expr: `sum(1)`, fails: true}, {expr: `sum(["x"])`, fails: true},

	{expr: `templatefile("tpl/redrive.json.tpl", { arn = "arn:aws:sqs:eu-west-1:1:dlq", n = 3 })`}, {expr: `templatefile("tpl/list.tpl", { queues = ["a", "b"] })`},
	{expr: `templatefile("tpl/value.tpl", { queues = ["a", "b"] })`}, {expr: `templatefile("tpl/funcs.tpl", {})`}, {expr: `templatefile("hello.txt", tomap({}))`},
	{expr: `templatefile("tpl/missing_var.tpl", {})`, fails: true}, {expr: `templatefile("tpl/recursive.tpl", {})`, fails: true},
	{expr: `templatefile("tpl/outer.tpl", {})`, fails: true, skip: []cliSkip{nestedTemplateTofu}},
	{expr: `templatefile("tpl/broken.tpl", {})`, fails: true}, {expr: `templatefile("missing.tpl", {})`, fails: true},
	{expr: `templatefile("hello.txt", "x")`, fails: true}, {expr: `templatefile("hello.txt", { "not-an-identifier" = 1 })`}, {expr: `templatefile("hello.txt", { "1st" = 1 })`, fails: true},
	{expr: `templatefile("binary.bin", {})`, fails: true}, {expr: `templatefile("tpl/core.tpl", {})`, skip: []cliSkip{coreTF}},
	{expr: `templatefile("../outside/t.tpl", {})`, unknown: "outside the configuration's directory tree"},

	{expr: `templatestring(var.tpl, { name = "queues" })`, skip: []cliSkip{templateStringTF}},
	{expr: `templatestring(var.tpl_loop, { queues = ["a", "b"] })`, skip: []cliSkip{templateStringTF}},
	{expr: `templatestring(var.tpl_func, { name = "q", queues = [1] })`, skip: []cliSkip{templateStringTF}},
	{expr: `templatestring(var.tpl_value, { queues = ["a"] })`, skip: []cliSkip{templateStringTF, terraformFrom("1.9", "Terraform requires templatestring to render a string; OpenTofu, whose behaviour the linter follows, returns any value, as templatefile does")}},
	{expr: `templatestring(var.tpl, {})`, fails: true, skip: []cliSkip{templateStringTF}},
	{expr: `templatestring(var.tpl_broken, {})`, fails: true, skip: []cliSkip{templateStringTF}},
	{expr: `templatestring(var.tpl_nested, { inner = "x" })`, fails: true, skip: []cliSkip{templateStringTF, nestedTemplateTofu}},
	{expr: `templatestring(var.tpl, "x")`, fails: true, skip: []cliSkip{templateStringTF}},
	{expr: `templatestring("Hi $${name}", { name = "q" })`, skip: []cliSkip{templateStringTF, templateLiteralTF}},

	{expr: `textencodebase64("Hello World", "UTF-16LE")`}, {expr: `textencodebase64("Hello", "ISO-8859-1")`}, {expr: `textencodebase64("", "UTF-8")`},
	{expr: `textencodebase64("☃", "ISO-8859-1")`, fails: true}, {expr: `textencodebase64("a", "no-such-encoding")`, fails: true},
	{expr: `textdecodebase64("SABlAGwAbABvACAAVwBvAHIAbABkAA==", "UTF-16LE")`}, {expr: `textdecodebase64("aGk=", "windows-1252")`},
	{expr: `textdecodebase64("!!", "UTF-8")`, fails: true}, {expr: `textdecodebase64("aGk=", "no-such-encoding")`, fails: true},

	{expr: `timeadd("2017-11-22T00:00:00Z", "10m")`}, {expr: `timeadd("2017-11-22T00:00:00+01:00", "-1h30m")`}, {expr: `timeadd("2017-11-22T00:00:00Z", "1.5s")`},
	{expr: `timeadd("2017-11-22T00:00:00Z", "1d")`, fails: true}, {expr: `timeadd("2017-11-22", "1h")`, fails: true},
	{expr: `timecmp("2017-11-22T00:00:00Z", "2017-11-22T01:00:00Z")`}, {expr: `timecmp("2017-11-22T01:00:00+01:00", "2017-11-22T00:00:00Z")`},
	{expr: `timecmp("2017-11-22T02:00:00Z", "2017-11-22T01:00:00Z")`}, {expr: `timecmp("2017-11-22", "2017-11-22T01:00:00Z")`, fails: true},

	{expr: `tobool(true)`}, {expr: `tobool("false")`}, {expr: `tobool(null)`}, {expr: `tobool("x")`, fails: true}, {expr: `tobool(1)`, fails: true},
	{expr: `tolist(["a", 1])`}, {expr: `tolist(toset(["b", "a"]))`}, {expr: `tolist([])`}, {expr: `tolist(null)`},
	{expr: `tolist([[], "a"])`, fails: true}, {expr: `tolist({ a = 1 })`, fails: true},
	{expr: `tomap({ a = 1, b = "x" })`}, {expr: `tomap({})`}, {expr: `tomap({ a = [1], b = "x" })`, fails: true}, {expr: `tomap(["a"])`, fails: true},
	{expr: `tonumber("1")`}, {expr: `tonumber("1e3")`}, {expr: `tonumber(null)`}, {expr: `tonumber("x")`, fails: true}, {expr: `tonumber(true)`, fails: true},
	{expr: `toset(["c", "b", "c"])`}, {expr: `toset([1, "1"])`}, {expr: `toset([])`}, {expr: `toset({ a = 1 })`, fails: true},
	{expr: `tostring(1)`}, {expr: `tostring(true)`}, {expr: `tostring(null)`}, {expr: `tostring([1])`, fails: true},

	{expr: `transpose({ a = ["1", "2"], b = ["2", "3"] })`}, {expr: `transpose({})`}, {expr: `transpose({ a = [] })`}, {expr: `transpose({ a = "1" })`, fails: true},

	{expr: `trim("?!hello?!", "!?")`}, {expr: `trim("", "x")`}, {expr: `trimprefix("helloworld", "hello")`}, {expr: `trimprefix("hello", "x")`},
	{expr: `trimsuffix("helloworld", "world")`}, {expr: `trimspace("  hello\n\t")`}, {expr: `trimspace("")`},

	{expr: `try(["a"][1], "d")`}, {expr: `try(1, "x")`}, {expr: `try(abs("x"))`, fails: true}, {expr: `try()`, fails: true},

	{expr: `urlencode("Hello World!")`}, {expr: `urlencode("a/b?c=d&e=☃")`}, {expr: `urlencode("~-._")`},
	{expr: `urldecode("Hello+World%21")`, skip: []cliSkip{tofuOnly}}, {expr: `urldecode(urlencode("a/b?c=d&e=☃"))`, skip: []cliSkip{tofuOnly}},
	{expr: `urldecode("%zz")`, fails: true, skip: []cliSkip{tofuOnly}},

	{expr: `uuidv5("dns", "www.terraform.io")`}, {expr: `uuidv5("url", "https://example.com")`}, {expr: `uuidv5("oid", "1.2.3")`}, {expr: `uuidv5("x500", "cn=x")`},
	{expr: `uuidv5("6ba7b810-9dad-11d1-80b4-00c04fd430c8", "x")`}, {expr: `uuidv5("nope", "x")`, fails: true},

	{expr: `yamldecode("orders:\n  arrival_rate: 5000\n  tags: [a, b]\n")`}, {expr: `yamldecode("- 1\n- true\n- x\n- null\n")`}, {expr: `yamldecode("1.5")`},
	{expr: `yamldecode("a: &x 1\nb: *x\n")`}, {expr: `yamldecode("")`, fails: true}, {expr: `yamldecode("a: 1\n---\nb: 2\n")`, fails: true}, {expr: `yamldecode("a: [")`, fails: true},
	{expr: `yamldecode(file("capacity.yaml")).orders.arrival_rate`},
	{expr: `yamlencode({ a = "b", c = [1, true, null] })`}, {expr: `yamlencode("x\ny")`}, {expr: `yamlencode([])`}, {expr: `yamlencode(1e20)`},

	// The core:: namespace names the same functions.
	{expr: `core::abs(-1)`, skip: []cliSkip{coreTF}}, {expr: `core::max(1, 2)`, skip: []cliSkip{coreTF}}, {expr: `core::file("hello.txt")`, skip: []cliSkip{coreTF}},
	{expr: `core::fileset("sub", "*")`, skip: []cliSkip{coreTF}}, {expr: `core::abs("x")`, fails: true, skip: []cliSkip{coreTF}}, {expr: `nope::abs(1)`, fails: true, skip: []cliSkip{terraformBelow("1.8", "Terraform before 1.8 does not parse a function name with a namespace")}},

	{expr: `zipmap(["a", "b"], [1, 2])`}, {expr: `zipmap([], [])`}, {expr: `zipmap(["a", "a"], [1, 2])`}, {expr: `zipmap(["a"], [1, 2])`, fails: true},
}

// diffOutcome is what one side makes of a row: unknown (the linter only),
// a failure, or the value as jsonencode writes it.
type diffOutcome struct {
	known, ok bool
	json      string
}

func (o diffOutcome) String() string {
	switch {
	case !o.known:
		return "unknown"
	case !o.ok:
		return "fails"
	}
	return o.json
}

// diffProbe is the expression each side evaluates for a row: the row's
// value as JSON, or false when it fails. The console prints one value and
// stops at the first error, so many probes go in one expression.
func diffProbe(expr string) string { return "try(jsonencode(" + expr + "), false)" }

// TestFunctionsAgainstCLIs is the differential test of the linter's
// built-in functions: each row of diffRows is evaluated by the linter and
// by `console` of Terraform 1.5.7, OpenTofu 1.12.6 and the terraform on
// PATH (each skipped when not installed), in the same working directory,
// and the results must be equal, or all fail. docs/provenance.md says
// what each function follows and why a row may differ.
func TestFunctionsAgainstCLIs(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "root")
	writeDiffFixture(t, dir)

	vars := map[string]cty.Value{}
	for name, src := range diffVars {
		expr, diags := hclsyntax.ParseExpression([]byte(src), "main.tf", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("variable %s: %s", name, diags)
		}
		v, diags := expr.Value(nil)
		if diags.HasErrors() {
			t.Fatalf("variable %s: %s", name, diags)
		}
		vars[name] = v
	}
	in := newInstance(&Module{Dir: dir}, "", nil, vars)

	called := map[string]bool{}
	linter := make([]diffOutcome, len(diffRows))
	for i, row := range diffRows {
		for _, name := range calledFunctions(t, row.expr) {
			called[name] = true
		}
		got, _ := evalExpr(t, in, diffProbe(row.expr)).UnmarkDeep()
		linter[i] = outcomeOf(got)
		want := "a value"
		switch {
		case row.unknown != "":
			want = "unknown"
		case row.fails:
			want = "fails"
		}
		if ok := linter[i].String() == want || want == "a value" && linter[i].ok; !ok {
			t.Errorf("linter: %s = %s, want %s", row.expr, linter[i], want)
		}
	}
	var missing []string
	for name := range in.evalFunctions() {
		if !called[name] && !strings.Contains(name, "::") {
			missing = append(missing, name)
		}
	}
	if slices.Sort(missing); len(missing) > 0 {
		t.Errorf("no row calls %s: add rows for every function the linter implements", strings.Join(missing, ", "))
	}

	for _, cli := range testaws.CLIs() {
		// One at a time: each console locks the directory's state.
		t.Run(cli.Name, func(t *testing.T) {
			compareWithCLI(t, cli, dir, linter, in.evalFunctions())
		})
	}
}

// writeDiffFixture writes the working directory both sides read: main.tf
// declaring diffVars, diffFiles, an RSA key with a message encrypted to
// it, a file above the linter's limit and links out of the tree.
func writeDiffFixture(t *testing.T, dir string) {
	t.Helper()
	var main strings.Builder
	for _, name := range sortedKeys(diffVars) {
		fmt.Fprintf(&main, "variable %q {\n  default = %s\n}\n", name, diffVars[name])
	}
	files := map[string]string{"main.tf": main.String()}
	for name, content := range diffFiles {
		files[name] = content
	}
	key, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	ciphertext, err := rsa.EncryptPKCS1v15(rand.Reader, &key.PublicKey, []byte("queue password")) //nolint:staticcheck // rsadecrypt takes PKCS #1 v1.5 ciphertext

	if err != nil {
		t.Fatal(err)
	}
	files["rsa.pem"] = string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}))
	files["rsa.b64"] = base64.StdEncoding.EncodeToString(ciphertext)
	files["big.bin"] = strings.Repeat("q", maxFileBytes+1)
	WriteFiles(t, dir, files)
	for link, target := range map[string]string{
		"escape":           "../outside",
		"links/inside.txt": "../hello.txt",
		"links/out.txt":    "../../outside/secret.txt",
		"dangling/x.txt":   "nothing",
	} {
		p := filepath.Join(dir, link)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
}

// calledFunctions are the names of the functions expr calls.
func calledFunctions(t *testing.T, expr string) []string {
	t.Helper()
	e, diags := hclsyntax.ParseExpression([]byte(expr), "row", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("%s: %s", expr, diags)
	}
	var names []string
	_ = hclsyntax.VisitAll(e, func(n hclsyntax.Node) hcl.Diagnostics {
		if call, ok := n.(*hclsyntax.FunctionCallExpr); ok {
			names = append(names, call.Name)
		}
		return nil
	})
	return names
}

func outcomeOf(v cty.Value) diffOutcome {
	switch {
	case !v.IsKnown():
		return diffOutcome{}
	case v.Type() == cty.String:
		return diffOutcome{known: true, ok: true, json: v.AsString()}
	}
	return diffOutcome{known: true}
}

// compareWithCLI checks that the linter has every function cli lists, runs
// the rows cli can run in console sessions and compares each outcome with
// the linter's.
func compareWithCLI(t *testing.T, cli testaws.CLI, dir string, linter []diffOutcome, linterFuncs map[string]function.Function) {
	if cli.Path == "" {
		t.Skip("no terraform on PATH")
	}
	if _, err := os.Stat(cli.Path); err != nil {
		t.Skipf("%s is not installed (make test builds it with tools/install-cli.sh)", cli.Path)
	}
	c := newConsole(t, cli.Path, dir)
	out, err := c.run(nil, "metadata", "functions", "-json")
	if err != nil {
		t.Fatalf("metadata functions: %v", err)
	}
	var meta struct {
		Signatures map[string]json.RawMessage `json:"function_signatures"`
	}
	if err := json.Unmarshal(out, &meta); err != nil || len(meta.Signatures) == 0 {
		t.Fatalf("metadata functions printed %.200q, not a list of functions", out)
	}
	for _, name := range sortedKeys(meta.Signatures) {
		if _, ok := linterFuncs[name]; !ok {
			t.Errorf("%s %s has the function %s, which the linter does not", c.tool, c.version, name)
		}
	}
	var rows []int
	skipped := map[string]int{}
	for i, row := range diffRows {
		if why := c.skips(row.skip); why != "" {
			skipped[why]++
			continue
		}
		rows = append(rows, i)
	}
	start := time.Now()
	got, sessions := c.evalAll(t, rows)
	t.Logf("%s %s: %d rows in %d console sessions, %s", c.tool, c.version, len(rows), sessions, time.Since(start).Round(time.Millisecond))
	for _, why := range sortedKeys(skipped) {
		t.Logf("skipped %d rows: %s", skipped[why], why)
	}
	for k, i := range rows {
		row, cliGot := diffRows[i], got[k]
		switch {
		case row.fails && cliGot.ok:
			t.Errorf("%s = %s in %s %s, want a failure", row.expr, cliGot, c.tool, c.version)
		case !row.fails && !cliGot.ok:
			t.Errorf("%s fails in %s %s: %s", row.expr, c.tool, c.version, c.explain(t, row.expr))
		case row.unknown == "" && linter[i] != cliGot:
			t.Errorf("%s\n linter: %s\n %s %s: %s", row.expr, linter[i], c.tool, c.version, cliGot)
		}
	}
}

// console runs a CLI's console in the fixture directory.
type console struct {
	path, dir, tool, version string
	env                      []string
}

func newConsole(t *testing.T, path, dir string) *console {
	t.Helper()
	tmp := t.TempDir()
	rc := filepath.Join(tmp, "cli.tfrc")
	if err := os.WriteFile(rc, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	c := &console{path: path, dir: dir, env: append(testaws.CleanEnv(),
		"TF_CLI_CONFIG_FILE="+rc, "TF_DATA_DIR="+filepath.Join(tmp, "data"), "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")}
	out, err := c.run(nil, "version", "-json")
	if err != nil {
		t.Fatalf("%s version -json: %v", path, err)
	}
	var v struct {
		Version string `json:"terraform_version"`
	}
	if err := json.Unmarshal(out, &v); err != nil || v.Version == "" {
		t.Fatalf("%s version -json: %q", path, out)
	}
	c.version = v.Version
	c.tool = "terraform"
	if strings.Contains(filepath.Base(path), "tofu") {
		c.tool = "tofu"
	}
	return c
}

func (c *console) run(stdin []byte, args ...string) ([]byte, error) {
	cmd := exec.Command(c.path, append(args, "-no-color")...)
	cmd.Dir, cmd.Env, cmd.Stdin = c.dir, c.env, bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("%w: %s", err, bytes.TrimSpace(stderr.Bytes()))
	}
	return out, nil
}

// skips is why the console cannot run a row, "" when it can.
func (c *console) skips(skips []cliSkip) string {
	for _, s := range skips {
		if (s.tool == "" || s.tool == c.tool) && (s.from == "" || !versionBelow(c.version, s.from)) && (s.below == "" || versionBelow(c.version, s.below)) {
			return s.why
		}
	}
	return ""
}

// versionBelow compares dotted versions numerically, ignoring a suffix.
func versionBelow(v, than string) bool {
	a, b := strings.Split(strings.SplitN(v, "-", 2)[0], "."), strings.Split(than, ".")
	for i := range b {
		if i >= len(a) {
			return true
		}
		x, _ := strconv.Atoi(a[i])
		y, _ := strconv.Atoi(b[i])
		if x != y {
			return x < y
		}
	}
	return false
}

// maxConsoleLine keeps a session's line well under the 64 KiB a console
// line may hold (bufio.Scanner's default).
const maxConsoleLine = 48 << 10

// evalAll evaluates the rows in as few sessions as the line length allows:
// each session is one line, a tuple of every row's probe, JSON-encoded.
func (c *console) evalAll(t *testing.T, rows []int) ([]diffOutcome, int) {
	t.Helper()
	var out []diffOutcome
	sessions := 0
	for len(rows) > 0 {
		n, size := 0, 0
		for n < len(rows) && (n == 0 || size+len(diffProbe(diffRows[rows[n]].expr)) < maxConsoleLine) {
			size += len(diffProbe(diffRows[rows[n]].expr)) + 2
			n++
		}
		got, err := c.evalRows(rows[:n])
		sessions++
		if err != nil {
			if _, err := c.eval("jsonencode([])"); err != nil {
				t.Fatalf("console: %v", err)
			}
			c.findRejected(t, rows[:n])
			t.FailNow()
		}
		out = append(out, got...)
		rows = rows[n:]
	}
	return out, sessions
}

// evalRows is one session's outcomes.
func (c *console) evalRows(rows []int) ([]diffOutcome, error) {
	probes := make([]string, len(rows))
	for k, i := range rows {
		probes[k] = diffProbe(diffRows[i].expr)
	}
	got, err := c.eval("jsonencode([" + strings.Join(probes, ", ") + "])")
	if err != nil {
		return nil, err
	}
	if got.Type() != cty.String {
		return nil, fmt.Errorf("the console printed %#v, not a string", got)
	}
	var results []json.RawMessage
	if err := json.Unmarshal([]byte(got.AsString()), &results); err != nil || len(results) != len(rows) {
		return nil, fmt.Errorf("the console printed %q, not a JSON array of %d results", got.AsString(), len(rows))
	}
	out := make([]diffOutcome, len(rows))
	for k, r := range results {
		var s string
		out[k] = diffOutcome{known: true, ok: json.Unmarshal(r, &s) == nil, json: s}
	}
	return out, nil
}

// findRejected reports the rows whose probes break a session, halving
// the rows to find them in few sessions.
func (c *console) findRejected(t *testing.T, rows []int) {
	t.Helper()
	if _, err := c.evalRows(rows); err == nil {
		return
	} else if len(rows) == 1 {
		t.Errorf("%s: the console rejects its probe: %v", diffRows[rows[0]].expr, err)
		return
	}
	c.findRejected(t, rows[:len(rows)/2])
	c.findRejected(t, rows[len(rows)/2:])
}

// eval is the value one console session prints for a one-line
// expression, read back from the HCL the console writes.
func (c *console) eval(line string) (cty.Value, error) {
	out, err := c.run([]byte(line+"\n"), "console")
	if err != nil {
		return cty.NilVal, err
	}
	printed := bytes.TrimSpace(out)
	expr, diags := hclsyntax.ParseExpression(printed, "console", hcl.InitialPos)
	if diags.HasErrors() {
		return cty.NilVal, fmt.Errorf("the console printed %q", printed)
	}
	v, diags := expr.Value(nil)
	if diags.HasErrors() || !v.IsWhollyKnown() {
		return cty.NilVal, fmt.Errorf("the console printed %q, not a known value", printed)
	}
	return v, nil
}

// explain is the console's error for expr, for a row that fails where it
// should not.
func (c *console) explain(t *testing.T, expr string) string {
	t.Helper()
	if _, err := c.run([]byte(expr+"\n"), "console"); err != nil {
		return err.Error()
	}
	return "it succeeds alone, but not inside try()"
}
