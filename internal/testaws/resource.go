// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package testaws

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// resourceType is one AWS resource type: its schema and the values AWS
// would return for it on create.
type resourceType struct {
	name    string
	version int64
	body    block
	// created returns the computed values the plan left unknown that AWS
	// returns on create (ARNs, IDs, URLs, generated names, revisions), as
	// strings whatever their type.
	created func(c created) map[string]string
}

// resourceTypes are the AWS resource types the provider serves, by name.
var resourceTypes = map[string]resourceType{}

func register(rt resourceType) {
	if _, dup := resourceTypes[rt.name]; dup {
		panic("testaws: " + rt.name + " registered twice")
	}
	resourceTypes[rt.name] = rt
}

type awsResource struct {
	resourceType
	config *configured
}

var (
	_ resource.ResourceWithConfigure  = (*awsResource)(nil)
	_ resource.ResourceWithModifyPlan = (*awsResource)(nil)
)

func (r *awsResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = r.name
}

func (r *awsResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = r.body.resourceSchema(r.version)
}

func (r *awsResource) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	if c, ok := req.ProviderData.(*configured); ok {
		r.config = c
	}
}

// ModifyPlan plans the way the AWS provider (SDKv2) does, its Defaults
// being planned already (sdkv2Like.PlanResourceChange): prior values for
// computed attributes on update, replacement when a ForceNew attribute
// changes, region from the provider and tags_all from default_tags and
// tags. What is left unknown (ARNs, IDs, URLs, names from name_prefix) is
// known only after apply, as with AWS.
func (r *awsResource) ModifyPlan(_ context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	planned, ok := object(req.Plan.Raw)
	if !ok {
		return
	}
	cfg, _ := object(req.Config.Raw)
	if prior, ok := object(req.State.Raw); ok {
		for name, a := range r.body.attrs {
			if a.forceNew && planned[name].IsKnown() && !planned[name].Equal(prior[name]) {
				resp.RequiresReplace = append(resp.RequiresReplace, path.Root(name))
			}
		}
		if len(resp.RequiresReplace) == 0 {
			planned, _ = object(r.body.keepPrior(req.Plan.Raw, req.Config.Raw, req.State.Raw))
		}
	}
	if _, ok := r.body.attrs["region"]; ok && r.config != nil && cfg["region"].IsNull() {
		planned["region"] = r.config.region
	}
	if _, ok := r.body.attrs["tags_all"]; ok && r.config != nil {
		planned["tags_all"] = r.config.tagsAll(planned["tags"], planned["tags_all"])
	}
	resp.Plan.Raw = tftypes.NewValue(req.Plan.Raw.Type(), planned)
}

// tagsAll is the AWS provider's tags_all: default_tags with tags over
// them, unknown when either is, and left as planned when both are empty.
func (c *configured) tagsAll(tags, planned tftypes.Value) tftypes.Value {
	if !tags.IsFullyKnown() || c.tagsUnknown {
		return tftypes.NewValue(planned.Type(), tftypes.UnknownValue)
	}
	all := map[string]string{}
	for k, v := range c.defaultTags {
		all[k] = v
	}
	for k, v := range stringMap(tags) {
		all[k] = v
	}
	if len(all) == 0 {
		return planned
	}
	return stringMapValue(all)
}

func (r *awsResource) Create(_ context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	state, err := r.apply(req.Plan.Raw)
	if err != nil {
		resp.Diagnostics.AddError("testaws: create "+r.name, err.Error())
		return
	}
	resp.State.Raw = state
}

func (r *awsResource) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {
	// Nothing changes outside Terraform: the state stands as it is.
}

func (r *awsResource) Update(_ context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	state, err := r.apply(req.Plan.Raw)
	if err != nil {
		resp.Diagnostics.AddError("testaws: update "+r.name, err.Error())
		return
	}
	resp.State.Raw = state
}

func (r *awsResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

// apply fills in what the plan left unknown: the type's made-up AWS values
// first, then zero values for the rest.
func (r *awsResource) apply(plan tftypes.Value) (tftypes.Value, error) {
	m, ok := object(plan)
	if !ok {
		return plan, fmt.Errorf("the plan is not a known object")
	}
	c := created{attrs: m, region: stringOf(m["region"])}
	if c.region == "" && r.config != nil {
		c.region = stringOf(r.config.region)
	}
	if r.created != nil {
		for name, s := range r.created(c) {
			if v, ok := m[name]; ok && !v.IsKnown() {
				m[name] = createdValue(v.Type(), s)
			}
		}
	}
	return known(tftypes.NewValue(plan.Type(), m))
}

// createdValue is a made-up value of an attribute's type: a number (a
// revision, a version) is written as a string too.
func createdValue(t tftypes.Type, s string) tftypes.Value {
	if t.Is(tftypes.Number) {
		if f, ok := new(big.Float).SetString(s); ok {
			return tftypes.NewValue(t, f)
		}
	}
	return stringValue(s)
}

// created is a resource's planned values as its created func reads them.
type created struct {
	attrs  map[string]tftypes.Value
	region string
}

func (c created) str(name string) string { return stringOf(c.attrs[name]) }

var generated atomic.Int64

// name is the resource's name: the configured one, or one AWS-style from
// name_prefix (or "terraform-") and a unique suffix.
func (c created) name() string {
	if n := c.str("name"); n != "" {
		return n
	}
	prefix := c.str("name_prefix")
	if prefix == "" {
		prefix = "terraform-"
	}
	return fmt.Sprintf("%s%026d", prefix, generated.Add(1))
}

// arn is an ARN in the test account and the resource's region.
func (c created) arn(service, resource string) string {
	return fmt.Sprintf("arn:aws:%s:%s:%s:%s", service, c.region, account, resource)
}

// iamARN is an IAM ARN: IAM has no regions.
func (c created) iamARN(resource string) string {
	return fmt.Sprintf("arn:aws:iam::%s:%s", account, resource)
}

// uuid is a made-up identifier in the form of a UUID.
func (c created) uuid() string {
	return fmt.Sprintf("00000000-0000-4000-8000-%012d", generated.Add(1))
}

func isARN(s string) bool { return strings.HasPrefix(s, "arn:") }

// lastSegment is what follows the last "/" of an ARN, or s itself.
func lastSegment(s string) string { return s[strings.LastIndex(s, "/")+1:] }
