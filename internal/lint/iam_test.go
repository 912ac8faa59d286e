// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package lint_test

import (
	"reflect"
	"strings"
	"testing"
)

// linkSkip is a skip of the linker (rule link), by line of main.tf.
type linkSkip struct {
	Line   int
	Reason string
}

// linkCase is a configuration and what the linker makes of it: each
// queue's consumers, as "queue <- fleet (how)", and its own skips.
type linkCase struct {
	name  string
	files map[string]string
	links []string
	skips []linkSkip
}

func runLinkCases(t *testing.T, cases []linkCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, res := linkedRun(t, c.files, "")
			var links []string
			for _, q := range m.Queues {
				for _, f := range q.Consumers {
					link := q.Addr + " <- " + f.Addr
					if via := q.ConsumedThrough[f]; via != "" {
						link += " (" + via + ")"
					}
					links = append(links, link)
				}
			}
			if !reflect.DeepEqual(links, c.links) {
				t.Errorf("links:\n got %q\nwant %q", links, c.links)
			}
			var skips []linkSkip
			for _, s := range res.Skipped {
				if s.Rule == "link" {
					skips = append(skips, linkSkip{s.Range.Start.Line, s.Reason})
				}
			}
			if !reflect.DeepEqual(skips, c.skips) {
				t.Errorf("skips:\n got %+v\nwant %+v", skips, c.skips)
			}
		})
	}
}

// ecsWorker is an ECS service whose task role has an aws_iam_role_policy
// (on line 16) with the given statements, beside the queue orders and its
// dead-letter queue: the shape of delivops/terraform-aws-autoscaling's
// complete example.
func ecsWorker(statements string) map[string]string {
	return map[string]string{"main.tf": `resource "aws_sqs_queue" "orders" {
  name           = "orders"
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.orders_dlq.arn, maxReceiveCount = 5 })
}

resource "aws_sqs_queue" "orders_dlq" {
  name = "orders-dlq"
}

resource "aws_iam_role" "task" {
  name = "worker-task"
}

resource "aws_iam_role_policy" "task" {
  role   = aws_iam_role.task.id
  policy = jsonencode({ Version = "2012-10-17", Statement = [` + statements + `] })
}

resource "aws_ecs_task_definition" "worker" {
  family        = "worker"
  task_role_arn = aws_iam_role.task.arn
}

resource "aws_ecs_service" "worker" {
  name            = "worker"
  cluster         = "main"
  task_definition = aws_ecs_task_definition.worker.arn
  desired_count   = 2
}
`}
}

// managedPolicyFunction is a queue and a function whose role has the AWS
// managed policy that allows receiving and deleting every queue's
// messages.
const managedPolicyFunction = `resource "aws_sqs_queue" "q" {
  name = "q"
}

resource "aws_iam_role" "fn" {
  name = "fn"
}

resource "aws_iam_role_policy_attachment" "sqs" {
  role       = aws_iam_role.fn.name
  policy_arn = "arn:aws:iam::aws:policy/service-role/AWSLambdaSQSQueueExecutionRole"
}

resource "aws_lambda_function" "fn" {
  function_name = "fn"
  role          = aws_iam_role.fn.arn
}
`

const (
	consumeOrders = `{
    Effect   = "Allow"
    Action   = ["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueAttributes", "sqs:ChangeMessageVisibility"]
    Resource = [aws_sqs_queue.orders.arn, aws_sqs_queue.orders_dlq.arn]
  }`
	workerConsumesOrders = "aws_sqs_queue.orders <- aws_ecs_service.worker (IAM role aws_iam_role.task)"
)

// ecsWorkerPolicy is ecsWorker with the role policy's argument written as
// given.
func ecsWorkerPolicy(t *testing.T, policy string) map[string]string {
	t.Helper()
	files := ecsWorker(consumeOrders)
	old := "policy = jsonencode({ Version = \"2012-10-17\", Statement = [" + consumeOrders + "] })"
	if !strings.Contains(files["main.tf"], old) {
		t.Fatal("ecsWorker no longer writes its policy with jsonencode")
	}
	files["main.tf"] = strings.Replace(files["main.tf"], old, "policy = "+policy, 1)
	return files
}

// TestIAMLinksJSONTemplates: a policy written as JSON text, as before
// jsonencode, with the queue's ARN interpolated, links as the same policy
// written with jsonencode does.
func TestIAMLinksJSONTemplates(t *testing.T) {
	runLinkCases(t, []linkCase{
		{
			name: "heredoc",
			files: ecsWorkerPolicy(t, `<<-EOF
    {
      "Version": "2012-10-17",
      "Statement": [{
        "Effect": "Allow",
        "Action": ["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueAttributes"],
        "Resource": ["${aws_sqs_queue.orders.arn}", "${aws_sqs_queue.orders_dlq.arn}"]
      }]
    }
  EOF`),
			links: []string{workerConsumesOrders},
		},
		{
			name:  "quoted string",
			files: ecsWorkerPolicy(t, `"{\"Statement\": [{\"Effect\": \"Allow\", \"Action\": \"sqs:*\", \"Resource\": \"${aws_sqs_queue.orders.arn}\"}]}"`),
			links: []string{workerConsumesOrders},
		},
		{
			// jtyers/aaas-cloudmapper-scanner builds the ARN in the text.
			name: "an ARN built in the text from the queue's name",
			files: ecsWorkerPolicy(t, `<<EOF
{
  "Statement": [{
    "Effect": "Allow",
    "Action": ["sqs:ReceiveMessage", "sqs:DeleteMessage"],
    "Resource": "arn:aws:sqs:${var.region}:${var.account}:${aws_sqs_queue.orders.name}"
  }]
}
EOF`),
			links: []string{workerConsumesOrders},
		},
		{
			name: "a template that is not JSON until applied links nothing",
			files: ecsWorkerPolicy(t, `<<EOF
{"Statement": [{"Effect": "Allow", "Action": "sqs:*", "Resource": ${jsonencode([aws_sqs_queue.orders.arn])}}]}
EOF`),
		},
	})
}

// TestIAMStringBuiltAroundAnARN: a string built around a queue's ARN
// ("${aws_sqs_queue.orders.arn}-x") names something else and links
// nothing, though it carries the queue's origin; one that builds the
// queue's ARN from its name still links, as do the ARN itself, through a
// local, and a pattern matching the queue's name.
func TestIAMStringBuiltAroundAnARN(t *testing.T) {
	receive := func(resource string) string {
		return `{ Effect = "Allow", Action = ["sqs:ReceiveMessage", "sqs:DeleteMessage"], Resource = ` + resource + ` }`
	}
	with := func(files map[string]string, hcl string) map[string]string {
		files["main.tf"] += "\n" + hcl + "\n"
		return files
	}
	runLinkCases(t, []linkCase{
		{name: "a suffix after the ARN", files: ecsWorker(receive(`["${aws_sqs_queue.orders.arn}-x"]`))},
		{
			// Without the fix, other had a consumer and so a missing
			// dead-letter queue finding.
			name: "a suffix after another queue's ARN, beside the queue's own",
			files: with(ecsWorker(receive(`[aws_sqs_queue.orders.arn, "${aws_sqs_queue.other.arn}-x"]`)), `resource "aws_sqs_queue" "other" {
  name = "other"
}`),
			links: []string{workerConsumesOrders},
		},
		{name: "a path after the ARN", files: ecsWorker(receive(`"${aws_sqs_queue.orders.arn}:*"`))},
		{name: "format() around the ARN", files: ecsWorker(receive(`format("%s/x", aws_sqs_queue.orders.arn)`))},
		{name: "another service's ARN from the queue's name", files: ecsWorker(receive(`"arn:aws:s3:::${aws_sqs_queue.orders.name}"`))},
		{name: "a suffix after the ARN, through a local", files: with(ecsWorker(receive(`[local.resource]`)), `locals { resource = "${aws_sqs_queue.orders.arn}-x" }`)},
		{
			name: "a suffix after the ARN, in a JSON template",
			files: ecsWorkerPolicy(t, `<<EOF
{"Statement": [{"Effect": "Allow", "Action": ["sqs:ReceiveMessage", "sqs:DeleteMessage"], "Resource": "${aws_sqs_queue.orders.arn}-x"}]}
EOF`),
		},
		{
			name: "a suffix after the ARN, in an aws_iam_policy_document",
			files: ecsWorkerPolicy(t, `data.aws_iam_policy_document.worker.json
}

data "aws_iam_policy_document" "worker" {
  statement {
    actions   = ["sqs:ReceiveMessage", "sqs:DeleteMessage"]
    resources = ["${aws_sqs_queue.orders.arn}-x"]
  }`),
		},
		{name: "the ARN", files: ecsWorker(receive(`"${aws_sqs_queue.orders.arn}"`)), links: []string{workerConsumesOrders}},
		{name: "the ARN through a local", files: with(ecsWorker(receive(`local.resource`)), `locals { resource = aws_sqs_queue.orders.arn }`), links: []string{workerConsumesOrders}},
		{name: "the ARN through try()", files: ecsWorker(receive(`try(aws_sqs_queue.orders.arn, "")`)), links: []string{workerConsumesOrders}},
		{
			name:  "the ARN built from the queue's name, the partition not known",
			files: ecsWorker(receive(`"arn:${var.partition}:sqs:*:*:${aws_sqs_queue.orders.name}"`)),
			links: []string{workerConsumesOrders},
		},
		{name: "a pattern matching the queue's name", files: ecsWorker(receive(`"arn:aws:sqs:*:*:ord*"`)), links: []string{workerConsumesOrders}},
	})
}

func TestIAMLinks(t *testing.T) {
	runLinkCases(t, []linkCase{
		{
			name:  "ECS task role with an inline jsonencode policy: the queue, not its dead-letter queue",
			files: ecsWorker(consumeOrders),
			links: []string{workerConsumesOrders},
		},
		{
			// nhs-notify-digital-letters: the stack's aws_iam_policy_document
			// goes into a Lambda module as iam_policy_document.body, which
			// the module makes an aws_iam_policy attached to the
			// function's role.
			name: "aws_iam_policy_document through a module's attached aws_iam_policy, Lambda role",
			files: map[string]string{
				"main.tf": `resource "aws_sqs_queue" "pdm_poll" {
  name = "pdm-poll"
}

resource "aws_sqs_queue" "publisher_errors" {
  name = "event-publisher-errors"
}

module "pdm_poll" {
  source              = "./lambda"
  function_name       = "pdm-poll"
  iam_policy_document = { body = data.aws_iam_policy_document.pdm_poll_lambda.json }
}

data "aws_iam_policy_document" "pdm_poll_lambda" {
  statement {
    sid       = "SQSPermissionsDLQs"
    effect    = "Allow"
    actions   = ["sqs:SendMessage", "sqs:SendMessageBatch"]
    resources = [aws_sqs_queue.publisher_errors.arn]
  }
  statement {
    sid       = "SQSPermissionsPollPdmQueue"
    effect    = "Allow"
    actions   = ["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueAttributes", "sqs:GetQueueUrl"]
    resources = [aws_sqs_queue.pdm_poll.arn]
  }
}
`,
				"lambda/main.tf": `variable "function_name" {
  type = string
}

variable "iam_policy_document" {
  type    = object({ body = string })
  default = null
}

resource "aws_iam_role" "main" {
  name = var.function_name
}

resource "aws_iam_policy" "main" {
  count  = var.iam_policy_document != null ? 1 : 0
  name   = var.function_name
  policy = var.iam_policy_document.body
}

resource "aws_iam_role_policy_attachment" "main" {
  count      = var.iam_policy_document != null ? 1 : 0
  role       = aws_iam_role.main.name
  policy_arn = aws_iam_policy.main[0].arn
}

resource "aws_lambda_function" "main" {
  function_name = var.function_name
  role          = aws_iam_role.main.arn
  timeout       = 60
}
`,
			},
			links: []string{"aws_sqs_queue.pdm_poll <- module.pdm_poll.aws_lambda_function.main (IAM role module.pdm_poll.aws_iam_role.main)"},
		},
		{
			// delivops/terraform-ec2-sqs-worker-asg: sqs:* on an ARN
			// pattern naming the queue, in the role of the launch
			// template's instance profile.
			name: "launch template instance profile, a queue named by an ARN pattern",
			files: map[string]string{"main.tf": `variable "sqs_queue_name" {
  type    = string
  default = "render-jobs"
}

resource "aws_sqs_queue" "jobs" {
  name = "render-jobs"
}

resource "aws_sqs_queue" "other" {
  name = "thumbnails"
}

resource "aws_iam_role" "worker" {
  name = "worker-role"
}

resource "aws_iam_role_policy" "sqs" {
  name = "worker-sqs"
  role = aws_iam_role.worker.id
  policy = jsonencode({
    Version   = "2012-10-17"
    Statement = [{ Effect = "Allow", Action = ["sqs:*"], Resource = "arn:aws:sqs:*:*:${var.sqs_queue_name}" }]
  })
}

resource "aws_iam_instance_profile" "worker" {
  name = "worker-profile"
  role = aws_iam_role.worker.name
}

resource "aws_launch_template" "worker" {
  name_prefix = "worker-"
  iam_instance_profile {
    name = aws_iam_instance_profile.worker.name
  }
}

resource "aws_autoscaling_group" "workers" {
  name     = "workers"
  min_size = 0
  max_size = 5
  launch_template {
    id      = aws_launch_template.worker.id
    version = "$Latest"
  }
}
`},
			links: []string{"aws_sqs_queue.jobs <- aws_autoscaling_group.workers (IAM role aws_iam_role.worker)"},
		},
		{
			name: "role inline_policy as JSON, wildcard actions, a role named by its ARN",
			files: map[string]string{"main.tf": `resource "aws_sqs_queue" "images" {
  name = "images"
}

resource "aws_iam_role" "resizer" {
  name = "resizer"
  inline_policy {
    name   = "sqs"
    policy = <<-JSON
      {
        "Version": "2012-10-17",
        "Statement": {
          "Effect": "Allow",
          "Action": ["sqs:Receive*", "sqs:Delete*", "sqs:ChangeMessageVisibility"],
          "Resource": "arn:aws:sqs:eu-west-1:123456789012:images"
        }
      }
    JSON
  }
}

resource "aws_lambda_function" "resizer" {
  function_name = "resizer"
  role          = "arn:aws:iam::123456789012:role/service-role/resizer"
}
`},
			links: []string{"aws_sqs_queue.images <- aws_lambda_function.resizer (IAM role aws_iam_role.resizer)"},
		},
		{
			name: "a policy in a local, attached with aws_iam_policy_attachment, launch configuration",
			files: map[string]string{"main.tf": `locals {
  consume = jsonencode({
    Statement = [{ Effect = "Allow", Action = "sqs:*", Resource = aws_sqs_queue.reports.arn }]
  })
}

resource "aws_sqs_queue" "reports" {
  name = "reports"
}

resource "aws_iam_role" "reporter" {
  name = "reporter"
}

resource "aws_iam_policy" "consume" {
  name   = "consume-reports"
  policy = local.consume
}

resource "aws_iam_policy_attachment" "consume" {
  name       = "consume-reports"
  roles      = [aws_iam_role.reporter.name]
  policy_arn = aws_iam_policy.consume.arn
}

resource "aws_iam_instance_profile" "reporter" {
  name = "reporter"
  role = aws_iam_role.reporter.name
}

resource "aws_launch_configuration" "reporter" {
  name                 = "reporter"
  iam_instance_profile = aws_iam_instance_profile.reporter.arn
}

resource "aws_autoscaling_group" "reporters" {
  name                 = "reporters"
  max_size             = 3
  min_size             = 1
  launch_configuration = aws_launch_configuration.reporter.name
}
`},
			links: []string{"aws_sqs_queue.reports <- aws_autoscaling_group.reporters (IAM role aws_iam_role.reporter)"},
		},
		{
			// transactional-messaging-patterns (filipsnastins): the
			// queues of a for_each module, their ARNs gathered with a for
			// expression into a policy module's input.
			name: "queue ARNs of a for_each module through a policy module, a task definition named by family:revision",
			files: map[string]string{
				"main.tf": `module "orders_queue" {
  source   = "./queue"
  for_each = toset(["order-created", "order-cancelled"])
  name     = each.key
}

resource "aws_iam_role" "customers" {
  name = "customers-task"
}

module "sqs_policy" {
  source         = "./policy"
  role_name      = aws_iam_role.customers.name
  sqs_queue_arns = [for q in module.orders_queue : q.arn]
}

resource "aws_ecs_task_definition" "customers" {
  family        = "customers"
  task_role_arn = aws_iam_role.customers.arn
}

resource "aws_ecs_service" "customers" {
  name            = "customers"
  cluster         = "main"
  task_definition = "customers:3"
  desired_count   = 1
}
`,
				"queue/main.tf": `variable "name" {
  type = string
}

resource "aws_sqs_queue" "q" {
  name = var.name
}

output "arn" {
  value = aws_sqs_queue.q.arn
}
`,
				"policy/main.tf": `variable "role_name" {
  type = string
}

variable "sqs_queue_arns" {
  type = list(string)
}

resource "aws_iam_role_policy" "default" {
  role = var.role_name
  policy = jsonencode({
    "Version" : "2012-10-17",
    "Statement" : [
      { "Effect" : "Allow", "Action" : ["sqs:*"], "Resource" : [for arn in var.sqs_queue_arns : arn] },
    ]
  })
}
`,
			},
			links: []string{
				`module.orders_queue["order-cancelled"].aws_sqs_queue.q <- aws_ecs_service.customers (IAM role aws_iam_role.customers)`,
				`module.orders_queue["order-created"].aws_sqs_queue.q <- aws_ecs_service.customers (IAM role aws_iam_role.customers)`,
			},
		},
		{
			name: "a reader of the dead-letter queue alone consumes it",
			files: map[string]string{"main.tf": `resource "aws_sqs_queue" "orders" {
  name           = "orders"
  redrive_policy = jsonencode({ deadLetterTargetArn = aws_sqs_queue.orders_dlq.arn, maxReceiveCount = 5 })
}

resource "aws_sqs_queue" "orders_dlq" {
  name = "orders-dlq"
}

resource "aws_iam_role" "redrive" {
  name = "redrive"
  inline_policy {
    name   = "dlq"
    policy = data.aws_iam_policy_document.dlq.json
  }
}

data "aws_iam_policy_document" "dlq" {
  statement {
    actions   = ["sqs:ReceiveMessage", "sqs:DeleteMessage"]
    resources = [aws_sqs_queue.orders_dlq.arn]
  }
}

resource "aws_lambda_function" "redrive" {
  function_name = "redrive"
  role          = aws_iam_role.redrive.arn
}
`},
			links: []string{"aws_sqs_queue.orders_dlq <- aws_lambda_function.redrive (IAM role aws_iam_role.redrive)"},
		},
		{
			name:  "allowed to send only: a producer, not a consumer",
			files: ecsWorker(`{ Effect = "Allow", Action = ["sqs:SendMessage", "sqs:GetQueueUrl"], Resource = aws_sqs_queue.orders.arn }`),
		},
		{
			name:  "allowed to receive but not to delete",
			files: ecsWorker(`{ Effect = "Allow", Action = ["sqs:ReceiveMessage", "sqs:ChangeMessageVisibility"], Resource = aws_sqs_queue.orders.arn }`),
		},
		{
			name: "denied deleting",
			files: ecsWorker(`{ Effect = "Allow", Action = "sqs:*", Resource = aws_sqs_queue.orders.arn },
    { Effect = "Deny", Action = "sqs:DeleteMessage", Resource = "*" }`),
		},
		{
			name:  "NotAction without the SQS actions",
			files: ecsWorker(`{ Effect = "Allow", NotAction = ["sqs:DeleteMessage", "iam:*"], Resource = aws_sqs_queue.orders.arn }`),
		},
		{
			name:  "every queue: no link, and a skip for the fleet left without one",
			files: ecsWorker(`{ Effect = "Allow", Action = ["sqs:ReceiveMessage", "sqs:DeleteMessage"], Resource = "*" }`),
			skips: []linkSkip{{16, `IAM role aws_iam_role.task lets aws_ecs_service.worker receive and delete the messages of every queue (Resource "*"), so which queue it consumes is not known: ` +
				"name the queue in the policy's Resource, tag the fleet queuecap:queue, or name it as the consumer in the queue's .queuecap.hcl block"}},
		},
		{
			name:  "every queue through \"*\" alone is no sign of a consumer",
			files: ecsWorker(`{ Effect = "Allow", Action = "*", Resource = "*" }`),
		},
		{
			// terraform-aws-modules/terraform-aws-lambda's
			// event-source-mapping example: AWSLambdaSQSQueueExecutionRole
			// beside the mapping.
			name: "every queue through an AWS managed policy, on a function a mapping links",
			files: map[string]string{"main.tf": managedPolicyFunction + `
resource "aws_lambda_event_source_mapping" "q" {
  event_source_arn = aws_sqs_queue.q.arn
  function_name    = aws_lambda_function.fn.arn
}
`},
			links: []string{"aws_sqs_queue.q <- aws_lambda_function.fn"},
		},
		{
			// Its role lets it receive and delete, as it may let a web
			// server or a scheduler sharing the role: no consumer.
			name:  "every queue through an AWS managed policy, on a function no mapping links",
			files: map[string]string{"main.tf": managedPolicyFunction},
		},
		{
			// A declared consumer takes precedence over those IAM implies.
			name: "a consumer its tag declares, and one its role implies",
			files: map[string]string{"main.tf": ecsWorker(consumeOrders)["main.tf"] + `
resource "aws_autoscaling_group" "tagged" {
  name     = "tagged"
  max_size = 2
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
}
`},
			links: []string{"aws_sqs_queue.orders <- aws_autoscaling_group.tagged"},
		},
	})
}

// TestExplainLinkedThrough checks that --explain says how a consumer that
// only its role or a pipe implies is linked, and which topics declare an
// arrival rate.
func TestExplainLinkedThrough(t *testing.T) {
	tf := ecsWorker(consumeOrders)["main.tf"] + `
resource "aws_sns_topic" "orders" {
  tags = { "queuecap:arrival_rate" = 40 }
}

resource "aws_sns_topic_subscription" "orders" {
  topic_arn = aws_sns_topic.orders.arn
  protocol  = "sqs"
  endpoint  = aws_sqs_queue.orders.arn
}
`
	res, _ := explain(t, map[string]string{"main.tf": tf})
	var got []string
	for _, q := range res.Explanation.Roots[0].Queues {
		for _, r := range q.Rates {
			if r.Source != "default" {
				got = append(got, q.Address+" "+rateLine(r))
			}
		}
		for _, c := range q.Consumers {
			got = append(got, q.Address+" <- "+c.Address+" linked through "+c.LinkedThrough)
		}
	}
	want := []string{
		"aws_sqs_queue.orders arrival_rate=40 producers tag queuecap:arrival_rate of SNS topic aws_sns_topic.orders",
		"aws_sqs_queue.orders <- aws_ecs_service.worker linked through IAM role aws_iam_role.task",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("explained:\n got %q\nwant %q", got, want)
	}
}

// TestExplainIgnoredConsumers: three ECS services share the workers'
// task role, which may receive and delete the queue's messages; only the
// workers are tagged with it. The tag takes precedence: the others are not
// consumers (their capacity would hide a finding), and --explain says who
// was left out and why (issue 22, item 3).
func TestExplainIgnoredConsumers(t *testing.T) {
	tf := ecsWorker(consumeOrders)["main.tf"] + `
resource "aws_ecs_service" "scheduler" {
  name            = "scheduler"
  cluster         = "main"
  task_definition = aws_ecs_task_definition.worker.arn
  desired_count   = 1
}

resource "aws_ecs_service" "web" {
  name            = "web"
  cluster         = "main"
  task_definition = aws_ecs_task_definition.worker.arn
  desired_count   = 4
}

resource "aws_autoscaling_group" "workers" {
  name     = "workers"
  max_size = 10
  tag {
    key                 = "queuecap:queue"
    value               = "aws_sqs_queue.orders"
    propagate_at_launch = false
  }
}
`
	res, _ := explain(t, map[string]string{"main.tf": tf})
	var got []string
	for _, q := range res.Explanation.Roots[0].Queues {
		for _, c := range q.Consumers {
			got = append(got, q.Address+" <- "+c.Address)
		}
		for _, c := range q.IgnoredConsumers {
			got = append(got, q.Address+" not "+c.Address+": "+c.Reason)
		}
	}
	why := ": IAM role aws_iam_role.task lets it receive and delete the queue's messages, but the queue's consumers are declared (aws_autoscaling_group.workers), and a declared consumer takes precedence over one IAM implies"
	want := []string{
		"aws_sqs_queue.orders <- aws_autoscaling_group.workers",
		"aws_sqs_queue.orders not aws_ecs_service.worker" + why,
		"aws_sqs_queue.orders not aws_ecs_service.scheduler" + why,
		"aws_sqs_queue.orders not aws_ecs_service.web" + why,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("explained:\n got %q\nwant %q", got, want)
	}
}
