// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package testaws

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
)

func TestMain(m *testing.M) { Main(m) }

// The plan JSON's format_version by CLI, as the CLIs emit it.
var formatVersions = map[string]string{
	"terraform-1.5.7": "1.2",
	"tofu-1.12.6":     "1.2",
}

// The registry each CLI resolves `source = "hashicorp/aws"` in.
func providerName(plan *tfjson.Plan) string {
	if slices.Contains([]string{"1.12.6", "1.12.6-dev"}, plan.TerraformVersion) {
		return "registry.opentofu.org/hashicorp/aws"
	}
	return "registry.terraform.io/hashicorp/aws"
}

var ordersVars = []string{"-var-file=prod.tfvars", "-var=max_consumers=20"}

func decodePlan(t *testing.T, raw []byte) *tfjson.Plan {
	t.Helper()
	var plan tfjson.Plan
	if err := json.Unmarshal(raw, &plan); err != nil {
		t.Fatalf("decode the plan: %v", err)
	}
	if err := plan.Validate(); err != nil {
		t.Fatalf("the plan: %v", err)
	}
	return &plan
}

func TestPlan(t *testing.T) {
	for _, cli := range CLIs() {
		t.Run(cli.Name, func(t *testing.T) {
			t.Parallel()
			plan := decodePlan(t, Plan(t, cli.Path, "testdata/orders", ordersVars...))
			t.Logf("%s: terraform_version %s, format_version %s", cli.Name, plan.TerraformVersion, plan.FormatVersion)
			if want, ok := formatVersions[cli.Name]; ok && plan.FormatVersion != want {
				t.Errorf("format_version = %q, want %q", plan.FormatVersion, want)
			}

			planned := plannedResources(plan.PlannedValues.RootModule)
			t.Run("addresses", func(t *testing.T) {
				for _, addr := range []string{
					"aws_sqs_queue.dlq", "aws_sqs_queue.orders", "aws_sqs_queue.retired", "aws_sqs_queue_redrive_policy.retired",
					"aws_cloudwatch_metric_alarm.backlog", "aws_sns_topic_subscription.orders",
					"aws_iam_role.consumer", "aws_iam_role_policy.consume", "aws_iam_policy.logs",
					"aws_iam_role_policy_attachment.logs", "aws_iam_instance_profile.workers",
					"aws_lambda_function.consumer", "aws_lambda_event_source_mapping.orders", "aws_pipes_pipe.orders",
					"aws_autoscaling_group.workers", "aws_autoscaling_policy.backlog",
					"aws_ecs_service.consumer", "aws_appautoscaling_target.consumer", "aws_appautoscaling_policy.consumer",
					`module.worker["email"].aws_sqs_queue.q`, `module.worker["sms"].aws_lambda_event_source_mapping.q`,
					"module.batch[0].aws_sqs_queue.q", "module.batch[1].aws_lambda_event_source_mapping.q",
					"aws_sns_topic.orders", "aws_launch_template.workers", "aws_launch_configuration.legacy",
					"aws_ecs_task_definition.consumer", "aws_iam_policy_attachment.logs",
				} {
					r, ok := planned[addr]
					if !ok {
						t.Errorf("planned_values has no %s", addr)
						continue
					}
					if r.ProviderName != providerName(plan) {
						t.Errorf("%s: provider_name = %q, want %q", addr, r.ProviderName, providerName(plan))
					}
				}
			})

			t.Run("known values", func(t *testing.T) {
				for _, tc := range []struct {
					addr, path string
					want       any
				}{
					{"aws_sqs_queue.orders", "visibility_timeout_seconds", 120.0},   // prod.tfvars
					{"aws_sqs_queue.orders", "message_retention_seconds", 345600.0}, // the provider's default
					{"aws_sqs_queue.orders", "region", "us-east-1"},
					{"aws_sqs_queue.orders", "tags_all", map[string]any{"team": "orders", "queuecap:arrival_rate": "200"}},
					{"aws_sqs_queue.dlq", "message_retention_seconds", 1209600.0},
					{"aws_lambda_function.consumer", "reserved_concurrent_executions", 20.0}, // -var
					{"aws_lambda_function.consumer", "timeout", 20.0},
					{"aws_lambda_function.consumer", "memory_size", 128.0},
					{"aws_lambda_event_source_mapping.orders", "batch_size", 10.0},
					{"aws_lambda_event_source_mapping.orders", "enabled", true},
					{"aws_lambda_event_source_mapping.orders", "scaling_config.0.maximum_concurrency", 20.0},
					{"aws_autoscaling_group.workers", "max_size", 8.0},
					{"aws_autoscaling_group.workers", "tag.0.key", "queuecap:per_consumer_rate"},
					{"aws_autoscaling_policy.backlog", "autoscaling_group_name", "orders-workers"},
					{"aws_autoscaling_policy.backlog", "target_tracking_configuration.0.customized_metric_specification.0.namespace", "AWS/SQS"},
					{"aws_cloudwatch_metric_alarm.backlog", "dimensions", map[string]any{"QueueName": "orders"}},
					{"aws_cloudwatch_metric_alarm.backlog", "treat_missing_data", "missing"},
					{"aws_ecs_service.consumer", "desired_count", 2.0},
					{"aws_ecs_service.consumer", "deployment_maximum_percent", 200.0},
					{"aws_appautoscaling_target.consumer", "resource_id", "service/orders/orders-consumer"},
					{"aws_appautoscaling_target.consumer", "max_capacity", 20.0},
					{"aws_appautoscaling_policy.consumer", "target_tracking_scaling_policy_configuration.0.target_value", 100.0},
					{"aws_pipes_pipe.orders", "source_parameters.0.sqs_queue_parameters.0.batch_size", 5.0},
					{"aws_iam_role.consumer", "assume_role_policy", assumeLambdaJSON},
					{`module.worker["email"].aws_sqs_queue.q`, "name", "orders-email"},
					{`module.worker["email"].aws_sqs_queue.q`, "visibility_timeout_seconds", 45.0},
					{"module.batch[1].aws_sqs_queue.q", "name", "batch-1"},
					{"module.batch[1].aws_lambda_event_source_mapping.q", "batch_size", 25.0},
					{"aws_sns_topic.orders", "fifo_topic", false},
					{"aws_sns_topic.orders", "content_based_deduplication", false},
					{"aws_launch_template.workers", "iam_instance_profile.0.name", "orders-workers"},
					{"aws_launch_configuration.legacy", "enable_monitoring", true},
					{"aws_launch_configuration.legacy", "root_block_device.0.volume_size", 20.0},
					{"aws_launch_configuration.legacy", "root_block_device.0.delete_on_termination", true},
					{"aws_ecs_task_definition.consumer", "skip_destroy", false},
					{"aws_ecs_task_definition.consumer", "track_latest", false},
					{"aws_ecs_task_definition.consumer", "volume.0.docker_volume_configuration.0.autoprovision", false},
					{"aws_iam_policy_attachment.logs", "roles", []any{"orders-consumer"}},
				} {
					r, ok := planned[tc.addr]
					if !ok {
						t.Errorf("planned_values has no %s", tc.addr)
						continue
					}
					got, ok := lookup(r.AttributeValues, tc.path)
					if !ok || !jsonEqual(got, tc.want) {
						t.Errorf("%s.%s = %#v, want %#v", tc.addr, tc.path, got, tc.want)
					}
				}
			})

			changes := resourceChanges(plan)
			t.Run("unknown until apply", func(t *testing.T) {
				for _, tc := range []struct{ addr, path string }{
					{"aws_sqs_queue.orders", "arn"},
					{"aws_sqs_queue.orders", "url"},
					{"aws_sqs_queue.orders", "id"},
					{"aws_sqs_queue.orders", "redrive_policy"}, // the DLQ's ARN is in it
					{`module.worker["sms"].aws_sqs_queue.q`, "arn"},
					{"aws_lambda_event_source_mapping.orders", "event_source_arn"},
					{"aws_lambda_event_source_mapping.orders", "uuid"},
					{"aws_iam_policy.logs", "name"}, // from name_prefix
					{"aws_iam_role_policy.consume", "policy"},
					{"data.aws_iam_policy_document.consume", "json"},
					{"aws_sns_topic.orders", "arn"},
					{"aws_sns_topic.orders", "owner"},
					{"aws_launch_template.workers", "id"},
					{"aws_launch_template.workers", "name"}, // from name_prefix
					{"aws_launch_template.workers", "latest_version"},
					{"aws_launch_configuration.legacy", "arn"},
					{"aws_launch_configuration.legacy", "iam_instance_profile"}, // the profile's ARN
					{"aws_ecs_task_definition.consumer", "arn"},
					{"aws_ecs_task_definition.consumer", "revision"},
					{"aws_ecs_task_definition.consumer", "task_role_arn"},
					{"aws_iam_policy_attachment.logs", "policy_arn"},
				} {
					rc, ok := changes[tc.addr]
					if !ok {
						t.Errorf("resource_changes has no %s", tc.addr)
						continue
					}
					unknown, _ := lookup(rc.Change.AfterUnknown, tc.path)
					if unknown != true {
						t.Errorf("%s: after_unknown.%s = %v, want true", tc.addr, tc.path, unknown)
					}
				}
				if rc := changes["data.aws_iam_policy_document.consume"]; rc != nil && !rc.Change.Actions.Read() {
					t.Errorf("data.aws_iam_policy_document.consume: actions %v, want read (at apply)", rc.Change.Actions)
				}
			})

			t.Run("references", func(t *testing.T) {
				root := plan.Config.RootModule
				worker := root.ModuleCalls["worker"]
				batch := root.ModuleCalls["batch"]
				if worker == nil || batch == nil {
					t.Fatalf("configuration.root_module.module_calls lacks worker or batch")
				}
				for _, tc := range []struct {
					name string
					refs []string
					want string
				}{
					{"event_source_arn", expressionRefs(configResource(root, "aws_lambda_event_source_mapping.orders"), "event_source_arn"), "aws_sqs_queue.orders.arn"},
					{"function_name", expressionRefs(configResource(root, "aws_lambda_event_source_mapping.orders"), "function_name"), "aws_lambda_function.consumer.arn"},
					{"redrive_policy", expressionRefs(configResource(root, "aws_sqs_queue.orders"), "redrive_policy"), "aws_sqs_queue.dlq.arn"},
					{"autoscaling_group_name", expressionRefs(configResource(root, "aws_autoscaling_policy.backlog"), "autoscaling_group_name"), "aws_autoscaling_group.workers.name"},
					{"for_each", worker.ForEachExpression.References, "var.workers"},
					{"dlq_arn", worker.Expressions["dlq_arn"].References, "aws_sqs_queue.dlq.arn"},
					{"module event_source_arn", expressionRefs(configResource(worker.Module, "aws_lambda_event_source_mapping.q"), "event_source_arn"), "aws_sqs_queue.q.arn"},
				} {
					if !slices.Contains(tc.refs, tc.want) {
						t.Errorf("%s: references %v, want %s among them", tc.name, tc.refs, tc.want)
					}
				}
				if batch.CountExpression == nil || batch.CountExpression.ConstantValue != 2.0 {
					t.Errorf("module.batch: count expression %+v, want the constant 2", batch.CountExpression)
				}
				if worker.Source != "./modules/worker" {
					t.Errorf("module.worker: source %q", worker.Source)
				}
			})
		})
	}
}

// TestDestroyPlan applies the configuration, removes a queue from it and
// plans again: the queue and its redrive policy are deleted, and nothing
// else changes, since the provider keeps what apply made up.
func TestDestroyPlan(t *testing.T) {
	for _, cli := range CLIs() {
		t.Run(cli.Name, func(t *testing.T) {
			t.Parallel()
			w := NewWorkdir(t, cli.Path, "testdata/orders")
			w.Apply(ordersVars...)
			if err := os.Remove(filepath.Join(w.Dir, "retired.tf")); err != nil {
				t.Fatal(err)
			}
			plan := decodePlan(t, w.Plan(ordersVars...))
			prior := plannedResources(plan.PriorState.Values.RootModule)
			if arn, _ := prior["aws_sqs_queue.retired"].AttributeValues["arn"].(string); arn != "arn:aws:sqs:us-east-1:123456789012:orders-retired" {
				t.Errorf("prior_state: aws_sqs_queue.retired arn = %q", arn)
			}
			for addr, rc := range resourceChanges(plan) {
				want := tfjson.Actions{tfjson.ActionNoop}
				switch addr {
				case "aws_sqs_queue.retired", "aws_sqs_queue_redrive_policy.retired":
					want = tfjson.Actions{tfjson.ActionDelete}
				case "data.aws_iam_policy_document.consume":
					want = tfjson.Actions{tfjson.ActionRead}
				}
				if !slices.Equal(rc.Change.Actions, want) {
					t.Errorf("%s: actions %v, want %v", addr, rc.Change.Actions, want)
				}
			}
		})
	}
}

// The rendering of data.aws_iam_policy_document.assume_lambda.
const assumeLambdaJSON = `{
  "Version": "2012-10-17",
  "Statement": [
    {
      "Effect": "Allow",
      "Action": "sts:AssumeRole",
      "Principal": {
        "Service": "lambda.amazonaws.com"
      }
    }
  ]
}`

// plannedResources indexes a module's resources and its children's by address.
func plannedResources(m *tfjson.StateModule) map[string]*tfjson.StateResource {
	out := map[string]*tfjson.StateResource{}
	var walk func(*tfjson.StateModule)
	walk = func(m *tfjson.StateModule) {
		if m == nil {
			return
		}
		for _, r := range m.Resources {
			out[r.Address] = r
		}
		for _, c := range m.ChildModules {
			walk(c)
		}
	}
	walk(m)
	return out
}

func resourceChanges(plan *tfjson.Plan) map[string]*tfjson.ResourceChange {
	out := map[string]*tfjson.ResourceChange{}
	for _, rc := range plan.ResourceChanges {
		out[rc.Address] = rc
	}
	return out
}

func configResource(m *tfjson.ConfigModule, addr string) *tfjson.ConfigResource {
	if m == nil {
		return nil
	}
	for _, r := range m.Resources {
		if r.Address == addr {
			return r
		}
	}
	return nil
}

func expressionRefs(r *tfjson.ConfigResource, attr string) []string {
	if r == nil || r.Expressions[attr] == nil || r.Expressions[attr].ExpressionData == nil {
		return nil
	}
	return r.Expressions[attr].References
}

// lookup follows a dotted path (list indexes as numbers) into a decoded
// JSON value.
func lookup(v any, path string) (any, bool) {
	for _, step := range splitPath(path) {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[step]; !ok {
				return nil, false
			}
		case []any:
			i := 0
			for _, c := range step {
				i = i*10 + int(c-'0')
			}
			if i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

func splitPath(p string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(p); i++ {
		if i == len(p) || p[i] == '.' {
			out = append(out, p[start:i])
			start = i + 1
		}
	}
	return out
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// TestSchema checks what the CLIs see of the served schemas: every type,
// and the item limits and versions that the framework alone would not
// serve.
func TestSchema(t *testing.T) {
	for _, cli := range CLIs() {
		t.Run(cli.Name, func(t *testing.T) {
			t.Parallel()
			w := NewWorkdir(t, cli.Path, "testdata/orders")
			var schemas tfjson.ProviderSchemas
			if err := json.Unmarshal([]byte(w.run("providers", "schema", "-json")), &schemas); err != nil {
				t.Fatal(err)
			}
			var aws *tfjson.ProviderSchema
			for addr, s := range schemas.Schemas {
				if strings.HasSuffix(addr, "/hashicorp/aws") {
					aws = s
				}
			}
			if aws == nil {
				t.Fatalf("no hashicorp/aws among %v", slices.Collect(maps.Keys(schemas.Schemas)))
			}
			for name := range resourceTypes {
				if aws.ResourceSchemas[name] == nil {
					t.Errorf("no resource schema for %s", name)
				}
			}
			if aws.DataSourceSchemas[iamPolicyDocumentName] == nil {
				t.Errorf("no data source schema for %s", iamPolicyDocumentName)
			}
			for _, tc := range []struct {
				resource string
				path     []string
				min, max uint64
			}{
				{"aws_lambda_event_source_mapping", []string{"scaling_config"}, 0, 1},
				{"aws_lambda_event_source_mapping", []string{"source_access_configuration"}, 0, 22},
				{"aws_autoscaling_policy", []string{"target_tracking_configuration"}, 0, 1},
				{"aws_autoscaling_policy", []string{"predictive_scaling_configuration", "metric_specification"}, 1, 1},
				{"aws_autoscaling_policy", []string{"predictive_scaling_configuration", "metric_specification",
					"customized_load_metric_specification", "metric_data_queries"}, 1, 10},
				{"aws_ecs_service", []string{"ordered_placement_strategy"}, 0, 5},
				{"aws_ecs_task_definition", []string{"placement_constraints"}, 0, 10},
				{"aws_ecs_task_definition", []string{"volume", "fsx_windows_file_server_volume_configuration", "authorization_config"}, 1, 1},
				{"aws_launch_template", []string{"instance_requirements", "vcpu_count"}, 1, 1},
				{"aws_launch_template", []string{"iam_instance_profile"}, 0, 1},
			} {
				b := aws.ResourceSchemas[tc.resource].Block
				var nb *tfjson.SchemaBlockType
				for _, step := range tc.path {
					if nb = b.NestedBlocks[step]; nb == nil {
						break
					}
					b = nb.Block
				}
				if nb == nil || nb.MinItems != tc.min || nb.MaxItems != tc.max {
					t.Errorf("%s %v: %+v, want min_items %d, max_items %d", tc.resource, tc.path, nb, tc.min, tc.max)
				}
			}
			for name, version := range map[string]uint64{
				"aws_autoscaling_group": 1, "aws_cloudwatch_metric_alarm": 1, "aws_ecs_service": 1, "aws_sqs_queue": 0,
				"aws_ecs_task_definition": 1, "aws_launch_template": 1, "aws_launch_configuration": 0, "aws_sns_topic": 0,
			} {
				if got := aws.ResourceSchemas[name].Version; got != version {
					t.Errorf("%s: schema version %d, want %d", name, got, version)
				}
			}
			arn := aws.ResourceSchemas["aws_sqs_queue"].Block.Attributes["arn"]
			if arn == nil || !arn.Computed || arn.Optional {
				t.Errorf("aws_sqs_queue.arn: %+v, want computed only", arn)
			}
		})
	}
}

// TestRegistryHostname plans a configuration that names the Terraform
// registry outright: OpenTofu plans it too.
func TestRegistryHostname(t *testing.T) {
	for _, cli := range CLIs() {
		t.Run(cli.Name, func(t *testing.T) {
			t.Parallel()
			plan := decodePlan(t, Plan(t, cli.Path, "testdata/terraform-registry"))
			r := plannedResources(plan.PlannedValues.RootModule)["aws_sqs_queue.q"]
			if r == nil || r.ProviderName != "registry.terraform.io/hashicorp/aws" {
				t.Errorf("aws_sqs_queue.q: %+v, want provider_name registry.terraform.io/hashicorp/aws", r)
			}
		})
	}
}

// TestPolicyDocument checks documents rendered at plan: the anonymous
// principal, a condition, and a statement replacing a source document's
// with the same Sid.
func TestPolicyDocument(t *testing.T) {
	for _, cli := range CLIs() {
		t.Run(cli.Name, func(t *testing.T) {
			t.Parallel()
			plan := decodePlan(t, Plan(t, cli.Path, "testdata/policy-documents"))
			for name, want := range map[string]string{
				"anyone": `{
  "Version": "2012-10-17",
  "Statement": [
    {
      "Sid": "Read",
      "Effect": "Allow",
      "Action": [
        "sqs:ReceiveMessage",
        "sqs:GetQueueAttributes"
      ],
      "Resource": "arn:aws:sqs:us-east-1:123456789012:orders",
      "Principal": "*",
      "Condition": {
        "ArnEquals": {
          "aws:SourceArn": "arn:aws:sns:us-east-1:123456789012:orders"
        }
      }
    }
  ]
}`,
				"merged": `{"Version":"2012-10-17","Statement":[{"Sid":"Read","Effect":"Deny","Action":"sqs:*","Resource":"*",` +
					`"Principal":{"AWS":["arn:aws:iam::210987654321:root","arn:aws:iam::123456789012:root"]}}]}`,
			} {
				out := plan.PlannedValues.Outputs[name]
				if out == nil || out.Value != want {
					t.Errorf("output %s = %v, want\n%s", name, out, want)
				}
			}
		})
	}
}

// TestQueuecapProvider plans a configuration that sizes a fleet with the
// real queuecap provider, served beside the stand-in: its data source is
// read at plan (so it is in prior_state, not planned_values) and the
// fleet's max_size is its result.
func TestQueuecapProvider(t *testing.T) {
	for _, cli := range CLIs() {
		t.Run(cli.Name, func(t *testing.T) {
			t.Parallel()
			plan := decodePlan(t, Plan(t, cli.Path, "testdata/queuecap"))
			planned := plannedResources(plan.PlannedValues.RootModule)
			if plan.PriorState == nil || plan.PriorState.Values == nil {
				t.Fatal("no prior_state: the data source was not read at plan")
			}
			ds := plannedResources(plan.PriorState.Values.RootModule)["data.queuecap_consumers.workers"]
			wantProvider := strings.Replace(providerName(plan), "hashicorp/aws", "queuecap/queuecap", 1)
			if ds == nil || ds.ProviderName != wantProvider {
				t.Fatalf("data.queuecap_consumers.workers: %+v, want provider_name %s", ds, wantProvider)
			}
			// ceil(10000/400 + 5000000/(400 × 1800)) = ceil(25 + 6.94) = 32.
			if got := ds.AttributeValues["required_consumers"]; got != 32.0 {
				t.Errorf("required_consumers = %v, want 32", got)
			}
			if got := planned["aws_autoscaling_group.workers"].AttributeValues["max_size"]; got != 32.0 {
				t.Errorf("max_size = %v, want 32", got)
			}
		})
	}
}
