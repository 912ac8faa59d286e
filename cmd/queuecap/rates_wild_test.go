// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/queuecap/terraform-provider-queuecap/internal/corpustest"
	"github.com/queuecap/terraform-provider-queuecap/internal/rates"
	"github.com/queuecap/terraform-provider-queuecap/internal/rates/promtest"
	"github.com/queuecap/terraform-provider-queuecap/internal/rates/synth"
	"github.com/queuecap/terraform-provider-queuecap/internal/testaws"
)

// outboxRepo is the corpus's transactional-outbox repository (corpus/wild),
// whose ECS root deploy-terraform-aws-ecs/live runs two services of one
// task each, consuming five queues their modules create; outboxRoot is
// that root, and outboxCluster the cluster its services run in.
const (
	outboxRepo    = "filipsnastins__transactional-messaging-patterns-with-aws-dynamodb-streams-sns-sqs-lambda"
	outboxRoot    = "deploy-terraform-aws-ecs/live"
	outboxCluster = "test-45d8-transactional-outbox"
)

// outboxHistory is a day of the five queues' metrics as YACE exports
// them: each service stopped for an hour at 06:00, so that every queue
// built a backlog its task then drained at full speed. service-orders'
// task completes 40 messages a second of credit-reserved, which receives
// 40 a second: its backlog never drains.
func outboxHistory(t *testing.T) (url string, end time.Time) {
	start := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	tasks := []synth.Segment{synth.At(0, 1), synth.At(6*time.Hour, 0), synth.At(7*time.Hour, 1)}
	var families []synth.Family
	seen := map[string]bool{}
	for _, q := range []struct {
		queue, service string
		arrival, mu    float64
	}{
		{"customer--order-cancelled", "service-customers", 8, 25},
		{"customer--order-created", "service-customers", 20, 25},
		{"order--customer-credit-reservation-failed", "service-orders", 10, 40},
		{"order--customer-credit-reserved", "service-orders", 40, 40},
		{"order--customer-validation-failed", "service-orders", 12, 40},
	} {
		sc := synth.Scenario{Start: start, Duration: day, PerConsumerRate: q.mu, Arrival: []synth.Segment{synth.At(0, q.arrival)}, Consumers: tasks}
		target := rates.Target{QueueName: "test-45d8-" + q.queue, Consumer: rates.Consumer{Kind: rates.KindECS, Name: q.service, Cluster: outboxCluster}}
		var skip []rates.Metric
		if seen[q.service] {
			skip = []rates.Metric{rates.Consumers} // one task count per service
		}
		seen[q.service] = true
		families = append(families, promtest.YACE.Families(sc, target, skip)...)
	}
	return promtest.Start(t, families), start.Add(day)
}

// TestRatesWildCorpus is docs/rates.md's worked example: on a copy of a
// corpus repository, init, rates --write from a Prometheus holding the
// queues' history, then lint, which checked none of the five queues and
// now checks them all and finds the one whose consumer has no surplus.
func TestRatesWildCorpus(t *testing.T) {
	docs, err := os.ReadFile("../../docs/rates.md") // before the test moves away
	if err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(t.TempDir(), "outbox")
	if err := testaws.CopyDir(filepath.Join(corpustest.Dir(t, "wild"), outboxRepo), repo); err != nil {
		t.Fatal(err)
	}
	write(t, repo, map[string]string{".git/HEAD": "ref: refs/heads/main\n"})
	t.Chdir(repo)
	url, end := outboxHistory(t)

	code, before, _ := cli(t, "", "lint", outboxRoot)
	if code != exitOK || !strings.Contains(before, "Checked 0 of 5 queues with a consumer; not checked: ") {
		t.Fatalf("lint before: exit %d\n%s", code, before)
	}
	code, stdout, stderr := cli(t, "", "init", outboxRoot)
	if code != exitOK || !strings.HasPrefix(stdout, "added 5 queue blocks to "+outboxRoot+"/.queuecap.hcl") {
		t.Fatalf("init: exit %d, stderr %q\n%s", code, stderr, stdout)
	}
	src, _ := os.ReadFile(filepath.Join(outboxRoot, ".queuecap.hcl"))
	if n := strings.Count(string(src), "consumer_name = \""+outboxCluster+"/service-"); n != 5 {
		t.Errorf("%d consumer_name lines with the cluster, want 5:\n%s", n, src)
	}
	code, stdout, stderr = cli(t, "", "rates", "--prometheus", url, "--window", "1d", "--step", "5m", "--end", end.Format(time.RFC3339), "--write", outboxRoot)
	if code != exitOK || stderr != "" || strings.Contains(stdout, "never observed saturated") {
		t.Fatalf("rates: exit %d, stderr %q\n%s", code, stderr, stdout)
	}
	code, after, _ := cli(t, "", "lint", outboxRoot)
	if code != exitFindings || !strings.Contains(after, "Checked 5 of 5 queues with a consumer") {
		t.Fatalf("lint after: exit %d\n%s", code, after)
	}
	finding := regexp.MustCompile(`(?m)^.*desired_count 1 cannot drain any backlog.*$`).FindString(after)
	if finding == "" || strings.Count(after, "(queuecap_zero_surplus)") != 1 || !strings.Contains(after, "in module.service_orders_ecs.aws_ecs_service.default:") ||
		!strings.Contains(after, "desired_count 1 × 40 msg/s = 40 msg/s does not exceed the declared arrival") {
		t.Errorf("want one zero surplus finding, on credit-reserved's consumer:\n%s", after)
	}
	// docs/rates.md shows lint's output as it is.
	if !strings.Contains(string(docs), "```console\n$ queuecap lint "+outboxRoot+"\n"+after+"```\n") {
		t.Errorf("docs/rates.md does not show the finding:\n%s\nlint said:\n%s", finding, after)
	}
}
