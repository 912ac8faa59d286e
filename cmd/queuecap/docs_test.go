// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/queuecap/terraform-provider-queuecap/internal/capacity"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/lint/rules"
)

// docExample is a configuration in the docs and the output the docs say
// `queuecap lint` prints for it.
type docExample struct {
	file     string
	line     int
	config   string
	args     []string
	stdout   string
	exitCode int // -1 when the docs do not show it
}

// readDocExamples pairs every ```console block that runs `queuecap lint`
// with the ```hcl block before it, with nothing but blank lines and other
// such console blocks between: its main.tf. Variants described in prose
// between the two are not run.
func readDocExamples(t *testing.T, path string) []docExample {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var (
		out              []docExample
		lastHCL          string
		fence, blockLine int
		block            []string
		info             string
	)
	sc := bufio.NewScanner(bytes.NewReader(src))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if fence == 0 && strings.TrimSpace(line) != "" && !strings.HasPrefix(line, "```") {
			lastHCL = "" // prose: the next console block is not this configuration's
		}
		if after, ok := strings.CutPrefix(line, "```"); ok {
			if fence == 0 {
				fence, blockLine, info, block = 1, n, after, nil
				continue
			}
			fence = 0
			switch {
			case info == "hcl":
				lastHCL = strings.Join(block, "\n") + "\n"
			case info == "console" && lastHCL != "" && len(block) > 0 && strings.HasPrefix(block[0], "$ queuecap lint"):
				ex := docExample{file: filepath.Base(path), line: blockLine, config: lastHCL, args: strings.Fields(block[0])[3:], exitCode: -1}
				var stdout []string
				for i := 1; i < len(block); i++ {
					if block[i] == "$ echo $?" && i+1 < len(block) {
						ex.exitCode, _ = strconv.Atoi(block[i+1])
						break
					}
					stdout = append(stdout, block[i])
				}
				if len(stdout) > 0 {
					ex.stdout = strings.Join(stdout, "\n") + "\n"
				}
				out = append(out, ex)
			}
			continue
		}
		if fence == 1 {
			block = append(block, line)
		}
	}
	return out
}

// TestDocsExamples runs every rule documentation example and checks that
// the docs show exactly what the linter prints: docs that drift from the
// rules fail here.
func TestDocsExamples(t *testing.T) {
	paths, err := filepath.Glob("../../docs/rules/*.md")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no rule docs found: %v", err)
	}
	count := 0
	for _, path := range paths {
		path, err := filepath.Abs(path) // the examples run in their own directory
		if err != nil {
			t.Fatal(err)
		}
		for _, ex := range readDocExamples(t, path) {
			count++
			t.Run(ex.file+":"+strconv.Itoa(ex.line), func(t *testing.T) {
				dir := t.TempDir()
				if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(ex.config), 0o644); err != nil {
					t.Fatal(err)
				}
				t.Chdir(dir)
				var stdout, stderr bytes.Buffer
				code := run(append([]string{"lint"}, ex.args...), &stdout, &stderr)
				if got := stdout.String(); got != ex.stdout {
					if *update {
						rewriteDocExample(t, path, ex, got)
						return
					}
					t.Errorf("output differs from the docs (run with -update to accept):\n--- docs\n%s--- queuecap lint %s\n%s", ex.stdout, strings.Join(ex.args, " "), got)
				}
				if ex.exitCode >= 0 && code != ex.exitCode {
					t.Errorf("exit code %d, the docs say %d (stderr: %s)", code, ex.exitCode, stderr.String())
				}
			})
		}
	}
	if count < 7 {
		t.Errorf("found %d examples in docs/rules, want at least one per rule", count)
	}
}

// rewriteDocExample replaces the output the docs show for ex, the lines
// after its command up to `$ echo $?` or the end of the block, with got.
func rewriteDocExample(t *testing.T, path string, ex docExample, got string) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	start := ex.line // the command, after the opening fence
	if start >= len(lines) || !strings.HasPrefix(lines[start], "$ queuecap lint") {
		// An earlier example of the file changed its length.
		t.Fatalf("%s:%d moved: run with -update again", path, ex.line)
	}
	start++
	end := start
	for end < len(lines) && lines[end] != "$ echo $?" && !strings.HasPrefix(lines[end], "```") {
		end++
	}
	out := append(append(slices.Clone(lines[:start]), strings.Split(strings.TrimSuffix(got, "\n"), "\n")...), lines[end:]...)
	if err := os.WriteFile(path, []byte(strings.Join(out, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// generatedSections are the parts of the docs written from code, each
// between a line starting "<!-- BEGIN name" and the line "<!-- END name -->".
var generatedSections = []struct {
	file, name string
	content    func() string
}{
	{"../../README.md", "providers", providerTable},
	{"../../README.md", "rules", func() string { return ruleTable("docs/rules/") }},
	{"../../docs/rules/README.md", "rules", func() string { return ruleTable("") }},
	{"../../docs/rules/README.md", "rate-precedence", ratePrecedenceTable},
	{"../../docs/ci.md", "runtask-serve-help", runtaskServeHelp},
	{"../../docs/rates.md", "rates-help", func() string { return commandHelp("rates", ratesCommand(&ratesFlags{})) }},
	{"../../docs/aws-limits.md", "aws-limits", func() string { return capacity.DefaultAWSLimits().Markdown() }},
	{"../../docs/rules/README.md", "init-help", func() string { return commandHelp("init", initCommand(&lintFlags{})) }},
}

// runtaskServeHelp is `queuecap runtask serve --help` as a code block.
func runtaskServeHelp() string {
	return commandHelp("runtask serve", serveCommand(&serveFlags{}))
}

// commandHelp is `queuecap NAME --help` as a code block.
func commandHelp(name string, cmd *command) string {
	var help bytes.Buffer
	cmd.usage(&help)
	return "```text\n$ queuecap " + name + " --help\n" + help.String() + "```\n"
}

// providerTable lists every data source with the functions that return
// what it returns and what it answers, from the catalog: a formula or a
// function added there is listed.
func providerTable() string {
	var b strings.Builder
	b.WriteString("| data source | function | answers |\n|---|---|---|\n")
	for _, f := range capacity.Formulas {
		var fns []string
		for _, fn := range capacity.Functions {
			if fn.Formula() == f {
				fns = append(fns, fmt.Sprintf("[`%s`](docs/functions/%s.md)", fn.Name, fn.Name))
			}
		}
		fmt.Fprintf(&b, "| [`queuecap_%s`](docs/data-sources/%s.md) | %s | %s |\n", f.Name, f.Name, strings.Join(fns, ", "), f.Answers)
	}
	return b.String()
}

// ruleTable lists every rule with its default severity and summary, each
// linked to its page under dir.
func ruleTable(dir string) string {
	var b strings.Builder
	b.WriteString("| Rule | Default severity | Flags |\n|---|---|---|\n")
	for _, r := range rules.All() {
		fmt.Fprintf(&b, "| [`%s`](%s%s.md) | %s | %s |\n", r.Name(), dir, r.Name(), r.DefaultSeverity(), r.Summary())
	}
	return b.String()
}

// ratePrecedenceTable lists where rates are declared, the winning
// declaration first, whose rates each place declares and the name
// --explain gives it.
func ratePrecedenceTable() string {
	mark := map[bool]string{true: "✓"}
	var b strings.Builder
	b.WriteString("| Order | Declared by | A queue's rates | A fleet's rates | `source` in `--explain` |\n|---|---|---|---|---|\n")
	for i, s := range lint.RatePrecedence() {
		fmt.Fprintf(&b, "| %d | %s | %s | %s | `%s` |\n", i+1, s.Doc, mark[s.Queue], mark[s.Fleet], s.Name)
	}
	return b.String()
}

// TestGeneratedDocs checks that the generated sections of the docs are
// current; -update (make generate) rewrites them.
func TestGeneratedDocs(t *testing.T) {
	for _, s := range generatedSections {
		t.Run(strings.TrimPrefix(s.file, "../../")+":"+s.name, func(t *testing.T) {
			src, err := os.ReadFile(s.file)
			if err != nil {
				t.Fatal(err)
			}
			begin, end := "<!-- BEGIN "+s.name, "<!-- END "+s.name+" -->"
			i := bytes.Index(src, []byte("\n"+begin))
			if i < 0 {
				t.Fatalf("no line starting %q", begin)
			}
			i += bytes.IndexByte(src[i+1:], '\n') + 2 // past the BEGIN line
			j := bytes.Index(src[i:], []byte(end+"\n"))
			if j < 0 {
				t.Fatalf("no line %q after %q", end, begin)
			}
			golden(t, s.file, string(src[:i])+s.content()+string(src[i+j:]))
		})
	}
}

// TestExamplesLintOutput runs the command examples/lint/README.md shows,
// from the repository's root as it is written, and checks that the README
// shows what it prints and the exit code it gives.
func TestExamplesLintOutput(t *testing.T) {
	const path = "../../examples/lint/README.md"
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir("../..")
	for _, dir := range []string{"bad", "good"} {
		t.Run(dir, func(t *testing.T) { checkExampleLintOutput(t, path, string(src), dir) })
	}
}

// checkExampleLintOutput checks what examples/lint/README.md shows
// queuecap lint print for examples/lint/DIR, and its exit code.
func checkExampleLintOutput(t *testing.T, path, src, dir string) {
	cmd := "$ queuecap lint --no-color --config examples/lint/queuecap.hcl examples/lint/" + dir + "\n"
	_, rest, ok := strings.Cut(src, cmd)
	if !ok {
		t.Fatalf("%s does not show %q", path, strings.TrimSpace(cmd))
	}
	want, after, ok := strings.Cut(rest, "$ echo $?\n")
	if !ok {
		t.Fatalf("%s does not show the exit code after the output", path)
	}
	wantCode, _ := strconv.Atoi(strings.TrimSpace(strings.SplitN(after, "\n", 2)[0]))
	var stdout, stderr bytes.Buffer
	code := run(strings.Fields(cmd)[2:], &stdout, &stderr)
	if got := stdout.String(); got != want {
		t.Errorf("examples/lint/README.md shows\n%s\nqueuecap lint prints\n%s", want, got)
	}
	if code != wantCode {
		t.Errorf("exit code %d, the README says %d (stderr: %s)", code, wantCode, stderr.String())
	}
}
