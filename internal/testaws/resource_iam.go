// Copyright (c) The queuecap Authors
// SPDX-License-Identifier: MPL-2.0

package testaws

// AWS IAM: schemas of AWS provider v6.47.0. IAM is global: these resources
// have no region attribute.

func init() {
	register(resourceType{
		name: "aws_iam_role",
		body: block{
			attrs: attrs{
				"arn":                   computed(str),
				"assume_role_policy":    required(str),
				"create_date":           computed(str),
				"description":           optional(str),
				"force_detach_policies": optional(boolean).withDefault(false),
				"id":                    idAttr,
				"managed_policy_arns":   optionalComputed(setOf(str)).deprecate(),
				"max_session_duration":  optional(num).withDefault(3600),
				"name":                  optionalComputed(str).replaces(),
				"name_prefix":           optionalComputed(str).replaces(),
				"path":                  optional(str).withDefault("/").replaces(),
				"permissions_boundary":  optional(str),
				"tags":                  tagsAttr,
				"tags_all":              tagsAllAttr,
				"unique_id":             computed(str),
			},
			blocks: blocks{"inline_policy": set(0, block{attrs: attrs{
				"name":   optional(str),
				"policy": optional(str),
			}}).deprecate()},
		},
		created: func(c created) map[string]string {
			name := c.name()
			return map[string]string{
				"name":        name,
				"id":          name,
				"arn":         c.iamARN("role" + c.str("path") + name),
				"unique_id":   "AROA" + c.uuid()[24:],
				"create_date": "2026-01-01T00:00:00Z",
			}
		},
	})
}

func init() {
	register(resourceType{
		name: "aws_iam_role_policy",
		body: block{attrs: attrs{
			"id":          idAttr,
			"name":        optionalComputed(str).replaces(),
			"name_prefix": optionalComputed(str).replaces(),
			"policy":      required(str),
			"role":        required(str).replaces(),
		}},
		created: func(c created) map[string]string {
			name := c.name()
			return map[string]string{"name": name, "id": c.str("role") + ":" + name}
		},
	})
}

func init() {
	register(resourceType{
		name: "aws_iam_policy",
		body: block{attrs: attrs{
			"arn":                               computed(str),
			"attachment_count":                  computed(num),
			"delay_after_policy_creation_in_ms": optional(num),
			"description":                       optional(str).replaces(),
			"id":                                idAttr,
			"name":                              optionalComputed(str).replaces(),
			"name_prefix":                       optionalComputed(str).replaces(),
			"path":                              optional(str).withDefault("/").replaces(),
			"policy":                            required(str),
			"policy_id":                         computed(str),
			"tags":                              tagsAttr,
			"tags_all":                          tagsAllAttr,
		}},
		created: func(c created) map[string]string {
			name := c.name()
			arn := c.iamARN("policy" + c.str("path") + name)
			return map[string]string{"name": name, "id": arn, "arn": arn, "policy_id": "ANPA" + c.uuid()[24:]}
		},
	})
}

func init() {
	register(resourceType{
		name: "aws_iam_role_policy_attachment",
		body: block{attrs: attrs{
			"id":         idAttr,
			"policy_arn": required(str).replaces(),
			"role":       required(str).replaces(),
		}},
		created: func(c created) map[string]string {
			return map[string]string{"id": c.str("role") + "/" + c.str("policy_arn")}
		},
	})
}

func init() {
	register(resourceType{
		name: "aws_iam_instance_profile",
		body: block{attrs: attrs{
			"arn":         computed(str),
			"create_date": computed(str),
			"id":          idAttr,
			"name":        optionalComputed(str).replaces(),
			"name_prefix": optionalComputed(str).replaces(),
			"path":        optional(str).withDefault("/").replaces(),
			"role":        optional(str),
			"tags":        tagsAttr,
			"tags_all":    tagsAllAttr,
			"unique_id":   computed(str),
		}},
		created: func(c created) map[string]string {
			name := c.name()
			return map[string]string{
				"name":        name,
				"id":          name,
				"arn":         c.iamARN("instance-profile" + c.str("path") + name),
				"unique_id":   "AIPA" + c.uuid()[24:],
				"create_date": "2026-01-01T00:00:00Z",
			}
		},
	})
}

// aws_iam_policy_attachment attaches one policy to every role, user and
// group it names; ForceNew from internal/service/iam/policy_attachment.go.
func init() {
	register(resourceType{
		name: "aws_iam_policy_attachment",
		body: block{attrs: attrs{
			"groups":     optional(setOf(str)),
			"id":         idAttr,
			"name":       required(str).replaces(),
			"policy_arn": required(str).replaces(),
			"roles":      optional(setOf(str)),
			"users":      optional(setOf(str)),
		}},
		created: func(c created) map[string]string { return map[string]string{"id": c.str("name")} },
	})
}
