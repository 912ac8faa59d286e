// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"bufio"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	tfe "github.com/hashicorp/go-tfe"

	"github.com/queuecap/terraform-provider-queuecap/internal/runtask/standin"
)

// TestRuntaskServe runs the built `queuecap runtask serve` on loopback
// against the HCP Terraform stand-in: a signed post-plan request for the
// zero-surplus plan gets a failed result with the finding, and SIGTERM
// stops the service once the run it accepted has reported.
func TestRuntaskServe(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the CLI")
	}
	dir := t.TempDir()
	bin := buildCLI(t, "")
	key := "a key from a file"
	keyFile := filepath.Join(dir, "hmac-key")
	write(t, dir, map[string]string{"hmac-key": key + "\n", "queuecap.hcl": "config {\n  minimum_failure_severity = \"error\"\n}\n"})
	plan, err := os.ReadFile("../../internal/lint/testdata/plans/zero_surplus.json")
	if err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(bin, "runtask", "serve", "--listen", "127.0.0.1:0", "--hmac-key-file", keyFile, "--config", filepath.Join(dir, "queuecap.hcl"))
	cmd.Env = append(os.Environ(), hmacKeyEnv+"=not the key") // the file wins
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			t.Log(sc.Text())
			lines <- sc.Text()
		}
		close(lines)
		exited <- cmd.Wait()
	}()
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	waitFor := func(pattern string) []string {
		t.Helper()
		re := regexp.MustCompile(pattern)
		timeout := time.After(20 * time.Second)
		for {
			select {
			case line, ok := <-lines:
				if !ok {
					t.Fatalf("the service ended before logging %s", pattern)
				}
				if m := re.FindStringSubmatch(line); m != nil {
					return m
				}
			case <-timeout:
				t.Fatalf("no log line %s", pattern)
			}
		}
	}
	url := waitFor(`address=(http://127\.0\.0\.1:\d+)`)[1]

	hcp := standin.New(t)
	body := standin.Payload(t, hcp.Run("cli", hcp.Plan("zero", plan)), true)
	if code, text, err := standin.Send(url+"/queuecap", standin.Sign([]byte(key), body), body); err != nil || code != http.StatusOK {
		t.Fatalf("answered %d %s %v", code, text, err)
	}
	got := hcp.Next(t, 20*time.Second)
	if got.Err != nil {
		t.Fatalf("callback: %v", got.Err)
	}
	o := got.Options
	if o.Status != tfe.TaskFailed || o.Message != "1 error, 0 warnings, 0 notices; 2 queues checked, 0 checks skipped; failing at error or above" {
		t.Errorf("result %s %q", o.Status, o.Message)
	}
	if len(o.Outcomes) != 1 || o.Outcomes[0].OutcomeID != "queuecap_zero_surplus:aws_autoscaling_group.workers" ||
		!strings.Contains(o.Outcomes[0].Body, "| `max_consumers` | 25 |") {
		t.Errorf("outcomes %s", got.Body)
	}

	// A run in flight when SIGTERM comes still reports; new ones are not
	// taken.
	release := make(chan struct{})
	fetching := make(chan struct{})
	slowPlan := hcp.PlanHandler("slow", func(w http.ResponseWriter, r *http.Request) {
		close(fetching)
		select {
		case <-release:
			_, _ = w.Write(plan)
		case <-time.After(20 * time.Second): // a failing test does not hang
		}
	})
	body = standin.Payload(t, hcp.Run("in-flight", slowPlan), true)
	if code, text, err := standin.Send(url, standin.Sign([]byte(key), body), body); err != nil || code != http.StatusOK {
		t.Fatalf("answered %d %s %v", code, text, err)
	}
	<-fetching
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waitFor(`msg="stopping: no new runs`)
	// The request goes over the connection kept alive from the last one
	// if the service has not closed it yet; either way it is not taken.
	if code, _, err := standin.Send(url, standin.Sign([]byte(key), body), body); err == nil && code != http.StatusServiceUnavailable {
		t.Errorf("a request after SIGTERM answered %d, want no connection or 503", code)
	}
	close(release)
	if got := hcp.Next(t, 20*time.Second); got.TaskResultID != "in-flight" || got.Options == nil || got.Options.Status != tfe.TaskFailed {
		t.Errorf("in-flight callback %+v", got)
	}
	waitFor(`msg=stopped`)
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("exit: %v, want 0", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the service did not exit after SIGTERM")
	}
}

// TestRuntaskServeErrors: bad flags and a missing key are one-line
// errors, exit 1, before anything listens.
func TestRuntaskServeErrors(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"bad.hcl": "rule \"queuecap_no_such_rule\" {\n  enabled = false\n}\n", "empty-key": ""})
	for _, tc := range []struct {
		args []string
		env  string
		want string
	}{
		{nil, "", "Error: no HMAC key: set QUEUECAP_HMAC_KEY or --hmac-key-file"},
		{[]string{"--hmac-key-file", filepath.Join(dir, "empty-key")}, "k", "Error: no HMAC key"},
		{[]string{"--hmac-key-file", filepath.Join(dir, "missing")}, "", "Error: --hmac-key-file: open " + filepath.Join(dir, "missing")},
		{[]string{"--config", filepath.Join(dir, "bad.hcl")}, "k", "queuecap_no_such_rule"},
		{[]string{"--config", filepath.Join(dir, "none.hcl")}, "k", "none.hcl:1,1-1: Cannot read file; no such file or directory"},
		{[]string{"--minimum-failure-severity", "fatal"}, "k", `Error: --minimum-failure-severity: unknown severity "fatal"`},
		{[]string{"--plan-timeout", "soon"}, "k", `Error: invalid value "soon" for --plan-timeout`},
		{[]string{"--max-plan-size", "64MB"}, "k", `Error: invalid value "64MB" for --max-plan-size: "64MB" is not a size`},
		{[]string{"--concurrency", "0"}, "k", "Error: --concurrency 0: at least one plan"},
		{[]string{"--listen", "127.0.0.1:notaport"}, "k", "Error: --listen: listen tcp: lookup tcp/notaport"},
		{[]string{"extra"}, "k", `Error: unexpected argument "extra"`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Setenv(hmacKeyEnv, tc.env)
			code, stdout, stderr := cli(t, "", append([]string{"runtask", "serve"}, tc.args...)...)
			if code != exitError || stdout != "" || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 1 and %q", code, stdout, stderr, tc.want)
			}
		})
	}
	if code, _, stderr := cli(t, "", "runtask", "srve"); code != exitError || !strings.Contains(stderr, `unknown command "srve"`) {
		t.Errorf("runtask srve: %d %q", code, stderr)
	}
}
