// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// initTF has, in this order: a queue consumed by two functions through
// event source mappings, with a tagged arrival rate and a dead-letter
// queue a function handles; a queue whose name and consumer's name come
// from a variable without a value; and a queue nothing consumes.
const initTF = `variable "env" {
  type = string
}

resource "aws_sqs_queue" "orders" {
  name           = "orders"
  tags           = { "queuecap:arrival_rate" = 120 }
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.orders_dlq.arn, maxReceiveCount = 3 })
}

resource "aws_sqs_queue" "orders_dlq" {
  name = "orders-dlq"
}

resource "aws_lambda_function" "worker" {
  function_name = "worker"
}

resource "aws_lambda_function" "audit" {
  function_name = "audit"
}

resource "aws_lambda_function" "failures" {
  function_name = "failures"
}

resource "aws_lambda_event_source_mapping" "orders" {
  event_source_arn = aws_sqs_queue.orders.arn
  function_name    = aws_lambda_function.worker.arn
}

resource "aws_lambda_event_source_mapping" "audit" {
  event_source_arn = aws_sqs_queue.orders.arn
  function_name    = aws_lambda_function.audit.arn
}

resource "aws_lambda_event_source_mapping" "failures" {
  event_source_arn = aws_sqs_queue.orders_dlq.arn
  function_name    = aws_lambda_function.failures.arn
}

resource "aws_sqs_queue" "jobs" {
  name = "jobs-${var.env}"
}

resource "aws_lambda_function" "jobs" {
  function_name = "jobs-${var.env}"
}

resource "aws_lambda_event_source_mapping" "jobs" {
  event_source_arn = aws_sqs_queue.jobs.arn
  function_name    = aws_lambda_function.jobs.arn
}

resource "aws_sqs_queue" "lonely" {
  name = "lonely"
}
`

// initRepo is a repository holding files, the working directory.
func initRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files[".git/HEAD"] = "ref: refs/heads/main\n"
	write(t, dir, files)
	t.Chdir(dir)
	return dir
}

func TestInit(t *testing.T) {
	initRepo(t, map[string]string{"main.tf": initTF})
	code, stdout, stderr := cli(t, "", "init")
	if code != exitOK || stderr != "" ||
		!strings.HasPrefix(stdout, "added 2 queue blocks to .queuecap.hcl: aws_sqs_queue.orders, aws_sqs_queue.jobs\n\nNext,") ||
		!strings.Contains(stdout, "queuecap rates --prometheus URL --write") {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
	src, err := os.ReadFile(".queuecap.hcl")
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	for _, want := range []string{
		"# aws_sqs_queue.orders (main.tf:5), drained by aws_lambda_function.worker\nqueue \"aws_sqs_queue.orders\" {\n",
		"  # Also linked to it: aws_lambda_function.audit. If one of them drains it instead, name it here.\n  consumer = \"aws_lambda_function.worker\"\n",
		"  queue_name    = \"orders\"\n  consumer_name = \"worker\"\n",
		"  # arrival_rate is declared by tag queuecap:arrival_rate, main.tf:7.\n  # per_consumer_rate = … #",
		"queue \"aws_sqs_queue.jobs\" {\n",
		"  # queue_name = \"…\" # name comes from var.env, which has no value here",
		"  # consumer_name = \"…\" # function_name comes from var.env, which has no value here",
		"  # arrival_rate = … #",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	if strings.Index(text, "aws_sqs_queue.jobs") < strings.Index(text, "aws_sqs_queue.orders") {
		t.Errorf("blocks not in configuration order:\n%s", text)
	}
	for _, not := range []string{"orders_dlq", "lonely"} {
		if strings.Contains(text, not) {
			t.Errorf("a block for %s, a dead-letter queue or one without a consumer:\n%s", not, text)
		}
	}
	if info, err := os.Stat(".queuecap.hcl"); err != nil || info.Mode().Perm() != 0o644 {
		t.Errorf("mode %v (%v), want 0644", info.Mode(), err)
	}

	// Again: nothing to add, the file as it was.
	code, stdout, _ = cli(t, "", "init")
	again, _ := os.ReadFile(".queuecap.hcl")
	if code != exitOK || !strings.HasPrefix(stdout, ".queuecap.hcl: nothing to add, every queue with a consumer has a block\n") || !bytes.Equal(again, src) {
		t.Errorf("second run: exit %d, stdout:\n%s\nfile changed: %v", code, stdout, !bytes.Equal(again, src))
	}

	// lint reads the file and says, per queue, which rates are missing.
	code, stdout, stderr = cli(t, "", "lint", "--format", "compact", "--show-skipped")
	const jobs = "aws_sqs_queue.jobs has a consumer (aws_lambda_function.jobs) but no declared arrival_rate, so its capacity was not checked: " +
		"it needs arrival_rate, per_consumer_rate (of aws_lambda_function.jobs), max_backlog and rto_seconds (for the recovery checks), " +
		"declared in its .queuecap.hcl queue block (queuecap init writes it; queuecap rates measures the rates)"
	if code == exitError || !strings.Contains(stdout, jobs) || strings.Contains(stdout, "aws_sqs_queue.orders has a consumer") {
		t.Errorf("lint after init: exit %d, stderr %q, stdout:\n%s\nwant %q, and no coverage skip of orders, which declares arrival_rate", code, stderr, stdout, jobs)
	}
	// The dead-letter queue a function handles gets no block: its skip
	// does not say init writes one.
	if !strings.Contains(stdout, "aws_sqs_queue.orders_dlq has a consumer") || strings.Contains(stdout, "orders_dlq"+strings.SplitN(jobs, "aws_sqs_queue.jobs", 2)[1]) {
		t.Errorf("the dead-letter queue's skip:\n%s", stdout)
	}
}

// TestInitRoots: with --recursive each root module gets the file it
// reads, its own when it has none; with --config the roots without one of
// their own share that file, as lint reads it.
func TestInitRoots(t *testing.T) {
	initRepo(t, map[string]string{"a/main.tf": warningTF, "b/main.tf": warningTF, "b/.queuecap.hcl": "# b's\n", "shared.hcl": "# shared\n"})
	code, stdout, stderr := cli(t, "", "init", "--recursive")
	a, b := filepath.Join("a", ".queuecap.hcl"), filepath.Join("b", ".queuecap.hcl")
	if code != exitOK || !strings.HasPrefix(stdout, "added 1 queue block to "+a+": aws_sqs_queue.orders\nadded 1 queue block to "+b+": aws_sqs_queue.orders\n") {
		t.Errorf("--recursive: exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
	if !fileHas(t, a, `queue "aws_sqs_queue.orders"`) || !fileHas(t, b, "# b's\n\n# aws_sqs_queue.orders (main.tf:1)") {
		t.Error("a root's block is not in the file it reads")
	}
	if err := os.Remove(a); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = cli(t, "", "init", "--config", "shared.hcl", "a", "b")
	if code != exitOK || !strings.HasPrefix(stdout, "added 1 queue block to shared.hcl: aws_sqs_queue.orders\n"+b+": nothing to add") {
		t.Errorf("--config: exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
	if _, err := os.Stat(a); err == nil || !fileHas(t, "shared.hcl", "# shared\n\n# aws_sqs_queue.orders (a/main.tf:1)") {
		t.Errorf("a's block is not in shared.hcl, or a got a file of its own (%v)", err)
	}
	// --chdir: DIR is found from there, and files named from here.
	if err := os.Remove("shared.hcl"); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = cli(t, "", "init", "--chdir", "a")
	if code != exitOK || !strings.HasPrefix(stdout, "added 1 queue block to "+a+": aws_sqs_queue.orders\n") || !fileHas(t, a, "(main.tf:1)") {
		t.Errorf("--chdir a: exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
}

// TestInitNothingToWrite: a root without a queue with a consumer gets no
// file, and no next step.
func TestInitNothingToWrite(t *testing.T) {
	initRepo(t, map[string]string{"main.tf": queueTF})
	code, stdout, stderr := cli(t, "", "init")
	if code != exitOK || stdout != ".queuecap.hcl: no queue with a consumer, nothing to add\n" || stderr != "" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if _, err := os.Lstat(".queuecap.hcl"); err == nil {
		t.Error(".queuecap.hcl written")
	}
}

// TestInitKeepsWhatIsThere: a file a person wrote keeps its bytes, and
// gets the blocks of the queues it does not have after them.
func TestInitKeepsWhatIsThere(t *testing.T) {
	const hand = "# our rates, see OPS-12\nconfig {\n  format = \"compact\"\n}\n\nqueue \"aws_sqs_queue.orders\" {\n  per_consumer_rate = 40 # load test 2026-03\n}"
	initRepo(t, map[string]string{"stack/main.tf": initTF, "stack/.queuecap.hcl": hand})
	code, stdout, stderr := cli(t, "", "init", "stack")
	want := "added 1 queue block to " + filepath.Join("stack", ".queuecap.hcl") + ": aws_sqs_queue.jobs\n"
	if code != exitOK || !strings.HasPrefix(stdout, want) {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s\nwant %q", code, stderr, stdout, want)
	}
	src, _ := os.ReadFile("stack/.queuecap.hcl")
	if !strings.HasPrefix(string(src), hand+"\n\n# aws_sqs_queue.jobs (main.tf:") || strings.Count(string(src), "queue \"aws_sqs_queue.orders\"") != 1 {
		t.Errorf("the file a person wrote changed:\n%s", src)
	}
}

// TestInitExamples: init on examples/lint/bad writes a block per queue
// with a consumer, and lint then reads it and finds what it found.
func TestInitExamples(t *testing.T) {
	examples, err := filepath.Abs("../../examples/lint/bad")
	if err != nil {
		t.Fatal(err)
	}
	docs, err := os.ReadFile("../../docs/rules/README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, shown, _ := strings.Cut(string(docs), "```hcl\n# aws_sqs_queue.payments (payments.tf:13)")
	shown, _, _ = strings.Cut("# aws_sqs_queue.payments (payments.tf:13)"+shown, "```")
	shown = strings.TrimSuffix(shown, "\n")
	if !strings.HasSuffix(shown, "\n}") || strings.Count(shown, "\n") < 10 {
		t.Fatalf("docs/rules/README.md shows no block of aws_sqs_queue.payments: %q", shown)
	}
	initRepo(t, map[string]string{})
	if out, err := exec.Command("cp", "-r", examples, "bad").CombinedOutput(); err != nil {
		t.Fatal(err, string(out))
	}
	before, _, _ := cli(t, "", "lint", "bad")
	code, stdout, stderr := cli(t, "", "init", "bad")
	want := "added 6 queue blocks to " + filepath.Join("bad", ".queuecap.hcl") + ": aws_sqs_queue.exports, aws_sqs_queue.ledger, aws_sqs_queue.notifications, aws_sqs_queue.orders, aws_sqs_queue.payments, aws_sqs_queue.thumbnails\n"
	if code != exitOK || !strings.HasPrefix(stdout, want) {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s\nwant %q", code, stderr, stdout, want)
	}
	src, _ := os.ReadFile("bad/.queuecap.hcl")
	// The block docs/rules/README.md shows is the one written.
	if !strings.Contains(string(src), "\n"+shown+"\n") {
		t.Errorf("docs/rules/README.md shows\n%s\ninit wrote\n%s", shown, src)
	}
	for _, want := range []string{
		"  # arrival_rate is declared by data.queuecap_consumers.order_workers, orders.tf:6.\n",
		// The service's cluster is aws_ecs_cluster.main.id, whose name is known.
		"  consumer_name = \"orders-pipeline/payments\"\n",
	} {
		if !strings.Contains(string(src), want) {
			t.Errorf("no %q in:\n%s", want, src)
		}
	}
	if after, _, stderr := cli(t, "", "lint", "bad"); after != before {
		t.Errorf("lint exits %d after init, %d before: %s", after, before, stderr)
	}
}

func TestInitRefuses(t *testing.T) {
	huge := strings.Repeat("# padding\n", 2<<20)
	for name, tt := range map[string]struct {
		files map[string]string
		link  string // a .queuecap.hcl linking there, relative to the repository
		args  []string
		want  string
	}{
		"a symbolic link":               {files: map[string]string{"main.tf": initTF, "real.hcl": "# mine\n"}, link: "real.hcl", want: ".queuecap.hcl is a symbolic link: not written through"},
		"a file outside":                {files: map[string]string{"main.tf": initTF}, args: []string{"--config", "OUTSIDE/x.hcl"}, want: "which is all queuecap reads and writes (the repository; --boundary names another directory): not written"},
		"a file that does not parse":    {files: map[string]string{"main.tf": initTF, ".queuecap.hcl": "queue \"x\" {\n"}, want: ".queuecap.hcl:"},
		"a huge file":                   {files: map[string]string{"main.tf": initTF, ".queuecap.hcl": huge}, want: "File too large"},
		"a configuration with an error": {files: map[string]string{"main.tf": initTF + "resource {\n"}, want: "Nothing written"},
	} {
		t.Run(name, func(t *testing.T) {
			outside := t.TempDir()
			write(t, outside, map[string]string{"x.hcl": "# outside\n"})
			dir := initRepo(t, tt.files)
			if tt.link != "" {
				if err := os.Symlink(tt.link, ".queuecap.hcl"); err != nil {
					t.Fatal(err)
				}
			}
			snapshot := func() map[string]string {
				files := map[string]string{}
				for _, d := range []string{dir, outside} {
					entries, _ := os.ReadDir(d)
					for _, e := range entries {
						b, _ := os.ReadFile(filepath.Join(d, e.Name()))
						files[filepath.Join(d, e.Name())] = string(b)
					}
				}
				return files
			}
			before := snapshot()
			args := []string{"init"}
			for _, a := range tt.args {
				args = append(args, strings.ReplaceAll(a, "OUTSIDE", outside))
			}
			code, stdout, stderr := cli(t, "", args...)
			if code != exitError || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and %q", code, stdout, stderr, tt.want)
			}
			after := snapshot()
			if len(after) != len(before) {
				t.Errorf("files %d before, %d after", len(before), len(after))
			}
			for p, b := range before {
				if after[p] != b {
					t.Errorf("%s changed", p)
				}
			}
		})
	}
}
