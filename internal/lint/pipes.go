// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint

import (
	"fmt"
	"strings"

	"github.com/queuecap/terraform-provider-queuecap/internal/lint/model"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// An EventBridge pipe with an SQS source consumes the queue. When its
// target is a Lambda function of the model, that function is the consumer,
// linked through the pipe: the pipe invokes it with each batch, and its
// reserved concurrency bounds how many batches are in flight. Any other
// target (a state machine, an event bus, an ECS task, another queue) is no
// fleet of the model, so the pipe itself is the consumer: one consumer,
// whose queuecap:per_consumer_rate tag declares what the whole pipe
// delivers. Its batch size alone does not say that: the target's
// duration does.

// pipe is an aws_pipes_pipe that is not stopped.
type pipe struct {
	addr           string
	rng            hcl.Range
	name           string
	source, target ref
	rates          Rates
}

func (b *builder) addPipe(res *resourceInstance) {
	n, addr := res.body, res.addr
	if knownString(n.val("desired_state")) == "STOPPED" {
		return // a stopped pipe consumes nothing
	}
	b.pipes = append(b.pipes, &pipe{addr: addr, rng: res.defRange, name: knownString(n.val("name")),
		source: n.ref("source"), target: n.ref("target"), rates: b.tagRates(res.module, n.arg("tags")).rates})
}

// linkPipes makes each pipe's consumer consume its source queue: the
// Lambda function it invokes when that is a fleet here, else the pipe.
func (l *linker) linkPipes() {
	for _, p := range l.pipes {
		qs := l.queuesOf(p.source.val)
		if len(qs) != 1 {
			if why, relevant := l.whyUnlinked(p.source, "aws_sqs_queue", "sqs"); relevant && len(qs) == 0 {
				l.skip(p.addr, refRange(p.source, p.rng), fmt.Sprintf("pipe %s: its source %s, so what it consumes is not checked", p.addr, why))
			}
			continue
		}
		if fn := l.pipeTarget(p.target.val); fn != nil {
			l.consumeThrough(qs[0], fn, "pipe "+p.addr)
			continue
		}
		f := &Fleet{Kind: FleetPipe, Addr: p.addr, DefRange: p.rng, Name: p.name, MaxSize: model.KnownNum(1, p.rng, "pipe"), SizeAttr: "pipe"}
		f.Declared.Add(model.SourceTags, p.rates)
		l.fleets[p.addr] = f
		l.model.Fleets = append(l.model.Fleets, f)
		l.consume(qs[0], f)
	}
}

// pipeTarget is the Lambda function a pipe's target names, or nil.
func (l *linker) pipeTarget(v cty.Value) *Fleet {
	if f := l.fleetByOrigin(v); f != nil {
		if f.Kind == FleetLambda {
			return f
		}
		return nil
	}
	if s := knownString(v); strings.HasPrefix(s, "arn:") && strings.Contains(s, ":lambda:") {
		return l.fleetsByName[string(FleetLambda)+"/"+lambdaFunctionName(s)]
	}
	return nil
}
