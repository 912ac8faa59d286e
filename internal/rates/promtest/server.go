// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

// Package promtest serves synthetic metric history from a real Prometheus
// server for tests: the series CloudWatch exporters export of a
// synth.Scenario, written as TSDB blocks by promtool.
package promtest

import (
	"bytes"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/queuecap/terraform-provider-queuecap/internal/rates/synth"
)

// Start writes families as TSDB blocks with promtool and serves
// them with a Prometheus server on loopback that scrapes nothing, until
// the test ends; it skips the test when either is not installed.
func Start(t testing.TB, families []synth.Family) string {
	t.Helper()
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		t.Skip("promtool is not installed (Debian: apt-get install prometheus; make test installs it)")
	}
	prometheus, err := exec.LookPath("prometheus")
	if err != nil {
		t.Skip("prometheus is not installed (Debian: apt-get install prometheus; make test installs it)")
	}
	dir := t.TempDir()
	var om bytes.Buffer
	if err := synth.WriteOpenMetrics(&om, families); err != nil {
		t.Fatal(err)
	}
	input, data, config := filepath.Join(dir, "history.om"), filepath.Join(dir, "data"), filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(input, om.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(promtool, "tsdb", "create-blocks-from", "openmetrics", "--quiet", input, data).CombinedOutput(); err != nil {
		t.Fatalf("promtool tsdb create-blocks-from openmetrics: %v\n%s", err, out)
	}
	if err := os.WriteFile(config, []byte("# No scrape_configs: the data are the blocks.\nglobal:\n  scrape_interval: 1m\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	cmd := exec.Command(prometheus, "--config.file="+config, "--storage.tsdb.path="+data,
		"--storage.tsdb.retention.time=100y", "--web.listen-address="+addr, "--log.level=warn")
	var log lockedBuffer
	cmd.Stdout, cmd.Stderr = &log, &log
	dieWithTest(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(15 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	})
	base := "http://" + addr
	deadline := time.Now().Add(time.Minute)
	for {
		resp, err := http.Get(base + "/-/ready")
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base
			}
		}
		select {
		case <-exited:
			t.Fatalf("prometheus exited:\n%s", log.String())
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("prometheus not ready within a minute:\n%s", log.String())
		}
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
