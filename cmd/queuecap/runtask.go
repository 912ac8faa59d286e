// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint"
	"github.com/queuecap/terraform-provider-queuecap/internal/runtask"
)

// hmacKeyEnv names the environment variable that holds the run task's
// HMAC key: a flag's value would show in ps.
const hmacKeyEnv = "QUEUECAP_HMAC_KEY"

// shutdownGrace is how long a stopping service waits for the runs it
// accepted before it reports them as stopped.
const shutdownGrace = 30 * time.Second

const runtaskUsage = `Usage: queuecap runtask serve [flags]

Commands:
  serve  serve an HCP Terraform / Terraform Enterprise run task that lints each run's plan

Run 'queuecap runtask serve --help' for its flags.
`

func runRuntask(args []string, stdout, stderr io.Writer) int {
	switch {
	case len(args) > 0 && args[0] == "serve":
		return runServe(args[1:], stdout, stderr)
	case len(args) > 0 && (args[0] == "--help" || args[0] == "-h" || args[0] == "help"):
		fmt.Fprint(stdout, runtaskUsage)
		return exitOK
	case len(args) == 0:
		fmt.Fprint(stderr, runtaskUsage)
	default:
		fmt.Fprintf(stderr, "Error: unknown command %q: queuecap runtask has serve\n\n%s", args[0], runtaskUsage)
	}
	return exitError
}

type serveFlags struct {
	listen, keyFile, config, failAt string
	planTimeout                     float64
	maxPlanSize                     int64
	concurrency                     int
}

// serveCommand defines the flags of `queuecap runtask serve`.
func serveCommand(f *serveFlags) *command {
	cmd := newCommand("runtask serve", "[flags]")
	fs := cmd.fs
	f.planTimeout, f.maxPlanSize = runtask.DefaultPlanTimeout.Seconds(), runtask.DefaultMaxPlanBytes
	fs.StringVar(&f.listen, "listen", "127.0.0.1:8080", "`address` to listen on, host:port (:8080 for every interface); the service speaks plain HTTP, so put a TLS proxy in front")
	fs.StringVar(&f.keyFile, "hmac-key-file", "", "read the run task's HMAC key from `FILE` (default $"+hmacKeyEnv+"); one of them is required")
	fs.StringVar(&f.config, "config", "", "config `file`: rule blocks, queue blocks and minimum_failure_severity, as for queuecap lint (default none)")
	fs.StringVar(&f.failAt, "minimum-failure-severity", "warning", "lowest `severity` that fails the task: error|warning|notice")
	fs.Var(numberFlag{&f.planTimeout, parseDuration}, "plan-timeout", fmt.Sprintf("time allowed to download a plan, a `duration` (default %gs)", runtask.DefaultPlanTimeout.Seconds()))
	fs.Var(byteSizeFlag{&f.maxPlanSize}, "max-plan-size", "largest plan JSON read, a `size` in bytes, KiB, MiB or GiB (default "+strings.ReplaceAll(runtask.ByteSize(runtask.DefaultMaxPlanBytes), " ", "")+")")
	fs.IntVar(&f.concurrency, "concurrency", runtask.DefaultConcurrency, fmt.Sprintf("fetch and lint up to `N` plans at once; %d × N more wait, and requests beyond those are answered 503", runtask.QueuePerWorker))
	cmd.alias("c", "config")
	cmd.footer = "HCP Terraform POSTs each run to any path; GET /healthz answers 200. Logs go to standard error.\n" +
		"SIGINT or SIGTERM stops taking runs and waits up to " + shutdownGrace.String() + " for the accepted ones.\n" +
		"Durations take seconds (60) or units (90s, 2m). Exit codes: 0 stopped by a signal, 1 an error.\n"
	return cmd
}

// byteSizeFlag reads --max-plan-size.
type byteSizeFlag struct{ v *int64 }

func (f byteSizeFlag) String() string {
	if f.v == nil {
		return ""
	}
	return runtask.ByteSize(*f.v)
}

func (f byteSizeFlag) Set(s string) (err error) {
	*f.v, err = runtask.ParseByteSize(s)
	return err
}

func runServe(args []string, stdout, stderr io.Writer) int {
	f := &serveFlags{}
	cmd := serveCommand(f)
	if ok, code := cmd.parse(args, stdout, stderr); !ok {
		return code
	}
	opts, err := f.options(cmd.set, os.Getenv(hmacKeyEnv))
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return exitError
	}
	opts.Log = slog.New(slog.NewTextHandler(stderr, nil))
	svc, err := runtask.New(opts)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return exitError
	}
	ln, err := net.Listen("tcp", f.listen)
	if err != nil {
		svc.Close(context.Background())
		fmt.Fprintf(stderr, "Error: --listen: %v\n", err)
		return exitError
	}
	opts.Log.Info("queuecap runtask serve: listening", "address", "http://"+ln.Addr().String(), "version", model.BuildVersion())
	srv := &http.Server{Handler: svc, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err = <-served:
	case <-ctx.Done():
		stop() // a second signal ends the process at once
		// No new runs from here, before the log says so: the listener
		// closes, idle connections close, and a request already on its
		// way over an open connection is answered 503.
		svc.Drain()
		srv.SetKeepAlivesEnabled(false)
		_ = ln.Close() // Shutdown closes it again and finds it closed
		opts.Log.Info("stopping: no new runs; waiting for the accepted ones", "grace", shutdownGrace)
	}
	grace, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	_ = srv.Shutdown(grace)
	svc.Close(grace)
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "Error: %v\n", err)
		return exitError
	}
	opts.Log.Info("stopped")
	return exitOK
}

// options turns the flags into the service's options: the key from
// --hmac-key-file, else from the environment; the config file's failure
// severity unless the flag is given.
func (f *serveFlags) options(set map[string]bool, envKey string) (runtask.Options, error) {
	var opts runtask.Options
	key := []byte(envKey)
	if f.keyFile != "" {
		data, err := os.ReadFile(f.keyFile)
		if err != nil {
			return opts, fmt.Errorf("--hmac-key-file: %v", err)
		}
		// A file written by echo ends in a newline that is not the key's.
		key = bytes.TrimSuffix(bytes.TrimSuffix(data, []byte("\n")), []byte("\r"))
	}
	if len(key) == 0 {
		return opts, fmt.Errorf("no HMAC key: set %s or --hmac-key-file to the key of the run task in HCP Terraform; the service takes only signed requests", hmacKeyEnv)
	}
	cfg := &lint.Config{}
	if f.config != "" {
		// The operator names the file: no repository bounds it.
		loaded, diags := lint.LoadConfig(f.config, true, nil)
		if diags.HasErrors() {
			return opts, diags
		}
		cfg = loaded
	}
	failAt, err := failureSeverity(f.failAt, set, cfg)
	if err != nil {
		return opts, err
	}
	if f.planTimeout <= 0 {
		return opts, errors.New("--plan-timeout: a download needs a positive time")
	}
	if f.concurrency < 1 {
		return opts, fmt.Errorf("--concurrency %d: at least one plan must be linted at a time", f.concurrency)
	}
	return runtask.Options{
		HMACKey: key, Config: cfg, FailAt: failAt, Concurrency: f.concurrency,
		PlanTimeout: time.Duration(f.planTimeout * float64(time.Second)), MaxPlanBytes: f.maxPlanSize,
	}, nil
}
